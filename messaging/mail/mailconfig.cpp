#include "messaging/mail/mailconfig.h"

#include "messaging/mail/mailmessage.h"
#include "model/contacts/contact.h"
#include "model/core/errors.h"

#include <QHostAddress>

namespace {
// "Ayşe Yılmaz <ayse@ornek.com.tr>" -> {name, address}; "ayse@ornek.com.tr" -> {"", address}.
std::pair<QString, QString> splitMailFrom(const QString &from)
{
    const QString s = from.trimmed();
    const int open = s.lastIndexOf(QLatin1Char('<'));
    if (open >= 0 && s.endsWith(QLatin1Char('>'))) {
        QString name = s.left(open).trimmed();
        if (name.size() >= 2 && name.startsWith(QLatin1Char('"')) && name.endsWith(QLatin1Char('"')))
            name = name.mid(1, name.size() - 2).replace(QLatin1String("\\\""), QLatin1String("\""));
        return {name, s.mid(open + 1, s.size() - open - 2).trimmed()};
    }
    return {QString(), s};
}
} // namespace

QString MailConfig::fromAddress() const
{
    return splitMailFrom(from).second;
}

QString MailConfig::fromName() const
{
    return splitMailFrom(from).first;
}

QString MailConfig::envelopeSender(const QString &tag) const
{
    const QString address = fromAddress();
    const int at = int(address.lastIndexOf(QLatin1Char('@')));
    if (at <= 0 || tag.isEmpty())
        return address;
    QString safe;
    for (const QChar c : tag)
        safe +=
            (c.unicode() < 0x80 && (c.isLetterOrNumber() || QStringLiteral(".-_=").contains(c))) ? c : QLatin1Char('-');
    return address.left(at) + QLatin1Char('+') + safe + address.mid(at);
}

bool MailConfig::configured() const
{
    return !smtpHost.trimmed().isEmpty() && ContactRules::isValidEmail(fromAddress());
}

bool MailConfig::dkimConfigured() const
{
    return !dkimDomain.isEmpty() && !dkimSelector.isEmpty() && !dkimKeyPem.isEmpty();
}

bool MailConfig::isLoopbackHost(const QString &host)
{
    QString h = host.trimmed().toLower();
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    if (h == QLatin1String("localhost") || h.endsWith(QLatin1String(".localhost")))
        return true;
    const QHostAddress address(h);
    return !address.isNull() && address.isLoopback();
}

void MailConfig::check() const
{
    FieldProblems problems;
    if (smtpHost.trimmed().isEmpty())
        problems.insert(QStringLiteral("smtpHost"), DomainError::isRequired());
    if (smtpPort < 1 || smtpPort > 65535)
        problems.insert(QStringLiteral("smtpPort"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a number from %1 to %2"), {1, 65535}));
    if (security != securityStartTls() && security != securityTls() && security != securityNone())
        problems.insert(QStringLiteral("security"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of %1"),
                                                              {QStringLiteral("starttls, tls, none")}));
    else if (security == securityNone() && !smtpHost.trimmed().isEmpty() && !isLoopbackHost(smtpHost))
        problems.insert(
            QStringLiteral("security"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "none (no encryption) is allowed only for a loopback host")));
    if (from.trimmed().isEmpty())
        problems.insert(QStringLiteral("from"), DomainError::isRequired());
    else if (!ContactRules::isValidEmail(fromAddress()))
        problems.insert(QStringLiteral("from"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid e-mail address")));
    if (dkimConfigured() && !DkimSigner(dkimDomain, dkimSelector, dkimKeyPem).isValid())
        problems.insert(QStringLiteral("dkimKey"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an RSA private key in PEM")));
    if (!problems.isEmpty())
        throw DomainError::invalid(problems);
}

bool MailConfig::usable() const
{
    try {
        check();
        return true;
    } catch (const DomainError &) {
        return false;
    }
}
