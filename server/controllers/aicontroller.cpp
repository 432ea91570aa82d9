#include "server/controllers/aicontroller.h"

#include "messaging/media/mediaservice.h"
#include "model/accounts/apikeyrepository.h"
#include "model/assistant/assistanthandoff.h"
#include "model/assistant/assistantrequest.h"
#include "model/assistant/knowledgeindex.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/timeutil.h"
#include "model/inbox/conversationrepository.h"
#include "server/api/multipart.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"
#include "server/api/uploadform.h"

#include <QJsonArray>

using namespace Schema;

namespace {

QJsonObject aiEnumOf(const QStringList &values)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                       {QStringLiteral("enum"), QJsonArray::fromStringList(values)}};
}

// The media types a CSV file comes as, alone or as the form's file part (browsers name it after the
// spreadsheet program, or not at all).
bool isCsvType(const QByteArray &mimeType)
{
    return mimeType.isEmpty() || mimeType.startsWith("text/") || mimeType == "application/csv" ||
           mimeType == "application/vnd.ms-excel" || mimeType == "application/octet-stream";
}

DomainError notCsv()
{
    return DomainError(DomainError::BadRequest, QStringLiteral("UNSUPPORTED_MEDIA_TYPE"),
                       ModelText(QT_TRANSLATE_NOOP(
                           "ModelError", "This endpoint takes a CSV file: send it as the body with "
                                         "Content-Type text/csv, or as the file part of multipart/form-data")));
}

QByteArray mediaTypeOf(const QByteArray &contentType)
{
    const qsizetype semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.left(semi)).trimmed().toLower();
}

} // namespace

AiController::AiController(const Store &store, std::shared_ptr<KnowledgeIndex> index, AssistantThresholds thresholds,
                           LanguageModelConfig model, QTimeZone tz, std::shared_ptr<MediaService> media)
    : m_store(store)
    , m_index(std::move(index))
    , m_thresholds(thresholds)
    , m_tz(std::move(tz))
    , m_media(std::move(media))
    , m_knowledge(store)
    , m_answers(store)
    , m_suggestions(store, *m_index, thresholds)
    , m_responder(store, m_index, thresholds, std::move(model))
{
}

QJsonObject AiController::schemas() const
{
    const QJsonObject source = object({{QStringLiteral("entryId"), string()},
                                       {QStringLiteral("question"), string()},
                                       {QStringLiteral("score"), number()},
                                       {QStringLiteral("confidence"), number()}});
    const QJsonObject person = object({{QStringLiteral("id"), string()}, {QStringLiteral("name"), string()}});
    const QJsonObject handoff = nullable(object({{QStringLiteral("reason"), aiEnumOf(Assistant::handoffReasons())},
                                                 {QStringLiteral("assignedTo"), nullable(person)}},
                                                {QStringLiteral("reason")}));
    const QJsonObject metadata =
        object({{QStringLiteral("languageDetected"), boolean()},
                {QStringLiteral("margin"), number()},
                {QStringLiteral("usedHistory"), boolean()},
                {QStringLiteral("entryId"), nullable(string())},
                {QStringLiteral("otherLanguageMatch"), object({{QStringLiteral("language"), string()},
                                                               {QStringLiteral("entryId"), string()},
                                                               {QStringLiteral("confidence"), number()}})}});
    const QJsonObject replyProps{{QStringLiteral("answer"), string()},       {QStringLiteral("answered"), boolean()},
                                 {QStringLiteral("sources"), array(source)}, {QStringLiteral("confidence"), number()},
                                 {QStringLiteral("language"), string()},     {QStringLiteral("handoff"), handoff},
                                 {QStringLiteral("metadata"), metadata}};
    QJsonObject chatProps = replyProps;
    chatProps.insert(QStringLiteral("id"), string());
    chatProps.insert(QStringLiteral("conversationId"), nullable(string()));
    QJsonObject testProps = replyProps;
    testProps.insert(QStringLiteral("decision"), aiEnumOf({QStringLiteral("answer"), QStringLiteral("handoff")}));
    testProps.insert(QStringLiteral("candidates"), array(object({{QStringLiteral("entryId"), string()},
                                                                 {QStringLiteral("score"), number()},
                                                                 {QStringLiteral("coverage"), number()},
                                                                 {QStringLiteral("questionCoverage"), number()},
                                                                 {QStringLiteral("confidence"), number()},
                                                                 {QStringLiteral("matchedTerms"), array(string())}})));
    testProps.insert(QStringLiteral("terms"), array(string()));
    testProps.insert(QStringLiteral("unknownWords"), array(string()));
    testProps.insert(QStringLiteral("thresholds"),
                     object({{QStringLiteral("answer"), number()}, {QStringLiteral("margin"), number()}}));
    const QJsonObject entryRef = object({{QStringLiteral("entryId"), string()},
                                         {QStringLiteral("question"), nullable(string())},
                                         {QStringLiteral("count"), integer(0)}});
    const QJsonObject worst = object({{QStringLiteral("entryId"), string()},
                                      {QStringLiteral("question"), nullable(string())},
                                      {QStringLiteral("negative"), integer(0)},
                                      {QStringLiteral("positive"), integer(0)},
                                      {QStringLiteral("total"), integer(0)},
                                      {QStringLiteral("negativeRatio"), number()}});
    return {
        {QStringLiteral("KnowledgeInput"), object({{QStringLiteral("type"), aiEnumOf(KnowledgeRules::types())},
                                                   {QStringLiteral("question"), string()},
                                                   {QStringLiteral("answer"), string()},
                                                   {QStringLiteral("tags"), array(string())},
                                                   {QStringLiteral("language"), string()}})},
        {QStringLiteral("KnowledgeEntry"),
         object({{QStringLiteral("id"), string()},
                 {QStringLiteral("type"), aiEnumOf(KnowledgeRules::types())},
                 {QStringLiteral("language"), string()},
                 {QStringLiteral("question"), string()},
                 {QStringLiteral("answer"), string()},
                 {QStringLiteral("tags"), array(string())},
                 {QStringLiteral("createdBy"), nullable(string())},
                 {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
                 {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))}})},
        {QStringLiteral("KnowledgeImportReport"),
         object({{QStringLiteral("rows"), integer(0)},
                 {QStringLiteral("created"), integer(0)},
                 {QStringLiteral("updated"), integer(0)},
                 {QStringLiteral("skipped"), integer(0)},
                 {QStringLiteral("cancelled"), boolean()},
                 {QStringLiteral("problems"), array(object({{QStringLiteral("line"), integer(1)},
                                                            {QStringLiteral("field"), nullable(string())},
                                                            {QStringLiteral("code"), string()},
                                                            {QStringLiteral("message"), string()}}))}})},
        {QStringLiteral("AiChatRequest"),
         object({{QStringLiteral("message"), string()},
                 {QStringLiteral("language"), string()},
                 {QStringLiteral("conversationId"), string()},
                 {QStringLiteral("history"), array(object({{QStringLiteral("role"), aiEnumOf(AssistantRules::roles())},
                                                           {QStringLiteral("content"), string()}},
                                                          {QStringLiteral("role"), QStringLiteral("content")}))}},
                {QStringLiteral("message")})},
        {QStringLiteral("AiChatReply"), object(chatProps)},
        {QStringLiteral("AiTestReply"), object(testProps)},
        {QStringLiteral("AiFeedbackInput"),
         object({{QStringLiteral("messageId"), string()},
                 {QStringLiteral("feedbackType"), aiEnumOf(AiFeedbackRules::types())},
                 {QStringLiteral("rating"), integer(-1, 5)},
                 {QStringLiteral("reason"), aiEnumOf(AiFeedbackRules::reasons())},
                 {QStringLiteral("comment"), string()}},
                {QStringLiteral("messageId"), QStringLiteral("feedbackType"), QStringLiteral("rating")})},
        {QStringLiteral("AiFeedback"),
         object({{QStringLiteral("answerId"), string()},
                 {QStringLiteral("messageId"), string()},
                 {QStringLiteral("userId"), string()},
                 {QStringLiteral("feedbackType"), aiEnumOf(AiFeedbackRules::types())},
                 {QStringLiteral("rating"), integer(-1, 5)},
                 {QStringLiteral("positive"), integer(-1, 1)},
                 {QStringLiteral("reason"), nullable(aiEnumOf(AiFeedbackRules::reasons()))},
                 {QStringLiteral("comment"), nullable(string())},
                 {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
                 {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))}})},
        {QStringLiteral("AiStats"),
         object({{QStringLiteral("from"), string(QStringLiteral("date-time"))},
                 {QStringLiteral("to"), string(QStringLiteral("date-time"))},
                 {QStringLiteral("answers"), object({{QStringLiteral("total"), integer(0)},
                                                     {QStringLiteral("answered"), integer(0)},
                                                     {QStringLiteral("handedOff"), integer(0)},
                                                     {QStringLiteral("answerRate"), number()},
                                                     {QStringLiteral("handoffRate"), number()}})},
                 {QStringLiteral("handoffReasons"), object({})},
                 {QStringLiteral("averageConfidence"), nullable(number())},
                 {QStringLiteral("feedback"), object({{QStringLiteral("total"), integer(0)},
                                                      {QStringLiteral("positive"), integer(0)},
                                                      {QStringLiteral("negative"), integer(0)},
                                                      {QStringLiteral("positiveRatio"), number()},
                                                      {QStringLiteral("averageRating"), nullable(number())}})},
                 {QStringLiteral("topEntries"), array(entryRef)},
                 {QStringLiteral("worstEntries"), array(worst)},
                 {QStringLiteral("openSuggestions"), integer(0)},
                 {QStringLiteral("daily"), array(object({{QStringLiteral("date"), string(QStringLiteral("date"))},
                                                         {QStringLiteral("answered"), integer(0)},
                                                         {QStringLiteral("handedOff"), integer(0)}}))}})},
        {QStringLiteral("KnowledgeSuggestion"),
         object({{QStringLiteral("id"), string()},
                 {QStringLiteral("language"), string()},
                 {QStringLiteral("question"), string()},
                 {QStringLiteral("examples"), array(string())},
                 {QStringLiteral("count"), integer(1)},
                 {QStringLiteral("firstSeen"), string(QStringLiteral("date-time"))},
                 {QStringLiteral("lastSeen"), string(QStringLiteral("date-time"))},
                 {QStringLiteral("reasons"), object({})}})},
        {QStringLiteral("SuggestionAccept"), object({{QStringLiteral("answer"), string()},
                                                     {QStringLiteral("question"), string()},
                                                     {QStringLiteral("tags"), array(string())},
                                                     {QStringLiteral("type"), aiEnumOf(KnowledgeRules::types())},
                                                     {QStringLiteral("language"), string()}},
                                                    {QStringLiteral("answer")})},
    };
}

void AiController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("AI");
    const auto bind = Router::binder(this);
    // Agents keep the knowledge base: writes are any user's (agent or admin), or a key's with ai:write.
    const Access read = Access::scoped(QStringLiteral("ai:read"));
    const Access write = Access::scoped(QStringLiteral("ai:write"));
    const QJsonObject entry = ref(QStringLiteral("KnowledgeEntry"));
    const QJsonObject input = ref(QStringLiteral("KnowledgeInput"));
    const QJsonObject filters{{QStringLiteral("search"), string()},
                              {QStringLiteral("language"), string()},
                              {QStringLiteral("tags"), string()},
                              {QStringLiteral("type"), aiEnumOf(KnowledgeRules::types())}};
    QJsonObject listParams = filters;
    listParams.insert(QStringLiteral("page"), integer(1));
    listParams.insert(QStringLiteral("limit"), integer(1, 100));

    // GET /api/v1/ai/knowledge
    router.add("GET", QStringLiteral("/api/v1/ai/knowledge"), "listKnowledgeEntries",
               bind(&AiController::listKnowledge), read,
               {tag,
                QStringLiteral("The knowledge entries, newest first (search, language, tags: every one, type)"),
                {},
                pageOf(entry),
                listParams,
                {400, 401, 403, 429}});
    // POST /api/v1/ai/knowledge
    router.add("POST", QStringLiteral("/api/v1/ai/knowledge"), "createKnowledgeEntry",
               bind(&AiController::createKnowledge), write,
               {tag,
                QStringLiteral("Add a knowledge entry (question, answer and language required)"),
                input,
                envelope(entry),
                {},
                {400, 401, 403, 422, 429},
                201});
    // POST /api/v1/ai/knowledge/import
    RouteDoc importDoc{tag,
                       QStringLiteral("Import knowledge entries from CSV"),
                       object({{QStringLiteral("file"), string(QStringLiteral("binary"))}}, {QStringLiteral("file")}),
                       envelope(ref(QStringLiteral("KnowledgeImportReport"))),
                       {},
                       {400, 401, 403, 413, 422, 429}};
    importDoc.description = QStringLiteral("Import knowledge entries from CSV (columns id, type, language, question, "
                                           "answer, tags; question, answer and language required): the file as the "
                                           "body (text/csv) or as the multipart part `file`");
    importDoc.requestContentType = QStringLiteral("multipart/form-data");
    importDoc.otherRequestContentTypes = {QStringLiteral("text/csv")};
    router.add("POST", QStringLiteral("/api/v1/ai/knowledge/import"), "importKnowledgeEntries",
               bind(&AiController::importKnowledge), write, importDoc);
    // GET /api/v1/ai/knowledge/export
    RouteDoc exportDoc{tag,
                       QStringLiteral("The knowledge entries the filters find, as a CSV file (UTF-8 with a byte "
                                      "order mark)"),
                       {},
                       string(),
                       filters,
                       {400, 401, 403, 429}};
    exportDoc.contentType = QStringLiteral("text/csv");
    router.add("GET", QStringLiteral("/api/v1/ai/knowledge/export"), "exportKnowledgeEntries",
               bind(&AiController::exportKnowledge), read, exportDoc);
    // GET /api/v1/ai/knowledge/:id
    router.add("GET", QStringLiteral("/api/v1/ai/knowledge/:id"), "getKnowledgeEntry",
               bind(&AiController::getKnowledge), read,
               {tag, QStringLiteral("A knowledge entry"), {}, envelope(entry), {}, {401, 403, 404, 429}});
    // PUT and PATCH /api/v1/ai/knowledge/:id: both partial.
    for (const QByteArray &method : {QByteArrayLiteral("PUT"), QByteArrayLiteral("PATCH")})
        router.add(method, QStringLiteral("/api/v1/ai/knowledge/:id"),
                   method == "PUT" ? "updateKnowledgeEntry" : "patchKnowledgeEntry",
                   bind(&AiController::updateKnowledge), write,
                   {tag,
                    QStringLiteral("Change a knowledge entry: the fields given (partial)"),
                    input,
                    envelope(entry),
                    {},
                    {400, 401, 403, 404, 422, 429}});
    // DELETE /api/v1/ai/knowledge/:id
    router.add("DELETE", QStringLiteral("/api/v1/ai/knowledge/:id"), "deleteKnowledgeEntry",
               bind(&AiController::removeKnowledge), write,
               {tag, QStringLiteral("Delete a knowledge entry"), {}, messageOnly(), {}, {401, 403, 404, 429}});

    // POST /api/v1/ai/chat
    router.add("POST", QStringLiteral("/api/v1/ai/chat"), "askAssistant", bind(&AiController::chat), write,
               RouteDoc{tag,
                        QStringLiteral("Ask the assistant: an answer from the knowledge base, or a hand-off"),
                        ref(QStringLiteral("AiChatRequest")),
                        envelope(ref(QStringLiteral("AiChatReply"))),
                        {},
                        {400, 401, 403, 404, 422, 429}}
                   .described(QStringLiteral(
                       "Ask the assistant: an answer from the knowledge base, or a hand-off (recorded; in a "
                       "conversation the hand-off flags it and assigns an agent in turn)")));
    // POST /api/v1/ai/test-knowledge
    router.add("POST", QStringLiteral("/api/v1/ai/test-knowledge"), "testKnowledge", bind(&AiController::testKnowledge),
               read,
               RouteDoc{tag,
                        QStringLiteral("Try a question against the knowledge base (nothing is stored)"),
                        ref(QStringLiteral("AiChatRequest")),
                        envelope(ref(QStringLiteral("AiTestReply"))),
                        {},
                        {400, 401, 403, 422, 429}}
                   .described(QStringLiteral(
                       "Try a question against the knowledge base: the ranked candidates, their scores, the "
                       "decision and the thresholds (nothing is stored)")));
    // POST /api/v1/ai/feedback
    router.add("POST", QStringLiteral("/api/v1/ai/feedback"), "rateAssistantAnswer", bind(&AiController::feedback),
               write,
               {tag,
                QStringLiteral("Rate an answer (one feedback per answer and user: 201 the first, 200 a replacement)"),
                ref(QStringLiteral("AiFeedbackInput")),
                envelope(ref(QStringLiteral("AiFeedback"))),
                {},
                {400, 401, 403, 404, 422, 429},
                201});
    // GET /api/v1/ai/stats
    router.add("GET", QStringLiteral("/api/v1/ai/stats"), "getAssistantStats", bind(&AiController::stats), read,
               {tag,
                QStringLiteral("The assistant's figures over a period (default: the last 30 days)"),
                {},
                envelope(ref(QStringLiteral("AiStats"))),
                {{QStringLiteral("from"), string()}, {QStringLiteral("to"), string()}},
                {400, 401, 403, 429}});
    // GET /api/v1/ai/suggestions
    router.add("GET", QStringLiteral("/api/v1/ai/suggestions"), "listKnowledgeSuggestions",
               bind(&AiController::suggestions), read,
               RouteDoc{tag,
                        QStringLiteral("The questions the assistant could not answer, the most asked first"),
                        {},
                        pageOf(ref(QStringLiteral("KnowledgeSuggestion"))),
                        {{QStringLiteral("page"), integer(1)}, {QStringLiteral("limit"), integer(1, 100)}},
                        {400, 401, 403, 429}}
                   .described(QStringLiteral(
                       "The questions the assistant could not answer, grouped: what to add to the knowledge "
                       "base, the most asked first")));
    // POST /api/v1/ai/suggestions/:id/accept
    router.add("POST", QStringLiteral("/api/v1/ai/suggestions/:id/accept"), "acceptKnowledgeSuggestion",
               bind(&AiController::acceptSuggestion), write,
               {tag,
                QStringLiteral("Answer a suggestion: its knowledge entry is made and its questions leave the list"),
                ref(QStringLiteral("SuggestionAccept")),
                envelope(entry),
                {},
                {400, 401, 403, 404, 422, 429},
                201});
    // POST /api/v1/ai/suggestions/:id/dismiss
    router.add("POST", QStringLiteral("/api/v1/ai/suggestions/:id/dismiss"), "dismissKnowledgeSuggestion",
               bind(&AiController::dismissSuggestion), write,
               {tag,
                QStringLiteral("Dismiss a suggestion: its questions, and the same question asked again, stay off "
                               "the list"),
                {},
                envelope(ref(QStringLiteral("KnowledgeSuggestion"))),
                {},
                {401, 403, 404, 429}});
}

KnowledgeQuery AiController::knowledgeQuery(const ApiRequest &request) const
{
    const QueryReader query(request);
    KnowledgeQuery q;
    q.search = query.text(QStringLiteral("search")).trimmed();
    q.language = query.text(QStringLiteral("language")).trimmed().toLower();
    q.tags = query.list({QStringLiteral("tags"), QStringLiteral("tag")});
    q.type = query.text(QStringLiteral("type")).trimmed().toLower();
    if (!q.type.isEmpty() && !KnowledgeRules::types().contains(q.type))
        QueryReader::refuse(QStringLiteral("type"), FieldReader::oneOf(KnowledgeRules::types()));
    return q;
}

QString AiController::actingUser(const ApiRequest &request) const
{
    if (request.principal.kind == Principal::ApiKey) {
        const std::optional<ApiKey> key = ApiKeyRepository(m_store).find(request.principal.id);
        if (key && !key->createdBy.isEmpty())
            return key->createdBy;
    }
    return request.principal.id;
}

ApiResponse AiController::listKnowledge(ApiRequest &request)
{
    KnowledgeQuery q = knowledgeQuery(request);
    const QueryReader::Paging paging = QueryReader(request).paging();
    q.page = paging.page;
    q.limit = paging.limit;
    const KnowledgePage page = m_knowledge.list(q);
    QJsonArray items;
    for (const KnowledgeEntry &e : page.items)
        items.append(e.toJson());
    return ApiResponse::page(items, paging.page, paging.limit, page.total);
}

ApiResponse AiController::getKnowledge(ApiRequest &request)
{
    return ApiResponse::ok(m_knowledge.get(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse AiController::createKnowledge(ApiRequest &request)
{
    return ApiResponse::created(
        m_knowledge.create(KnowledgeRules::parse(request.body, true), request.principal.id).toJson(),
        QStringLiteral("Knowledge entry created"));
}

ApiResponse AiController::updateKnowledge(ApiRequest &request)
{
    return ApiResponse::ok(
        m_knowledge.update(request.param(QStringLiteral("id")), KnowledgeRules::parse(request.body, false)).toJson(),
        QStringLiteral("Knowledge entry updated"));
}

ApiResponse AiController::removeKnowledge(ApiRequest &request)
{
    m_knowledge.remove(request.param(QStringLiteral("id")));
    return ApiResponse::message(QStringLiteral("Knowledge entry deleted"));
}

ApiResponse AiController::importKnowledge(ApiRequest &request)
{
    const QByteArray contentType = request.http.header("Content-Type");
    QByteArray file;
    if (MultipartForm::isMultipart(contentType)) {
        const MultipartForm form = UploadForm::read(request, m_media->config());
        const MultipartPart &part = UploadForm::file(form, *m_media);
        if (!isCsvType(part.mimeType()))
            throw notCsv();
        file = part.body.toByteArray();
    } else {
        if (contentType.isEmpty() || !isCsvType(mediaTypeOf(contentType)))
            throw notCsv();
        m_media->checkSize(request.http.body.size());
        file = request.http.body;
    }
    const KnowledgeImportReport report = m_knowledge.importCsv(file, request.principal.id);
    return ApiResponse::ok(report.toJson(), QStringLiteral("Knowledge imported"));
}

ApiResponse AiController::exportKnowledge(ApiRequest &request)
{
    ApiResponse r;
    r.status = 200;
    r.body = m_knowledge.exportCsv(knowledgeQuery(request));
    r.headers.emplaceBack("Content-Type", "text/csv; charset=utf-8");
    r.headers.emplaceBack("Content-Disposition",
                          "attachment; filename=\"knowledge-" +
                              m_store.now().toTimeZone(m_tz).date().toString(Qt::ISODate).toLatin1() + ".csv\"");
    r.headers.emplaceBack("Cache-Control", "private, no-store");
    return r;
}

ApiResponse AiController::chat(ApiRequest &request)
{
    const AssistantRequest ask = AssistantRules::parse(request.body);
    if (!ask.conversationId.isEmpty()) {
        // The hand-off changes the conversation: a key needs that scope too.
        if (!request.principal.allows(QStringLiteral("conversations:write")))
            throw DomainError(DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "This API key lacks the scope %1"),
                                        {QStringLiteral("conversations:write")}));
        ConversationRepository(m_store).get(ask.conversationId);
    }
    // Retrieval, then the language model when one is set up (its wait runs this thread's event
    // loop; no transaction is open during it).
    const AssistantResponder::Response response = m_responder.respond(ask.question);
    const AssistantReply &reply = response.reply;
    AiAnswerOrigin origin;
    origin.conversationId = ask.conversationId;
    Transaction tx;
    const AiAnswer recorded = m_answers.record(ask.question.message, reply, origin);
    std::optional<AssistantHandoff::Outcome> handoff;
    if (!reply.answered && !ask.conversationId.isEmpty())
        handoff = AssistantHandoff(m_store).handOff(ask.conversationId, reply.handoffReason);
    tx.commit();
    QJsonObject data = response.toJson();
    data.insert(QStringLiteral("id"), recorded.id);
    data.insert(QStringLiteral("conversationId"),
                ask.conversationId.isEmpty() ? QJsonValue() : QJsonValue(ask.conversationId));
    if (handoff) {
        QJsonObject h = data.value(QStringLiteral("handoff")).toObject();
        h.insert(QStringLiteral("assignedTo"),
                 handoff->assignedTo.isEmpty()
                     ? QJsonValue()
                     : QJsonValue(QJsonObject{{QStringLiteral("id"), handoff->assignedTo},
                                              {QStringLiteral("name"), handoff->assignedName}}));
        data.insert(QStringLiteral("handoff"), h);
    }
    return ApiResponse::ok(data);
}

ApiResponse AiController::testKnowledge(ApiRequest &request)
{
    const AssistantRequest ask = AssistantRules::parse(request.body);
    // The same pipeline as a chat, the language model included; nothing is stored.
    const AssistantResponder::Response response = m_responder.respond(ask.question);
    QJsonObject data = response.reply.toTestJson(m_thresholds);
    data.insert(QStringLiteral("metadata"), response.toJson().value(QStringLiteral("metadata")));
    return ApiResponse::ok(data);
}

ApiResponse AiController::feedback(ApiRequest &request)
{
    const AiAnswerRepository::FeedbackResult result =
        m_answers.giveFeedback(AiFeedbackRules::parse(request.body), actingUser(request));
    if (result.replaced)
        return ApiResponse::ok(result.feedback.toJson(), QStringLiteral("Feedback replaced"));
    return ApiResponse::created(result.feedback.toJson(), QStringLiteral("Feedback recorded"));
}

ApiResponse AiController::stats(ApiRequest &request)
{
    const QueryReader query(request);
    // A date means that day in tasks/timeZone: from its start, to its end.
    std::optional<QDateTime> from = query.instant(QStringLiteral("from"), m_tz);
    std::optional<QDateTime> to = query.instant(QStringLiteral("to"), m_tz);
    if (to && TimeUtil::isDate(query.text(QStringLiteral("to")).trimmed()))
        to = to->toTimeZone(m_tz).date().addDays(1).startOfDay(m_tz).toUTC();
    if (!to)
        to = m_store.now();
    if (!from)
        from = to->addMSecs(-1).toTimeZone(m_tz).date().addDays(-29).startOfDay(m_tz).toUTC();
    return ApiResponse::ok(m_answers.stats(*from, *to, m_tz, m_suggestions.count()).toJson());
}

ApiResponse AiController::suggestions(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    const QVector<KnowledgeSuggestion> all = m_suggestions.list();
    QJsonArray items;
    const qsizetype start = qsizetype(paging.page - 1) * paging.limit;
    for (qsizetype i = start; i < all.size() && i < start + paging.limit; ++i)
        items.append(all.at(i).toJson());
    return ApiResponse::page(items, paging.page, paging.limit, all.size());
}

ApiResponse AiController::acceptSuggestion(ApiRequest &request)
{
    const KnowledgeEntry e = m_suggestions.accept(request.param(QStringLiteral("id")),
                                                  KnowledgeRules::parse(request.body, false), request.principal.id);
    return ApiResponse::created(e.toJson(), QStringLiteral("Knowledge entry created"));
}

ApiResponse AiController::dismissSuggestion(ApiRequest &request)
{
    const KnowledgeSuggestion s = m_suggestions.dismiss(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::ok(s.toJson(), QStringLiteral("Suggestion dismissed"));
}
