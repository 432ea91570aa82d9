#pragma once

#include "model/core/errors.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

// The rules of the SMS provider's and SMS campaigns' settings, in one place for the settings file
// and --set (AppSettings::campaignsConfig) and for Settings > SMS (app/smssettings.h): the keys
// channels/sms/apiBaseUrl, accountSid, from, timeoutSeconds and campaigns/sms/messagesPerSecond,
// concurrency, maxPerHour (README, "Settings keys"); the auth token is the secret
// channels/sms/authToken. A refusal is a text the window translates; AppSettings writes it as
// "setting <key> <text>".
namespace SmsSettingsRules {
QString apiBaseUrlKey();   // channels/sms/apiBaseUrl
QString accountSidKey();   // channels/sms/accountSid
QString fromKey();         // channels/sms/from
QString timeoutKey();      // channels/sms/timeoutSeconds
QString perSecondKey();    // campaigns/sms/messagesPerSecond
QString concurrencyKey();  // campaigns/sms/concurrency
QString maxPerHourKey();   // campaigns/sms/maxPerHour
QString authTokenSecret(); // channels/sms/authToken (the secret store's name)

// The settings keys (not the secret), in the form's order.
QStringList keys();

// An integer setting's default and bounds (std::nullopt: not an integer key).
struct IntRange
{
    int fallback;
    int min;
    int max;
};
std::optional<IntRange> intRange(const QString &key);

// Why value cannot be the value of key (a null text: it can). An empty value is the default.
ModelText problem(const QString &key, const QString &value);
// Each key of values with its problem (the secret and unknown keys are not checked).
FieldProblems problems(const QHash<QString, QString> &values);
} // namespace SmsSettingsRules
