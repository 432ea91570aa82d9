#include "model/inbox/messagetemplate.h"

#include "model/core/database.h"
#include "model/core/errors.h"
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
    return DomainError(DomainError::BadRequest, QStringLiteral("VALIDATION_ERROR"),
                       QStringLiteral("Invalid data: %1 %2").arg(field, problem), {{field, problem}});
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
        throw bad(QStringLiteral("category"),
                  QStringLiteral("must be one of %1").arg(TemplateRules::categories().join(QStringLiteral(", "))));
    if (string(QStringLiteral("status"), &t.status, 20) && !TemplateRules::statuses().contains(t.status))
        throw bad(QStringLiteral("status"),
                  QStringLiteral("must be one of %1").arg(TemplateRules::statuses().join(QStringLiteral(", "))));
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
        throw DomainError(DomainError::Unprocessable, QStringLiteral("VALIDATION_ERROR"),
                          QStringLiteral("Required field missing: %1").arg(missing.keys().join(QStringLiteral(", "))),
                          missing);
    // Placeholders must run {{1}}..{{n}} without gaps.
    const int n = t.parameterCount();
    for (int i = 1; i <= n; ++i) {
        if (!t.body.contains(QStringLiteral("{{%1}}").arg(i)))
            throw bad(QStringLiteral("body"),
                      QStringLiteral("placeholders must be numbered {{1}} to {{%1}} without gaps").arg(n));
    }
}
} // namespace

QJsonObject MessageTemplate::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("name"), name},
            {QStringLiteral("language"), language},
            {QStringLiteral("category"), category},
            {QStringLiteral("body"), body},
            {QStringLiteral("buttons"), buttons},
            {QStringLiteral("parameterCount"), parameterCount()},
            {QStringLiteral("status"), status},
            {QStringLiteral("createdAt"), createdAt},
            {QStringLiteral("updatedAt"), updatedAt}};
}

int MessageTemplate::parameterCount() const
{
    static const QRegularExpression re(QStringLiteral("\\{\\{(\\d{1,2})\\}\\}"));
    int highest = 0;
    auto it = re.globalMatch(body);
    while (it.hasNext())
        highest = qMax(highest, it.next().captured(1).toInt());
    return highest;
}

QStringList TemplateRules::categories()
{
    return {QStringLiteral("marketing"), QStringLiteral("utility"), QStringLiteral("authentication")};
}

QStringList TemplateRules::statuses()
{
    return {QStringLiteral("approved"), QStringLiteral("pending"), QStringLiteral("rejected")};
}

QString TemplateRules::render(const MessageTemplate &tpl, const QJsonValue &components)
{
    auto fail = [](int index, const QString &problem) {
        const QString field = index < 0 ? QStringLiteral("components") : QStringLiteral("components[%1]").arg(index);
        return DomainError(DomainError::BadRequest, QStringLiteral("VALIDATION_ERROR"),
                           QStringLiteral("Invalid data: %1 %2").arg(field, problem), {{field, problem}});
    };
    if (!components.isUndefined() && !components.isNull() && !components.isArray())
        throw fail(-1, QStringLiteral("must be an array"));
    QStringList parameters;
    bool sawBody = false;
    const QJsonArray list = components.toArray();
    if (list.size() > 20)
        throw fail(-1, QStringLiteral("must hold at most 20 components"));
    for (int i = 0; i < list.size(); ++i) {
        if (!list.at(i).isObject())
            throw fail(i, QStringLiteral("must be an object"));
        const QJsonObject c = list.at(i).toObject();
        const QString type = c.value(QStringLiteral("type")).toString();
        const QJsonValue params = c.value(QStringLiteral("parameters"));
        if (!params.isUndefined() && !params.isArray())
            throw fail(i, QStringLiteral("parameters must be an array"));
        if (type == QLatin1String("body")) {
            if (sawBody)
                throw fail(i, QStringLiteral("repeats the body component"));
            sawBody = true;
            for (const QJsonValue &p : params.toArray()) {
                const QJsonObject o = p.toObject();
                if (o.value(QStringLiteral("type")).toString() != QLatin1String("text") ||
                    !o.value(QStringLiteral("text")).isString())
                    throw fail(i, QStringLiteral("body parameters must be {type: \"text\", text}"));
                const QString text = o.value(QStringLiteral("text")).toString();
                if (text.size() > 1024)
                    throw fail(i, QStringLiteral("a body parameter is longer than 1024 characters"));
                parameters << text;
            }
        } else if (type == QLatin1String("button")) {
            if (c.value(QStringLiteral("sub_type")).toString() != QLatin1String("quick_reply"))
                throw fail(i, QStringLiteral("sub_type must be quick_reply"));
            const QJsonValue index = c.value(QStringLiteral("index"));
            const int at = index.isString() ? index.toString().toInt() : index.toInt(-1);
            if ((!index.isDouble() && !index.isString()) || at < 0 || at >= tpl.buttons.size())
                throw fail(i, QStringLiteral("index must name one of the template's %1 buttons (from 0)")
                                  .arg(tpl.buttons.size()));
            const QJsonArray ps = params.toArray();
            if (ps.size() != 1 ||
                ps.first().toObject().value(QStringLiteral("type")).toString() != QLatin1String("payload") ||
                !ps.first().toObject().value(QStringLiteral("payload")).isString())
                throw fail(i, QStringLiteral("a quick_reply button takes one parameter {type: \"payload\", payload}"));
        } else {
            throw fail(i, QStringLiteral("type must be body or button"));
        }
    }
    if (parameters.size() != tpl.parameterCount())
        throw fail(-1, QStringLiteral("template %1 (%2) needs %3 body parameters, got %4")
                           .arg(tpl.name, tpl.language)
                           .arg(tpl.parameterCount())
                           .arg(parameters.size()));
    QString text = tpl.body;
    // From the highest number down, so that {{1}} does not eat the start of {{10}}.
    for (int i = parameters.size(); i >= 1; --i)
        text.replace(QStringLiteral("{{%1}}").arg(i), parameters.at(i - 1));
    return text;
}

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
    t.createdAt = t.updatedAt = TimeUtil::iso(QDateTime::currentDateTimeUtc());
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
    t.updatedAt = TimeUtil::iso(QDateTime::currentDateTimeUtc());
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
