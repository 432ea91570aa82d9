#include "model/assistant/assistant.h"

#include "model/assistant/textanalysis.h"

#include <QHash>
#include <QJsonArray>

#include <cmath>

namespace {

double rounded(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

QJsonArray sourcesJson(const QVector<AssistantReply::Source> &sources)
{
    QJsonArray out;
    for (const AssistantReply::Source &s : sources)
        out.append(QJsonObject{{QStringLiteral("entryId"), s.entryId},
                               {QStringLiteral("question"), s.question},
                               {QStringLiteral("score"), rounded(s.score)},
                               {QStringLiteral("confidence"), rounded(s.confidence)}});
    return out;
}

} // namespace

QJsonObject AssistantReply::toJson() const
{
    QJsonObject metadata{{QStringLiteral("languageDetected"), languageDetected},
                         {QStringLiteral("margin"), rounded(margin)},
                         {QStringLiteral("usedHistory"), usedHistory},
                         {QStringLiteral("entryId"), entryId.isEmpty() ? QJsonValue() : QJsonValue(entryId)}};
    if (otherLanguage)
        metadata.insert(QStringLiteral("otherLanguageMatch"),
                        QJsonObject{{QStringLiteral("language"), otherLanguage->language},
                                    {QStringLiteral("entryId"), otherLanguage->entryId},
                                    {QStringLiteral("confidence"), rounded(otherLanguage->confidence)}});
    return {{QStringLiteral("answer"), answer},
            {QStringLiteral("answered"), answered},
            {QStringLiteral("sources"), sourcesJson(sources)},
            {QStringLiteral("confidence"), rounded(confidence)},
            {QStringLiteral("language"), language},
            {QStringLiteral("handoff"),
             answered ? QJsonValue() : QJsonValue(QJsonObject{{QStringLiteral("reason"), handoffReason}})},
            {QStringLiteral("metadata"), metadata}};
}

QJsonObject AssistantReply::toTestJson(const AssistantThresholds &thresholds) const
{
    QJsonObject out = toJson();
    QJsonArray candidates;
    for (const KnowledgeIndex::Candidate &c : search.candidates)
        candidates.append(QJsonObject{{QStringLiteral("entryId"), c.entryId},
                                      {QStringLiteral("score"), rounded(c.score)},
                                      {QStringLiteral("coverage"), rounded(c.coverage)},
                                      {QStringLiteral("questionCoverage"), rounded(c.questionCoverage)},
                                      {QStringLiteral("confidence"), rounded(c.confidence)},
                                      {QStringLiteral("matchedTerms"), QJsonArray::fromStringList(c.matched)}});
    out.insert(QStringLiteral("candidates"), candidates);
    out.insert(QStringLiteral("decision"), answered ? QStringLiteral("answer") : QStringLiteral("handoff"));
    out.insert(QStringLiteral("terms"), QJsonArray::fromStringList(search.terms));
    out.insert(QStringLiteral("unknownWords"), QJsonArray::fromStringList(search.unknown));
    out.insert(QStringLiteral("thresholds"), QJsonObject{{QStringLiteral("answer"), thresholds.answer},
                                                         {QStringLiteral("margin"), thresholds.margin}});
    return out;
}

Assistant::Assistant(const KnowledgeIndex &index, AssistantThresholds thresholds)
    : m_index(index)
    , m_thresholds(thresholds)
{
}

QStringList Assistant::handoffReasons()
{
    return {QStringLiteral("missing_knowledge"), QStringLiteral("low_confidence"), QStringLiteral("ambiguous"),
            QStringLiteral("customer_request"), QStringLiteral("unsupported_language")};
}

QString Assistant::fallbackReply(const QString &reason, const QString &language)
{
    const bool person = reason == QLatin1String("customer_request");
    const QString tr = person ? QStringLiteral("Sizi hemen ekibimizden bir arkadaşımıza aktarıyorum.")
                              : QStringLiteral("Sorunuzu ekibimize iletiyorum; en kısa sürede size dönecekler.");
    const QString en =
        person ? QStringLiteral("I'm passing you to someone from our team now.")
               : QStringLiteral("I'm passing your question to our team; they will get back to you shortly.");
    if (language == QLatin1String("tr"))
        return tr;
    if (language == QLatin1String("en"))
        return en;
    return en + QLatin1Char('\n') + tr;
}

void Assistant::decide(AssistantReply &reply) const
{
    const QVector<KnowledgeIndex::Candidate> &c = reply.search.candidates;
    reply.sources.clear();
    for (int i = 0; i < c.size() && i < 3; ++i) {
        const std::shared_ptr<const KnowledgeEntry> e = m_index.entry(c.at(i).entryId);
        reply.sources.append({c.at(i).entryId, e ? e->question : QString(), c.at(i).score, c.at(i).confidence});
    }
    if (c.isEmpty()) {
        reply.answered = false;
        reply.handoffReason = QStringLiteral("missing_knowledge");
        reply.entryId.clear();
        reply.confidence = 0;
        reply.margin = 0;
        return;
    }
    const KnowledgeIndex::Candidate &best = c.first();
    const std::shared_ptr<const KnowledgeEntry> bestEntry = m_index.entry(best.entryId);
    reply.entryId = best.entryId;
    reply.confidence = best.confidence;
    // The runner-up: the next candidate with another answer (two entries that say the same do not
    // make a question ambiguous). The lead is in the ranking's own terms.
    reply.margin = 1;
    for (int i = 1; i < c.size(); ++i) {
        const std::shared_ptr<const KnowledgeEntry> e = m_index.entry(c.at(i).entryId);
        if (e && bestEntry && e->answer == bestEntry->answer)
            continue;
        reply.margin = best.rank > 0 ? std::max(0.0, (best.rank - c.at(i).rank) / best.rank) : 0;
        break;
    }
    if (best.confidence < m_thresholds.answer) {
        reply.answered = false;
        reply.handoffReason = best.confidence < m_thresholds.answer / 2 ? QStringLiteral("missing_knowledge")
                                                                        : QStringLiteral("low_confidence");
    } else if (reply.margin < m_thresholds.margin) {
        reply.answered = false;
        reply.handoffReason = QStringLiteral("ambiguous");
    } else {
        reply.answered = true;
        reply.handoffReason.clear();
    }
}

AssistantReply Assistant::answer(const AssistantQuestion &question) const
{
    AssistantReply reply;
    const QString message = question.message.trimmed();
    const QStringList known = m_index.languages();

    // The language: given, or read from the text; when the text does not tell, the language whose
    // entries answer it best.
    QString language = question.language.trimmed().toLower();
    QStringList tryLanguages;
    if (!language.isEmpty()) {
        tryLanguages << language;
    } else {
        reply.languageDetected = true;
        language = TextAnalysis::detectLanguage(message).language;
        if (language.isEmpty()) {
            for (const QString &l : TextAnalysis::supportedLanguages()) {
                if (known.contains(l))
                    tryLanguages << l;
            }
            if (tryLanguages.isEmpty())
                tryLanguages << TextAnalysis::supportedLanguages().first();
        } else {
            tryLanguages << language;
        }
    }
    const bool unsupported = language == QLatin1String("other") ||
                             (!TextAnalysis::isSupported(language) && !language.isEmpty() && !known.contains(language));

    // Each language's reading of the message, kept for the other-language match below.
    QHash<QString, AssistantReply> attempts;
    const AssistantReply blank = reply;
    auto attempt = [&](const QString &l) -> const AssistantReply & {
        auto it = attempts.find(l);
        if (it == attempts.end()) {
            AssistantReply a = blank;
            a.language = l;
            a.search = m_index.search(message, l);
            decide(a);
            it = attempts.insert(l, a);
        }
        return it.value();
    };
    for (const QString &l : std::as_const(tryLanguages)) {
        const AssistantReply &a = attempt(l);
        if (reply.language.isEmpty() || a.confidence > reply.confidence)
            reply = a;
    }
    if (unsupported) {
        reply.language = language == QLatin1String("other") ? QString() : language;
        reply.answered = false;
        reply.handoffReason = QStringLiteral("unsupported_language");
        reply.answer = fallbackReply(reply.handoffReason, reply.language);
        return reply;
    }

    // A short follow-up ("peki iade?", "peki ya o?") is read again with the customer's previous
    // message; a message with words the knowledge base does not hold asks something new.
    if (!reply.answered && !question.history.isEmpty() && reply.search.unknown.isEmpty()) {
        for (auto it = question.history.crbegin(); it != question.history.crend(); ++it) {
            if (it->role != QLatin1String("user") || it->content.trimmed().isEmpty())
                continue;
            AssistantReply again = reply;
            again.search = m_index.search(it->content + QLatin1Char(' ') + message, reply.language);
            decide(again);
            if (again.answered) {
                again.usedHistory = true;
                reply = again;
            }
            break;
        }
    }

    if (TextAnalysis::asksForPerson(message)) {
        reply.answered = false;
        reply.handoffReason = QStringLiteral("customer_request");
    }

    // When this language's entries do not answer, another supported language's might: said in the
    // metadata (the answer stays in the customer's language; a language model can phrase it).
    if (!reply.answered && reply.handoffReason != QLatin1String("customer_request")) {
        for (const QString &other : TextAnalysis::supportedLanguages()) {
            if (other == reply.language || !known.contains(other))
                continue;
            const AssistantReply &there = attempt(other);
            if (there.answered)
                reply.otherLanguage = AssistantReply::OtherLanguage{other, there.entryId, there.confidence};
        }
    }

    if (reply.answered) {
        const std::shared_ptr<const KnowledgeEntry> e = m_index.entry(reply.entryId);
        reply.answer = e ? e->answer : QString();
    } else {
        reply.answer = fallbackReply(reply.handoffReason, reply.language);
    }
    return reply;
}
