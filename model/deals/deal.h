#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

struct Deal
{
    qint64 seq = 0;
    QString id;
    QString name;
    double value = 0;
    QString currency;
    QString pipelineId;
    QString stage;
    int probability = 0;
    QString contactId;
    QString assignedTo;
    QString expectedCloseDate; // YYYY-MM-DD or empty
    QString description;
    QJsonObject customFields;
    std::optional<double> closedValue;
    QString closedAt;
    QString lostReason;
    QString competitorName;
    QString lastActivityAt;
    QString createdAt;
    QString updatedAt;

    // Read with the deal, for responses and the board.
    QString contactName;
    QString contactFirstName, contactLastName, contactCompany, contactEmail;
    QString assignedName;
    bool isRotten = false;

    // The value that counts in sums: the closed value of a won deal when one was given.
    double effectiveValue() const { return closedValue && stage == QLatin1String("won") ? *closedValue : value; }
    // The list shape: contact and assignedTo as {id, name} (or null).
    QJsonObject toJson() const;
    // The detail shape: contact adds firstName, lastName, company, email. activities and tasks are
    // added by the caller.
    QJsonObject toDetailJson() const;
};

struct DealActivity
{
    QString id;
    QString dealId;
    QString type; // note, call, meeting, email, stage_change
    QString content;
    QString from, to; // stage_change only
    QString userId, userName;
    QString createdAt;

    QJsonObject toJson() const;
};

// The fields a create or update body sets, already checked for type and range. Absent: nullopt;
// sent as null: cleared (where clearing makes sense).
struct DealChanges
{
    std::optional<QString> name, currency, stage, pipelineId, contactId, assignedTo, expectedCloseDate, description;
    std::optional<double> value;
    std::optional<int> probability;
    std::optional<QJsonObject> customFields;
    std::optional<QString> note; // a note for the stage_change activity of a stage given in the body

    bool operator==(const DealChanges &o) const
    {
        return name == o.name && currency == o.currency && stage == o.stage && pipelineId == o.pipelineId &&
               contactId == o.contactId && assignedTo == o.assignedTo && expectedCloseDate == o.expectedCloseDate &&
               description == o.description && value == o.value && probability == o.probability &&
               customFields == o.customFields && note == o.note;
    }
    // Nothing to change.
    bool isEmpty() const { return *this == DealChanges(); }
};

namespace DealRules {
// The ISO 4217 codes accepted for `currency` (active codes, upper case).
const QStringList &currencies();
bool isCurrency(const QString &code);
const QStringList &lostReasons();   // price, competitor, timing, budget, no_response, other
const QStringList &activityTypes(); // the types POST activities accepts: note, call, meeting, email

// Reads a create/update body. Throws DomainError BadRequest (VALIDATION_ERROR) with a detail
// per bad field: wrong JSON type, negative or non-finite value, unknown currency, probability out of
// 0–100, malformed date. Existence of the stage, pipeline, contact and user is checked by the repository
// (Unprocessable).
DealChanges parse(const QJsonObject &body);
// The same checks of values filled in by code (the window's deal form): lengths, the currency
// (upper-cased), the close date (a date-time is cut to its UTC date), value and probability;
// throws as parse() does. The repository runs it on every create and update.
void check(DealChanges &changes);
// A positive finite number or nothing; BadRequest naming field otherwise.
std::optional<double> money(const QJsonObject &body, const QString &field);
} // namespace DealRules
