#include "model/contacts/contact.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QReadWriteLock>
#include <QRegularExpression>

#include <cmath>

namespace {
using Json::nullable;

QJsonObject addressOrEmpty(const QJsonObject &a)
{
    QJsonObject out;
    for (const char *key : {"street", "city", "country"})
        out.insert(QLatin1String(key), a.value(QLatin1String(key)).toString());
    return out;
}

} // namespace

QString Contact::displayName() const
{
    const QString name = (firstName + QLatin1Char(' ') + lastName).trimmed();
    if (!name.isEmpty())
        return name;
    return !email.isEmpty() ? email : phone;
}

QJsonObject Contact::toJson() const
{
    return QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("firstName"), firstName},
        {QStringLiteral("lastName"), lastName},
        {QStringLiteral("email"), nullable(email)},
        {QStringLiteral("phone"), nullable(phone)},
        {QStringLiteral("company"), company},
        {QStringLiteral("position"), position},
        {QStringLiteral("address"), addressOrEmpty(address)},
        {QStringLiteral("tags"), QJsonArray::fromStringList(tags)},
        {QStringLiteral("customFields"), customFields},
        {QStringLiteral("source"), source},
        {QStringLiteral("leadScore"), leadScore},
        {QStringLiteral("lastMessageAt"), nullable(lastMessageAt)},
        {QStringLiteral("totalMessages"), totalMessages},
        {QStringLiteral("sentiment"), nullable(sentiment)},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
    };
}

void Contact::writeFields(JsonWriter &w) const
{
    // Keys in sorted order: the bytes of QJsonDocument(toJson()).toJson(Compact) (tested).
    w.key("address").beginObject();
    w.key("city").value(address.value(QLatin1String("city")).toString());
    w.key("country").value(address.value(QLatin1String("country")).toString());
    w.key("street").value(address.value(QLatin1String("street")).toString());
    w.endObject();
    w.key("company").value(company);
    w.key("createdAt").value(createdAt);
    w.key("customFields").value(customFields);
    w.key("email").valueOrNull(email);
    w.key("firstName").value(firstName);
    w.key("id").value(id);
    w.key("lastMessageAt").valueOrNull(lastMessageAt);
    w.key("lastName").value(lastName);
    w.key("leadScore").value(leadScore);
    w.key("phone").valueOrNull(phone);
    w.key("position").value(position);
    w.key("sentiment").valueOrNull(sentiment);
    w.key("source").value(source);
    w.key("tags").value(tags);
    w.key("totalMessages").value(totalMessages);
    w.key("updatedAt").value(updatedAt);
}

void ContactNote::write(JsonWriter &w) const
{
    w.beginObject();
    w.key("contactId").value(contactId);
    w.key("content").value(content);
    w.key("createdAt").value(createdAt);
    w.key("createdBy").valueOrNull(createdBy);
    w.key("id").value(id);
    w.endObject();
}

QJsonObject ContactNote::toJson() const
{
    return QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("contactId"), contactId},
        {QStringLiteral("content"), content},
        {QStringLiteral("createdBy"), nullable(createdBy)},
        {QStringLiteral("createdAt"), createdAt},
    };
}

bool ContactRules::isValidEmail(const QString &email)
{
    // Deliberately simple (RFC 5322 in full accepts far more than any mail system delivers to):
    // one "@", a non-empty local part without spaces, a domain with a dot and no empty labels.
    static const QRegularExpression re(
        QStringLiteral("^[^\\s@\"(),:;<>\\[\\]\\\\]+@[^\\s@\"(),:;<>\\[\\]\\\\.]+(\\.[^\\s@\"(),:;<>\\[\\]\\\\.]+)+$"));
    return email.size() <= 254 && re.match(email).hasMatch() && !email.contains(QLatin1String(".."));
}

namespace {
// Settings → Contacts may change it while server threads read it.
QReadWriteLock callingCodeLock;
QString callingCode;
} // namespace

void ContactRules::setDefaultCallingCode(const QString &digits)
{
    const QWriteLocker lock(&callingCodeLock);
    callingCode = digits;
}

QString ContactRules::defaultCallingCode()
{
    const QReadLocker lock(&callingCodeLock);
    return callingCode;
}

const QRegularExpression &ContactRules::callingCodePattern()
{
    static const QRegularExpression pattern(QStringLiteral("^[1-9][0-9]{0,2}$"));
    return pattern;
}

bool ContactRules::isCallingCode(const QString &digits)
{
    return callingCodePattern().match(digits).hasMatch();
}

QString ContactRules::toE164(const QString &phone)
{
    return toE164(phone, defaultCallingCode());
}

QString ContactRules::toE164(const QString &phone, const QString &code)
{
    QString p = phone.trimmed();
    if (!p.startsWith(QLatin1Char('+'))) {
        static const QRegularExpression separators(QStringLiteral("[ ().-]"));
        p.remove(separators);
        if (code.isEmpty() || p.isEmpty() || !p.at(0).isDigit())
            return {};
        if (p.startsWith(QLatin1String("00")))
            p = QLatin1Char('+') + p.mid(2); // the international prefix
        else
            p = QLatin1Char('+') + code + (p.startsWith(QLatin1Char('0')) ? p.mid(1) : p); // the trunk 0
    }
    QString digits;
    for (int i = 1; i < p.size(); ++i) {
        const QChar c = p.at(i);
        if (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
            digits.append(c);
        else if (c != QLatin1Char(' ') && c != QLatin1Char('-') && c != QLatin1Char('(') && c != QLatin1Char(')') &&
                 c != QLatin1Char('.'))
            return {};
    }
    // E.164: a country code that does not start with 0, at most 15 digits in all.
    if (digits.size() < 7 || digits.size() > 15 || digits.startsWith(QLatin1Char('0')))
        return {};
    return QLatin1Char('+') + digits;
}

QString ContactRules::tagKey(const QString &tag)
{
    return tag.trimmed().toLower();
}

QStringList ContactRules::normalizeTags(const QStringList &tags)
{
    QStringList out;
    QStringList keys;
    for (const QString &t : tags) {
        const QString tag = t.trimmed();
        const QString key = tagKey(tag);
        if (tag.isEmpty() || keys.contains(key))
            continue;
        keys << key;
        out << tag;
    }
    return out;
}

namespace {

// The rules of the values themselves, whoever filled them in (a request body, the window's form):
// lengths, the e-mail's form, the phone in its international form, the address parts, the tags, the
// lead score. Problems go into `r` (the first per field is kept).
void checkValues(ContactChanges &c, FieldReader &r);

// The bounds of ContactRules::kMaxCustomFields…: the count first, then each name and value, then
// the whole; one problem is reported.
void checkCustomFields(const QJsonObject &fields, FieldReader &r)
{
    const QString field = QStringLiteral("customFields");
    if (fields.size() > ContactRules::kMaxCustomFields) {
        r.fail(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must have at most %1 fields"),
                                {ContactRules::kMaxCustomFields}));
        return;
    }
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        if (it.key().isEmpty() || it.key().size() > ContactRules::kMaxCustomFieldName) {
            r.fail(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "field names must be 1 to %1 characters"),
                                    {ContactRules::kMaxCustomFieldName}));
            return;
        }
        const qsizetype size = it.value().isString()
                                   ? it.value().toString().size()
                                   : QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact).size() - 2;
        if (size > ContactRules::kMaxCustomFieldValue) {
            r.fail(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "the value of %1 must be at most %2 characters"),
                                    {it.key(), ContactRules::kMaxCustomFieldValue}));
            return;
        }
    }
    if (QJsonDocument(fields).toJson(QJsonDocument::Compact).size() > ContactRules::kMaxCustomFieldsBytes)
        r.fail(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 bytes as JSON"),
                                {ContactRules::kMaxCustomFieldsBytes}));
}

void checkValues(ContactChanges &c, FieldReader &r)
{
    r.limit(c.firstName, QStringLiteral("firstName"), 200);
    r.limit(c.lastName, QStringLiteral("lastName"), 200);
    r.limit(c.company, QStringLiteral("company"), 200);
    r.limit(c.position, QStringLiteral("position"), 200);
    r.limit(c.source, QStringLiteral("source"), 64);
    r.limit(c.email, QStringLiteral("email"), 254);
    r.limit(c.phone, QStringLiteral("phone"), 40);
    if (c.email && !c.email->isEmpty() && !ContactRules::isValidEmail(*c.email))
        r.fail(QStringLiteral("email"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid e-mail address")));
    if (c.phone && !c.phone->isEmpty()) {
        const QString callingCode = ContactRules::defaultCallingCode(); // read once: Settings → Contacts may change it
        const QString e164 = ContactRules::toE164(*c.phone, callingCode);
        if (!e164.isEmpty() && !c.phone->trimmed().startsWith(QLatin1Char('+')))
            c.phone = e164; // a national number: kept in its international form
        if (e164.isEmpty()) {
            r.fail(QStringLiteral("phone"),
                   c.phone->startsWith(QLatin1Char('+'))
                       ? ModelText(
                             QT_TRANSLATE_NOOP("ModelError", "must be an international number: + and 7 to 15 digits"))
                   : callingCode.isEmpty()
                       ? ModelText(QT_TRANSLATE_NOOP("ModelError", "must be in international format with a leading +"))
                       : ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid phone number")));
        }
    }
    if (c.address) {
        for (auto it = c.address->begin(); it != c.address->end(); ++it) {
            if (it.key() != QLatin1String("street") && it.key() != QLatin1String("city") &&
                it.key() != QLatin1String("country"))
                r.fail(QStringLiteral("address.") + it.key(),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "is not an address field")));
            else if (!it.value().isString())
                r.fail(QStringLiteral("address.") + it.key(),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
            else if (it.value().toString().size() > 200)
                r.fail(QStringLiteral("address.") + it.key(),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {200}));
        }
    }
    if (c.tags) {
        for (const QString &t : std::as_const(*c.tags)) {
            if (t.trimmed().size() > 64) {
                r.fail(
                    QStringLiteral("tags"),
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of strings of at most 64 characters")));
                break;
            }
        }
        if (c.tags->size() > 100)
            r.fail(QStringLiteral("tags"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must have at most %1 tags"), {100}));
        else
            c.tags = ContactRules::normalizeTags(*c.tags);
    }
    if (c.leadScore && (*c.leadScore < 0 || *c.leadScore > 100))
        r.fail(QStringLiteral("leadScore"),
               ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 100")));
    if (c.customFields)
        checkCustomFields(*c.customFields, r);
}

} // namespace

ContactChanges ContactRules::parse(const QJsonObject &body)
{
    FieldReader r(body);
    ContactChanges c;
    c.firstName = r.string("firstName", 200);
    c.lastName = r.string("lastName", 200);
    c.company = r.string("company", 200);
    c.position = r.string("position", 200);
    c.source = r.string("source", 64);
    c.email = r.string("email", 254);
    c.phone = r.string("phone", 40);

    if (body.contains(QLatin1String("address"))) {
        const QJsonValue v = body.value(QLatin1String("address"));
        if (v.isNull()) {
            c.address = QJsonObject();
        } else if (!v.isObject()) {
            r.fail(QStringLiteral("address"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object with street, city, country")));
        } else {
            // The parts as sent (null read as empty, text trimmed); checkValues() holds them to the
            // address fields, text, and their length.
            QJsonObject a = v.toObject();
            for (auto it = a.begin(); it != a.end(); ++it) {
                if (it.value().isNull() || it.value().isString())
                    it.value() = it.value().toString().trimmed();
            }
            c.address = a;
        }
    }

    if (body.contains(QLatin1String("tags"))) {
        const QJsonValue v = body.value(QLatin1String("tags"));
        QStringList tags;
        bool ok = v.isArray() || v.isNull();
        for (const QJsonValue &t : v.toArray()) {
            if (!t.isString()) {
                ok = false;
                break;
            }
            tags << t.toString();
        }
        if (!ok)
            r.fail(QStringLiteral("tags"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of strings of at most 64 characters")));
        else
            c.tags = tags;
    }

    if (body.contains(QLatin1String("customFields"))) {
        const QJsonValue v = body.value(QLatin1String("customFields"));
        if (v.isNull())
            c.customFields = QJsonObject();
        else if (!v.isObject())
            r.fail(QStringLiteral("customFields"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object")));
        else
            c.customFields = v.toObject();
    }

    if (body.contains(QLatin1String("leadScore"))) {
        const QJsonValue v = body.value(QLatin1String("leadScore"));
        const double d = v.toDouble(-1);
        if (v.isNull())
            c.leadScore = 0;
        else if (!v.isDouble() || d < 0 || d > 100 || d != std::floor(d))
            r.fail(QStringLiteral("leadScore"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 100")));
        else
            c.leadScore = int(d);
    }

    checkValues(c, r);
    r.throwIfAny();
    return c;
}

ContactChanges ContactRules::fromPhone(const QString &phone, const QString &source)
{
    ContactChanges c;
    c.firstName = phone;
    c.phone = phone;
    c.source = source;
    return c;
}

void ContactRules::check(ContactChanges &changes)
{
    FieldReader r;
    checkValues(changes, r);
    r.throwIfAny();
}

void ContactRules::checkRequired(const Contact &c)
{
    // "firstName or lastName is required": the second field named as an argument, read as its label.
    const auto orRequired = [](const char *other) {
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "or %1 is required"),
                         {ModelTextArg::field(QString::fromLatin1(other))});
    };
    FieldProblems errors;
    if (c.firstName.isEmpty() && c.lastName.isEmpty())
        errors.insert(QStringLiteral("firstName"), orRequired("lastName"));
    if (c.email.isEmpty() && c.phone.isEmpty())
        errors.insert(QStringLiteral("email"), orRequired("phone"));
    if (!errors.isEmpty())
        throw DomainError::missing(errors);
}

void ContactRules::apply(Contact &c, const ContactChanges &ch)
{
    if (ch.firstName)
        c.firstName = *ch.firstName;
    if (ch.lastName)
        c.lastName = *ch.lastName;
    if (ch.email)
        c.email = *ch.email;
    if (ch.phone)
        c.phone = *ch.phone;
    if (ch.company)
        c.company = *ch.company;
    if (ch.position)
        c.position = *ch.position;
    if (ch.source)
        c.source = *ch.source;
    if (ch.address)
        c.address = *ch.address;
    if (ch.customFields)
        c.customFields = *ch.customFields;
    if (ch.tags)
        c.tags = *ch.tags;
    if (ch.leadScore)
        c.leadScore = *ch.leadScore;
}
