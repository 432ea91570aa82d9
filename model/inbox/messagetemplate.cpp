#include "model/inbox/messagetemplate.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <functional>

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

namespace {
DomainError badTemplate(const QString &field, const ModelText &problem)
{
    return DomainError::invalid(field, problem);
}

// A field as given: absent, or its text (a reader refuses other types as it reads).
using FieldSource = std::function<std::optional<QString>(const QString &field)>;
using ButtonSource = std::function<std::optional<QStringList>()>;

// The rules of every template write, field by field in a fixed order, so that a body and typed
// changes meet the same first refusal. Missing or empty fields are collected and refused together
// after the others.
TemplateChanges checkFields(const FieldSource &field, const ButtonSource &buttons, bool creating)
{
    TemplateChanges out;
    FieldProblems missing;
    auto string = [&](const QString &name, int maxLength, bool required) -> std::optional<QString> {
        const std::optional<QString> v = field(name);
        if (!v) {
            if (creating && required)
                missing.insert(name, DomainError::isRequired());
            return std::nullopt;
        }
        const QString s = v->trimmed();
        if (s.isEmpty())
            missing.insert(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must not be empty")));
        if (s.size() > maxLength)
            throw badTemplate(name,
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {maxLength}));
        return s;
    };
    static const QRegularExpression name(QStringLiteral("^[a-z0-9_]{1,512}$"));
    static const QRegularExpression language(QStringLiteral("^[a-z]{2,3}(_[A-Z]{2})?$"));
    out.name = string(QStringLiteral("name"), 512, true);
    if (out.name && !name.match(*out.name).hasMatch())
        throw badTemplate(QStringLiteral("name"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "must be lower-case letters, digits and _")));
    out.language = string(QStringLiteral("language"), 10, true);
    if (out.language && !language.match(*out.language).hasMatch())
        throw badTemplate(QStringLiteral("language"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a language code such as en_US or tr")));
    out.body = string(QStringLiteral("body"), 1024, true);
    out.category = string(QStringLiteral("category"), 20, false);
    if (out.category && !TemplateRules::categories().contains(*out.category))
        throw badTemplate(QStringLiteral("category"), FieldReader::oneOf(TemplateRules::categories()));
    out.status = string(QStringLiteral("status"), 20, false);
    if (out.status && !TemplateRules::statuses().contains(*out.status))
        throw badTemplate(QStringLiteral("status"), FieldReader::oneOf(TemplateRules::statuses()));
    out.buttons = buttons();
    if (out.buttons) {
        if (out.buttons->size() > 10)
            throw badTemplate(QStringLiteral("buttons"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of at most %1 buttons"), {10}));
        for (QString &text : *out.buttons) {
            text = text.trimmed();
            if (text.isEmpty() || text.size() > 25)
                throw badTemplate(
                    QStringLiteral("buttons"),
                    ModelText(QT_TRANSLATE_NOOP(
                        "ModelError", "must be objects {type: \"quick_reply\", text} with 1 to 25 characters")));
        }
    }
    if (!missing.isEmpty())
        throw DomainError::missingFields(missing);
    return out;
}
} // namespace

TemplateChanges TemplateRules::parse(const QJsonObject &body, bool creating)
{
    const FieldSource field = [&body](const QString &name) -> std::optional<QString> {
        const QJsonValue v = body.value(name);
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isString())
            throw badTemplate(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
        return v.toString();
    };
    const ButtonSource buttons = [&body]() -> std::optional<QStringList> {
        const QJsonValue v = body.value(QStringLiteral("buttons"));
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isArray() || v.toArray().size() > 10)
            throw badTemplate(QStringLiteral("buttons"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of at most %1 buttons"), {10}));
        QStringList texts;
        for (const QJsonValue &b : v.toArray()) {
            const QJsonObject o = b.toObject();
            const QString text = o.value(QStringLiteral("text")).toString().trimmed();
            const QString type = o.value(QStringLiteral("type")).toString(QStringLiteral("quick_reply"));
            if (!b.isObject() || text.isEmpty() || text.size() > 25 || type != QLatin1String("quick_reply"))
                throw badTemplate(
                    QStringLiteral("buttons"),
                    ModelText(QT_TRANSLATE_NOOP(
                        "ModelError", "must be objects {type: \"quick_reply\", text} with 1 to 25 characters")));
            texts << text;
        }
        return texts;
    };
    return checkFields(field, buttons, creating);
}

void TemplateRules::check(TemplateChanges &changes, bool creating)
{
    const FieldSource field = [&changes](const QString &name) -> std::optional<QString> {
        if (name == QLatin1String("name"))
            return changes.name;
        if (name == QLatin1String("language"))
            return changes.language;
        if (name == QLatin1String("body"))
            return changes.body;
        if (name == QLatin1String("category"))
            return changes.category;
        return changes.status;
    };
    changes = checkFields(
        field, [&changes] { return changes.buttons; }, creating);
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
    auto fail = [](int index, const ModelText &problem) {
        const QString field = index < 0 ? QStringLiteral("components") : QStringLiteral("components[%1]").arg(index);
        return DomainError::invalid(field, problem);
    };
    if (!components.isUndefined() && !components.isNull() && !components.isArray())
        throw fail(-1, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array")));
    QStringList parameters;
    bool sawBody = false;
    const QJsonArray list = components.toArray();
    if (list.size() > 20)
        throw fail(-1, ModelText(QT_TRANSLATE_NOOP("ModelError", "must hold at most %1 components"), {20}));
    for (int i = 0; i < list.size(); ++i) {
        if (!list.at(i).isObject())
            throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object")));
        const QJsonObject c = list.at(i).toObject();
        const QString type = c.value(QStringLiteral("type")).toString();
        const QJsonValue params = c.value(QStringLiteral("parameters"));
        if (!params.isUndefined() && !params.isArray())
            throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError", "parameters must be an array")));
        if (type == QLatin1String("body")) {
            if (sawBody)
                throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError", "repeats the body component")));
            sawBody = true;
            for (const QJsonValue &p : params.toArray()) {
                const QJsonObject o = p.toObject();
                if (o.value(QStringLiteral("type")).toString() != QLatin1String("text") ||
                    !o.value(QStringLiteral("text")).isString())
                    throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError",
                                                              "body parameters must be {type: \"text\", text}")));
                const QString text = o.value(QStringLiteral("text")).toString();
                if (text.size() > 1024)
                    throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError",
                                                              "a body parameter is longer than 1024 characters")));
                parameters << text;
            }
        } else if (type == QLatin1String("button")) {
            if (c.value(QStringLiteral("sub_type")).toString() != QLatin1String("quick_reply"))
                throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError", "sub_type must be quick_reply")));
            const QJsonValue index = c.value(QStringLiteral("index"));
            const int at = index.isString() ? index.toString().toInt() : index.toInt(-1);
            if ((!index.isDouble() && !index.isString()) || at < 0 || at >= tpl.buttons.size())
                throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError",
                                                          "index must name one of the template's %1 buttons (from 0)"),
                                        {tpl.buttons.size()}));
            const QJsonArray ps = params.toArray();
            if (ps.size() != 1 ||
                ps.first().toObject().value(QStringLiteral("type")).toString() != QLatin1String("payload") ||
                !ps.first().toObject().value(QStringLiteral("payload")).isString())
                throw fail(i,
                           ModelText(QT_TRANSLATE_NOOP(
                               "ModelError", "a quick_reply button takes one parameter {type: \"payload\", payload}")));
        } else {
            throw fail(i, ModelText(QT_TRANSLATE_NOOP("ModelError", "type must be body or button")));
        }
    }
    if (parameters.size() != tpl.parameterCount())
        throw fail(-1, ModelText(QT_TRANSLATE_NOOP("ModelError", "template %1 (%2) needs %3 body parameters, got %4"),
                                 {tpl.name, tpl.language, tpl.parameterCount(), parameters.size()}));
    QString text = tpl.body;
    // From the highest number down, so that {{1}} does not eat the start of {{10}}.
    for (int i = parameters.size(); i >= 1; --i)
        text.replace(QStringLiteral("{{%1}}").arg(i), parameters.at(i - 1));
    return text;
}
