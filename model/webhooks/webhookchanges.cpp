#include "model/webhooks/webhookchanges.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"

#include <QJsonArray>

namespace {
// The problems of a body or of changes, the first one per field.
class Problems
{
public:
    void add(const QString &field, const ModelText &message)
    {
        if (!m_fields.contains(field))
            m_fields.insert(field, message);
    }
    bool has(const QString &field) const { return m_fields.contains(field); }
    // Malformed input naming every field with a wrong type or format.
    void throwBadRequest() const
    {
        if (!m_fields.isEmpty())
            throw DomainError::invalidFields(m_fields);
    }
    // Unacceptable input naming every missing field.
    void throwMissing() const
    {
        if (!m_fields.isEmpty())
            throw DomainError::missingFields(m_fields);
    }

private:
    FieldProblems m_fields;
};

const ModelText kEventList(QT_TRANSLATE_NOOP("ModelError", "must be an array of event names"));
constexpr int MaxDescriptionLength = 500;
constexpr int MaxEndpointNameLength = 200;

// --- The field rules of a subscription, shared by the body reader and the check ---

// A receiver URL, trimmed; empty reads as absent.
std::optional<QString> urlRule(const QString &given, const WebhookPolicy &policy, Problems &problems)
{
    const QString url = given.trimmed();
    if (url.isEmpty())
        return std::nullopt;
    const ModelText problem = WebhookRules::urlProblem(url, policy);
    if (!problem.isNull()) {
        problems.add(QStringLiteral("url"), problem);
        return std::nullopt;
    }
    return url;
}

// One event name of a list, added to events unless it repeats one.
void eventRule(const QString &given, QStringList &events, Problems &problems)
{
    const QString name = given.trimmed();
    if (name != QLatin1String("*") && !WebhookEvents::isKnown(name))
        problems.add(QStringLiteral("events"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown event %1"), {name}));
    else if (!events.contains(name))
        events << name;
}

// The list's end: "*" stands alone; no name reads as absent.
std::optional<QStringList> eventsOf(QStringList events)
{
    if (events.contains(QStringLiteral("*")))
        events = QStringList{QStringLiteral("*")};
    if (events.isEmpty())
        return std::nullopt;
    return events;
}

std::optional<QString> secretRule(const QString &secret, Problems &problems)
{
    if (secret.size() < WebhookRules::kMinSecretLength)
        problems.add(QStringLiteral("secret"),
                     ModelText(QT_TRANSLATE_NOOP("ModelError", "must have at least %1 characters"),
                               {WebhookRules::kMinSecretLength}));
    else if (secret.size() > WebhookRules::kMaxSecretLength)
        problems.add(QStringLiteral("secret"),
                     ModelText(QT_TRANSLATE_NOOP("ModelError", "must have at most %1 characters"),
                               {WebhookRules::kMaxSecretLength}));
    else
        return secret;
    return std::nullopt;
}

const ModelText kDescriptionRule(QT_TRANSLATE_NOOP("ModelError", "must be a string of at most %1 characters"),
                                 {MaxDescriptionLength});

std::optional<QString> descriptionRule(const QString &given, Problems &problems)
{
    if (given.size() > MaxDescriptionLength) {
        problems.add(QStringLiteral("description"), kDescriptionRule);
        return std::nullopt;
    }
    return given.trimmed();
}

// A body's field that is present and not null.
bool given(const QJsonObject &body, QLatin1String field)
{
    return body.contains(field) && !body.value(field).isNull();
}

std::optional<bool> flag(const QJsonObject &body, QLatin1String field, Problems &problems)
{
    if (!body.contains(field))
        return std::nullopt;
    const QJsonValue v = body.value(field);
    if (!v.isBool()) {
        problems.add(QString(field), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be true or false")));
        return std::nullopt;
    }
    return v.toBool();
}

// --- The rules of an incoming endpoint ---

const ModelText kEndpointNameRule(QT_TRANSLATE_NOOP("ModelError", "must be a string of at most %1 characters"),
                                  {MaxEndpointNameLength});
const ModelText kSecretLengths(QT_TRANSLATE_NOOP("ModelError", "must have %1 to %2 characters"),
                               {WebhookRules::kMinSecretLength, WebhookRules::kMaxSecretLength});

bool absentOrString(const QJsonValue &v)
{
    return v.isUndefined() || v.isNull() || v.isString();
}

bool badSecretLength(const QString &secret)
{
    return secret.size() < WebhookRules::kMinSecretLength || secret.size() > WebhookRules::kMaxSecretLength;
}

// The rules of an endpoint's fields, for those without a wrong type already (in bad).
void incomingRules(IncomingWebhookChanges &c, Problems &bad, Problems &missing)
{
    c.name = c.name.trimmed();
    if (!bad.has(QStringLiteral("name"))) {
        if (c.name.isEmpty())
            missing.add(QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required")));
        else if (c.name.size() > MaxEndpointNameLength)
            bad.add(QStringLiteral("name"), kEndpointNameRule);
    }
    if (!bad.has(QStringLiteral("action"))) {
        if (c.action.isEmpty())
            missing.add(QStringLiteral("action"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required: one of %1"),
                                                            {IncomingActions::all().join(QStringLiteral(", "))}));
        else if (!IncomingActions::all().contains(c.action))
            bad.add(QStringLiteral("action"), FieldReader::oneOf(IncomingActions::all()));
    }
    if (!bad.has(QStringLiteral("secret")) && !c.secret.isEmpty() && badSecretLength(c.secret))
        bad.add(QStringLiteral("secret"), kSecretLengths);
}
} // namespace

WebhookChanges WebhookRules::parse(const QJsonObject &body, const WebhookPolicy &policy)
{
    WebhookChanges c;
    Problems problems;
    if (given(body, QLatin1String("url"))) {
        const QJsonValue v = body.value(QLatin1String("url"));
        if (!v.isString())
            problems.add(QStringLiteral("url"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
        else
            c.url = urlRule(v.toString(), policy, problems);
    }
    if (given(body, QLatin1String("events"))) {
        const QJsonValue v = body.value(QLatin1String("events"));
        if (!v.isArray()) {
            problems.add(QStringLiteral("events"), kEventList);
        } else {
            QStringList events;
            for (const QJsonValue &e : v.toArray()) {
                if (!e.isString())
                    problems.add(QStringLiteral("events"), kEventList);
                else
                    eventRule(e.toString(), events, problems);
            }
            c.events = eventsOf(events);
        }
    }
    if (given(body, QLatin1String("secret"))) {
        const QJsonValue v = body.value(QLatin1String("secret"));
        if (!v.isString())
            problems.add(QStringLiteral("secret"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
        else
            c.secret = secretRule(v.toString(), problems);
    }
    if (given(body, QLatin1String("description"))) {
        const QJsonValue v = body.value(QLatin1String("description"));
        if (!v.isString())
            problems.add(QStringLiteral("description"), kDescriptionRule);
        else
            c.description = descriptionRule(v.toString(), problems);
    }
    c.active = flag(body, QLatin1String("active"), problems);
    c.rotateSecret = flag(body, QLatin1String("rotateSecret"), problems).value_or(false);
    problems.throwBadRequest();
    return c;
}

void WebhookRules::check(WebhookChanges &c, const WebhookPolicy &policy, bool creating)
{
    Problems problems;
    if (c.url)
        c.url = urlRule(*c.url, policy, problems);
    if (c.events) {
        QStringList events;
        for (const QString &e : std::as_const(*c.events))
            eventRule(e, events, problems);
        c.events = eventsOf(events);
    }
    if (c.secret)
        c.secret = secretRule(*c.secret, problems);
    if (c.description)
        c.description = descriptionRule(*c.description, problems);
    problems.throwBadRequest();
    if (creating) {
        Problems missing;
        if (!c.url)
            missing.add(QStringLiteral("url"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required")));
        if (!c.events)
            missing.add(QStringLiteral("events"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "is required (event names, or \"*\")")));
        missing.throwMissing();
    } else if (c.secret && c.rotateSecret) {
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: give either secret or rotateSecret")),
            {{QStringLiteral("rotateSecret"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "cannot be combined with secret"))}});
    }
}

IncomingWebhookChanges WebhookRules::parseIncoming(const QJsonObject &body)
{
    IncomingWebhookChanges c;
    Problems bad, missing;
    const QJsonValue name = body.value(QLatin1String("name"));
    const QJsonValue action = body.value(QLatin1String("action"));
    const QJsonValue secret = body.value(QLatin1String("secret"));
    if (!absentOrString(name))
        bad.add(QStringLiteral("name"), kEndpointNameRule);
    c.name = name.toString();
    if (!absentOrString(action))
        bad.add(QStringLiteral("action"), FieldReader::oneOf(IncomingActions::all()));
    c.action = action.toString();
    if (secret.isBool())
        c.generateSecret = secret.toBool();
    else if (secret.isString() && secret.toString().isEmpty()) // an empty secret is not "unsigned"
        bad.add(QStringLiteral("secret"), kSecretLengths);
    else if (!absentOrString(secret))
        bad.add(QStringLiteral("secret"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string, or true to generate one")));
    c.secret = secret.toString();
    incomingRules(c, bad, missing);
    bad.throwBadRequest();
    missing.throwMissing();
    return c;
}

void WebhookRules::checkIncoming(IncomingWebhookChanges &c)
{
    Problems bad, missing;
    incomingRules(c, bad, missing);
    bad.throwBadRequest();
    missing.throwMissing();
}
