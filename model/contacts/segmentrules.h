#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVariantList>

class Clock;

// The rule engine of segments. A segment's `filters` is a group { logic: "AND" | "OR", rules: [...] }
// whose rules are either rules { field, operator, value } or nested groups (at most MaxDepth levels,
// the top group counting as one). validate() refuses bad filters with a BadRequest naming the rule path
// ("rules[1].rules[0]: operator contains is not valid for leadScore (number)"); compile() turns
// valid filters into ONE parameterised SQL condition over `contacts c`: values are bound, never
// written into the SQL text, so any filter is as safe as a fixed query.
//
// Reading of dates (createdAt, lastMessageAt): a value is an ISO date (YYYY-MM-DD, a whole UTC day),
// an ISO date-time (an instant) or a span "<n>d" (the instant n days before now, from the Clock):
//   greaterThan "7d"          -> after now-7d: within the last 7 days
//   lessThan "30d"            -> before now-30d: older than 30 days
//   greaterThan "2024-05-01"  -> from 2024-05-02T00:00Z (after that day)
//   lessThan "2024-05-01"     -> before 2024-05-01T00:00Z
//   between [a, b]            -> from the earlier to the later bound, both included (a whole day
//                                for a date); the bounds may come in either order.
// An empty date (no message yet) matches only isEmpty.
namespace SegmentRules {
constexpr int MaxDepth = 5;
constexpr int MaxRules = 200; // in all groups together

enum class FieldType
{
    Text,      // name, email, phone, source
    Tags,      // tags: equals/contains = carries the tag
    Number,    // leadScore (0-100), totalMessages (>= 0)
    Date,      // createdAt, lastMessageAt
    Sentiment, // positive, negative, neutral
    Any        // customField.<key>
};

// The fields a rule can name, in the order the rule builder offers them ("customField." last).
QStringList fields();
QStringList operators();
// The type of a field (customField.<key> gives Any); false when the field is unknown.
bool fieldType(const QString &field, FieldType *type);
QString typeName(FieldType type);
// The operators valid for a type, in the order the rule builder offers them.
QStringList operatorsFor(FieldType type);
bool takesValue(const QString &op);
// customField keys: [A-Za-z0-9_.-]{1,64}
bool isValidCustomFieldKey(const QString &key);
// The sentiment values.
QStringList sentiments();

// Checks filters and returns them normalised (logic in capitals, AND when absent; values of
// isEmpty/isNotEmpty dropped). Throws DomainError BadRequest (VALIDATION_ERROR) whose message is
// the first problem with its rule path and whose details hold every problem by path.
QJsonObject validate(const QJsonValue &filters);

struct Sql
{
    QString where; // a condition over `contacts c`, with ? placeholders
    QVariantList values;
};
// Compiles valid filters (validates them first); relative spans are taken from clock.now().
Sql compile(const QJsonObject &filters, const Clock &clock);
} // namespace SegmentRules
