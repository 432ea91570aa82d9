#pragma once

#include "model/core/errors.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

// The rules of the assistant's settings, in one place for the settings file and --set
// (AppSettings::assistantThresholds, languageModelConfig, autoReplyConfig) and for Settings >
// Assistant (app/assistantsettings.h): the keys ai/llmBaseUrl, ai/llmModel, ai/llmTimeoutSeconds,
// ai/answerThreshold, ai/marginThreshold, ai/autoReply/<channel> and ai/name (README, "Settings
// keys"); the language model's key is the secret ai.llmApiKey. A refusal is a text the window
// translates; AppSettings writes it as "setting <key> <text>".
namespace AssistantSettingsRules {
QString llmBaseUrlKey();                      // ai/llmBaseUrl
QString llmModelKey();                        // ai/llmModel
QString llmTimeoutKey();                      // ai/llmTimeoutSeconds
QString answerThresholdKey();                 // ai/answerThreshold
QString marginThresholdKey();                 // ai/marginThreshold
QString autoReplyKey(const QString &channel); // ai/autoReply/<channel>
QString nameKey();                            // ai/name
QString apiKeySecret();                       // ai.llmApiKey (the secret store's name)

// The channels an auto-reply is set for (whatsapp, instagram, telegram, widget) and its modes
// (off, suggest, on).
QStringList channels();
QStringList modes();
constexpr int kMaxName = 100;

// The settings keys (not the secret), in the form's order.
QStringList keys();

// A number setting's default and bounds (std::nullopt: not a number key); integer: whole numbers only.
struct NumberRange
{
    double fallback;
    double min;
    double max;
    bool integer;
};
std::optional<NumberRange> numberRange(const QString &key);

// Why value cannot be the value of key (a null text: it can). An empty value is the default.
ModelText problem(const QString &key, const QString &value);
// Each key of values with its problem (the secret and unknown keys are not checked).
FieldProblems problems(const QHash<QString, QString> &values);
} // namespace AssistantSettingsRules
