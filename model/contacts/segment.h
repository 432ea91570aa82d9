#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

struct Segment
{
    qint64 seq = 0;
    QString id; // seg_…
    QString name;
    QString description;
    QJsonValue filters; // { logic, rules } (normalised), or null for a static segment made without rules
    bool isDynamic = true;
    qint64 contactCount = -1; // -1: not counted
    QString createdBy;
    QString createdAt;
    QString updatedAt;

    // The spec's Segment; contactCount only when counted.
    QJsonObject toJson() const;
};

// What a create, an update or a snapshot sets; an update leaves an unset field as it is.
// filters is the rule tree in its documented form ({ logic, rules }, see SegmentRules::validate),
// or null to clear it (static segments only).
struct SegmentChanges
{
    std::optional<QString> name;
    std::optional<QString> description;
    std::optional<QJsonValue> filters;
    std::optional<bool> isDynamic;
};

// The fields of a segment (the rules of its filters are in segmentrules.h).
namespace SegmentRules {
constexpr int MaxNameLength = 100;
constexpr int MaxDescriptionLength = 1000;

// Reads a request body: BadRequest for a wrong type or invalid filters, Unprocessable for an empty name; the first
// refusal in the order name, description, isDynamic, filters.
SegmentChanges parse(const QJsonObject &body);
// The same rules on changes however they were filled in (the repository checks every write), in the
// same order; normalises them as it goes: name and description trimmed, filters normalised.
void check(SegmentChanges &changes);
} // namespace SegmentRules
