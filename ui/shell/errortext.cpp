#include "ui/shell/errortext.h"

#include "model/core/errors.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <optional>
#include <utility>

namespace {
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
    {"otherIds", QT_TRANSLATE_NOOP("FieldName", "Contacts to merge")},
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
    {"subject", QT_TRANSLATE_NOOP("FieldName", "Subject")},
    {"htmlContent", QT_TRANSLATE_NOOP("FieldName", "Message")},
    {"broadcastListId", QT_TRANSLATE_NOOP("FieldName", "Audience")},
    {"scheduledAt", QT_TRANSLATE_NOOP("FieldName", "Send at")},
    {"templateName", QT_TRANSLATE_NOOP("FieldName", "Template")},
    {"templateLanguage", QT_TRANSLATE_NOOP("FieldName", "Template language")},
    {"steps", QT_TRANSLATE_NOOP("FieldName", "Steps")},
    {"trigger.event", QT_TRANSLATE_NOOP("FieldName", "Trigger")},
    {"addresses", QT_TRANSLATE_NOOP("FieldName", "Addresses")},
    {"question", QT_TRANSLATE_NOOP("FieldName", "Question")},
    {"answer", QT_TRANSLATE_NOOP("FieldName", "Answer")},
    {"language", QT_TRANSLATE_NOOP("FieldName", "Language")},
};

QString fieldName(const QString &key)
{
    for (const auto &f : kFields) {
        if (key == QLatin1String(f.key))
            return QCoreApplication::translate("FieldName", f.label);
    }
    return {};
}

// "rules[1]" -> {"rules", 1}; "name" -> {"name", -1}; nullopt for anything else.
std::optional<std::pair<QString, int>> pathStep(const QString &step)
{
    const qsizetype open = step.indexOf(QLatin1Char('['));
    if (open < 0)
        return std::make_pair(step, -1);
    if (open == 0 || !step.endsWith(QLatin1Char(']')))
        return std::nullopt;
    bool ok = false;
    const int index = step.mid(open + 1, step.size() - open - 2).toInt(&ok);
    if (!ok || index < 0)
        return std::nullopt;
    return std::make_pair(step.left(open), index);
}
} // namespace

QString ErrorText::fieldLabel(const QString &key)
{
    const QString whole = fieldName(key);
    if (!whole.isEmpty())
        return whole;
    // A path: "rules[1].rules[0]" (a segment rule, counted as the dialog shows them: "Rule 2 › Rule 1"),
    // "tags[2]", "components[0]", "stages[1].probability": the label of the field it starts with, and the rest.
    const QStringList steps = key.split(QLatin1Char('.'));
    QStringList rules;
    bool onlyRules = true;
    for (const QString &step : steps) {
        const auto s = pathStep(step);
        if (!s || s->first != QLatin1String("rules") || s->second < 0) {
            onlyRules = false;
            break;
        }
        rules << QCoreApplication::translate("FieldName", "Rule %1").arg(s->second + 1);
    }
    if (onlyRules && !rules.isEmpty())
        return rules.join(QStringLiteral(" › "));
    const auto first = pathStep(steps.first());
    if (!first || (steps.size() == 1 && first->second < 0))
        return key;
    const QString label = fieldName(first->first);
    if (label.isEmpty())
        return key;
    return label + key.mid(first->first.size());
}

namespace {
QString shownArg(const ModelTextArg &a)
{
    switch (a.type()) {
    case ModelTextArg::Data:
        return a.value();
    case ModelTextArg::Field:
        return ErrorText::fieldLabel(a.value());
    case ModelTextArg::Text:
        return ErrorText::text(a.text());
    case ModelTextArg::List: {
        QStringList items;
        for (const ModelTextArg &item : a.items())
            items << shownArg(item);
        return items.join(a.value());
    }
    }
    return {};
}
} // namespace

QString ErrorText::text(const ModelText &text)
{
    if (text.isNull())
        return {};
    QStringList filled;
    for (const ModelTextArg &a : text.args())
        filled << shownArg(a);
    return ModelText::fill(QCoreApplication::translate("ModelError", text.source()), filled);
}

QString ErrorText::of(const std::exception &e)
{
    if (const auto *domain = dynamic_cast<const DomainError *>(&e)) {
        // The kinds whose data say more than the text.
        const QJsonObject &d = domain->data();
        const DomainError::Kind kind = domain->kind();
        if (kind == DomainError::TooLarge && d.contains(QLatin1String("maxBytes"))) {
            const qint64 maxBytes = qint64(d.value(QLatin1String("maxBytes")).toDouble());
            return QCoreApplication::translate("ErrorText", "The file is too large: at most %1")
                .arg(QLocale().formattedDataSize(maxBytes));
        }
        if (kind == DomainError::Unavailable && d.contains(QLatin1String("channel"))) {
            const ModelText reason = domain->problems().value(QStringLiteral("reason"), domain->text());
            return QCoreApplication::translate("ErrorText", "The channel cannot send now (%1)").arg(text(reason));
        }
        if (kind == DomainError::RateLimited) {
            const int seconds = qMax(1, d.value(QLatin1String("retryAfter")).toInt(1));
            return QCoreApplication::translate(
                "ErrorText", "Too many messages on this channel: try again in %n second(s)", nullptr, seconds);
        }
        return text(domain->text());
    }
    if (dynamic_cast<const DatabaseUnavailable *>(&e))
        return QCoreApplication::translate("ErrorText",
                                           "The database server cannot be reached at the moment; nothing was "
                                           "changed. Liaison connects again by itself: try again shortly.");
    // Not a refusal (a fault of the disk or the database): its own words.
    return QString::fromUtf8(e.what());
}

QJsonObject ErrorText::details(const DomainError &e)
{
    QJsonObject out = e.data();
    const FieldProblems &problems = e.problems();
    for (auto it = problems.cbegin(); it != problems.cend(); ++it)
        out.insert(it.key(), text(it.value()));
    return out;
}
