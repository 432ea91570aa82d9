#include "model/assistant/knowledgesuggestions.h"

#include "model/assistant/knowledgeindex.h"
#include "model/assistant/knowledgerepository.h"
#include "model/assistant/textanalysis.h"
#include "model/core/database.h"
#include "model/core/errors.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace {

struct OpenQuestion
{
    QString id;
    QString question;
    QString language;
    QString reason;
    QString createdAt;
    QSet<QString> terms;
};

struct QuestionGroup
{
    int seed = 0; // index of its first (oldest) question
    QSet<QString> seedTerms;
    QVector<int> members; // oldest first
};

QSet<QString> termSet(const QString &text, const QString &language)
{
    const QStringList terms = TextAnalysis::terms(text, language);
    return QSet<QString>(terms.cbegin(), terms.cend());
}

QString wordingKey(const QString &text, const QString &language)
{
    return TextAnalysis::words(TextAnalysis::normalise(text, language)).join(QLatin1Char(' '));
}

KnowledgeSuggestion suggestionOf(const QVector<OpenQuestion> &questions, const QuestionGroup &g)
{
    KnowledgeSuggestion s;
    const OpenQuestion &seed = questions.at(g.seed);
    s.id = QStringLiteral("sug_") + seed.id;
    s.language = seed.language;
    s.count = int(g.members.size());
    s.firstSeen = seed.createdAt;
    s.lastSeen = questions.at(g.members.last()).createdAt;
    struct Wording
    {
        int count = 0;
        int last = 0; // position of its newest question
        QString text;
    };
    QHash<QString, Wording> wordings;
    for (int m : g.members) {
        const OpenQuestion &q = questions.at(m);
        Wording &w = wordings[wordingKey(q.question, q.language)];
        ++w.count;
        w.last = m;
        w.text = q.question;
        s.answerIds.append(q.id);
        ++s.reasons[q.reason];
    }
    QVector<Wording> ranked(wordings.cbegin(), wordings.cend());
    std::sort(ranked.begin(), ranked.end(), [](const Wording &a, const Wording &b) {
        return a.count != b.count ? a.count > b.count : a.last > b.last;
    });
    s.question = ranked.first().text;
    for (int i = 0; i < ranked.size() && i < KnowledgeSuggestions::kMaxExamples; ++i)
        s.examples.append(ranked.at(i).text);
    s.terms = termSet(s.question, s.language);
    return s;
}

} // namespace

QJsonObject KnowledgeSuggestion::toJson() const
{
    QJsonObject why;
    for (auto it = reasons.cbegin(); it != reasons.cend(); ++it)
        why.insert(it.key(), it.value());
    return {{QStringLiteral("id"), id},
            {QStringLiteral("language"), language},
            {QStringLiteral("question"), question},
            {QStringLiteral("examples"), QJsonArray::fromStringList(examples)},
            {QStringLiteral("count"), count},
            {QStringLiteral("firstSeen"), firstSeen},
            {QStringLiteral("lastSeen"), lastSeen},
            {QStringLiteral("reasons"), why}};
}

KnowledgeSuggestions::KnowledgeSuggestions(const Store &store, KnowledgeIndex &index, AssistantThresholds thresholds)
    : m_store(store)
    , m_index(index)
    , m_thresholds(thresholds)
{
}

double KnowledgeSuggestions::jaccard(const QSet<QString> &a, const QSet<QString> &b)
{
    if (a.isEmpty() && b.isEmpty())
        return 0;
    const QSet<QString> &small = a.size() <= b.size() ? a : b;
    const QSet<QString> &large = a.size() <= b.size() ? b : a;
    int shared = 0;
    for (const QString &t : small)
        shared += large.contains(t) ? 1 : 0;
    return double(shared) / double(a.size() + b.size() - shared);
}

QVector<KnowledgeSuggestion> KnowledgeSuggestions::list() const
{
    m_index.refresh(KnowledgeRepository(m_store));

    QVector<OpenQuestion> questions;
    QVector<QSet<QString>> dismissed;
    {
        const ReadTransaction snapshot;
        Database::select(
            QStringLiteral("SELECT id, question, language, reason, created_at FROM ai_answers WHERE decision = "
                           "'handoff' AND suggestion IS NULL AND reason IN ('missing_knowledge', 'low_confidence', "
                           "'ambiguous') ORDER BY seq DESC LIMIT ") +
                QString::number(kMaxQuestions),
            {}, [&](const SqlRow &r) {
                questions.append({r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), {}});
            });
        Database::select(QStringLiteral("SELECT terms FROM ai_dismissed ORDER BY seq"), {}, [&](const SqlRow &r) {
            QSet<QString> terms;
            for (const QJsonValue &t : QJsonDocument::fromJson(r.bytes(0)).array())
                terms.insert(t.toString());
            if (!terms.isEmpty())
                dismissed.append(terms);
        });
    }
    std::reverse(questions.begin(), questions.end()); // oldest first

    // Greedy grouping through an inverted index of the groups' first questions' terms.
    QVector<QuestionGroup> groups;
    QHash<QString, QVector<int>> byTerm; // language + '\n' + term -> groups
    for (int i = 0; i < questions.size(); ++i) {
        OpenQuestion &q = questions[i];
        q.terms = termSet(q.question, q.language);
        if (q.terms.isEmpty())
            continue;
        QSet<int> seen;
        int best = -1;
        double bestSimilarity = 0;
        for (const QString &t : std::as_const(q.terms)) {
            for (int g : byTerm.value(q.language + QLatin1Char('\n') + t)) {
                if (seen.contains(g))
                    continue;
                seen.insert(g);
                const double similarity = jaccard(q.terms, groups.at(g).seedTerms);
                if (similarity > bestSimilarity || (similarity == bestSimilarity && best >= 0 && g < best)) {
                    best = g;
                    bestSimilarity = similarity;
                }
            }
        }
        if (best >= 0 && bestSimilarity >= kJoinSimilarity) {
            groups[best].members.append(i);
            continue;
        }
        groups.append({i, q.terms, {i}});
        for (const QString &t : std::as_const(q.terms))
            byTerm[q.language + QLatin1Char('\n') + t].append(int(groups.size()) - 1);
    }

    QHash<QString, QVector<int>> dismissedByTerm;
    for (int d = 0; d < dismissed.size(); ++d) {
        for (const QString &t : dismissed.at(d))
            dismissedByTerm[t].append(d);
    }
    auto wasDismissed = [&](const QSet<QString> &terms) {
        QSet<int> seen;
        for (const QString &t : terms) {
            for (int d : dismissedByTerm.value(t)) {
                if (!seen.contains(d) && jaccard(terms, dismissed.at(d)) >= kJoinSimilarity)
                    return true;
                seen.insert(d);
            }
        }
        return false;
    };

    const Assistant assistant(m_index, m_thresholds);
    QVector<KnowledgeSuggestion> out;
    for (const QuestionGroup &g : std::as_const(groups)) {
        KnowledgeSuggestion s = suggestionOf(questions, g);
        if (wasDismissed(s.terms) || wasDismissed(g.seedTerms))
            continue;
        AssistantQuestion again;
        again.message = s.question;
        again.language = s.language;
        if (assistant.answer(again).answered)
            continue;
        out.append(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const KnowledgeSuggestion &a, const KnowledgeSuggestion &b) {
        if (a.count != b.count)
            return a.count > b.count;
        if (a.lastSeen != b.lastSeen)
            return a.lastSeen > b.lastSeen;
        return a.id < b.id;
    });
    return out;
}

KnowledgeSuggestion KnowledgeSuggestions::get(const QString &id) const
{
    for (KnowledgeSuggestion &s : list()) {
        if (s.id == id)
            return std::move(s);
    }
    throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Suggestion"), id);
}

void KnowledgeSuggestions::mark(const QStringList &answerIds, const QString &state) const
{
    constexpr int kChunk = 200;
    for (qsizetype start = 0; start < answerIds.size(); start += kChunk) {
        const QStringList chunk = answerIds.mid(start, kChunk);
        QVariantList values{state};
        for (const QString &id : chunk)
            values << id;
        QStringList marks;
        marks.fill(QStringLiteral("?"), chunk.size());
        Database::exec(QStringLiteral("UPDATE ai_answers SET suggestion = ? WHERE suggestion IS NULL AND id IN (") +
                           marks.join(QLatin1Char(',')) + QLatin1Char(')'),
                       values);
    }
}

KnowledgeEntry KnowledgeSuggestions::accept(const QString &id, KnowledgeChanges changes, const QString &actor)
{
    const KnowledgeSuggestion s = get(id);
    if (!changes.question)
        changes.question = s.question;
    if (!changes.language)
        changes.language = s.language;
    Transaction tx;
    const KnowledgeEntry entry = KnowledgeRepository(m_store).create(changes, actor);
    mark(s.answerIds, QStringLiteral("accepted"));
    m_store.notify(EventBus::Entity::AiAnswer, s.id, EventBus::Change::Updated);
    tx.commit();
    return entry;
}

KnowledgeSuggestion KnowledgeSuggestions::dismiss(const QString &id, const QString &actor)
{
    const KnowledgeSuggestion s = get(id);
    QStringList terms(s.terms.cbegin(), s.terms.cend());
    terms.sort();
    Transaction tx;
    mark(s.answerIds, QStringLiteral("dismissed"));
    Database::insert(
        QStringLiteral("INSERT INTO ai_dismissed (terms, question, created_by, created_at) VALUES (?, ?, ?, ?)"),
        {QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(terms)).toJson(QJsonDocument::Compact)), s.question,
         SqlValue::textOrNull(m_store.actorOr(actor)), m_store.nowIso()});
    m_store.notify(EventBus::Entity::AiAnswer, s.id, EventBus::Change::Updated);
    tx.commit();
    return s;
}
