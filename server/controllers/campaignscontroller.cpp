#include "server/controllers/campaignscontroller.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include <QJsonArray>
#include <QRegularExpression>

using namespace Schema;

namespace {
// A filter of listed values ("status=DRAFT,SENT" or repeated), each checked.
QStringList campaignFilter(const QueryReader &query, const QString &name, const QStringList &allowed, bool upper)
{
    QStringList out;
    for (const QString &raw : query.list({name})) {
        const QString v = upper ? raw.trimmed().toUpper() : raw.trimmed().toLower();
        if (!allowed.contains(v))
            QueryReader::refuse(name, FieldReader::oneOf(allowed));
        if (!out.contains(v))
            out << v;
    }
    return out;
}

QJsonObject enumOfValues(const QStringList &values)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                       {QStringLiteral("enum"), QJsonArray::fromStringList(values)}};
}
} // namespace

CampaignsController::CampaignsController(const Store &store)
    : m_campaigns(store)
    , m_suppressions(store)
{
}

QJsonObject CampaignsController::schemas() const
{
    const QJsonObject step = object({{QStringLiteral("delayMinutes"), integer(0, 525600)},
                                     {QStringLiteral("delayDays"), integer(0, 365)},
                                     {QStringLiteral("subject"), string()},
                                     {QStringLiteral("htmlContent"), string()},
                                     {QStringLiteral("templateName"), string()}});
    const QJsonObject window = object({{QStringLiteral("fromHour"), integer(0, 23)},
                                       {QStringLiteral("toHour"), integer(1, 24)},
                                       {QStringLiteral("days"), array(integer(1, 7))}});
    const QJsonObject trigger = object({{QStringLiteral("event"), enumOfValues(CampaignRules::TriggerEvents)},
                                        {QStringLiteral("tag"), string()},
                                        {QStringLiteral("stage"), string()},
                                        {QStringLiteral("segmentId"), string()}},
                                       {QStringLiteral("event")});
    const QJsonObject input = object({
        {QStringLiteral("name"), string()},
        {QStringLiteral("type"), enumOfValues(CampaignRules::Types)},
        {QStringLiteral("channel"), enumOfValues(CampaignRules::Channels)},
        {QStringLiteral("subject"), string()},
        {QStringLiteral("htmlContent"), string()},
        {QStringLiteral("templateName"), nullable(string())},
        {QStringLiteral("templateLanguage"), nullable(string())},
        {QStringLiteral("templateParams"), array(string())},
        {QStringLiteral("broadcastListId"), nullable(string())},
        {QStringLiteral("scheduledAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("steps"), array(ref(QStringLiteral("CampaignStep")))},
        {QStringLiteral("sendWindow"), nullable(ref(QStringLiteral("CampaignSendWindow")))},
        {QStringLiteral("trigger"), nullable(ref(QStringLiteral("CampaignTrigger")))},
    });
    const QJsonObject stats = object({
        {QStringLiteral("sent"), integer(0)},
        {QStringLiteral("delivered"), integer(0)},
        {QStringLiteral("opened"), integer(0)},
        {QStringLiteral("clicked"), integer(0)},
        {QStringLiteral("bounced"), integer(0)},
        {QStringLiteral("deliveryRate"), number()},
        {QStringLiteral("openRate"), number()},
        {QStringLiteral("clickRate"), number()},
        {QStringLiteral("total"), integer(0)},
        {QStringLiteral("pending"), integer(0)},
        {QStringLiteral("failed"), integer(0)},
        {QStringLiteral("skipped"), integer(0)},
        {QStringLiteral("unsubscribed"), integer(0)},
        {QStringLiteral("proxyOpens"), integer(0)},
    });
    QJsonObject props = input.value(QStringLiteral("properties")).toObject();
    props.insert(QStringLiteral("id"), string());
    props.insert(QStringLiteral("status"), enumOfValues(CampaignRules::Statuses));
    props.insert(QStringLiteral("statusReason"), nullable(string()));
    props.insert(QStringLiteral("startedAt"), nullable(string(QStringLiteral("date-time"))));
    props.insert(QStringLiteral("completedAt"), nullable(string(QStringLiteral("date-time"))));
    props.insert(QStringLiteral("createdBy"), nullable(string()));
    props.insert(QStringLiteral("createdAt"), string(QStringLiteral("date-time")));
    props.insert(QStringLiteral("updatedAt"), string(QStringLiteral("date-time")));
    props.insert(QStringLiteral("skipped"), object({}));
    props.insert(QStringLiteral("stats"), ref(QStringLiteral("CampaignStats")));
    const QJsonObject recipient =
        object({{QStringLiteral("id"), string()},
                {QStringLiteral("campaignId"), string()},
                {QStringLiteral("contactId"), nullable(string())},
                {QStringLiteral("name"), string()},
                {QStringLiteral("address"), string()},
                {QStringLiteral("test"), boolean()},
                {QStringLiteral("status"), string()},
                {QStringLiteral("skipReason"), nullable(string())},
                {QStringLiteral("attempts"), integer(0)},
                {QStringLiteral("sentAt"), nullable(string(QStringLiteral("date-time")))},
                {QStringLiteral("deliveredAt"), nullable(string(QStringLiteral("date-time")))},
                {QStringLiteral("openedAt"), nullable(string(QStringLiteral("date-time")))},
                {QStringLiteral("clickedAt"), nullable(string(QStringLiteral("date-time")))},
                {QStringLiteral("bouncedAt"), nullable(string(QStringLiteral("date-time")))},
                {QStringLiteral("bounceType"), nullable(string())},
                {QStringLiteral("error"), nullable(string())},
                {QStringLiteral("step"), nullable(integer(0))}});
    const QJsonObject stepSend = object({{QStringLiteral("step"), integer(0)},
                                         {QStringLiteral("recipientId"), string()},
                                         {QStringLiteral("status"), string()},
                                         {QStringLiteral("skipReason"), nullable(string())},
                                         {QStringLiteral("sentAt"), nullable(string(QStringLiteral("date-time")))},
                                         {QStringLiteral("openedAt"), nullable(string(QStringLiteral("date-time")))},
                                         {QStringLiteral("clickedAt"), nullable(string(QStringLiteral("date-time")))},
                                         {QStringLiteral("bouncedAt"), nullable(string(QStringLiteral("date-time")))},
                                         {QStringLiteral("error"), nullable(string())},
                                         {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))}});
    const QJsonObject enrolment =
        object({{QStringLiteral("campaignId"), string()},
                {QStringLiteral("contactId"), string()},
                {QStringLiteral("name"), string()},
                {QStringLiteral("status"),
                 enumOfValues({QStringLiteral("active"), QStringLiteral("completed"), QStringLiteral("exited")})},
                {QStringLiteral("exitReason"), nullable(string())},
                {QStringLiteral("nextStep"), nullable(integer(0))},
                {QStringLiteral("nextAt"), nullable(string(QStringLiteral("date-time")))},
                {QStringLiteral("enteredAt"), string(QStringLiteral("date-time"))},
                {QStringLiteral("source"), string()},
                {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))},
                {QStringLiteral("steps"), array(stepSend)}});
    const QJsonObject unsubscribe = object({{QStringLiteral("id"), string()},
                                            {QStringLiteral("channel"), enumOfValues(CampaignRules::Channels)},
                                            {QStringLiteral("address"), string()},
                                            {QStringLiteral("reason"), string()},
                                            {QStringLiteral("contactId"), nullable(string())},
                                            {QStringLiteral("campaignId"), nullable(string())},
                                            {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))}});
    return {{QStringLiteral("CampaignInput"), input},         {QStringLiteral("Campaign"), object(props)},
            {QStringLiteral("CampaignStats"), stats},         {QStringLiteral("CampaignStep"), step},
            {QStringLiteral("CampaignSendWindow"), window},   {QStringLiteral("CampaignTrigger"), trigger},
            {QStringLiteral("CampaignRecipient"), recipient}, {QStringLiteral("Unsubscribe"), unsubscribe},
            {QStringLiteral("CampaignEnrolment"), enrolment}};
}

void CampaignsController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Campaigns");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("campaigns:read"));
    const Access write = Access::scoped(QStringLiteral("campaigns:write"));
    const QJsonObject campaign = ref(QStringLiteral("Campaign"));
    const QJsonObject paging{{QStringLiteral("page"), integer(1)}, {QStringLiteral("limit"), integer(1, 100)}};
    const QList<int> moveErrors{401, 403, 404, 409, 422, 429};

    QJsonObject listParams = paging;
    listParams.insert(QStringLiteral("type"), string());
    listParams.insert(QStringLiteral("status"), string());
    listParams.insert(QStringLiteral("channel"), string());
    listParams.insert(QStringLiteral("search"), string());
    router.add("GET", QStringLiteral("/api/v1/campaigns"), "listCampaigns", bind(&CampaignsController::list), read,
               {tag,
                QStringLiteral("List campaigns (newest first), each with its statistics"),
                {},
                Schema::pageOf(campaign),
                listParams,
                {400, 401, 403, 429}});
    router.add("POST", QStringLiteral("/api/v1/campaigns"), "createCampaign", bind(&CampaignsController::create), write,
               {tag,
                QStringLiteral("Create a campaign (DRAFT, or SCHEDULED with a future scheduledAt)"),
                ref(QStringLiteral("CampaignInput")),
                envelope(campaign),
                {},
                {400, 401, 403, 404, 422, 429},
                201});
    router.add("GET", QStringLiteral("/api/v1/campaigns/audience"), "countCampaignAudience",
               bind(&CampaignsController::audience), read,
               {tag,
                QStringLiteral("How many contacts of a segment a campaign on a channel would reach now"),
                {},
                envelope(object({{QStringLiteral("total"), integer(0)},
                                 {QStringLiteral("reachable"), integer(0)},
                                 {QStringLiteral("skipped"), object({})}})),
                {{QStringLiteral("segmentId"), string()}, {QStringLiteral("channel"), string()}},
                {400, 401, 403, 404, 422, 429}});
    router.add(
        "GET", QStringLiteral("/api/v1/campaigns/:id"), "getCampaign", bind(&CampaignsController::get), read,
        {tag, QStringLiteral("A campaign with its statistics"), {}, envelope(campaign), {}, {401, 403, 404, 429}});
    for (const QByteArray &method : {QByteArrayLiteral("PUT"), QByteArrayLiteral("PATCH")})
        router.add(method, QStringLiteral("/api/v1/campaigns/:id"),
                   method == "PUT" ? "updateCampaign" : "patchCampaign", bind(&CampaignsController::update), write,
                   {tag,
                    QStringLiteral("Change a campaign (only while DRAFT or SCHEDULED; partial)"),
                    ref(QStringLiteral("CampaignInput")),
                    envelope(campaign),
                    {},
                    {400, 401, 403, 404, 409, 422, 429}});
    router.add("DELETE", QStringLiteral("/api/v1/campaigns/:id"), "deleteCampaign", bind(&CampaignsController::remove),
               write,
               {tag,
                QStringLiteral("Delete a campaign (only while DRAFT or SCHEDULED)"),
                {},
                messageOnly(),
                {},
                {401, 403, 404, 409, 429}});
    router.add("POST", QStringLiteral("/api/v1/campaigns/:id/send"), "sendCampaign", bind(&CampaignsController::send),
               write,
               {tag,
                QStringLiteral("Start sending now: DRAFT or SCHEDULED -> SENDING, the audience frozen"),
                {},
                envelope(campaign),
                {},
                moveErrors});
    router.add(
        "POST", QStringLiteral("/api/v1/campaigns/:id/pause"), "pauseCampaign", bind(&CampaignsController::pause),
        write,
        {tag, QStringLiteral("Pause a sending campaign (SENDING -> PAUSED)"), {}, envelope(campaign), {}, moveErrors});
    router.add(
        "POST", QStringLiteral("/api/v1/campaigns/:id/resume"), "resumeCampaign", bind(&CampaignsController::resume),
        write,
        {tag, QStringLiteral("Resume where it stopped (PAUSED -> SENDING)"), {}, envelope(campaign), {}, moveErrors});
    router.add("POST", QStringLiteral("/api/v1/campaigns/:id/cancel"), "cancelCampaign",
               bind(&CampaignsController::cancel), write,
               {tag,
                QStringLiteral("Cancel (the recipients not yet sent to stay unsent)"),
                {},
                envelope(campaign),
                {},
                moveErrors});
    router.add("POST", QStringLiteral("/api/v1/campaigns/:id/retry-failed"), "retryFailedCampaignRecipients",
               bind(&CampaignsController::retryFailed), write,
               {tag,
                QStringLiteral("Send again to the failed and soft-bounced recipients"),
                {},
                envelope(object({{QStringLiteral("retried"), integer(0)}, {QStringLiteral("campaign"), campaign}})),
                {},
                moveErrors});
    router.add("POST", QStringLiteral("/api/v1/campaigns/:id/test"), "sendCampaignTest",
               bind(&CampaignsController::test), write,
               {tag,
                QStringLiteral("Send the campaign to the given addresses only (not counted in statistics)"),
                object({{QStringLiteral("addresses"), array(string())}}, {QStringLiteral("addresses")}),
                envelope(array(ref(QStringLiteral("CampaignRecipient")))),
                {},
                {400, 401, 403, 404, 409, 422, 429},
                202});
    router.add("GET", QStringLiteral("/api/v1/campaigns/:id/stats"), "getCampaignStats",
               bind(&CampaignsController::stats), read,
               {tag,
                QStringLiteral("Statistics (the bare object, not in the envelope)"),
                {},
                ref(QStringLiteral("CampaignStats")),
                {},
                {401, 403, 404, 429}});
    QJsonObject recipientParams = paging;
    recipientParams.insert(QStringLiteral("status"), string());
    recipientParams.insert(QStringLiteral("search"), string());
    recipientParams.insert(QStringLiteral("opened"), boolean());
    recipientParams.insert(QStringLiteral("clicked"), boolean());
    recipientParams.insert(QStringLiteral("test"), boolean());
    router.add("GET", QStringLiteral("/api/v1/campaigns/:id/recipients"), "listCampaignRecipients",
               bind(&CampaignsController::recipients), read,
               {tag,
                QStringLiteral("The recipients with their status, times and error"),
                {},
                Schema::pageOf(ref(QStringLiteral("CampaignRecipient"))),
                recipientParams,
                {400, 401, 403, 404, 429}});

    QJsonObject enrolmentParams = paging;
    enrolmentParams.insert(QStringLiteral("status"), string());
    enrolmentParams.insert(QStringLiteral("contactId"), string());
    enrolmentParams.insert(QStringLiteral("search"), string());
    router.add("GET", QStringLiteral("/api/v1/campaigns/:id/enrolments"), "listCampaignEnrolments",
               bind(&CampaignsController::enrolments), read,
               {tag,
                QStringLiteral("A drip or triggered campaign's contacts: where each is, why it left, and each step "
                               "sent"),
                {},
                Schema::pageOf(ref(QStringLiteral("CampaignEnrolment"))),
                enrolmentParams,
                {400, 401, 403, 404, 429}});

    router.add(
        "POST", QStringLiteral("/webhooks/email/bounce"), "receiveEmailBounce", bind(&CampaignsController::bounce),
        write,
        RouteDoc{tag,
                 QStringLiteral("A late bounce from a mail system (a DSN)"),
                 object({{QStringLiteral("recipientId"), string()},
                         {QStringLiteral("envelopeTo"), string()},
                         {QStringLiteral("messageId"), string()},
                         {QStringLiteral("type"), enumOfValues({QStringLiteral("hard"), QStringLiteral("soft")})},
                         {QStringLiteral("reason"), string()}},
                        {QStringLiteral("type")}),
                 envelope(object({{QStringLiteral("recipientId"), string()}, {QStringLiteral("status"), string()}})),
                 {},
                 {400, 401, 403, 404, 422, 429}}
            .described(
                QStringLiteral("A late bounce from a mail system (a DSN): the recipient by recipientId, or by the "
                               "VERP address or Message-ID that name it")));

    const QString unsubTag = QStringLiteral("Unsubscribes");
    router.add("GET", QStringLiteral("/api/v1/unsubscribes"), "listUnsubscribes",
               bind(&CampaignsController::unsubscribes), read,
               {unsubTag,
                QStringLiteral("The unsubscribe list: addresses no campaign sends to"),
                {},
                Schema::pageOf(ref(QStringLiteral("Unsubscribe"))),
                QJsonObject{{QStringLiteral("page"), integer(1)},
                            {QStringLiteral("limit"), integer(1, 100)},
                            {QStringLiteral("channel"), string()},
                            {QStringLiteral("search"), string()}},
                {400, 401, 403, 429}});
    router.add("POST", QStringLiteral("/api/v1/unsubscribes"), "addUnsubscribe",
               bind(&CampaignsController::addUnsubscribe), write,
               {unsubTag,
                QStringLiteral("Add an address to the unsubscribe list"),
                object({{QStringLiteral("channel"), enumOfValues(CampaignRules::Channels)},
                        {QStringLiteral("address"), string()}},
                       {QStringLiteral("channel"), QStringLiteral("address")}),
                envelope(ref(QStringLiteral("Unsubscribe"))),
                {},
                {400, 401, 403, 422, 429},
                201});
    router.add("DELETE", QStringLiteral("/api/v1/unsubscribes/:id"), "removeUnsubscribe",
               bind(&CampaignsController::removeUnsubscribe), Access::adminScoped(QStringLiteral("campaigns:write")),
               {unsubTag,
                QStringLiteral("Remove an address from the unsubscribe list (admins)"),
                {},
                messageOnly(),
                {},
                {401, 403, 404, 429}});
}

QJsonObject CampaignsController::withStats(const Campaign &c) const
{
    QJsonObject o = c.toJson();
    o.insert(QStringLiteral("skipped"), c.skipped);
    o.insert(QStringLiteral("stats"), m_campaigns.statsOf({c}).value(c.id).toJson());
    return o;
}

ApiResponse CampaignsController::list(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging();
    CampaignQuery q;
    q.page = paging.page;
    q.limit = paging.limit;
    q.types = campaignFilter(query, QStringLiteral("type"), CampaignRules::Types, true);
    q.statuses = campaignFilter(query, QStringLiteral("status"), CampaignRules::Statuses, true);
    q.channels = campaignFilter(query, QStringLiteral("channel"), CampaignRules::Channels, false);
    q.search = query.text(QStringLiteral("search")).trimmed().left(200);
    const CampaignPage page = m_campaigns.list(q);
    const QHash<QString, CampaignStats> stats = m_campaigns.statsOf(page.items);
    QJsonArray items;
    for (const Campaign &c : page.items) {
        QJsonObject o = c.toJson();
        o.insert(QStringLiteral("skipped"), c.skipped);
        o.insert(QStringLiteral("stats"), stats.value(c.id).toJson());
        items.append(o);
    }
    return ApiResponse::page(items, page.page, page.limit, page.total);
}

ApiResponse CampaignsController::create(ApiRequest &request)
{
    FieldReader required(request.body);
    FieldProblems missing;
    for (const char *name : {"name", "type", "channel"}) {
        if (!required.given(QLatin1String(name)))
            missing.insert(QLatin1String(name), DomainError::isRequired());
    }
    const CampaignChanges changes = CampaignRules::parse(request.body);
    if (!missing.isEmpty())
        throw DomainError::missing(missing);
    const Campaign c = m_campaigns.create(changes, request.principal.id);
    return ApiResponse::created(withStats(c), QStringLiteral("Campaign created"));
}

ApiResponse CampaignsController::get(ApiRequest &request)
{
    return ApiResponse::ok(withStats(m_campaigns.get(request.param(QStringLiteral("id")))));
}

ApiResponse CampaignsController::update(ApiRequest &request)
{
    const CampaignChanges changes = CampaignRules::parse(request.body);
    const Campaign c = m_campaigns.update(request.param(QStringLiteral("id")), changes, request.principal.id);
    return ApiResponse::ok(withStats(c), QStringLiteral("Campaign updated"));
}

ApiResponse CampaignsController::remove(ApiRequest &request)
{
    m_campaigns.remove(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::message(QStringLiteral("Campaign deleted"));
}

ApiResponse CampaignsController::send(ApiRequest &request)
{
    const Campaign c = m_campaigns.send(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::ok(withStats(c), QStringLiteral("Campaign sending"));
}

ApiResponse CampaignsController::pause(ApiRequest &request)
{
    return ApiResponse::ok(withStats(m_campaigns.pause(request.param(QStringLiteral("id")), request.principal.id)),
                           QStringLiteral("Campaign paused"));
}

ApiResponse CampaignsController::resume(ApiRequest &request)
{
    return ApiResponse::ok(withStats(m_campaigns.resume(request.param(QStringLiteral("id")), request.principal.id)),
                           QStringLiteral("Campaign resumed"));
}

ApiResponse CampaignsController::cancel(ApiRequest &request)
{
    return ApiResponse::ok(withStats(m_campaigns.cancel(request.param(QStringLiteral("id")), request.principal.id)),
                           QStringLiteral("Campaign cancelled"));
}

ApiResponse CampaignsController::retryFailed(ApiRequest &request)
{
    const QString id = request.param(QStringLiteral("id"));
    const int n = m_campaigns.retryFailed(id, request.principal.id);
    return ApiResponse::ok(
        QJsonObject{{QStringLiteral("retried"), n}, {QStringLiteral("campaign"), withStats(m_campaigns.get(id))}});
}

ApiResponse CampaignsController::test(ApiRequest &request)
{
    const QStringList addresses = FieldReader(request.body).requiredWords(QStringLiteral("addresses"), 320);
    if (addresses.size() > 20)
        throw DomainError::invalid(QStringLiteral("addresses"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must have at most %1 items"), {20}));
    QJsonArray out;
    for (const CampaignRecipient &r :
         m_campaigns.addTests(request.param(QStringLiteral("id")), addresses, request.principal.id))
        out.append(r.toJson());
    ApiResponse response = ApiResponse::ok(out, QStringLiteral("Test send queued"));
    response.status = 202;
    return response;
}

ApiResponse CampaignsController::stats(ApiRequest &request)
{
    return ApiResponse::raw(m_campaigns.stats(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse CampaignsController::recipients(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging(50, 100);
    RecipientQuery q;
    q.page = paging.page;
    q.limit = paging.limit;
    q.statuses = campaignFilter(query, QStringLiteral("status"),
                                {QStringLiteral("pending"), QStringLiteral("sending"), QStringLiteral("sent"),
                                 QStringLiteral("delivered"), QStringLiteral("bounced"), QStringLiteral("failed"),
                                 QStringLiteral("skipped")},
                                false);
    q.search = query.text(QStringLiteral("search")).trimmed().left(200);
    q.opened = query.boolean(QStringLiteral("opened")).value_or(false);
    q.clicked = query.boolean(QStringLiteral("clicked")).value_or(false);
    q.test = query.boolean(QStringLiteral("test")).value_or(false);
    const RecipientPage page = m_campaigns.recipients(request.param(QStringLiteral("id")), q);
    QJsonArray items;
    for (const CampaignRecipient &r : page.items)
        items.append(r.toJson());
    return ApiResponse::page(items, page.page, page.limit, page.total);
}

ApiResponse CampaignsController::enrolments(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging(50, 100);
    EnrolmentQuery q;
    q.page = paging.page;
    q.limit = paging.limit;
    q.statuses =
        campaignFilter(query, QStringLiteral("status"),
                       {QStringLiteral("active"), QStringLiteral("completed"), QStringLiteral("exited")}, false);
    q.contactId = query.text(QStringLiteral("contactId")).trimmed().left(64);
    q.search = query.text(QStringLiteral("search")).trimmed().left(200);
    const EnrolmentPage page = m_campaigns.enrolments(request.param(QStringLiteral("id")), q);
    QJsonArray items;
    for (const CampaignEnrolment &e : page.items)
        items.append(e.toJson());
    return ApiResponse::page(items, page.page, page.limit, page.total);
}

ApiResponse CampaignsController::audience(ApiRequest &request)
{
    const QueryReader query(request);
    const QString segmentId = query.text(QStringLiteral("segmentId")).trimmed();
    if (segmentId.isEmpty())
        throw DomainError::missing(QStringLiteral("segmentId"), DomainError::isRequired());
    QString channel = query.text(QStringLiteral("channel")).trimmed().toLower();
    if (channel.isEmpty())
        channel = QStringLiteral("email");
    if (!CampaignRules::Channels.contains(channel))
        QueryReader::refuse(QStringLiteral("channel"), FieldReader::oneOf(CampaignRules::Channels));
    return ApiResponse::ok(m_campaigns.audiencePreview(segmentId, channel));
}

ApiResponse CampaignsController::unsubscribes(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging();
    const QStringList channels = campaignFilter(query, QStringLiteral("channel"), CampaignRules::Channels, false);
    const SuppressionRepository::Page page = m_suppressions.list(
        channels.value(0), query.text(QStringLiteral("search")).left(200), paging.page, paging.limit);
    QJsonArray items;
    for (const Suppression &s : page.items)
        items.append(s.toJson());
    return ApiResponse::page(items, paging.page, paging.limit, page.total);
}

ApiResponse CampaignsController::addUnsubscribe(ApiRequest &request)
{
    const FieldReader body(request.body);
    const QString channel = body.requiredString(QStringLiteral("channel")).trimmed().toLower();
    const QString address = body.requiredString(QStringLiteral("address"));
    const Suppression s = m_suppressions.add(channel, address, QStringLiteral("manual"), request.principal.id);
    return ApiResponse::created(s.toJson(), QStringLiteral("Address unsubscribed"));
}

ApiResponse CampaignsController::removeUnsubscribe(ApiRequest &request)
{
    m_suppressions.remove(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::message(QStringLiteral("Address removed from the unsubscribe list"));
}

ApiResponse CampaignsController::bounce(ApiRequest &request)
{
    const FieldReader body(request.body);
    const QString type = body.requiredString(QStringLiteral("type")).trimmed().toLower();
    if (type != QLatin1String("hard") && type != QLatin1String("soft"))
        throw DomainError::invalid(QStringLiteral("type"),
                                   FieldReader::oneOf({QStringLiteral("hard"), QStringLiteral("soft")}));
    const QString reason = body.optionalText(QStringLiteral("reason"), 500);
    // The recipient: given, or read from the VERP address the bounce came to or from our Message-ID
    // ("<campaign>.<recipient>@domain"), both of which name it.
    static const QRegularExpression named(QStringLiteral("(rcp_[0-9a-z]{26})"));
    QString recipientId;
    for (const QString &field :
         {QStringLiteral("recipientId"), QStringLiteral("envelopeTo"), QStringLiteral("messageId")}) {
        const QRegularExpressionMatch m = named.match(body.optionalText(field, 1000));
        if (m.hasMatch()) {
            recipientId = m.captured(1);
            break;
        }
    }
    if (recipientId.isEmpty())
        throw DomainError::missing(
            QStringLiteral("recipientId"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "give recipientId, or envelopeTo or messageId naming it")));
    if (!m_campaigns.recordBounce(recipientId, type == QLatin1String("hard"), reason))
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Campaign recipient"), recipientId);
    const std::optional<CampaignRecipient> r = m_campaigns.recipient(recipientId);
    return ApiResponse::ok(QJsonObject{{QStringLiteral("recipientId"), recipientId},
                                       {QStringLiteral("status"), r ? r->status : QString()}},
                           QStringLiteral("Bounce recorded"));
}
