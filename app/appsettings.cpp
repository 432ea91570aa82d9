#include "appsettings.h"

#include <QDir>
#include <QSslCertificate>
#include <QSettings>

AppSettings::AppSettings(QString dataDir)
    : m_dataDir(std::move(dataDir))
{
}

bool AppSettings::addOverride(const QString &assignment, QString *error)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    const QString key = assignment.left(eq).trimmed();
    if (eq <= 0 || !key.contains(QLatin1Char('/')) || key.startsWith(QLatin1Char('/')) ||
        key.endsWith(QLatin1Char('/'))) {
        *error = QStringLiteral("--set needs section/key=value, got \"%1\"").arg(assignment);
        return false;
    }
    m_overrides.insert(key, assignment.mid(eq + 1));
    return true;
}

QVariant AppSettings::value(const QString &key, const QVariant &fallback) const
{
    auto it = m_overrides.constFind(key);
    if (it != m_overrides.constEnd())
        return *it;
    QSettings ini(QDir(m_dataDir).filePath(QStringLiteral("liaison.ini")), QSettings::IniFormat);
    return ini.value(key, fallback);
}

QString AppSettings::databasePath() const
{
    return value(QStringLiteral("database/path"), QDir(m_dataDir).filePath(QStringLiteral("liaison.db"))).toString();
}

bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return false;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    bool ok = false;
    const uint p = text.mid(colon + 1).toUInt(&ok);
    if (!ok || p > 65535 || !address->setAddress(host))
        return false;
    *port = quint16(p);
    return true;
}

namespace {
bool readInt(const AppSettings &s, const QString &key, int fallback, int min, int max, int *out, QString *error)
{
    bool ok = false;
    const int v = s.value(key, fallback).toString().toInt(&ok);
    if (!ok || v < min || v > max) {
        *error = QStringLiteral("setting %1 must be an integer from %2 to %3").arg(key).arg(min).arg(max);
        return false;
    }
    *out = v;
    return true;
}

bool readBool(const AppSettings &s, const QString &key, bool fallback, bool *out, QString *error)
{
    const QString v = s.value(key, fallback ? QStringLiteral("true") : QStringLiteral("false")).toString().toLower();
    if (v == QLatin1String("true") || v == QLatin1String("1") || v == QLatin1String("yes"))
        *out = true;
    else if (v == QLatin1String("false") || v == QLatin1String("0") || v == QLatin1String("no"))
        *out = false;
    else {
        *error = QStringLiteral("setting %1 must be true or false").arg(key);
        return false;
    }
    return true;
}
} // namespace

bool AppSettings::serverConfig(ServerConfig *c, QString *error) const
{
    const QString listen = value(QStringLiteral("server/listen"), QStringLiteral("127.0.0.1:8443")).toString();
    if (!parseListen(listen, &c->address, &c->port)) {
        *error = QStringLiteral("server/listen must be HOST:PORT, got \"%1\"").arg(listen);
        return false;
    }
    c->dataDir = m_dataDir;
    c->tlsCert = value(QStringLiteral("server/tlsCert")).toString();
    c->tlsKey = value(QStringLiteral("server/tlsKey")).toString();
    if (!tasksTimeZone(&c->tasksTimeZone, error))
        return false;
    if (!webhookConfig(&c->webhooks, error))
        return false;
    int idleSeconds = 60;
    return readBool(*this, QStringLiteral("server/tls"), true, &c->tls, error) &&
           readInt(*this, QStringLiteral("server/rateLimitPerMinute"), 100, 0, 1000000, &c->rateLimitPerMinute,
                   error) &&
           readInt(*this, QStringLiteral("server/loginFailuresPer15Minutes"), 10, 0, 100000, &c->loginFailuresPerWindow,
                   error) &&
           readInt(*this, QStringLiteral("server/idleTimeoutSeconds"), 60, 1, 86400, &idleSeconds, error) &&
           readInt(*this, QStringLiteral("server/threads"), 0, 0, 8, &c->threads, error) &&
           readInt(*this, QStringLiteral("auth/accessTokenMinutes"), 15, 15, 60, &c->accessTokenMinutes, error) &&
           readInt(*this, QStringLiteral("auth/refreshTokenDays"), 30, 1, 365, &c->refreshTokenDays, error) &&
           (c->limits.idleTimeoutMs = idleSeconds * 1000, true);
}

bool AppSettings::tasksTimeZone(QTimeZone *timeZone, QString *error) const
{
    const QString name = value(QStringLiteral("tasks/timeZone")).toString().trimmed();
    if (name.isEmpty()) {
        *timeZone = QTimeZone::systemTimeZone();
        return true;
    }
    const QTimeZone tz(name.toUtf8());
    if (!tz.isValid()) {
        *error = QStringLiteral("setting tasks/timeZone must be an IANA time zone name such as Europe/Istanbul, got "
                                "\"%1\"")
                     .arg(name);
        return false;
    }
    *timeZone = tz;
    return true;
}

bool AppSettings::webhookConfig(WebhookConfig *c, QString *error) const
{
    const QString delays = value(QStringLiteral("webhooks/retryDelays")).toString().trimmed();
    if (!delays.isEmpty()) {
        QList<int> list;
        for (const QString &part : delays.split(QLatin1Char(','))) {
            bool ok = false;
            const int v = part.trimmed().toInt(&ok);
            if (!ok || v < 0 || v > 30 * 86400) {
                *error = QStringLiteral("setting webhooks/retryDelays must be seconds separated by commas (0 to "
                                        "2592000 each), got \"%1\"")
                             .arg(delays);
                return false;
            }
            list << v;
        }
        if (list.isEmpty() || list.size() > 20) {
            *error = QStringLiteral("setting webhooks/retryDelays must list 1 to 20 delays");
            return false;
        }
        c->retryDelays = list;
    }
    const QString caFile = value(QStringLiteral("webhooks/caFile")).toString();
    if (!caFile.isEmpty()) {
        c->caCertificates = QSslCertificate::fromPath(caFile, QSsl::Pem);
        if (c->caCertificates.isEmpty()) {
            *error = QStringLiteral("setting webhooks/caFile: no PEM certificate could be read from %1").arg(caFile);
            return false;
        }
    }
    return readInt(*this, QStringLiteral("webhooks/timeoutSeconds"), 30, 1, 300, &c->timeoutSeconds, error) &&
           readBool(*this, QStringLiteral("webhooks/verifyTls"), true, &c->verifyTls, error) &&
           readBool(*this, QStringLiteral("webhooks/allowInsecureLocal"), false, &c->allowInsecureLocal, error) &&
           readInt(*this, QStringLiteral("webhooks/concurrencyPerSubscription"), 1, 1, 16,
                   &c->concurrencyPerSubscription, error) &&
           readInt(*this, QStringLiteral("webhooks/maxConcurrent"), 16, 1, 256, &c->maxConcurrent, error) &&
           readInt(*this, QStringLiteral("webhooks/pollIntervalMs"), 1000, 10, 600000, &c->pollIntervalMs, error);
}

WebhookConfig AppSettings::webhookConfig() const
{
    WebhookConfig c;
    QString error;
    if (!webhookConfig(&c, &error)) {
        qWarning("%s; webhook defaults used", qPrintable(error));
        return WebhookConfig();
    }
    return c;
}
