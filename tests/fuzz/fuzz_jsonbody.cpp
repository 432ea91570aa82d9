// Fuzz target: how the API reads a JSON request body. The input is a request body: it is parsed as
// ApiServer parses it (QJsonDocument::fromJson, refused unless it is an object, an empty or blank body
// skipped) and the object goes through the pure readers the controllers call with it, without a
// database: ContactRules (contacts), TaskRules and Recurrence (tasks), DealRules (deals),
// MessageRules::parseContent (messages), TemplateRules::render (template sends), FieldReader (the
// members an action reads at once) and QueryReader (a query string given as the member "query").
// DomainError is the expected refusal of bad input; any other exception escaping, a sanitizer report, or one of the
// checks below failing is a bug:
//   - what a reader accepted keeps the promises of its header (a parsed e-mail is valid, a phone
//     has its E.164 form, tags are normalised, enums hold known values, a date is a date);
//   - Contact::writeFields (JsonWriter) writes the bytes of QJsonDocument(toJson()).toJson(Compact),
//     as contact.cpp says it does;
//   - a refusal carries a code, a message and (for field errors) details.
#include "server/api/errorstatus.h"
#include "tests/fuzz/fuzzsupport.h"

#include "model/contacts/contact.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/jsonwriter.h"
#include "model/core/timeutil.h"
#include "model/deals/deal.h"
#include "model/inbox/message.h"
#include "model/inbox/messagetemplate.h"
#include "model/tasks/task.h"
#include "server/api/queryreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <cmath>

namespace {
const QDate kToday(2026, 1, 15);
// LIAISON_FUZZ_IGNORE_KNOWN=1 (scripts/fuzz.sh FUZZ_IGNORE_KNOWN=1): the checks of known, not yet
// fixed findings are skipped, to look for others.
bool g_ignoreKnown = false;

void check(bool ok, const char *what)
{
    if (!ok)
        FuzzSupport::fail(what);
}

// A check that a known finding fails (see the fuzzing notes); skipped with LIAISON_FUZZ_IGNORE_KNOWN=1.
void checkKnown(bool ok, const char *what)
{
    if (!g_ignoreKnown)
        check(ok, what);
}

// Runs f; the refusals the router turns into 4xx answers are fine, with what they must carry.
template<typename F>
void refusalsAllowed(F &&f)
{
    try {
        f();
    } catch (const DomainError &e) {
        check(!e.code().isEmpty() && !e.message().isEmpty(), "a DomainError without code or message");
        const int status = ErrorStatus::of(e.kind());
        check(status >= 400 && status < 500 && status != 429, "a body refused as something else than bad input");
        // What the router writes: the error envelope, compact.
        const QByteArray json = QJsonDocument(e.details()).toJson(QJsonDocument::Compact);
        check(!json.isEmpty(), "DomainError details do not serialise");
    }
}

void contacts(const QJsonObject &body)
{
    refusalsAllowed([&] {
        const ContactChanges changes = ContactRules::parse(body);
        Contact c;
        c.id = QStringLiteral("contact_fuzz");
        ContactRules::apply(c, changes);
        if (!c.email.isEmpty())
            check(ContactRules::isValidEmail(c.email), "ContactRules::parse accepted an invalid e-mail");
        if (!c.phone.isEmpty())
            check(!ContactRules::toE164(c.phone).isEmpty(), "ContactRules::parse accepted a phone without E.164");
        check(ContactRules::normalizeTags(c.tags) == c.tags, "tags are not normalised");
        check(c.leadScore >= 0 && c.leadScore <= 100, "leadScore out of 0-100");
        (void)c.displayName();

        JsonWriter w;
        w.beginObject();
        c.writeFields(w);
        w.endObject();
        const QByteArray written = w.take();
        const QByteArray expected = QJsonDocument(c.toJson()).toJson(QJsonDocument::Compact);
        check(written == expected, "JsonWriter (Contact::writeFields) and QJsonDocument disagree");
        ContactRules::checkRequired(c);
    });
}

void tasks(const QJsonObject &body)
{
    refusalsAllowed([&] {
        const TaskChanges changes = TaskRules::parse(body);
        Task t;
        TaskRules::apply(t, changes);
        check(TaskRules::Types.contains(t.type), "a task type outside the enum");
        check(TaskRules::Priorities.contains(t.priority), "a task priority outside the enum");
        if (changes.status) {
            check(TaskRules::Statuses.contains(*changes.status), "a task status outside the enum");
            refusalsAllowed([&] { TaskRules::checkTransition(t.status, *changes.status); });
        }
        // The tasks time zone of a Turkish installation (UTC where tzdata is missing).
        static const QTimeZone tz =
            QTimeZone("Europe/Istanbul").isValid() ? QTimeZone("Europe/Istanbul") : QTimeZone::utc();
        if (!t.dueDate.isEmpty()) {
            // Known finding: a date-time whose UTC falls outside the years 0001-9999 is accepted and
            // kept as "10000-01-01T01:30:00.000Z" or "-0001-12-31T23:00:00.000Z", which TimeUtil::parse
            // refuses: the task has no due instant (reminders and recurrence never fire).
            checkKnown(t.dueInstant(tz).isValid(), "TaskRules::parse accepted a due date that does not read back");
            (void)t.remindAt(tz);
            if (t.recurrence.isActive()) {
                const QDate due = t.dueDay(tz);
                (void)Recurrence::nextOnOrAfter(due, due, t.recurrence, kToday);
            }
        }
        (void)t.toJson();
        TaskRules::checkRequired(t);
    });
}

void deals(const QJsonObject &body)
{
    refusalsAllowed([&] {
        const DealChanges changes = DealRules::parse(body);
        if (changes.currency)
            check(DealRules::isCurrency(*changes.currency), "DealRules::parse accepted an unknown currency");
        if (changes.value)
            check(std::isfinite(*changes.value) && *changes.value >= 0, "DealRules::parse accepted a bad value");
        if (changes.probability)
            check(*changes.probability >= 0 && *changes.probability <= 100, "probability out of 0-100");
        if (changes.expectedCloseDate && !changes.expectedCloseDate->isEmpty())
            check(TimeUtil::isDate(*changes.expectedCloseDate), "expectedCloseDate is not a date");
        // Known finding: a date-time whose UTC date falls outside 0001-9999 is accepted, and
        // QDate::toString(Qt::ISODate) turns it into "": the date is silently cleared, not refused.
        const QJsonValue close = body.value(QLatin1String("expectedCloseDate"));
        if (changes.expectedCloseDate && close.isString() && !close.toString().trimmed().isEmpty())
            checkKnown(!changes.expectedCloseDate->isEmpty(),
                       "DealRules::parse silently cleared a given expectedCloseDate");
        Deal d;
        d.name = changes.name.value_or(QString());
        d.value = changes.value.value_or(0);
        d.currency = changes.currency.value_or(QStringLiteral("TRY"));
        d.customFields = changes.customFields.value_or(QJsonObject());
        (void)d.toJson();
    });
    refusalsAllowed([&] {
        const std::optional<double> closed = DealRules::money(body, QStringLiteral("closedValue"));
        if (closed)
            check(std::isfinite(*closed) && *closed >= 0, "DealRules::money accepted a bad amount");
    });
}

void messages(const QJsonObject &body)
{
    const QString textField =
        body.contains(QLatin1String("content")) ? QStringLiteral("content") : QStringLiteral("text");
    refusalsAllowed([&] {
        const MessageContent c = MessageRules::parseContent(body, MessageRules::types(), textField);
        check(MessageRules::types().contains(c.type), "a message type outside the enum");
        (void)MessageRules::sentimentLabel(MessageRules::sentimentScore(c.text));
    });

    MessageTemplate tpl;
    tpl.name = QStringLiteral("siparis_hazir");
    tpl.language = QStringLiteral("tr");
    tpl.body = QStringLiteral("Merhaba {{1}}, {{2}} numaralı siparişiniz hazır.");
    tpl.buttons = QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("quick_reply")},
                                         {QStringLiteral("text"), QStringLiteral("Tamam")}},
                             QJsonObject{{QStringLiteral("type"), QStringLiteral("quick_reply")},
                                         {QStringLiteral("text"), QStringLiteral("İptal")}}};
    const QJsonValue components = body.value(QLatin1String("components"));
    refusalsAllowed([&] { (void)TemplateRules::render(tpl, components); });
    // A template body from the input too (placeholders the template check would refuse included).
    const QJsonValue templateBody = body.value(QLatin1String("templateBody"));
    if (templateBody.isString()) {
        tpl.body = templateBody.toString();
        refusalsAllowed([&] { (void)TemplateRules::render(tpl, components); });
    }
}

void params(const QJsonObject &body)
{
    const FieldReader reader(body);
    refusalsAllowed([&] { (void)reader.requiredString(QStringLiteral("name")); });
    refusalsAllowed([&] { (void)reader.requiredStringArray(QStringLiteral("contactIds")); });
    refusalsAllowed([&] { (void)reader.requiredWords(QStringLiteral("tags"), 64); });
    refusalsAllowed([&] { (void)reader.nullableString(QStringLiteral("assignedTo")); });
    refusalsAllowed([&] { (void)reader.optionalText(QStringLiteral("note"), 200); });
    const QJsonValue queryText = body.value(QLatin1String("query"));
    if (!queryText.isString())
        return;
    // As ApiServer reads a query string: '+' is a space.
    QByteArray raw = queryText.toString().toUtf8();
    raw.replace('+', "%20");
    HttpRequest http;
    ApiRequest request{http, QStringLiteral("req_fuzz"), {}, QUrlQuery(QString::fromUtf8(raw)), body, true, {}};
    refusalsAllowed([&] {
        const QueryReader::Paging p = QueryReader(request).paging(20, 100);
        check(p.page >= 1 && p.limit >= 1 && p.limit <= 100, "paging out of range");
    });
    const QueryReader query(request);
    refusalsAllowed([&] { (void)query.dateTime(QStringLiteral("from")); });
    refusalsAllowed([&] { (void)query.number(QStringLiteral("minValue")); });
    (void)query.list({QStringLiteral("tag"), QStringLiteral("tags")});
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv)
{
    FuzzSupport::initApplication(*argv);
    g_ignoreKnown = qEnvironmentVariableIntValue("LIAISON_FUZZ_IGNORE_KNOWN") == 1;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // A copy: QJsonDocument may keep pointers into what it parsed, and the input is gone afterwards.
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (bytes.trimmed().isEmpty())
        return 0; // ApiServer: no body
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        // ApiServer: 400 INVALID_JSON with this message. (Qt's offset may point past the end: not
        // checked, it is Qt's and only shown.)
        (void)QStringLiteral("Malformed JSON at offset %1: %2").arg(error.offset).arg(error.errorString());
        return 0;
    }
    if (!doc.isObject())
        return 0; // ApiServer: 400 "The body must be a JSON object"
    const QJsonObject body = doc.object();
    contacts(body);
    tasks(body);
    deals(body);
    messages(body);
    params(body);
    return 0;
}
