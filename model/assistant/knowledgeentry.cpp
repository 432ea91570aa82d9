#include "model/assistant/knowledgeentry.h"

#include "model/core/csv.h"
#include "model/core/fieldreader.h"

#include <QJsonArray>
#include <QRegularExpression>

QJsonObject KnowledgeEntry::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("type"), type},
            {QStringLiteral("language"), language},
            {QStringLiteral("question"), question},
            {QStringLiteral("answer"), answer},
            {QStringLiteral("tags"), QJsonArray::fromStringList(tags)},
            {QStringLiteral("createdBy"), createdBy.isEmpty() ? QJsonValue() : QJsonValue(createdBy)},
            {QStringLiteral("createdAt"), createdAt},
            {QStringLiteral("updatedAt"), updatedAt}};
}

QJsonObject KnowledgeImportReport::toJson() const
{
    QJsonArray list;
    for (const Problem &p : problems)
        list.append(QJsonObject{{QStringLiteral("line"), p.line},
                                {QStringLiteral("field"), p.field.isEmpty() ? QJsonValue() : QJsonValue(p.field)},
                                {QStringLiteral("code"), p.code},
                                {QStringLiteral("message"), p.message}});
    return {{QStringLiteral("rows"), rows},           {QStringLiteral("created"), created},
            {QStringLiteral("updated"), updated},     {QStringLiteral("skipped"), skipped},
            {QStringLiteral("cancelled"), cancelled}, {QStringLiteral("problems"), list}};
}

QStringList KnowledgeRules::types()
{
    return {QStringLiteral("faq"), QStringLiteral("article"), QStringLiteral("snippet")};
}

namespace {

const QRegularExpression &languageCode()
{
    static const QRegularExpression re(QStringLiteral("^[a-z]{2,3}(-[a-z0-9]{2,8})?$"));
    return re;
}

void checkInto(FieldReader &r, KnowledgeChanges &ch, bool creating)
{
    r.limit(ch.question, QStringLiteral("question"), KnowledgeRules::kMaxQuestion);
    r.limit(ch.answer, QStringLiteral("answer"), KnowledgeRules::kMaxAnswer);
    r.limit(ch.type, QStringLiteral("type"), 64);
    if (ch.type) {
        *ch.type = ch.type->toLower();
        if (ch.type->isEmpty())
            ch.type.reset();
    }
    r.among(ch.type, QStringLiteral("type"), KnowledgeRules::types());
    r.limit(ch.language, QStringLiteral("language"), 16);
    if (ch.language) {
        *ch.language = ch.language->toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
        if (!ch.language->isEmpty() && !languageCode().match(*ch.language).hasMatch()) {
            r.fail(QStringLiteral("language"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a language code such as tr or en")));
            ch.language.reset();
        }
    }
    if (ch.tags) {
        QStringList clean;
        for (const QString &t : *ch.tags) {
            const QString tag = t.trimmed().toLower();
            if (tag.isEmpty() || clean.contains(tag))
                continue;
            if (tag.size() > KnowledgeRules::kMaxTag) {
                r.fail(QStringLiteral("tags"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "a tag must be at most %1 characters"),
                                 {KnowledgeRules::kMaxTag}));
                break;
            }
            clean.append(tag);
        }
        if (clean.size() > KnowledgeRules::kMaxTags)
            r.fail(QStringLiteral("tags"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must hold at most %1 tags"), {KnowledgeRules::kMaxTags}));
        *ch.tags = clean;
    }
    for (auto [value, name] :
         {std::pair{&ch.question, "question"}, std::pair{&ch.answer, "answer"}, std::pair{&ch.language, "language"}}) {
        const bool blank = value->has_value() && (*value)->isEmpty();
        if ((creating && !value->has_value() && !r.errors().contains(QLatin1String(name))) || blank)
            r.missing(QLatin1String(name));
    }
    r.throwIfAny();
}

} // namespace

void KnowledgeRules::check(KnowledgeChanges &changes, bool creating)
{
    FieldReader r;
    checkInto(r, changes, creating);
}

KnowledgeChanges KnowledgeRules::parse(const QJsonObject &body, bool creating)
{
    FieldReader r(body);
    KnowledgeChanges ch;
    ch.type = r.string("type", 64, true);
    ch.language = r.string("language", 16, true);
    ch.question = r.string("question", kMaxQuestion, true);
    ch.answer = r.string("answer", kMaxAnswer, true);
    if (r.has(QStringLiteral("tags"))) {
        const QJsonValue v = r.value(QStringLiteral("tags"));
        if (v.isNull()) {
            ch.tags = QStringList();
        } else if (!v.isArray()) {
            r.fail(QStringLiteral("tags"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of strings")));
        } else {
            QStringList tags;
            bool ok = true;
            for (const QJsonValue &t : v.toArray()) {
                ok = ok && t.isString();
                tags.append(t.toString());
            }
            if (ok)
                ch.tags = tags;
            else
                r.fail(QStringLiteral("tags"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of strings")));
        }
    }
    checkInto(r, ch, creating);
    return ch;
}

QStringList KnowledgeRules::csvColumns()
{
    return {QStringLiteral("id"),       QStringLiteral("type"),   QStringLiteral("language"),
            QStringLiteral("question"), QStringLiteral("answer"), QStringLiteral("tags")};
}

QString KnowledgeRules::csvRow(const KnowledgeEntry &e)
{
    return Csv::line({e.id, e.type, e.language, e.question, e.answer, e.tags.join(QLatin1Char(';'))});
}
