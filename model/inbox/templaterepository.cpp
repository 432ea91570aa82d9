#include "model/inbox/templaterepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/ids.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlQuery>

namespace {
const QString kTemplateColumns =
    QStringLiteral("id, name, language, category, body, buttons, status, created_at, updated_at");

MessageTemplate templateFromRow(SqlRowReader r)
{
    MessageTemplate t;
    t.id = r.text();
    t.name = r.text();
    t.language = r.text();
    t.category = r.text();
    t.body = r.text();
    t.buttons = QJsonDocument::fromJson(r.bytes()).array();
    t.status = r.text();
    t.createdAt = r.text();
    t.updatedAt = r.text();
    return t;
}

DomainError badTemplateField(const QString &field, const ModelText &problem)
{
    return DomainError::invalid(field, problem);
}

// Checks the changes (TemplateRules::check) and applies them to t; then the placeholders of the
// resulting body must run {{1}}..{{n}} without gaps.
void apply(TemplateChanges ch, MessageTemplate &t, bool creating)
{
    TemplateRules::check(ch, creating);
    for (auto [value, field] :
         {std::pair{&ch.name, &t.name}, std::pair{&ch.language, &t.language}, std::pair{&ch.body, &t.body},
          std::pair{&ch.category, &t.category}, std::pair{&ch.status, &t.status}}) {
        if (*value)
            *field = **value;
    }
    if (ch.buttons) {
        QJsonArray clean;
        for (const QString &text : *ch.buttons)
            clean.append(
                QJsonObject{{QStringLiteral("type"), QStringLiteral("quick_reply")}, {QStringLiteral("text"), text}});
        t.buttons = clean;
    }
    const int n = t.parameterCount();
    for (int i = 1; i <= n; ++i) {
        if (!t.body.contains(QStringLiteral("{{%1}}").arg(i)))
            throw badTemplateField(
                QStringLiteral("body"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "placeholders must be numbered {{1}} to {{%1}} without gaps"),
                          {n}));
    }
}
} // namespace

QVector<MessageTemplate> TemplateRepository::list(const QString &status) const
{
    QVector<MessageTemplate> out;
    QSqlQuery q =
        status.isEmpty()
            ? Database::exec(QStringLiteral("SELECT ") + kTemplateColumns +
                             QStringLiteral(" FROM message_templates ORDER BY name, language"))
            : Database::exec(QStringLiteral("SELECT ") + kTemplateColumns +
                                 QStringLiteral(" FROM message_templates WHERE status = ? ORDER BY name, language"),
                             {status});
    while (q.next())
        out.append(templateFromRow(q));
    return out;
}

MessageTemplate TemplateRepository::get(const QString &id) const
{
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT ") + kTemplateColumns + QStringLiteral(" FROM message_templates WHERE id = ?"), {id});
    if (!q.next())
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Template"), id);
    return templateFromRow(q);
}

std::optional<MessageTemplate> TemplateRepository::find(const QString &name, const QString &language) const
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kTemplateColumns +
                                     QStringLiteral(" FROM message_templates WHERE name = ? AND language = ?"),
                                 {name, language});
    if (!q.next())
        return std::nullopt;
    return templateFromRow(q);
}

MessageTemplate TemplateRepository::approved(const QString &name, const QString &language) const
{
    const std::optional<MessageTemplate> t = find(name, language);
    if (!t || t->status != QLatin1String("approved"))
        throw DomainError(
            DomainError::Unprocessable, QStringLiteral("TEMPLATE_NOT_APPROVED"),
            t ? ModelText(QT_TRANSLATE_NOOP("ModelError", "Template %1 (%2) is %3, not approved"),
                          {name, language, t->status})
              : ModelText(QT_TRANSLATE_NOOP("ModelError", "Template %1 (%2) is not an approved template"),
                          {name, language}),
            {{QStringLiteral("templateName"), ModelText(QT_TRANSLATE_NOOP("ModelError", "not an approved template"))}});
    return *t;
}

TemplateRepository::TemplateRepository(const Store &store)
    : m_store(store)
{
}

MessageTemplate TemplateRepository::create(const TemplateChanges &changes)
{
    MessageTemplate t;
    t.category = QStringLiteral("utility");
    t.status = QStringLiteral("approved");
    apply(changes, t, true);
    Transaction tx;
    if (find(t.name, t.language))
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "A template %1 (%2) already exists"), {t.name, t.language}),
            {{QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already exists in this language"))}});
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

MessageTemplate TemplateRepository::update(const QString &id, const TemplateChanges &changes)
{
    Transaction tx;
    MessageTemplate t = get(id);
    apply(changes, t, false);
    if (const std::optional<MessageTemplate> other = find(t.name, t.language); other && other->id != id)
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "A template %1 (%2) already exists"), {t.name, t.language}),
            {{QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already exists in this language"))}});
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
