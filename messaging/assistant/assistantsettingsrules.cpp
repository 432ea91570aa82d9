#include "messaging/assistant/assistantsettingsrules.h"

#include "messaging/assistant/assistantautoreply.h"
#include "messaging/channels/channelconfig.h"
#include "model/assistant/assistant.h"
#include "model/inbox/conversation.h"

#include <QUrl>

QString AssistantSettingsRules::llmBaseUrlKey()
{
    return QStringLiteral("ai/llmBaseUrl");
}

QString AssistantSettingsRules::llmModelKey()
{
    return QStringLiteral("ai/llmModel");
}

QString AssistantSettingsRules::llmTimeoutKey()
{
    return QStringLiteral("ai/llmTimeoutSeconds");
}

QString AssistantSettingsRules::answerThresholdKey()
{
    return QStringLiteral("ai/answerThreshold");
}

QString AssistantSettingsRules::marginThresholdKey()
{
    return QStringLiteral("ai/marginThreshold");
}

QString AssistantSettingsRules::autoReplyKey(const QString &channel)
{
    return QStringLiteral("ai/autoReply/") + channel;
}

QString AssistantSettingsRules::nameKey()
{
    return QStringLiteral("ai/name");
}

QString AssistantSettingsRules::apiKeySecret()
{
    return QStringLiteral("ai.llmApiKey");
}

QStringList AssistantSettingsRules::channels()
{
    return ConversationRules::channels();
}

QStringList AssistantSettingsRules::modes()
{
    return AutoReplyConfig::modeNames();
}

QStringList AssistantSettingsRules::keys()
{
    QStringList out{llmBaseUrlKey(), llmModelKey(), llmTimeoutKey(), answerThresholdKey(), marginThresholdKey()};
    for (const QString &channel : channels())
        out << autoReplyKey(channel);
    out << nameKey();
    return out;
}

std::optional<AssistantSettingsRules::NumberRange> AssistantSettingsRules::numberRange(const QString &key)
{
    if (key == llmTimeoutKey())
        return NumberRange{20, 1, 600, true};
    if (key == answerThresholdKey())
        return NumberRange{AssistantThresholds::kDefaultAnswer, 0, 1, false};
    if (key == marginThresholdKey())
        return NumberRange{AssistantThresholds::kDefaultMargin, 0, 1, false};
    return std::nullopt;
}

ModelText AssistantSettingsRules::problem(const QString &key, const QString &rawValue)
{
    const QString value = rawValue.trimmed();
    if (value.isEmpty())
        return {};
    if (key == llmBaseUrlKey()) {
        if (const ModelText why = ChannelUrls::problem(QUrl(value)); !why.isNull())
            return ModelText(
                QT_TRANSLATE_NOOP("ModelError", "must be https (http only on a loopback address), got \"%1\": %2"),
                {value, why});
        return {};
    }
    if (key.startsWith(QLatin1String("ai/autoReply/"))) {
        if (!modes().contains(value.toLower()))
            return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be off, suggest or on, got \"%1\""), {value});
        return {};
    }
    if (const std::optional<NumberRange> range = numberRange(key)) {
        bool ok = false;
        if (range->integer) {
            const int v = value.toInt(&ok);
            if (!ok || v < range->min || v > range->max)
                return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an integer from %1 to %2"),
                                 {int(range->min), int(range->max)});
            return {};
        }
        // The settings file writes numbers with a full stop, whatever the desktop's language.
        const double v = value.toDouble(&ok);
        if (!ok || !(v >= range->min && v <= range->max))
            return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a number from %1 to %2"),
                             {range->min, range->max});
    }
    return {};
}

FieldProblems AssistantSettingsRules::problems(const QHash<QString, QString> &values)
{
    FieldProblems out;
    for (const QString &key : keys()) {
        if (const ModelText why = problem(key, values.value(key)); !why.isNull())
            out.insert(key, why);
    }
    return out;
}
