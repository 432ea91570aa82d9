#include "model/inbox/templaterepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/ids.h"
#include "model/core/timeutil.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlQuery>

namespace {
const QString kColumns = QStringLiteral("id, name, language, category, body, buttons, status, created_at, updated_at");

MessageTemplate fromRow(const QSqlQuery &q)
{
    MessageTemplate t;
    t.id = q.value(0).toString();
    t.name = q.value(1).toString();
    t.language = q.value(2).toString();
    t.category = q.value(3).toString();
    t.body = q.value(4).toString();
    t.buttons = QJsonDocument::fromJson(q.value(5).toString().toUtf8()).array();
    t.status = q.value(6).toString();
    t.createdAt = q.value(7).toString();
    t.updatedAt = q.value(8).toString();
    return t;
}

DomainError bad(const QString &field, const QString &problem)
{
    return DomainError::badRequest(QStringLiteral("Invalid data: %1 %2").arg(field, problem), {{field, problem}});
}

// Reads and checks the fields present in body into t; `required` lists what must be present.
void readFields(const QJsonObject &body, MessageTemplate &t, bool creating)
{
    QJsonObject missing;
    auto string = [&](const QString &field, QString *out, int maxLength) {
        const QJsonValue v = body.value(field);
        if (v.isUndefined() || v.isNull()) {
            if (creating && out->isEmpty())
                missing.insert(field, QStringLiteral("is required"));
            return false;
        }
        if (!v.isString())
            throw bad(field, QStringLiteral("must be a string"));
        const QString s = v.toString().trimmed();
        if (s.isEmpty())
            missing.insert(field, QStringLiteral("must not be empty"));
        if (s.size() > maxLength)
            throw bad(field, QStringLiteral("must be at most %1 characters").arg(maxLength));
        *out = s;
        return true;
    };
    static const QRegularExpression name(QStringLiteral("^[a-z0-9_]{1,512}$"));
    static const QRegularExpression language(QStringLiteral("^[a-z]{2,3}(_[A-Z]{2})?$"));
    if (string(QStringLiteral("name"), &t.name, 512) && !name.match(t.name).hasMatch())
        throw bad(QStringLiteral("name"), QStringLiteral("must be lower-case letters, digits and _"));
    if (string(QStringLiteral("language"), &t.language, 10) && !language.match(t.language).hasMatch())
        throw bad(QStringLiteral("language"), QStringLiteral("must be a language code such as en_US or tr"));
    string(QStringLiteral("body"), &t.body, 1024);
    if (string(QStringLiteral("category"), &t.category, 20) && !TemplateRules::categories().contains(t.category))
        throw bad(QStringLiteral("category"), FieldReader::oneOf(TemplateRules::categories()));
    if (string(QStringLiteral("status"), &t.status, 20) && !TemplateRules::statuses().contains(t.status))
        throw bad(QStringLiteral("status"), FieldReader::oneOf(TemplateRules::statuses()));
    const QJsonValue buttons = body.value(QStringLiteral("buttons"));
    if (!buttons.isUndefined() && !buttons.isNull()) {
        if (!buttons.isArray() || buttons.toArray().size() > 10)
            throw bad(QStringLiteral("buttons"), QStringLiteral("must be an array of at most 10 buttons"));
        QJsonArray clean;
        for (const QJsonValue &b : buttons.toArray()) {
            const QJsonObject o = b.toObject();
            const QString text = o.value(QStringLiteral("text")).toString().trimmed();
            const QString type = o.value(QStringLiteral("type")).toString(QStringLiteral("quick_reply"));
            if (!b.isObject() || text.isEmpty() || text.size() > 25 || type != QLatin1String("quick_reply"))
                throw bad(QStringLiteral("buttons"),
                          QStringLiteral("must be objects {type: \"quick_reply\", text} with 1 to 25 characters"));
            clean.append(QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("text"), text}});
        }
        t.buttons = clean;
    }
    if (!missing.isEmpty())
        throw DomainError::unprocessable(
            QStringLiteral("Required field missing: %1").arg(missing.keys().join(QStringLiteral(", "))), missing);
    // Placeholders must run {{1}}..{{n}} without gaps.
    const int n = t.parameterCount();
    for (int i = 1; i <= n; ++i) {
        if (!t.body.contains(QStringLiteral("{{%1}}").arg(i)))
            throw bad(QStringLiteral("body"),
                      QStringLiteral("placeholders must be numbered {{1}} to {{%1}} without gaps").arg(n));
    }
}
} // namespace

QVector<MessageTemplate> TemplateRepository::list(const QString &status) const
{
    QVector<MessageTemplate> out;
    QSqlQuery q =
        status.isEmpty()
            ? Database::exec(QStringLiteral("SELECT ") + kColumns +
                             QStringLiteral(" FROM message_templates ORDER BY name, language"))
            : Database::exec(QStringLiteral("SELECT ") + kColumns +
                                 QStringLiteral(" FROM message_templates WHERE status = ? ORDER BY name, language"),
                             {status});
    while (q.next())
        out.append(fromRow(q));
    return out;
}

MessageTemplate TemplateRepository::get(const QString &id) const
{
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM message_templates WHERE id = ?"), {id});
    if (!q.next())
        throw DomainError::notFound(QStringLiteral("Template"), id);
    return fromRow(q);
}

std::optional<MessageTemplate> TemplateRepository::find(const QString &name, const QString &language) const
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kColumns +
                                     QStringLiteral(" FROM message_templates WHERE name = ? AND language = ?"),
                                 {name, language});
    if (!q.next())
        return std::nullopt;
    return fromRow(q);
}

MessageTemplate TemplateRepository::approved(const QString &name, const QString &language) const
{
    const std::optional<MessageTemplate> t = find(name, language);
    if (!t || t->status != QLatin1String("approved"))
        throw DomainError(DomainError::Unprocessable, QStringLiteral("TEMPLATE_NOT_APPROVED"),
                          t ? QStringLiteral("Template %1 (%2) is %3, not approved").arg(name, language, t->status)
                            : QStringLiteral("Template %1 (%2) is not an approved template").arg(name, language),
                          {{QStringLiteral("templateName"), QStringLiteral("not an approved template")}});
    return *t;
}

TemplateRepository::TemplateRepository(const Store &store)
    : m_store(store)
{
}

MessageTemplate TemplateRepository::create(const QJsonObject &body)
{
    MessageTemplate t;
    t.category = QStringLiteral("utility");
    t.status = QStringLiteral("approved");
    readFields(body, t, true);
    Transaction tx;
    if (find(t.name, t.language))
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          QStringLiteral("A template %1 (%2) already exists").arg(t.name, t.language),
                          {{QStringLiteral("name"), QStringLiteral("already exists in this language")}});
    t.id = Ids::make(u"tpl");
    t.createdAt = t.updatedAt = m_store.nowIso();
    Database::exec(QStringLiteral("INSERT INTO message_templates (id, name, language, category, body, buttons, status, "
                                  "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                   {t.id, t.name, t.language, t.category, t.body,
                    QString::fromUtf8(QJsonDocument(t.buttons).toJson(QJsonDocument::Compact)), t.status, t.createdAt,
                    t.updatedAt});
    tx.commit();
    return t;
}

MessageTemplate TemplateRepository::update(const QString &id, const QJsonObject &body)
{
    Transaction tx;
    MessageTemplate t = get(id);
    readFields(body, t, false);
    if (const std::optional<MessageTemplate> other = find(t.name, t.language); other && other->id != id)
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          QStringLiteral("A template %1 (%2) already exists").arg(t.name, t.language),
                          {{QStringLiteral("name"), QStringLiteral("already exists in this language")}});
    t.updatedAt = m_store.nowIso();
    Database::exec(QStringLiteral("UPDATE message_templates SET name = ?, language = ?, category = ?, body = ?, "
                                  "buttons = ?, status = ?, updated_at = ? WHERE id = ?"),
                   {t.name, t.language, t.category, t.body,
                    QString::fromUtf8(QJsonDocument(t.buttons).toJson(QJsonDocument::Compact)), t.status, t.updatedAt,
                    id});
    tx.commit();
    return t;
}

void TemplateRepository::remove(const QString &id)
{
    Transaction tx;
    get(id);
    Database::exec(QStringLiteral("DELETE FROM message_templates WHERE id = ?"), {id});
    tx.commit();
}
