#include "messaging/campaigns/smssettingsrules.h"

#include "messaging/channels/channelconfig.h"
#include "model/contacts/contact.h"

#include <QRegularExpression>
#include <QUrl>

QString SmsSettingsRules::apiBaseUrlKey()
{
    return QStringLiteral("channels/sms/apiBaseUrl");
}

QString SmsSettingsRules::accountSidKey()
{
    return QStringLiteral("channels/sms/accountSid");
}

QString SmsSettingsRules::fromKey()
{
    return QStringLiteral("channels/sms/from");
}

QString SmsSettingsRules::timeoutKey()
{
    return QStringLiteral("channels/sms/timeoutSeconds");
}

QString SmsSettingsRules::perSecondKey()
{
    return QStringLiteral("campaigns/sms/messagesPerSecond");
}

QString SmsSettingsRules::concurrencyKey()
{
    return QStringLiteral("campaigns/sms/concurrency");
}

QString SmsSettingsRules::maxPerHourKey()
{
    return QStringLiteral("campaigns/sms/maxPerHour");
}

QString SmsSettingsRules::authTokenSecret()
{
    return QStringLiteral("channels/sms/authToken");
}

QStringList SmsSettingsRules::keys()
{
    return {apiBaseUrlKey(), accountSidKey(),  fromKey(),      timeoutKey(),
            perSecondKey(),  concurrencyKey(), maxPerHourKey()};
}

std::optional<SmsSettingsRules::IntRange> SmsSettingsRules::intRange(const QString &key)
{
    if (key == timeoutKey())
        return IntRange{30, 1, 600};
    if (key == perSecondKey())
        return IntRange{10, 0, 100000};
    if (key == concurrencyKey())
        return IntRange{4, 1, 256};
    if (key == maxPerHourKey())
        return IntRange{0, 0, 100000000};
    return std::nullopt;
}

ModelText SmsSettingsRules::problem(const QString &key, const QString &rawValue)
{
    const QString value = rawValue.trimmed();
    if (value.isEmpty())
        return {};
    if (key == apiBaseUrlKey()) {
        if (const ModelText why = ChannelUrls::problem(QUrl(value)); !why.isNull())
            return ModelText(
                QT_TRANSLATE_NOOP("ModelError", "must be https (http only on a loopback address), got \"%1\": %2"),
                {value, why});
        return {};
    }
    if (key == accountSidKey()) {
        static const QRegularExpression accountSid(QStringLiteral("^AC[0-9a-fA-F]{32}$"));
        if (!accountSid.match(value).hasMatch())
            return ModelText(
                QT_TRANSLATE_NOOP("ModelError", "must be an account SID (AC and 32 hex digits), got \"%1\""), {value});
        return {};
    }
    if (key == fromKey()) {
        static const QRegularExpression senderId(QStringLiteral("^[A-Za-z0-9 ]{1,11}$"));
        static const QRegularExpression letter(QStringLiteral("[A-Za-z]"));
        if (ContactRules::toE164(value).isEmpty() && (!senderId.match(value).hasMatch() || !value.contains(letter)))
            return ModelText(QT_TRANSLATE_NOOP("ModelError",
                                               "must be a phone number (E.164, +905321234567) or an alphanumeric "
                                               "sender id of at most 11 characters, got \"%1\""),
                             {value});
        return {};
    }
    if (const std::optional<IntRange> range = intRange(key)) {
        bool ok = false;
        const int v = value.toInt(&ok);
        if (!ok || v < range->min || v > range->max)
            return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an integer from %1 to %2"),
                             {range->min, range->max});
    }
    return {};
}

FieldProblems SmsSettingsRules::problems(const QHash<QString, QString> &values)
{
    FieldProblems out;
    for (const QString &key : keys()) {
        if (const ModelText why = problem(key, values.value(key)); !why.isNull())
            out.insert(key, why);
    }
    return out;
}
