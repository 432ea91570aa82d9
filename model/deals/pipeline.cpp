#include "model/deals/pipeline.h"

#include "model/core/errors.h"
#include "model/core/textfold.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

QJsonObject PipelineStage::toJson() const
{
    return QJsonObject{{QStringLiteral("key"), key},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("position"), position},
                       {QStringLiteral("probability"), probability},
                       {QStringLiteral("rottenDays"), rottenDays > 0 ? QJsonValue(rottenDays) : QJsonValue()},
                       {QStringLiteral("type"), kind}};
}

const PipelineStage *Pipeline::stage(const QString &key) const
{
    for (const PipelineStage &s : stages) {
        if (s.key == key)
            return &s;
    }
    return nullptr;
}

QStringList Pipeline::stageKeys() const
{
    QStringList out;
    for (const PipelineStage &s : stages)
        out << s.key;
    return out;
}

QJsonObject Pipeline::toJson() const
{
    QJsonArray s;
    for (const PipelineStage &st : stages)
        s.append(st.toJson());
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("isDefault"), isDefault},
                       {QStringLiteral("stages"), s},
                       {QStringLiteral("createdAt"), createdAt},
                       {QStringLiteral("updatedAt"), updatedAt}};
}

namespace {
[[noreturn]] void badRequest(const QString &field, const ModelText &message)
{
    throw DomainError::invalid(field, message);
}

[[noreturn]] void missing(const QString &field, const ModelText &message = DomainError::isRequired())
{
    throw DomainError::missing(field, message);
}

// "Proposal Made" -> "proposal_made", "İlk görüşme" -> "ilk_gorusme": the key a stage gets when it
// is named only, folded as search folds (Turkish letters and accents to their plain Latin ones).
QString slug(const QString &name)
{
    QString out;
    for (QChar c : TextFold::fold(name)) {
        if ((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')))
            out.append(c);
        else if (!out.isEmpty() && !out.endsWith(QLatin1Char('_')))
            out.append(QLatin1Char('_'));
    }
    while (out.endsWith(QLatin1Char('_')))
        out.chop(1);
    return out.left(40);
}

bool isKey(const QString &key)
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9_]{1,40}$"));
    return re.match(key).hasMatch();
}

QString stageField(int i)
{
    return QStringLiteral("stages[%1]").arg(i);
}

const ModelText kProbabilityRule(QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 100"));
const ModelText kRottenRule(QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 3650 (0: never)"));

// The pipeline's name, trimmed: required, at most 100 characters.
QString checkName(const QString &given)
{
    const QString n = given.trimmed();
    if (n.isEmpty())
        missing(QStringLiteral("name"));
    if (n.size() > 100)
        badRequest(QStringLiteral("name"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {100}));
    return n;
}

// A stage's key and name (the key made from the name when not given), checked against the keys
// before it.
void checkStageNames(int i, PipelineStageChange &s, QSet<QString> &keys)
{
    const QString field = stageField(i);
    s.name = s.name.trimmed();
    s.key = s.key.trimmed();
    if (s.key.isEmpty())
        s.key = slug(s.name);
    if (s.name.isEmpty())
        s.name = s.key;
    if (s.key.isEmpty())
        missing(field + QStringLiteral(".name"));
    if (!isKey(s.key))
        badRequest(
            field + QStringLiteral(".key"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be 1 to 40 lower-case letters, digits or underscores")));
    if (s.name.size() > 100)
        badRequest(field + QStringLiteral(".name"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {100}));
    if (keys.contains(s.key))
        badRequest(field + QStringLiteral(".key"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "repeats the stage %1"), {s.key}));
    keys.insert(s.key);
}

void checkProbability(int i, const std::optional<int> &p)
{
    if (p && (*p < 0 || *p > 100))
        badRequest(stageField(i) + QStringLiteral(".probability"), kProbabilityRule);
}

void checkRottenDays(int i, const std::optional<int> &days)
{
    if (days && (*days < 0 || *days > 3650))
        badRequest(stageField(i) + QStringLiteral(".rottenDays"), kRottenRule);
}

bool isClosing(const QString &key)
{
    return key == QLatin1String("won") || key == QLatin1String("lost");
}

// What the whole list must have: one open stage at least, 30 at most.
void checkStageCount(const QVector<PipelineStageChange> &stages)
{
    const qsizetype open =
        std::count_if(stages.begin(), stages.end(), [](const PipelineStageChange &s) { return !isClosing(s.key); });
    if (open == 0)
        missing(QStringLiteral("stages"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "needs at least one open stage besides won and lost")));
    if (open > 30)
        badRequest(QStringLiteral("stages"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must have at most 30 open stages")));
}

// An integer from a body, or the refusal `rule` for the field (whatever else it is).
std::optional<int> wholeNumber(const QJsonValue &v, const QString &field, const ModelText &rule)
{
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d != std::floor(d) || d < -1e9 || d > 1e9)
        badRequest(field, rule);
    return int(d);
}

QVector<PipelineStageChange> parseStages(const QJsonValue &value)
{
    if (!value.isArray())
        badRequest(QStringLiteral("stages"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of stage objects")));
    const QJsonArray array = value.toArray();
    QVector<PipelineStageChange> out;
    QSet<QString> keys;
    for (int i = 0; i < array.size(); ++i) {
        const QString field = stageField(i);
        if (!array.at(i).isObject())
            badRequest(field, ModelText(QT_TRANSLATE_NOOP(
                                  "ModelError", "must be an object with name, key, probability, rottenDays")));
        const QJsonObject o = array.at(i).toObject();
        const QJsonValue nameValue = o.value(QLatin1String("name"));
        const QJsonValue keyValue = o.value(QLatin1String("key"));
        if ((!nameValue.isUndefined() && !nameValue.isString()) || (!keyValue.isUndefined() && !keyValue.isString()))
            badRequest(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "name and key must be strings")));
        PipelineStageChange s;
        s.name = nameValue.toString();
        s.key = keyValue.toString();
        checkStageNames(i, s, keys);
        s.probability = wholeNumber(o.value(QLatin1String("probability")), field + QStringLiteral(".probability"),
                                    kProbabilityRule);
        checkProbability(i, s.probability);
        s.rottenDays =
            wholeNumber(o.value(QLatin1String("rottenDays")), field + QStringLiteral(".rottenDays"), kRottenRule);
        checkRottenDays(i, s.rottenDays);
        out.append(s);
    }
    checkStageCount(out);
    return out;
}

std::optional<QString> parseName(const QJsonObject &body, bool required)
{
    const QJsonValue v = body.value(QLatin1String("name"));
    if (v.isUndefined() && !required)
        return std::nullopt;
    if (!v.isUndefined() && !v.isNull() && !v.isString())
        badRequest(QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
    return checkName(v.toString());
}

std::optional<bool> parseIsDefault(const QJsonObject &body)
{
    const QJsonValue v = body.value(QLatin1String("isDefault"));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isBool())
        badRequest(QStringLiteral("isDefault"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a boolean")));
    return v.toBool();
}
} // namespace

PipelineChanges PipelineRules::parse(const QJsonObject &body, bool creating)
{
    PipelineChanges ch;
    ch.name = parseName(body, creating);
    const QJsonValue stages = body.value(QLatin1String("stages"));
    if (creating) {
        // A new pipeline: name, stages, then isDefault, in that order.
        if (stages.isUndefined() || stages.isNull())
            missing(QStringLiteral("stages"));
        ch.stages = parseStages(stages);
        ch.isDefault = parseIsDefault(body);
    } else {
        ch.isDefault = parseIsDefault(body);
        if (!stages.isUndefined())
            ch.stages = parseStages(stages);
    }
    return ch;
}

void PipelineRules::check(PipelineChanges &changes, bool creating)
{
    if (changes.name || creating)
        changes.name = checkName(changes.name.value_or(QString()));
    if (!changes.stages) {
        if (creating)
            missing(QStringLiteral("stages"));
        return;
    }
    QVector<PipelineStageChange> &stages = *changes.stages;
    QSet<QString> keys;
    for (int i = 0; i < stages.size(); ++i) {
        checkStageNames(i, stages[i], keys);
        checkProbability(i, stages[i].probability);
        checkRottenDays(i, stages[i].rottenDays);
    }
    checkStageCount(stages);
}

QVector<PipelineStage> PipelineRules::stages(const QVector<PipelineStageChange> &changes)
{
    QVector<PipelineStage> open;
    PipelineStage won{QStringLiteral("won"), QStringLiteral("Won"), 0, 100, 0, QStringLiteral("won")};
    PipelineStage lost{QStringLiteral("lost"), QStringLiteral("Lost"), 0, 0, 0, QStringLiteral("lost")};
    for (const PipelineStageChange &c : changes) {
        if (c.key == QLatin1String("won")) {
            won.name = c.name;
        } else if (c.key == QLatin1String("lost")) {
            lost.name = c.name;
        } else {
            PipelineStage st;
            st.key = c.key;
            st.name = c.name;
            st.probability = c.probability.value_or(-1);
            st.rottenDays = c.rottenDays.value_or(0);
            st.kind = QStringLiteral("open");
            open.append(st);
        }
    }
    // A stage without a probability gets one spread evenly between 0 and 100 by its position.
    for (int i = 0; i < open.size(); ++i) {
        if (open[i].probability < 0)
            open[i].probability = (i + 1) * 100 / (int(open.size()) + 1);
    }
    open << won << lost;
    for (int i = 0; i < open.size(); ++i)
        open[i].position = i;
    return open;
}
