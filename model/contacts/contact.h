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

    bool operator==(const ContactChanges &o) const
    {
        return firstName == o.firstName && lastName == o.lastName && email == o.email && phone == o.phone &&
               company == o.company && position == o.position && source == o.source && address == o.address &&
               customFields == o.customFields && tags == o.tags && leadScore == o.leadScore;
    }
    // Nothing to change.
    bool isEmpty() const
    {
        return !firstName && !lastName && !email && !phone && !company && !position && !source && !address &&
               !customFields && !tags && !leadScore;
    }
};

namespace ContactRules {
// Bounds of customFields (docs/api.md): at most 100 fields, a name of 1 to 64 characters, a value of
// at most 1,000 characters (a value that is not a string: its compact JSON), and at most 16 KiB of
// compact JSON in all, so that a page of 20 contacts stays small. Beyond: BadRequest, VALIDATION_ERROR.
constexpr int kMaxCustomFields = 100;
constexpr int kMaxCustomFieldName = 64;
constexpr int kMaxCustomFieldValue = 1000;
constexpr int kMaxCustomFieldsBytes = 16 * 1024;
// Reads a create/update body. Throws DomainError BadRequest (code VALIDATION_ERROR) with a
// `details` entry per bad field: wrong JSON type, malformed e-mail, phone without "+", values out
// of range. Required fields are checked on the merged contact by checkRequired().
ContactChanges parse(const QJsonObject &body);
// The same checks of values filled in by code (the window's form): lengths, the e-mail's form, the
// phone (a national number is rewritten in its international form), the address parts, the tags
// (trimmed, duplicates dropped), the lead score; throws as parse() does. The repository runs it on
// every create and update.
void check(ContactChanges &changes);
// A contact known by a phone number alone (a send to a number nobody has yet): named by the number,
// with the channel as its source.
ContactChanges fromPhone(const QString &phone, const QString &source);
// Unprocessable (code VALIDATION_ERROR) unless the contact has a first or last name and an e-mail or phone.
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
