#include "messaging/mail/smtpsession.h"

#include "model/core/errors.h"

#include <QUrl>

#include <curl/curl.h>

#include <cstring>
#include <mutex>

namespace {
struct SmtpUpload
{
    const QByteArray *data;
    qsizetype offset = 0;
};

size_t smtpRead(char *buffer, size_t size, size_t items, void *user)
{
    auto *upload = static_cast<SmtpUpload *>(user);
    const qsizetype left = upload->data->size() - upload->offset;
    const qsizetype n = qMin<qsizetype>(left, qsizetype(size * items));
    if (n <= 0)
        return 0;
    std::memcpy(buffer, upload->data->constData() + upload->offset, size_t(n));
    upload->offset += n;
    return size_t(n);
}

// The server's replies of one transfer (curl hands them to the debug callback as HEADER_IN).
struct SmtpReplies
{
    QList<QByteArray> all; // each reply, its lines joined
    bool lastComplete = true;
    // The last reply with this code (after a refusal curl still sends QUIT and reads "221 Bye").
    QByteArray withCode(long code) const
    {
        const QByteArray prefix = QByteArray::number(code);
        for (auto it = all.crbegin(); it != all.crend(); ++it)
            if (it->startsWith(prefix))
                return *it;
        return all.isEmpty() ? QByteArray() : all.last();
    }
};

int smtpDebug(CURL *, curl_infotype type, char *data, size_t size, void *user)
{
    if (type != CURLINFO_HEADER_IN)
        return 0;
    auto *replies = static_cast<SmtpReplies *>(user);
    const QByteArray line = QByteArray(data, qsizetype(size)).trimmed();
    if (line.isEmpty())
        return 0;
    if (replies->lastComplete || replies->all.isEmpty())
        replies->all.append(line);
    else
        replies->all.last() += ' ' + line;
    // "250-…" continues the reply, "250 …" ends it.
    replies->lastComplete = line.size() < 4 || line[3] != '-';
    return 0;
}

void smtpGlobalInit()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

QString smtpConfigRefusal(const MailConfig &config)
{
    try {
        config.check();
        return QString();
    } catch (const DomainError &e) {
        return e.message();
    }
}
} // namespace

SmtpSession::SmtpSession(const MailConfig &config)
    : m_config(config)
    , m_refusal(smtpConfigRefusal(config))
{
    smtpGlobalInit();
    m_curl = curl_easy_init();
}

SmtpSession::~SmtpSession()
{
    if (m_curl)
        curl_easy_cleanup(static_cast<CURL *>(m_curl));
}

SmtpOutcome SmtpSession::send(const QString &envelopeFrom, const QString &recipient, const QByteArray &message)
{
    SmtpOutcome outcome;
    if (!m_refusal.isEmpty()) {
        outcome.detail = QStringLiteral("refused by the mail settings: ") + m_refusal;
        return outcome;
    }
    if (!m_curl) {
        outcome.detail = QStringLiteral("libcurl could not start");
        return outcome;
    }
    // A recipient or sender holding CR, LF or <> would let a caller write its own SMTP commands.
    for (const QString &address : {envelopeFrom, recipient}) {
        if (address.contains(QLatin1Char('\r')) || address.contains(QLatin1Char('\n')) ||
            address.contains(QLatin1Char('<')) || address.contains(QLatin1Char('>'))) {
            outcome.kind = SmtpOutcome::HardBounce;
            outcome.detail = QStringLiteral("not a valid address: ") + address;
            return outcome;
        }
    }
    bool answered = false;
    const int before = m_connections;
    outcome = attempt(envelopeFrom, recipient, message, false, &answered);
    const bool reused = m_connections == before;
    if (outcome.kind == SmtpOutcome::SoftFailure && !answered && reused && before > 0)
        outcome = attempt(envelopeFrom, recipient, message, true, &answered);
    return outcome;
}

SmtpOutcome SmtpSession::attempt(const QString &envelopeFrom, const QString &recipient, const QByteArray &message,
                                 bool fresh, bool *answered)
{
    CURL *curl = static_cast<CURL *>(m_curl);
    curl_easy_reset(curl);

    const bool implicitTls = m_config.security == MailConfig::securityTls();
    QString host = m_config.smtpHost.trimmed();
    if (host.contains(QLatin1Char(':')) && !host.startsWith(QLatin1Char('[')))
        host = QLatin1Char('[') + host + QLatin1Char(']'); // an IPv6 address
    // The URL's path is the name we give in EHLO: the domain of the from address.
    QString ehlo = m_config.fromAddress().section(QLatin1Char('@'), 1);
    if (ehlo.isEmpty())
        ehlo = QStringLiteral("localhost");
    const QByteArray target = (implicitTls ? QByteArray("smtps://") : QByteArray("smtp://")) + host.toUtf8() + ':' +
                              QByteArray::number(m_config.smtpPort) + '/' + QUrl::toAce(ehlo);
    curl_easy_setopt(curl, CURLOPT_URL, target.constData());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    if (m_config.security == MailConfig::securityStartTls())
        curl_easy_setopt(curl, CURLOPT_USE_SSL, long(CURLUSESSL_ALL));
    else if (!implicitTls)
        curl_easy_setopt(curl, CURLOPT_USE_SSL, long(CURLUSESSL_NONE));
    if (!m_config.verifyTls) {
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    const QByteArray user = m_config.user.toUtf8();
    const QByteArray password = m_config.password.toUtf8();
    if (!m_config.user.isEmpty()) {
        curl_easy_setopt(curl, CURLOPT_USERNAME, user.constData());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, password.constData());
    }
    const long timeout = qMax(1, m_config.timeoutSeconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, timeout);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout);
    curl_easy_setopt(curl, CURLOPT_FRESH_CONNECT, fresh ? 1L : 0L);

    const QByteArray from = '<' + envelopeFrom.trimmed().toUtf8() + '>';
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.constData());
    const QByteArray to = '<' + recipient.trimmed().toUtf8() + '>';
    curl_slist *recipients = curl_slist_append(nullptr, to.constData());
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);

    SmtpUpload upload{&message};
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, smtpRead);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.size()));

    SmtpReplies replies;
    curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, smtpDebug);
    curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &replies);
    curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);
    char error[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);

    const CURLcode result = curl_easy_perform(curl);
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    long connects = 0;
    curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects);
    m_connections += int(connects);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, nullptr);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
    curl_easy_setopt(curl, CURLOPT_DEBUGDATA, nullptr);
    curl_easy_setopt(curl, CURLOPT_READDATA, nullptr);
    curl_slist_free_all(recipients);
    *answered = !replies.all.isEmpty();

    SmtpOutcome outcome;
    outcome.code = int(code);
    const QString curlError = QString::fromUtf8(error[0] ? error : curl_easy_strerror(result));
    const QString reply = QString::fromUtf8(replies.withCode(code));
    if (result == CURLE_OK) {
        outcome.kind = SmtpOutcome::Sent;
        outcome.detail = reply;
        return outcome;
    }
    // 5xx to MAIL FROM, RCPT TO or DATA: curl ends those with a send error or, after the data, a
    // weird server reply. Refusals of the session itself (530 authentication required, 534/535
    // authentication failed, 538 encryption required) are the settings' fault, not the
    // recipient's: they stay soft (the campaign pauses after its consecutive errors).
    const bool transaction =
        result == CURLE_SEND_ERROR || result == CURLE_WEIRD_SERVER_REPLY || result == CURLE_RECV_ERROR;
    const bool sessionRefused = code == 530 || code == 534 || code == 535 || code == 538;
    if (transaction && !sessionRefused && code >= 500 && code < 600)
        outcome.kind = SmtpOutcome::HardBounce;
    else
        outcome.kind = SmtpOutcome::SoftFailure;
    if (code >= 400 && !reply.isEmpty())
        outcome.detail = reply + QStringLiteral(" (") + curlError + QLatin1Char(')');
    else
        outcome.detail = curlError;
    return outcome;
}
