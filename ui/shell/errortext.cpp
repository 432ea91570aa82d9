#include "ui/shell/errortext.h"

#include "model/core/errors.h"

#include <QCoreApplication>
#include <QHash>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>
#include <QVector>

#include <optional>

namespace {
// Every message template of the model (model/*.cpp) that can reach the window; %1… stand for the
// parts the model fills in. ui_errortext checks that each template the model writes is here.
const char *const kTemplates[] = {
    QT_TRANSLATE_NOOP("ModelError", "%1 %2 does not exist"),
    QT_TRANSLATE_NOOP("ModelError", "A contact with e-mail %1 already exists"),
    QT_TRANSLATE_NOOP("ModelError", "A contact with phone %1 already exists"),
    QT_TRANSLATE_NOOP("ModelError", "A pipeline named %1 already exists"),
    QT_TRANSLATE_NOOP("ModelError", "A segment named %1 already exists"),
    QT_TRANSLATE_NOOP("ModelError", "A stage that still holds deals cannot be removed: move its deals first"),
    QT_TRANSLATE_NOOP("ModelError", "A template %1 (%2) already exists"),
    QT_TRANSLATE_NOOP("ModelError", "A user with e-mail %1 already exists"),
    QT_TRANSLATE_NOOP("ModelError", "Another change saved the same value first: this one was not saved"),
    QT_TRANSLATE_NOOP("ModelError", "At most %1 webhook subscriptions; delete one first (webhooks/maxSubscriptions)"),
    QT_TRANSLATE_NOOP("ModelError", "Cannot change task status from %1 to %2%3"),
    QT_TRANSLATE_NOOP("ModelError", "Contact %1 has no tag %2"),
    QT_TRANSLATE_NOOP("ModelError", "Contact %1 is not in segment %2"),
    QT_TRANSLATE_NOOP("ModelError", "Contact not found"),
    QT_TRANSLATE_NOOP("ModelError", "Contacts not found: %1"),
    QT_TRANSLATE_NOOP("ModelError", "Conversation %1 already has a contact"),
    QT_TRANSLATE_NOOP("ModelError", "Conversation %1 has no tag %2"),
    QT_TRANSLATE_NOOP("ModelError", "Deal %1 is already lost"),
    QT_TRANSLATE_NOOP("ModelError", "Deal %1 is already won"),
    QT_TRANSLATE_NOOP("ModelError", "Message %1 does not exist in this conversation"),
    QT_TRANSLATE_NOOP("ModelError", "Pipeline %1 holds %2 deal(s): move or delete them first"),
    QT_TRANSLATE_NOOP("ModelError", "Required field missing"),
    QT_TRANSLATE_NOOP("ModelError", "Say who the visitor is: a name, an e-mail address or a phone number"),
    QT_TRANSLATE_NOOP("ModelError", "Task %1 is already closed"),
    QT_TRANSLATE_NOOP("ModelError", "Template %1 (%2) is %3, not approved"),
    QT_TRANSLATE_NOOP("ModelError", "Template %1 (%2) is not an approved template"),
    QT_TRANSLATE_NOOP("ModelError", "The default pipeline cannot be deleted: make another pipeline the default"),
    QT_TRANSLATE_NOOP("ModelError", "The disk holding the database is full: this change was not saved. Reading still "
                                    "works; writing works again once space is freed"),
    QT_TRANSLATE_NOOP("ModelError", "The file is empty"),
    QT_TRANSLATE_NOOP("ModelError", "The file's content is not %1%2"),
    QT_TRANSLATE_NOOP("ModelError", "There must be a default pipeline: make another pipeline the default"),
    QT_TRANSLATE_NOOP("ModelError", "This visitor has already said who they are"),
    QT_TRANSLATE_NOOP("ModelError", "User %1 does not exist"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: channel must be one of %1"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: give either secret or rotateSecret"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: role must be admin or agent"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: status must be one of %1"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: status must be open, pending or closed"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: until must be in the future"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: unknown event %1"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: unknown message status %1"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: unknown scope %1"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: reason must be one of %1"),
    QT_TRANSLATE_NOOP("ModelError", "Invalid data: type must be one of %1"),
    QT_TRANSLATE_NOOP("ModelError", "a body parameter is longer than 1024 characters"),
    QT_TRANSLATE_NOOP("ModelError", "a name, email or phone is required"),
    QT_TRANSLATE_NOOP("ModelError", "a segment has at most %1 rules"),
    QT_TRANSLATE_NOOP("ModelError", "a span for %1 must be at most %2d"),
    QT_TRANSLATE_NOOP("ModelError", "already exists"),
    QT_TRANSLATE_NOOP("ModelError", "already exists in this language"),
    QT_TRANSLATE_NOOP("ModelError", "already registered"),
    QT_TRANSLATE_NOOP("ModelError", "already set"),
    QT_TRANSLATE_NOOP("ModelError", "applies only to weekly recurrence"),
    QT_TRANSLATE_NOOP("ModelError", "between needs a value [low, high] with two values"),
    QT_TRANSLATE_NOOP("ModelError", "between needs two numbers or two strings"),
    QT_TRANSLATE_NOOP("ModelError", "cannot be combined with secret"),
    QT_TRANSLATE_NOOP("ModelError", "cannot be unset directly"),
    QT_TRANSLATE_NOOP("ModelError", "cannot go from %1 to %2"),
    QT_TRANSLATE_NOOP("ModelError", "contacts are added to static segments only"),
    QT_TRANSLATE_NOOP("ModelError", "content does not match its Content-Type"),
    QT_TRANSLATE_NOOP("ModelError", "customField key must be 1 to 64 characters of A-Z a-z 0-9 _ . -"),
    QT_TRANSLATE_NOOP("ModelError", "field names must be 1 to %1 characters"),
    QT_TRANSLATE_NOOP("ModelError", "does not exist: %1"),
    QT_TRANSLATE_NOOP("ModelError", "field is required"),
    QT_TRANSLATE_NOOP("ModelError", "field must be a string"),
    QT_TRANSLATE_NOOP("ModelError", "groups nest at most %1 levels"),
    QT_TRANSLATE_NOOP("ModelError", "is empty"),
    QT_TRANSLATE_NOOP("ModelError", "is not a valid e-mail address"),
    QT_TRANSLATE_NOOP("ModelError", "is not a valid phone number"),
    QT_TRANSLATE_NOOP("ModelError", "is not an address field"),
    QT_TRANSLATE_NOOP("ModelError", "is required"),
    QT_TRANSLATE_NOOP("ModelError", "is required: one of %1"),
    QT_TRANSLATE_NOOP("ModelError", "must be 1 to 40 lower-case letters, digits or underscores"),
    QT_TRANSLATE_NOOP("ModelError", "must be AND or OR"),
    QT_TRANSLATE_NOOP("ModelError", "must be a boolean"),
    QT_TRANSLATE_NOOP("ModelError", "must be a date (YYYY-MM-DD)"),
    QT_TRANSLATE_NOOP("ModelError", "must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset"),
    QT_TRANSLATE_NOOP("ModelError", "must be a non-negative number"),
    QT_TRANSLATE_NOOP("ModelError", "must be a phone number in international form"),
    QT_TRANSLATE_NOOP("ModelError", "must be a string"),
    QT_TRANSLATE_NOOP("ModelError", "must be at most %1 bytes as JSON"),
    QT_TRANSLATE_NOOP("ModelError", "must be a string of at most %1 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must be a whole number from 1 to 1000"),
    QT_TRANSLATE_NOOP("ModelError", "must be a whole number of minutes from 0 to 525600 (one year)"),
    QT_TRANSLATE_NOOP("ModelError", "must be admin or agent"),
    QT_TRANSLATE_NOOP("ModelError", "must be an ISO 4217 currency code such as TRY, USD, EUR"),
    QT_TRANSLATE_NOOP("ModelError", "must be an array"),
    QT_TRANSLATE_NOOP("ModelError", "must be an array of day names (monday … sunday)"),
    QT_TRANSLATE_NOOP("ModelError", "must be an array of event names"),
    QT_TRANSLATE_NOOP("ModelError", "must be an array of stage objects"),
    QT_TRANSLATE_NOOP("ModelError", "must be an array of strings of at most 64 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must have at most %1 fields"),
    QT_TRANSLATE_NOOP("ModelError", "the value of %1 must be at most %2 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 100"),
    QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 3650 (0: never)"),
    QT_TRANSLATE_NOOP("ModelError", "must be an international number: + and 7 to 15 digits"),
    QT_TRANSLATE_NOOP("ModelError", "must be an object"),
    QT_TRANSLATE_NOOP("ModelError", "must be an object (a rule or a group)"),
    QT_TRANSLATE_NOOP("ModelError", "must be an object with enabled and before (minutes)"),
    QT_TRANSLATE_NOOP("ModelError", "must be an object with frequency, interval, daysOfWeek, endDate"),
    QT_TRANSLATE_NOOP("ModelError", "must be an object with name, key, probability, rottenDays"),
    QT_TRANSLATE_NOOP("ModelError", "must be an object with rules and logic"),
    QT_TRANSLATE_NOOP("ModelError", "must be an object with street, city, country"),
    QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must be in international form (+ and digits)"),
    QT_TRANSLATE_NOOP("ModelError", "must be in international format with a leading +"),
    QT_TRANSLATE_NOOP("ModelError", "must be one of %1"),
    QT_TRANSLATE_NOOP("ModelError", "must be one of the stages of pipeline %1: %2"),
    QT_TRANSLATE_NOOP("ModelError", "must be open, pending or closed"),
    QT_TRANSLATE_NOOP("ModelError", "must be the sender's address on the channel"),
    QT_TRANSLATE_NOOP("ModelError", "must be true or false"),
    QT_TRANSLATE_NOOP("ModelError", "must have at least %1 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must have at most %1 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must have at most %1 tags"),
    QT_TRANSLATE_NOOP("ModelError", "must have at most 30 open stages"),
    QT_TRANSLATE_NOOP("ModelError", "must hold at most %1 ids"),
    QT_TRANSLATE_NOOP("ModelError", "must hold at most %1 components"),
    QT_TRANSLATE_NOOP("ModelError", "must not be empty"),
    QT_TRANSLATE_NOOP("ModelError", "name and key must be strings"),
    QT_TRANSLATE_NOOP("ModelError", "not an approved template"),
    QT_TRANSLATE_NOOP("ModelError", "of a %1 deal is %2"),
    QT_TRANSLATE_NOOP("ModelError", "operator %1 is not valid for %2 (%3)"),
    QT_TRANSLATE_NOOP("ModelError", "operator is required"),
    QT_TRANSLATE_NOOP("ModelError", "operator must be a string"),
    QT_TRANSLATE_NOOP("ModelError", "parameters must be an array"),
    QT_TRANSLATE_NOOP("ModelError", "repeats the body component"),
    QT_TRANSLATE_NOOP("ModelError", "repeats the stage %1"),
    QT_TRANSLATE_NOOP("ModelError", "template %1 (%2) needs %3 body parameters, got %4"),
    QT_TRANSLATE_NOOP("ModelError", "unknown channel"),
    QT_TRANSLATE_NOOP("ModelError", "unknown event %1"),
    QT_TRANSLATE_NOOP("ModelError", "unknown field %1"),
    QT_TRANSLATE_NOOP("ModelError", "unknown logic %1 (use AND or OR)"),
    QT_TRANSLATE_NOOP("ModelError", "unknown message"),
    QT_TRANSLATE_NOOP("ModelError", "unknown operator %1"),
    QT_TRANSLATE_NOOP("ModelError", "unknown scope %1"),
    QT_TRANSLATE_NOOP("ModelError", "unknown status"),
    QT_TRANSLATE_NOOP("ModelError", "unknown user"),
    QT_TRANSLATE_NOOP("ModelError",
                      "value for %1 must be a date (YYYY-MM-DD), an ISO 8601 date-time or a span like 30d"),
    QT_TRANSLATE_NOOP("ModelError", "value for %1 must be a non-empty string or a number"),
    QT_TRANSLATE_NOOP("ModelError", "value for %1 must be a number"),
    QT_TRANSLATE_NOOP("ModelError", "value for %1 must be a string"),
    QT_TRANSLATE_NOOP("ModelError", "value for %1 must be at most %2 characters"),
    QT_TRANSLATE_NOOP("ModelError", "value for %1 must not be empty (use isEmpty to find empty fields)"),
    QT_TRANSLATE_NOOP("ModelError", "value for %1 must be between 0 and 100"),
    QT_TRANSLATE_NOOP("ModelError", "value for phone must contain digits"),
    QT_TRANSLATE_NOOP("ModelError", "value for sentiment must be positive, negative or neutral"),
    QT_TRANSLATE_NOOP("ModelError", "value for %1 must not be negative"),
    QT_TRANSLATE_NOOP("ModelError", "value is required for operator %1"),
    QT_TRANSLATE_NOOP("ModelError", "value must be a single value; only between takes [low, high]"),
    QT_TRANSLATE_NOOP("ModelError", " (it looks like %1)"),
    QT_TRANSLATE_NOOP("ModelError", "not configured"),
    QT_TRANSLATE_NOOP("ModelError", "Scope %1 needs the admin role"),
    QT_TRANSLATE_NOOP("ModelError", "scope %1 needs the admin role"),
    QT_TRANSLATE_NOOP("ModelError", "Action %1 is not available"),
    QT_TRANSLATE_NOOP("ModelError", "The body must be a JSON object"),
    QT_TRANSLATE_NOOP("ModelError", "The contact has no phone number"),
    QT_TRANSLATE_NOOP("ModelError", "The last active admin cannot be deactivated"),
    QT_TRANSLATE_NOOP("ModelError", "The last active admin cannot become an agent"),
    QT_TRANSLATE_NOOP("ModelError", "are required for a dynamic segment"),
    QT_TRANSLATE_NOOP("ModelError", "is required (event names, or \"*\")"),
    QT_TRANSLATE_NOOP("ModelError", "must be a language code such as en_US or tr"),
    QT_TRANSLATE_NOOP("ModelError", "must be a non-empty string of at most %1 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must be a number from %1 to %2"),
    QT_TRANSLATE_NOOP("ModelError", "must be a string, or true to generate one"),
    QT_TRANSLATE_NOOP("ModelError", "must be an absolute https URL"),
    QT_TRANSLATE_NOOP("ModelError", "must be an array of at most %1 buttons"),
    QT_TRANSLATE_NOOP("ModelError", "must be an e-mail address"),
    QT_TRANSLATE_NOOP("ModelError", "must be an http(s) URL"),
    QT_TRANSLATE_NOOP("ModelError", "must be lower-case letters, digits and _"),
    QT_TRANSLATE_NOOP("ModelError", "must have %1 to %2 characters"),
    QT_TRANSLATE_NOOP("ModelError", "must not carry a user name or password"),
    QT_TRANSLATE_NOOP("ModelError", "must use https"),
    QT_TRANSLATE_NOOP("ModelError", "must use https (plain http to loopback needs webhooks/allowInsecureLocal=true)"),
    QT_TRANSLATE_NOOP("ModelError", "needs at least one open stage besides won and lost"),
    QT_TRANSLATE_NOOP("ModelError", "or %1 is required"),
    QT_TRANSLATE_NOOP("ModelError", "refused: the receiver's address is not allowed (webhooks/allowedTargets)"),
};

// "Invalid data: <field> <problem>; <field> <problem>" and "Required field missing: <fields>".
const char *const kInvalidData = QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1");
const char *const kMissing = QT_TRANSLATE_NOOP("ModelError", "Required field missing: %1");
const char *const kFieldProblem = QT_TRANSLATE_NOOP("ModelError", "%1: %2");

const struct
{
    const char *key;
    const char *label;
} kFields[] = {
    {"firstName", QT_TRANSLATE_NOOP("FieldName", "First name")},
    {"lastName", QT_TRANSLATE_NOOP("FieldName", "Last name")},
    {"email", QT_TRANSLATE_NOOP("FieldName", "E-mail")},
    {"phone", QT_TRANSLATE_NOOP("FieldName", "Phone")},
    {"company", QT_TRANSLATE_NOOP("FieldName", "Company")},
    {"position", QT_TRANSLATE_NOOP("FieldName", "Position")},
    {"tags", QT_TRANSLATE_NOOP("FieldName", "Tags")},
    {"address", QT_TRANSLATE_NOOP("FieldName", "Address")},
    {"address.street", QT_TRANSLATE_NOOP("FieldName", "Street")},
    {"address.city", QT_TRANSLATE_NOOP("FieldName", "City")},
    {"address.country", QT_TRANSLATE_NOOP("FieldName", "Country")},
    {"source", QT_TRANSLATE_NOOP("FieldName", "Source")},
    {"leadScore", QT_TRANSLATE_NOOP("FieldName", "Lead score")},
    {"customFields", QT_TRANSLATE_NOOP("FieldName", "Custom fields")},
    {"name", QT_TRANSLATE_NOOP("FieldName", "Name")},
    {"value", QT_TRANSLATE_NOOP("FieldName", "Value")},
    {"currency", QT_TRANSLATE_NOOP("FieldName", "Currency")},
    {"stage", QT_TRANSLATE_NOOP("FieldName", "Stage")},
    {"pipelineId", QT_TRANSLATE_NOOP("FieldName", "Pipeline")},
    {"contactId", QT_TRANSLATE_NOOP("FieldName", "Contact")},
    {"dealId", QT_TRANSLATE_NOOP("FieldName", "Deal")},
    {"expectedCloseDate", QT_TRANSLATE_NOOP("FieldName", "Expected close date")},
    {"probability", QT_TRANSLATE_NOOP("FieldName", "Probability")},
    {"ownerId", QT_TRANSLATE_NOOP("FieldName", "Owner")},
    {"lostReason", QT_TRANSLATE_NOOP("FieldName", "Lost reason")},
    {"reason", QT_TRANSLATE_NOOP("FieldName", "Reason")},
    {"competitorName", QT_TRANSLATE_NOOP("FieldName", "Competitor")},
    {"closedValue", QT_TRANSLATE_NOOP("FieldName", "Closed value")},
    {"title", QT_TRANSLATE_NOOP("FieldName", "Title")},
    {"description", QT_TRANSLATE_NOOP("FieldName", "Description")},
    {"dueDate", QT_TRANSLATE_NOOP("FieldName", "Due date")},
    {"priority", QT_TRANSLATE_NOOP("FieldName", "Priority")},
    {"type", QT_TRANSLATE_NOOP("FieldName", "Type")},
    {"status", QT_TRANSLATE_NOOP("FieldName", "Status")},
    {"assignedTo", QT_TRANSLATE_NOOP("FieldName", "Assignee")},
    {"reminder", QT_TRANSLATE_NOOP("FieldName", "Reminder")},
    {"reminder.before", QT_TRANSLATE_NOOP("FieldName", "Reminder time")},
    {"recurrence", QT_TRANSLATE_NOOP("FieldName", "Repeat")},
    {"recurrence.frequency", QT_TRANSLATE_NOOP("FieldName", "Repeat frequency")},
    {"recurrence.interval", QT_TRANSLATE_NOOP("FieldName", "Repeat interval")},
    {"recurrence.daysOfWeek", QT_TRANSLATE_NOOP("FieldName", "Repeat days")},
    {"recurrence.endDate", QT_TRANSLATE_NOOP("FieldName", "Repeat end date")},
    {"rules", QT_TRANSLATE_NOOP("FieldName", "Rules")},
    {"logic", QT_TRANSLATE_NOOP("FieldName", "Match")},
    {"field", QT_TRANSLATE_NOOP("FieldName", "Field")},
    {"operator", QT_TRANSLATE_NOOP("FieldName", "Operator")},
    {"url", QT_TRANSLATE_NOOP("FieldName", "URL")},
    {"events", QT_TRANSLATE_NOOP("FieldName", "Events")},
    {"secret", QT_TRANSLATE_NOOP("FieldName", "Secret")},
    {"enabled", QT_TRANSLATE_NOOP("FieldName", "Enabled")},
    {"content", QT_TRANSLATE_NOOP("FieldName", "Text")},
    {"note", QT_TRANSLATE_NOOP("FieldName", "Note")},
    {"text", QT_TRANSLATE_NOOP("FieldName", "Text")},
    {"stages", QT_TRANSLATE_NOOP("FieldName", "Stages")},
    {"rottenDays", QT_TRANSLATE_NOOP("FieldName", "Days until stale")},
    {"key", QT_TRANSLATE_NOOP("FieldName", "Key")},
    {"channel", QT_TRANSLATE_NOOP("FieldName", "Channel")},
    {"role", QT_TRANSLATE_NOOP("FieldName", "Role")},
    {"password", QT_TRANSLATE_NOOP("FieldName", "Password")},
    {"sentiment", QT_TRANSLATE_NOOP("FieldName", "Sentiment")},
    {"totalMessages", QT_TRANSLATE_NOOP("FieldName", "Messages")},
    {"lastMessageAt", QT_TRANSLATE_NOOP("FieldName", "Last message")},
    {"createdAt", QT_TRANSLATE_NOOP("FieldName", "Created")},
    {"updatedAt", QT_TRANSLATE_NOOP("FieldName", "Updated")},
};

struct Compiled
{
    const char *source;
    QRegularExpression pattern;
};

const QVector<Compiled> &compiled()
{
    static const QVector<Compiled> list = [] {
        QVector<Compiled> out;
        static const QRegularExpression placeholder(QStringLiteral("%\\d"));
        for (const char *t : kTemplates) {
            const QString source = QString::fromUtf8(t);
            QString pattern;
            qsizetype last = 0;
            for (auto it = placeholder.globalMatch(source); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                pattern += QRegularExpression::escape(source.mid(last, m.capturedStart() - last));
                pattern += QStringLiteral("(.+?)");
                last = m.capturedEnd();
            }
            pattern += QRegularExpression::escape(source.mid(last));
            out.push_back({t, QRegularExpression(QLatin1Char('^') + pattern + QLatin1Char('$'),
                                                 QRegularExpression::DotMatchesEverythingOption)});
        }
        return out;
    }();
    return list;
}

QString tr(const char *source)
{
    return QCoreApplication::translate("ModelError", source);
}

std::optional<QString> matchTemplate(const QString &text)
{
    for (const Compiled &c : compiled()) {
        const QRegularExpressionMatch m = c.pattern.match(text);
        if (!m.hasMatch())
            continue;
        QString out = tr(c.source);
        for (int i = 1; i <= m.lastCapturedIndex(); ++i)
            out = out.arg(ErrorText::fieldLabel(m.captured(i))); // a field key reads as its label
        return out;
    }
    return std::nullopt;
}

// One problem of a list: a whole template, or "<field> <problem>", or "<path>: <problem>".
QString part(const QString &text)
{
    if (const auto whole = matchTemplate(text))
        return *whole;
    const qsizetype colon = text.indexOf(QStringLiteral(": "));
    if (colon > 0 && !text.left(colon).contains(QLatin1Char(' ')))
        return tr(kFieldProblem).arg(ErrorText::fieldLabel(text.left(colon)), part(text.mid(colon + 2)));
    const qsizetype space = text.indexOf(QLatin1Char(' '));
    if (space > 0) {
        if (const auto rest = matchTemplate(text.mid(space + 1)))
            return tr(kFieldProblem).arg(ErrorText::fieldLabel(text.left(space)), *rest);
    }
    return text;
}
} // namespace

QString ErrorText::fieldLabel(const QString &key)
{
    for (const auto &f : kFields) {
        if (key == QLatin1String(f.key))
            return QCoreApplication::translate("FieldName", f.label);
    }
    // A segment rule's path ("rules[1].rules[0]"): "Rule 2 › Rule 1", counted as the dialog shows them.
    static const QRegularExpression rulePath(QStringLiteral("^rules\\[\\d+\\](?:\\.rules\\[\\d+\\])*$"));
    if (rulePath.match(key).hasMatch()) {
        static const QRegularExpression index(QStringLiteral("\\[(\\d+)\\]"));
        QStringList steps;
        for (auto it = index.globalMatch(key); it.hasNext();)
            steps << QCoreApplication::translate("FieldName", "Rule %1").arg(it.next().captured(1).toInt() + 1);
        return steps.join(QStringLiteral(" › "));
    }
    // "tags[2]", "rules[0].value": the label of the field the path starts with, and the rest.
    static const QRegularExpression path(QStringLiteral("^([A-Za-z]+)((?:\\[\\d+\\]|\\.[A-Za-z]+)+)$"));
    if (const QRegularExpressionMatch m = path.match(key); m.hasMatch()) {
        for (const auto &f : kFields) {
            if (m.captured(1) == QLatin1String(f.key))
                return QCoreApplication::translate("FieldName", f.label) + m.captured(2);
        }
    }
    return key;
}

QString ErrorText::translate(const QString &english)
{
    if (english.isEmpty())
        return english;
    if (const auto whole = matchTemplate(english))
        return *whole;
    for (const char *prefix : {kInvalidData, kMissing}) {
        const QString head = QString::fromUtf8(prefix).section(QStringLiteral("%1"), 0, 0);
        if (!english.startsWith(head))
            continue;
        const QString rest = english.mid(head.size());
        QStringList parts;
        if (prefix == kMissing) {
            // "name": a field, under "Required field missing"; "name must not be empty": a field
            // with its problem, which says it all ("Name: must not be empty").
            bool withProblems = true;
            for (const QString &field : rest.split(QStringLiteral(", "))) {
                const bool problem = field.trimmed().contains(QLatin1Char(' '));
                withProblems = withProblems && problem;
                parts << (problem ? part(field.trimmed()) : fieldLabel(field.trimmed()));
            }
            return withProblems ? parts.join(QStringLiteral("; ")) : tr(prefix).arg(parts.join(QStringLiteral(", ")));
        }
        for (const QString &p : rest.split(QStringLiteral("; ")))
            parts << part(p);
        return tr(prefix).arg(parts.join(QStringLiteral("; ")));
    }
    return part(english);
}

QString ErrorText::of(const std::exception &e)
{
    if (const auto *domain = dynamic_cast<const DomainError *>(&e)) {
        // The kinds whose details say more than the message.
        const QJsonObject &d = domain->details();
        const DomainError::Kind kind = domain->kind();
        if (kind == DomainError::TooLarge && d.contains(QLatin1String("maxBytes"))) {
            const qint64 maxBytes = qint64(d.value(QLatin1String("maxBytes")).toDouble());
            return QCoreApplication::translate("ErrorText", "The file is too large: at most %1")
                .arg(QLocale().formattedDataSize(maxBytes));
        }
        if (kind == DomainError::Unavailable && d.contains(QLatin1String("channel"))) {
            const QString reason = translate(d.value(QLatin1String("reason")).toString(domain->message()));
            return QCoreApplication::translate("ErrorText", "The channel cannot send now (%1)").arg(reason);
        }
        if (kind == DomainError::RateLimited) {
            const int seconds = qMax(1, d.value(QLatin1String("retryAfter")).toInt(1));
            return QCoreApplication::translate(
                "ErrorText", "Too many messages on this channel: try again in %n second(s)", nullptr, seconds);
        }
        return translate(domain->message());
    }
    if (dynamic_cast<const DatabaseUnavailable *>(&e))
        return QCoreApplication::translate("ErrorText",
                                           "The database server cannot be reached at the moment; nothing was "
                                           "changed. Liaison connects again by itself: try again shortly.");
    return translate(QString::fromUtf8(e.what()));
}

QJsonObject ErrorText::details(const QJsonObject &details)
{
    QJsonObject out;
    for (auto it = details.begin(); it != details.end(); ++it)
        // Texts only: an id, a status or a number in the details ("existingId", "from") is data.
        out.insert(it.key(), it.value().isString() && it.value().toString().contains(QLatin1Char(' '))
                                 ? QJsonValue(translate(it.value().toString()))
                                 : it.value());
    return out;
}

QStringList ErrorText::templates()
{
    QStringList out;
    for (const char *t : kTemplates)
        out << QString::fromUtf8(t);
    return out;
}
