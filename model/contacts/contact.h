#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

class JsonWriter;
class QRegularExpression;

struct Contact
{
    qint64 seq = 0;
    QString id;
    QString firstName;
    QString lastName;
    QString email;
    QString phone;
    QString company;
    QString position;
    QJsonObject address; // street, city, country
    QStringList tags;
    QJsonObject customFields;
    QString source;
    int leadScore = 0;
    // Kept by the messaging layer; empty/zero until conversations exist.
    QString lastMessageAt;
    int totalMessages = 0;
    QString sentiment;
    QString createdAt;
    QString updatedAt;

    QString displayName() const;
    QJsonObject toJson() const;
    // The same fields written straight as JSON (the hot API answers), without the braces, so that
    // a caller can add its own keys.
    void writeFields(JsonWriter &w) const;
};

struct ContactNote
{
    QString id;
    QString contactId;
    QString content;
    QString createdBy;
    QString createdAt;

    QJsonObject toJson() const;
    void write(JsonWriter &w) const;
};

// The fields a create or update body sets, already checked. A field absent from the body is
// std::nullopt; a field sent as null (or "") is cleared.
struct ContactChanges
{
    std::optional<QString> firstName, lastName, email, phone, company, position, source;
    std::optional<QJsonObject> address, customFields;
    std::optional<QStringList> tags;
    std::optional<int> leadScore;
};

namespace ContactRules {
// Reads a create/update body. Throws DomainError BadRequest (400, code VALIDATION_ERROR) with a
// `details` entry per bad field: wrong JSON type, malformed e-mail, phone without "+", values out
// of range. Required fields are checked on the merged contact by checkRequired().
ContactChanges parse(const QJsonObject &body);
// 422 (code VALIDATION_ERROR) unless the contact has a first or last name and an e-mail or phone.
void checkRequired(const Contact &c);
void apply(Contact &c, const ContactChanges &changes);

bool isValidEmail(const QString &email);
// "+90 (532) 123-45-67" -> "+905321234567"; empty when it is not an international number. With a
// default calling code (contacts/defaultCallingCode, e.g. "90"), a number without "+" is read as a
// national one of that country: "0532 123 45 67" and "532 123 45 67" -> "+905321234567", and "00"
// is the international prefix ("0090 532…" -> "+90532…").
QString toE164(const QString &phone);
// As above with this calling code instead of the default one (Settings → Contacts shows an example).
QString toE164(const QString &phone, const QString &callingCode);
// Set at start (contacts/defaultCallingCode) and by Settings → Contacts; empty (the default): "+"
// is required.
void setDefaultCallingCode(const QString &digits);
// A country calling code: 1 to 3 digits, not starting with 0 ("90", "1", "358").
bool isCallingCode(const QString &digits);
// The pattern isCallingCode() checks, for an input field's validator.
const QRegularExpression &callingCodePattern();
QString defaultCallingCode();
// Tags trimmed, empty ones dropped, duplicates (compared case-insensitively) removed, order kept.
QStringList normalizeTags(const QStringList &tags);
QString tagKey(const QString &tag);
} // namespace ContactRules
