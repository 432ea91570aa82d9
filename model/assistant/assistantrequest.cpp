#include "model/assistant/assistantrequest.h"

#include "model/core/fieldreader.h"

#include <QJsonArray>
#include <QRegularExpression>

QStringList AssistantRules::roles()
{
    return {QStringLiteral("user"), QStringLiteral("assistant")};
}

namespace {

const QRegularExpression &assistantLanguageCode()
{
    static const QRegularExpression re(QStringLiteral("^[a-z]{2,3}(-[a-z0-9]{2,8})?$"));
    return re;
}

QString questionText(const FieldReader &r, const QString &name)
{
    const QString text = r.requiredString(name).trimmed();
    if (text.size() > AssistantRules::kMaxMessage)
        throw DomainError::invalid(name, FieldReader::atMost(AssistantRules::kMaxMessage));
    return text;
}

QVector<ChatTurn> historyOf(const QJsonValue &value)
{
    QVector<ChatTurn> turns;
    if (value.isUndefined() || value.isNull())
        return turns;
    if (!value.isArray())
        throw DomainError::invalid(QStringLiteral("history"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array")));
    const QJsonArray list = value.toArray();
    if (list.size() > AssistantRules::kMaxHistory)
        throw DomainError::invalid(
            QStringLiteral("history"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must hold at most %1 turns"), {AssistantRules::kMaxHistory}));
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString key = QStringLiteral("history[%1]").arg(i);
        if (!list.at(i).isObject())
            throw DomainError::invalid(key,
                                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object {role, content}")));
        const QJsonObject turn = list.at(i).toObject();
        const QJsonValue role = turn.value(QLatin1String("role"));
        if (!role.isString() || !AssistantRules::roles().contains(role.toString()))
            throw DomainError::invalid(key + QStringLiteral(".role"), FieldReader::oneOf(AssistantRules::roles()));
        const QJsonValue content = turn.value(QLatin1String("content"));
        if (!content.isString())
            throw DomainError::invalid(key + QStringLiteral(".content"), FieldReader::mustBeString());
        if (content.toString().size() > AssistantRules::kMaxMessage)
            throw DomainError::invalid(key + QStringLiteral(".content"),
                                       FieldReader::atMost(AssistantRules::kMaxMessage));
        turns.append({role.toString(), content.toString()});
    }
    return turns;
}

} // namespace

AssistantRequest AssistantRules::parse(const QJsonObject &body)
{
    const FieldReader r(body);
    AssistantRequest out;
    out.question.message = questionText(r, QStringLiteral("message"));
    QString language =
        r.optionalText(QStringLiteral("language"), 16).toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
    if (!language.isEmpty() && !assistantLanguageCode().match(language).hasMatch())
        throw DomainError::invalid(
            QStringLiteral("language"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a language code such as tr or en")));
    out.question.language = language;
    out.conversationId = r.optionalText(QStringLiteral("conversationId"), 64);
    out.question.history = historyOf(r.value(QStringLiteral("history")));
    return out;
}
