#include "model/assistant/aianswerrepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/ids.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace {

const QString kAiAnswerColumns =
    QStringLiteral("a.seq, a.id, a.question, a.language, a.decision, a.reason, a.confidence, a.entry_id, a.sources, "
                   "a.answer, a.mode, a.channel, a.conversation_id, a.message_id, a.suggestion, a.created_at");

AiAnswer aiAnswerFromRow(SqlRowReader r)
{
    AiAnswer a;
    a.seq = r.integer();
    a.id = r.text();
    a.question = r.text();
    a.language = r.text();
    a.decision = r.text();
    a.reason = r.text();
    a.confidence = r.real();
    a.entryId = r.text();
    a.sources = QJsonDocument::fromJson(r.bytes()).array();
    a.answer = r.text();
    a.mode = r.text();
    a.channel = r.text();
    a.conversationId = r.text();
    a.messageId = r.text();
    a.suggestion = r.text();
    a.createdAt = r.text();
    return a;
}

const QString kAiFeedbackColumns =
    QStringLiteral("f.answer_id, f.message_id, f.user_id, f.feedback_type, f.rating, f.positive, f.reason, f.comment, "
                   "f.created_at, f.updated_at");

AiFeedback aiFeedbackFromRow(SqlRowReader r)
{
    AiFeedback f;
    f.answerId = r.text();
    f.messageId = r.text();
    f.userId = r.text();
    f.feedbackType = r.text();
    f.rating = int(r.integer());
    f.positive = int(r.integer());
    f.reason = r.text();
    f.comment = r.text();
    f.createdAt = r.text();
    f.updatedAt = r.text();
    return f;
}

QJsonValue aiTextOrNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

double aiRounded(double v, double scale)
{
    return std::round(v * scale) / scale;
}

double aiPercent(int part, int whole)
{
    return whole > 0 ? aiRounded(100.0 * part / whole, 10) : 0.0;
}

QJsonValue aiOptional(const std::optional<double> &v)
{
    return v ? QJsonValue(aiRounded(*v, 1000)) : QJsonValue();
}

} // namespace

QJsonObject AiAnswer::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("question"), question},
            {QStringLiteral("language"), language},
            {QStringLiteral("decision"), decision},
            {QStringLiteral("reason"), aiTextOrNull(reason)},
            {QStringLiteral("confidence"), aiRounded(confidence, 1000)},
            {QStringLiteral("entryId"), aiTextOrNull(entryId)},
            {QStringLiteral("sources"), sources},
            {QStringLiteral("answer"), answer},
            {QStringLiteral("mode"), mode},
            {QStringLiteral("channel"), aiTextOrNull(channel)},
            {QStringLiteral("conversationId"), aiTextOrNull(conversationId)},
            {QStringLiteral("messageId"), aiTextOrNull(messageId)},
            {QStringLiteral("suggestion"), aiTextOrNull(suggestion)},
            {QStringLiteral("createdAt"), createdAt}};
}

QJsonObject AiFeedback::toJson() const
{
    return {{QStringLiteral("answerId"), answerId},
            {QStringLiteral("messageId"), messageId},
            {QStringLiteral("userId"), userId},
            {QStringLiteral("feedbackType"), feedbackType},
            {QStringLiteral("rating"), rating},
            {QStringLiteral("positive"), positive},
            {QStringLiteral("reason"), aiTextOrNull(reason)},
            {QStringLiteral("comment"), aiTextOrNull(comment)},
            {QStringLiteral("createdAt"), createdAt},
            {QStringLiteral("updatedAt"), updatedAt}};
}

QStringList AiFeedbackRules::types()
{
    return {QStringLiteral("THUMBS"), QStringLiteral("SCALE")};
}

QStringList AiFeedbackRules::reasons()
{
    return {QStringLiteral("incorrect"), QStringLiteral("incomplete"), QStringLiteral("outdated"),
            QStringLiteral("inappropriate"), QStringLiteral("other")};
}

int AiFeedbackRules::positiveOf(const QString &feedbackType, int rating)
{
    if (feedbackType == QLatin1String("THUMBS"))
        return rating > 0 ? 1 : -1;
    return rating >= 4 ? 1 : rating <= 2 ? -1 : 0;
}

AiFeedbackInput AiFeedbackRules::parse(const QJsonObject &body)
{
    FieldReader r(body);
    AiFeedbackInput in;
    const std::optional<QString> messageId = r.string("messageId", 64, true);
    std::optional<QString> type = r.string("feedbackType", 16, true);
    if (type) {
        *type = type->toUpper();
        r.among(type, QStringLiteral("feedbackType"), types());
    }
    std::optional<int> rating;
    const QJsonValue ratingValue = r.value(QStringLiteral("rating"));
    if (!ratingValue.isUndefined() && !ratingValue.isNull()) {
        const double v = ratingValue.toDouble();
        if (!ratingValue.isDouble() || v != std::floor(v) || std::abs(v) > 100)
            r.fail(QStringLiteral("rating"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an integer")));
        else
            rating = int(v);
    }
    if (rating && type && *type == QLatin1String("THUMBS") && *rating != 1 && *rating != -1)
        r.fail(QStringLiteral("rating"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be 1 or -1 for THUMBS")));
    if (rating && type && *type == QLatin1String("SCALE") && (*rating < 1 || *rating > 5))
        r.fail(QStringLiteral("rating"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be 1 to 5 for SCALE")));
    std::optional<QString> reason = r.string("reason", 64, true);
    if (reason)
        *reason = reason->toLower();
    r.among(reason, QStringLiteral("reason"), reasons());
    const std::optional<QString> comment = r.string("comment", kMaxComment, true);
    if (!messageId || messageId->isEmpty())
        r.missing(QStringLiteral("messageId"));
    if ((!type || type->isEmpty()) && !r.errors().contains(QStringLiteral("feedbackType")))
        r.missing(QStringLiteral("feedbackType"));
    if (!rating && !r.errors().contains(QStringLiteral("rating")))
        r.missing(QStringLiteral("rating"));
    r.throwIfAny();
    in.messageId = *messageId;
    in.feedbackType = *type;
    in.rating = *rating;
    in.reason = reason.value_or(QString());
    in.comment = comment.value_or(QString());
    return in;
}

AiAnswerRepository::AiAnswerRepository(const Store &store)
    : m_store(store)
{
}

AiAnswer AiAnswerRepository::record(const QString &question, const AssistantReply &reply, const AiAnswerOrigin &origin)
{
    AiAnswer a;
    a.id = Ids::make(u"aia");
    a.question = question.trimmed();
    a.language = reply.language;
    a.decision = reply.answered ? QStringLiteral("answered") : QStringLiteral("handoff");
    a.reason = reply.answered ? QString() : reply.handoffReason;
    a.confidence = reply.confidence;
    a.entryId = reply.entryId;
    for (const AssistantReply::Source &s : reply.sources)
        a.sources.append(QJsonObject{{QStringLiteral("entryId"), s.entryId},
                                     {QStringLiteral("question"), s.question},
                                     {QStringLiteral("score"), aiRounded(s.score, 1000)},
                                     {QStringLiteral("confidence"), aiRounded(s.confidence, 1000)}});
    a.answer = reply.answer;
    a.mode = origin.mode;
    a.channel = origin.channel;
    a.conversationId = origin.conversationId;
    a.messageId = origin.messageId;
    a.createdAt = m_store.nowIso();
    Transaction tx;
    a.seq = Database::insert(
        QStringLiteral("INSERT INTO ai_answers (id, question, language, decision, reason, confidence, entry_id, "
                       "sources, answer, mode, channel, conversation_id, message_id, created_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {a.id, SqlValue::text(a.question), SqlValue::text(a.language), a.decision, SqlValue::textOrNull(a.reason),
         a.confidence, SqlValue::textOrNull(a.entryId),
         QString::fromUtf8(QJsonDocument(a.sources).toJson(QJsonDocument::Compact)), SqlValue::text(a.answer), a.mode,
         SqlValue::textOrNull(a.channel), SqlValue::textOrNull(a.conversationId), SqlValue::textOrNull(a.messageId),
         a.createdAt});
    m_store.notify(EventBus::Entity::AiAnswer, a.id, EventBus::Change::Created);
    tx.commit();
    return a;
}

std::optional<AiAnswer> AiAnswerRepository::find(const QString &id) const
{
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT ") + kAiAnswerColumns + QStringLiteral(" FROM ai_answers a WHERE a.id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    return aiAnswerFromRow(q);
}

AiAnswer AiAnswerRepository::resolve(const QString &messageId) const
{
    if (std::optional<AiAnswer> a = find(messageId))
        return *a;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kAiAnswerColumns +
                                     QStringLiteral(" FROM ai_answers a WHERE a.message_id = ? ORDER BY a.seq DESC "
                                                    "LIMIT 1"),
                                 {messageId});
    if (!q.next())
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "AI answer"), messageId);
    return aiAnswerFromRow(q);
}

AiAnswerRepository::FeedbackResult AiAnswerRepository::giveFeedback(const AiFeedbackInput &input, const QString &userId)
{
    Transaction tx;
    const AiAnswer answer = resolve(input.messageId);
    const QString now = m_store.nowIso();
    FeedbackResult out;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT seq FROM ai_feedback WHERE answer_id = ? AND user_id = ?"), {answer.id, userId});
        out.replaced = q.next();
    }
    // The unique (answer, user) decides between two first feedbacks given at once (copies of one
    // database): the later one replaces the earlier.
    Database::exec(
        QStringLiteral("INSERT INTO ai_feedback (answer_id, message_id, user_id, feedback_type, rating, positive, "
                       "reason, comment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (answer_id, user_id) DO UPDATE SET message_id = excluded.message_id, "
                       "feedback_type = excluded.feedback_type, rating = excluded.rating, positive = "
                       "excluded.positive, reason = excluded.reason, comment = excluded.comment, updated_at = "
                       "excluded.updated_at"),
        {answer.id, input.messageId, userId, input.feedbackType, input.rating,
         AiFeedbackRules::positiveOf(input.feedbackType, input.rating), SqlValue::textOrNull(input.reason),
         SqlValue::textOrNull(input.comment), now, now});
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kAiFeedbackColumns +
                                     QStringLiteral(" FROM ai_feedback f WHERE f.answer_id = ? AND f.user_id = ?"),
                                 {answer.id, userId});
    if (!q.next())
        throw DatabaseError("ai_feedback: the row just written is not there");
    out.feedback = aiFeedbackFromRow(q);
    q.finish();
    m_store.notify(EventBus::Entity::AiAnswer, answer.id, EventBus::Change::Updated);
    tx.commit();
    return out;
}

std::optional<AiFeedback> AiAnswerRepository::feedbackOf(const QString &messageId, const QString &userId) const
{
    QString answerId;
    if (find(messageId)) {
        answerId = messageId;
    } else {
        const QHash<QString, AiMessageAnswer> byMessage = messageAnswers({messageId}, userId);
        return byMessage.contains(messageId) ? byMessage.value(messageId).feedback : std::nullopt;
    }
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kAiFeedbackColumns +
                                     QStringLiteral(" FROM ai_feedback f WHERE f.answer_id = ? AND f.user_id = ?"),
                                 {answerId, userId});
    if (!q.next())
        return std::nullopt;
    return aiFeedbackFromRow(q);
}

QHash<QString, AiMessageAnswer> AiAnswerRepository::messageAnswers(const QStringList &messageIds,
                                                                   const QString &userId) const
{
    QHash<QString, AiMessageAnswer> out;
    if (messageIds.isEmpty())
        return out;
    QVariantList values{userId};
    QStringList marks;
    for (const QString &id : messageIds) {
        values << id;
        marks << QStringLiteral("?");
    }
    // Oldest first: a later answer that became the same message takes its place, as in resolve().
    // The feedback's columns first (all NULL when the user gave none), then the answer's.
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT ") + kAiFeedbackColumns +
            QStringLiteral(", a.message_id, a.id FROM ai_answers a LEFT JOIN ai_feedback f ON f.answer_id = a.id "
                           "AND f.user_id = ? WHERE a.message_id IN (%1) ORDER BY a.seq")
                .arg(marks.join(QStringLiteral(", "))),
        values);
    while (q.next()) {
        const SqlRow row(q);
        AiMessageAnswer answer;
        if (!row.isNull(0))
            answer.feedback = aiFeedbackFromRow(q);
        const int next = kAiFeedbackColumns.count(QLatin1Char(',')) + 1;
        answer.answerId = row.text(next + 1);
        out.insert(row.text(next), answer);
    }
    return out;
}

AiStats AiAnswerRepository::stats(const QDateTime &from, const QDateTime &to, const QTimeZone &tz,
                                  int openSuggestions) const
{
    if (!(from < to))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The period must end after it starts")),
            {{QStringLiteral("to"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be after from"))}});
    if (from.daysTo(to) > AiStats::kMaxDays)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The period must be at most %1 days long"), {AiStats::kMaxDays}),
            {{QStringLiteral("from"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 days before to"), {AiStats::kMaxDays})}});
    AiStats s;
    s.from = from;
    s.to = to;
    s.openSuggestions = openSuggestions;
    const QVariantList range{TimeUtil::iso(from), TimeUtil::iso(to)};
    const QString inRange = QStringLiteral("a.created_at >= ? AND a.created_at < ?");
    const ReadTransaction snapshot; // the figures agree with each other

    double confidence = 0;
    Database::select(QStringLiteral("SELECT a.decision, a.reason, count(*), sum(a.confidence) FROM ai_answers a "
                                    "WHERE ") +
                         inRange + QStringLiteral(" GROUP BY a.decision, a.reason"),
                     range, [&](const SqlRow &r) {
                         const int n = int(r.integer(2));
                         s.total += n;
                         confidence += r.real(3);
                         if (r.text(0) == QLatin1String("answered")) {
                             s.answered += n;
                         } else {
                             s.handedOff += n;
                             s.handoffReasons[r.text(1)] += n;
                         }
                     });
    s.answerRate = aiPercent(s.answered, s.total);
    s.handoffRate = aiPercent(s.handedOff, s.total);
    if (s.total > 0)
        s.averageConfidence = confidence / s.total;

    // Per day in tz, from the hours (UTC) the answers were given in.
    QMap<QDate, AiStats::Day> days;
    for (QDate d = from.toTimeZone(tz).date(), last = to.addMSecs(-1).toTimeZone(tz).date(); d <= last;
         d = d.addDays(1))
        days.insert(d, {d, 0, 0});
    Database::select(
        QStringLiteral("SELECT substr(a.created_at, 1, 13), a.decision, count(*) FROM ai_answers a WHERE ") + inRange +
            QStringLiteral(" GROUP BY substr(a.created_at, 1, 13), a.decision"),
        range, [&](const SqlRow &r) {
            const QDateTime hour = QDateTime::fromString(r.text(0) + QStringLiteral(":00:00Z"), Qt::ISODate);
            auto it = days.find(hour.toTimeZone(tz).date());
            if (it == days.end())
                return;
            (r.text(1) == QLatin1String("answered") ? it->answered : it->handedOff) += int(r.integer(2));
        });
    s.daily = days.values();

    int scaleCount = 0;
    double scaleSum = 0;
    Database::select(QStringLiteral("SELECT f.feedback_type, f.positive, count(*), sum(f.rating) FROM ai_feedback f "
                                    "JOIN ai_answers a ON a.id = f.answer_id WHERE ") +
                         inRange + QStringLiteral(" GROUP BY f.feedback_type, f.positive"),
                     range, [&](const SqlRow &r) {
                         const int n = int(r.integer(2));
                         s.feedback.total += n;
                         if (r.integer(1) > 0)
                             s.feedback.positive += n;
                         else if (r.integer(1) < 0)
                             s.feedback.negative += n;
                         if (r.text(0) == QLatin1String("SCALE")) {
                             scaleCount += n;
                             scaleSum += r.real(3);
                         }
                     });
    if (s.feedback.total > 0)
        s.feedback.positiveRatio = aiRounded(double(s.feedback.positive) / s.feedback.total, 1000);
    if (scaleCount > 0)
        s.feedback.averageRating = scaleSum / scaleCount;

    Database::select(QStringLiteral("SELECT a.entry_id, max(k.question), count(*) FROM ai_answers a LEFT JOIN "
                                    "knowledge_entries k ON k.id = a.entry_id WHERE ") +
                         inRange +
                         QStringLiteral(" AND a.decision = 'answered' AND a.entry_id IS NOT NULL GROUP BY a.entry_id "
                                        "ORDER BY count(*) DESC, a.entry_id LIMIT ") +
                         QString::number(AiStats::kTop),
                     range, [&](const SqlRow &r) {
                         s.topEntries.append({r.text(0), r.text(1), int(r.integer(2))});
                     });

    QVector<AiStats::EntryFeedback> worst;
    Database::select(
        QStringLiteral("SELECT a.entry_id, max(k.question), sum(CASE WHEN f.positive < 0 THEN 1 ELSE 0 END), "
                       "sum(CASE WHEN f.positive > 0 THEN 1 ELSE 0 END), count(*) FROM ai_feedback f JOIN ai_answers a "
                       "ON a.id = f.answer_id LEFT JOIN knowledge_entries k ON k.id = a.entry_id WHERE ") +
            inRange +
            QStringLiteral(" AND a.decision = 'answered' AND a.entry_id IS NOT NULL GROUP BY a.entry_id HAVING "
                           "sum(CASE WHEN f.positive < 0 THEN 1 ELSE 0 END) > 0"),
        range, [&](const SqlRow &r) {
            AiStats::EntryFeedback e{r.text(0), r.text(1), int(r.integer(2)), int(r.integer(3)), int(r.integer(4)), 0};
            e.negativeRatio = aiRounded(double(e.negative) / e.total, 1000);
            worst.append(e);
        });
    std::sort(worst.begin(), worst.end(), [](const AiStats::EntryFeedback &a, const AiStats::EntryFeedback &b) {
        if (a.negative != b.negative)
            return a.negative > b.negative;
        if (a.negativeRatio != b.negativeRatio)
            return a.negativeRatio > b.negativeRatio;
        return a.entryId < b.entryId;
    });
    s.worstEntries = worst.mid(0, AiStats::kTop);
    return s;
}

QJsonObject AiStats::toJson() const
{
    QJsonObject reasons;
    for (auto it = handoffReasons.cbegin(); it != handoffReasons.cend(); ++it)
        reasons.insert(it.key(), it.value());
    QJsonArray top;
    for (const EntryUse &e : topEntries)
        top.append(QJsonObject{{QStringLiteral("entryId"), e.entryId},
                               {QStringLiteral("question"), aiTextOrNull(e.question)},
                               {QStringLiteral("count"), e.count}});
    QJsonArray worst;
    for (const EntryFeedback &e : worstEntries)
        worst.append(QJsonObject{{QStringLiteral("entryId"), e.entryId},
                                 {QStringLiteral("question"), aiTextOrNull(e.question)},
                                 {QStringLiteral("negative"), e.negative},
                                 {QStringLiteral("positive"), e.positive},
                                 {QStringLiteral("total"), e.total},
                                 {QStringLiteral("negativeRatio"), e.negativeRatio}});
    QJsonArray perDay;
    for (const Day &d : daily)
        perDay.append(QJsonObject{{QStringLiteral("date"), d.date.toString(Qt::ISODate)},
                                  {QStringLiteral("answered"), d.answered},
                                  {QStringLiteral("handedOff"), d.handedOff}});
    return {{QStringLiteral("from"), TimeUtil::iso(from)},
            {QStringLiteral("to"), TimeUtil::iso(to)},
            {QStringLiteral("answers"), QJsonObject{{QStringLiteral("total"), total},
                                                    {QStringLiteral("answered"), answered},
                                                    {QStringLiteral("handedOff"), handedOff},
                                                    {QStringLiteral("answerRate"), answerRate},
                                                    {QStringLiteral("handoffRate"), handoffRate}}},
            {QStringLiteral("handoffReasons"), reasons},
            {QStringLiteral("averageConfidence"), aiOptional(averageConfidence)},
            {QStringLiteral("feedback"),
             QJsonObject{{QStringLiteral("total"), feedback.total},
                         {QStringLiteral("positive"), feedback.positive},
                         {QStringLiteral("negative"), feedback.negative},
                         {QStringLiteral("positiveRatio"), feedback.positiveRatio},
                         {QStringLiteral("averageRating"), aiOptional(feedback.averageRating)}}},
            {QStringLiteral("topEntries"), top},
            {QStringLiteral("worstEntries"), worst},
            {QStringLiteral("openSuggestions"), openSuggestions},
            {QStringLiteral("daily"), perDay}};
}
