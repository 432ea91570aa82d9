#include "model/inbox/messagetemplate.h"

#include "model/core/errors.h"

#include <QJsonDocument>
#include <QRegularExpression>

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
        return DomainError::badRequest(QStringLiteral("Invalid data: %1 %2").arg(field, problem), {{field, problem}});
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
