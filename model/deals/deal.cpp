#include "model/deals/deal.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/jsonwriter.h"
#include "model/core/timeutil.h"

#include <QJsonArray>

#include <cmath>

namespace {
using Json::nullable;

QJsonValue person(const QString &id, const QString &name)
{
    if (id.isEmpty())
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("name"), name}};
}

// Largest value accepted: beyond it a double no longer holds cents exactly.
constexpr double kMaxMoney = 1e13;

// An amount of money: finite, not negative, at most kMaxMoney.
bool isMoney(double d)
{
    return std::isfinite(d) && d >= 0 && d <= kMaxMoney;
}
} // namespace

QJsonObject Deal::toJson() const
{
    return QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), name},
        {QStringLiteral("value"), value},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("pipelineId"), pipelineId},
        {QStringLiteral("stage"), stage},
        {QStringLiteral("probability"), probability},
        {QStringLiteral("contactId"), nullable(contactId)},
        {QStringLiteral("contact"), person(contactId, contactName)},
        {QStringLiteral("assignedTo"), person(assignedTo, assignedName)},
        {QStringLiteral("expectedCloseDate"), nullable(expectedCloseDate)},
        {QStringLiteral("description"), description},
        {QStringLiteral("customFields"), customFields},
        {QStringLiteral("closedValue"), closedValue ? QJsonValue(*closedValue) : QJsonValue()},
        {QStringLiteral("closedAt"), nullable(closedAt)},
        {QStringLiteral("lostReason"), nullable(lostReason)},
        {QStringLiteral("competitorName"), nullable(competitorName)},
        {QStringLiteral("isRotten"), isRotten},
        {QStringLiteral("lastActivityAt"), lastActivityAt},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
    };
}

QJsonObject Deal::toDetailJson() const
{
    QJsonObject o = toJson();
    if (!contactId.isEmpty()) {
        o.insert(QStringLiteral("contact"), QJsonObject{{QStringLiteral("id"), contactId},
                                                        {QStringLiteral("name"), contactName},
                                                        {QStringLiteral("firstName"), contactFirstName},
                                                        {QStringLiteral("lastName"), contactLastName},
                                                        {QStringLiteral("company"), contactCompany},
                                                        {QStringLiteral("email"), nullable(contactEmail)}});
    }
    return o;
}

QJsonObject DealActivity::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("type"), type},
                  {QStringLiteral("content"), content},
                  {QStringLiteral("user"), person(userId, userName)},
                  {QStringLiteral("createdAt"), createdAt}};
    if (type == QLatin1String("stage_change")) {
        o.insert(QStringLiteral("from"), nullable(from));
        o.insert(QStringLiteral("to"), to);
    }
    return o;
}

const QStringList &DealRules::currencies()
{
    // ISO 4217 active codes (2024), without funds codes and precious metals.
    static const QStringList list =
        QStringLiteral("AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP "
                       "BYN BZD CAD CDF "
                       "CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD "
                       "GNF GTQ GYD HKD "
                       "HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP "
                       "LKR LRD LSL LYD "
                       "MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN "
                       "PGK PHP PKR PLN "
                       "PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS "
                       "TMT TND TOP TRY "
                       "TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL")
            .split(QLatin1Char(' '));
    return list;
}

bool DealRules::isCurrency(const QString &code)
{
    return code.size() == 3 && currencies().contains(code);
}

const QStringList &DealRules::lostReasons()
{
    static const QStringList list{QStringLiteral("price"),  QStringLiteral("competitor"),  QStringLiteral("timing"),
                                  QStringLiteral("budget"), QStringLiteral("no_response"), QStringLiteral("other")};
    return list;
}

const QStringList &DealRules::activityTypes()
{
    static const QStringList list{QStringLiteral("note"), QStringLiteral("call"), QStringLiteral("meeting"),
                                  QStringLiteral("email")};
    return list;
}

std::optional<double> DealRules::money(const QJsonObject &body, const QString &field)
{
    const QJsonValue v = body.value(field);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    const double d = v.toDouble(-1);
    if (!v.isDouble() || !isMoney(d))
        throw DomainError::invalid(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a non-negative number")));
    return d;
}

namespace {

// The rules of the values themselves, whoever filled them in (a request body, the window's form).
// Problems go into `r` (the first per field is kept).
void checkValues(DealChanges &c, FieldReader &r)
{
    r.limit(c.name, QStringLiteral("name"), 200);
    r.limit(c.description, QStringLiteral("description"), 20000);
    r.limit(c.pipelineId, QStringLiteral("pipelineId"), 64);
    r.limit(c.stage, QStringLiteral("stage"), 40);
    r.limit(c.contactId, QStringLiteral("contactId"), 64);
    r.limit(c.assignedTo, QStringLiteral("assignedTo"), 64);
    r.limit(c.note, QStringLiteral("note"), 20000);
    r.limit(c.currency, QStringLiteral("currency"), 64);
    r.limit(c.expectedCloseDate, QStringLiteral("expectedCloseDate"), 40);
    if (c.currency) {
        *c.currency = c.currency->toUpper();
        if (!DealRules::isCurrency(*c.currency))
            r.fail(
                QStringLiteral("currency"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an ISO 4217 currency code such as TRY, USD, EUR")));
    }
    if (c.expectedCloseDate && !c.expectedCloseDate->isEmpty()) {
        // A date-time is accepted and cut to its UTC date; anything else is refused.
        const auto t = TimeUtil::parse(*c.expectedCloseDate);
        if (!t)
            r.fail(QStringLiteral("expectedCloseDate"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a date (YYYY-MM-DD)")));
        else
            c.expectedCloseDate = t->date().toString(Qt::ISODate);
    }
    if (c.value && !isMoney(*c.value))
        r.fail(QStringLiteral("value"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a non-negative number")));
    if (c.probability && (*c.probability < 0 || *c.probability > 100))
        r.fail(QStringLiteral("probability"),
               ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 100")));
}

} // namespace

DealChanges DealRules::parse(const QJsonObject &body)
{
    FieldReader r(body);
    DealChanges c;
    c.name = r.string("name", 200);
    c.description = r.string("description", 20000);
    c.pipelineId = r.string("pipelineId", 64, false);
    c.stage = r.string("stage", 40, false);
    c.contactId = r.string("contactId", 64);
    c.assignedTo = r.string("assignedTo", 64);
    c.note = r.string("note", 20000);

    c.currency = r.string("currency", 64, false);
    c.expectedCloseDate = r.string("expectedCloseDate", 40);

    if (body.contains(QLatin1String("value"))) {
        const QJsonValue v = body.value(QLatin1String("value"));
        const double d = v.toDouble(-1);
        if (v.isNull())
            c.value = 0;
        else if (!v.isDouble() || !isMoney(d))
            r.fail(QStringLiteral("value"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a non-negative number")));
        else
            c.value = d;
    }

    if (body.contains(QLatin1String("probability"))) {
        const QJsonValue v = body.value(QLatin1String("probability"));
        const double d = v.toDouble(-1);
        if (!v.isNull()) {
            if (!v.isDouble() || d < 0 || d > 100 || d != std::floor(d))
                r.fail(QStringLiteral("probability"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an integer from 0 to 100")));
            else
                c.probability = int(d);
        }
    }

    if (body.contains(QLatin1String("customFields"))) {
        const QJsonValue v = body.value(QLatin1String("customFields"));
        if (v.isNull())
            c.customFields = QJsonObject();
        else if (!v.isObject())
            r.fail(QStringLiteral("customFields"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object")));
        else
            c.customFields = v.toObject();
    }

    checkValues(c, r);
    r.throwIfAny();
    return c;
}

void DealRules::check(DealChanges &changes)
{
    FieldReader r;
    checkValues(changes, r);
    r.throwIfAny();
}
