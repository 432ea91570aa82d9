#include "model/campaigns/campaign.h"

#include "model/contacts/contact.h"
#include "model/core/fieldreader.h"
#include "model/core/timeutil.h"

#include <QRegularExpression>

#include <cmath>

const QStringList CampaignRules::Types = {QStringLiteral("BROADCAST"), QStringLiteral("DRIP"),
                                          QStringLiteral("TRIGGERED")};
const QStringList CampaignRules::Channels = {QStringLiteral("email"), QStringLiteral("sms"),
                                             QStringLiteral("whatsapp")};
const QStringList CampaignRules::Statuses = {
    QStringLiteral("DRAFT"), QStringLiteral("SCHEDULED"), QStringLiteral("SENDING"),  QStringLiteral("PAUSED"),
    QStringLiteral("SENT"),  QStringLiteral("FAILED"),    QStringLiteral("CANCELLED")};
const QStringList CampaignRules::TriggerEvents = {QStringLiteral("contact.created"), QStringLiteral("contact.tagged"),
                                                  QStringLiteral("deal.stage_changed"),
                                                  QStringLiteral("message.received")};
const QStringList MergeFields::Builtin = {QStringLiteral("firstName"), QStringLiteral("lastName"),
                                          QStringLiteral("fullName"),  QStringLiteral("email"),
                                          QStringLiteral("phone"),     QStringLiteral("company"),
                                          QStringLiteral("position"),  QStringLiteral("unsubscribeUrl")};

namespace {
constexpr int kMaxName = 200;
constexpr int kMaxSubject = 500;
constexpr int kMaxHtml = 1000000;

const QRegularExpression &mergeFieldPattern()
{
    // {{ name }} or {{ name | fallback }}; a name is letters, digits, '_', '.' and '-'.
    static const QRegularExpression re(QStringLiteral(R"(\{\{\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*(?:\|([^}]*))?\}\})"));
    return re;
}

QString campaignFieldValue(const Contact &c, const QString &name)
{
    if (name == QLatin1String("firstName"))
        return c.firstName;
    if (name == QLatin1String("lastName"))
        return c.lastName;
    if (name == QLatin1String("fullName"))
        return QStringList{c.firstName, c.lastName}.join(QLatin1Char(' ')).trimmed();
    if (name == QLatin1String("email"))
        return c.email;
    if (name == QLatin1String("phone"))
        return c.phone;
    if (name == QLatin1String("company"))
        return c.company;
    if (name == QLatin1String("position"))
        return c.position;
    const QJsonValue v = c.customFields.value(name);
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble());
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

std::optional<QVector<DripStep>> readSteps(FieldReader &r)
{
    if (!r.has(QStringLiteral("steps")))
        return std::nullopt;
    const QJsonValue v = r.value(QStringLiteral("steps"));
    QVector<DripStep> steps;
    if (v.isNull())
        return steps;
    if (!v.isArray()) {
        r.fail(QStringLiteral("steps"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array")));
        return std::nullopt;
    }
    const QJsonArray a = v.toArray();
    if (a.size() > CampaignRules::kMaxSteps) {
        r.fail(QStringLiteral("steps"),
               ModelText(QT_TRANSLATE_NOOP("ModelError", "must have at most %1 steps"), {CampaignRules::kMaxSteps}));
        return std::nullopt;
    }
    for (int i = 0; i < a.size(); ++i) {
        const QString at = QStringLiteral("steps[%1]").arg(i);
        if (!a.at(i).isObject()) {
            r.fail(at, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object")));
            continue;
        }
        const QJsonObject o = a.at(i).toObject();
        DripStep s;
        const QJsonValue minutes = o.value(QStringLiteral("delayMinutes"));
        const QJsonValue days = o.value(QStringLiteral("delayDays"));
        auto wholeNumber = [](const QJsonValue &n, int max) {
            return n.isDouble() && n.toDouble() >= 0 && n.toDouble() <= max && n.toDouble() == std::floor(n.toDouble());
        };
        if (!minutes.isUndefined() && !minutes.isNull()) {
            if (!wholeNumber(minutes, 525600))
                r.fail(at + QStringLiteral(".delayMinutes"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a whole number from %1 to %2"), {0, 525600}));
            else
                s.delayMinutes = minutes.toInt();
        } else if (!days.isUndefined() && !days.isNull()) {
            if (!wholeNumber(days, 365))
                r.fail(at + QStringLiteral(".delayDays"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a whole number from %1 to %2"), {0, 365}));
            else
                s.delayMinutes = days.toInt() * 24 * 60;
        }
        // An absent member is empty; a present one must be a string.
        auto text = [&](const char *key, int maxLength, QString *out) {
            const QJsonValue v = o.value(QLatin1String(key));
            if (v.isUndefined())
                return;
            if (auto t = r.stringValue(at + QLatin1Char('.') + QLatin1String(key), v, maxLength))
                *out = *t;
        };
        text("subject", kMaxSubject, &s.subject);
        text("htmlContent", kMaxHtml, &s.htmlContent);
        text("templateName", 200, &s.templateName);
        steps.append(s);
    }
    return steps;
}

std::optional<SendWindow> readWindow(FieldReader &r)
{
    if (!r.has(QStringLiteral("sendWindow")))
        return std::nullopt;
    const QJsonValue v = r.value(QStringLiteral("sendWindow"));
    SendWindow w;
    if (v.isNull())
        return w;
    if (!v.isObject()) {
        r.fail(QStringLiteral("sendWindow"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object")));
        return std::nullopt;
    }
    const QJsonObject o = v.toObject();
    auto hour = [&](const QString &key, int fallback, int min, int max) {
        const QJsonValue h = o.value(key);
        if (h.isUndefined() || h.isNull())
            return fallback;
        if (!h.isDouble() || h.toDouble() != std::floor(h.toDouble()) || h.toInt() < min || h.toInt() > max) {
            r.fail(QStringLiteral("sendWindow.") + key,
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a whole number from %1 to %2"), {min, max}));
            return fallback;
        }
        return h.toInt();
    };
    w.fromHour = hour(QStringLiteral("fromHour"), 0, 0, 23);
    w.toHour = hour(QStringLiteral("toHour"), 24, 1, 24);
    if (w.toHour <= w.fromHour)
        r.fail(QStringLiteral("sendWindow.toHour"),
               ModelText(QT_TRANSLATE_NOOP("ModelError", "must be later than %1"), {QStringLiteral("fromHour")}));
    const QJsonValue days = o.value(QStringLiteral("days"));
    if (days.isArray()) {
        for (const QJsonValue &d : days.toArray()) {
            if (!d.isDouble() || d.toInt() < 1 || d.toInt() > 7) {
                r.fail(QStringLiteral("sendWindow.days"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of weekdays from 1 (Monday) to 7")));
                break;
            }
            if (!w.days.contains(d.toInt()))
                w.days.append(d.toInt());
        }
        std::sort(w.days.begin(), w.days.end());
    } else if (!days.isUndefined() && !days.isNull()) {
        r.fail(QStringLiteral("sendWindow.days"),
               ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of weekdays from 1 (Monday) to 7")));
    }
    return w;
}

std::optional<QJsonObject> readTrigger(FieldReader &r)
{
    if (!r.has(QStringLiteral("trigger")))
        return std::nullopt;
    const QJsonValue v = r.value(QStringLiteral("trigger"));
    if (v.isNull())
        return QJsonObject();
    if (!v.isObject()) {
        r.fail(QStringLiteral("trigger"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object")));
        return std::nullopt;
    }
    const QJsonObject o = v.toObject();
    QJsonObject out;
    std::optional<QString> event = r.stringValue(QStringLiteral("trigger.event"), o.value(QStringLiteral("event")), 64);
    r.among(event, QStringLiteral("trigger.event"), CampaignRules::TriggerEvents);
    if (event && !event->isEmpty())
        out.insert(QStringLiteral("event"), *event);
    for (const char *key : {"tag", "stage", "segmentId", "channel"}) {
        const QString k = QLatin1String(key);
        if (!o.contains(k) || o.value(k).isNull())
            continue;
        if (auto s = r.stringValue(QStringLiteral("trigger.") + k, o.value(k), 200); s && !s->isEmpty())
            out.insert(k, *s);
    }
    return out;
}
} // namespace

QJsonObject DripStep::toJson() const
{
    QJsonObject o{{QStringLiteral("subject"), subject}, {QStringLiteral("htmlContent"), htmlContent}};
    if (delayMinutes % (24 * 60) == 0 && delayMinutes > 0)
        o.insert(QStringLiteral("delayDays"), delayMinutes / (24 * 60));
    o.insert(QStringLiteral("delayMinutes"), delayMinutes);
    if (!templateName.isEmpty())
        o.insert(QStringLiteral("templateName"), templateName);
    return o;
}

QVector<DripStep> DripStep::listFromJson(const QJsonArray &steps)
{
    QVector<DripStep> out;
    for (const QJsonValue &v : steps) {
        const QJsonObject o = v.toObject();
        DripStep s;
        s.delayMinutes = o.value(QStringLiteral("delayMinutes")).toInt();
        s.subject = o.value(QStringLiteral("subject")).toString();
        s.htmlContent = o.value(QStringLiteral("htmlContent")).toString();
        s.templateName = o.value(QStringLiteral("templateName")).toString();
        out.append(s);
    }
    return out;
}

QDateTime SendWindow::nextOpening(const QDateTime &now, const QTimeZone &zone) const
{
    if (isAlways())
        return now;
    const QDateTime local = now.toTimeZone(zone);
    for (int ahead = 0; ahead <= 7; ++ahead) {
        const QDate day = local.date().addDays(ahead);
        if (!days.isEmpty() && !days.contains(day.dayOfWeek()))
            continue;
        const QDateTime opens(day, QTime(fromHour, 0), zone);
        // toHour 24: the end of the day.
        const QDateTime closes =
            toHour >= 24 ? QDateTime(day.addDays(1), QTime(0, 0), zone) : QDateTime(day, QTime(toHour, 0), zone);
        if (local >= closes)
            continue;
        return (local >= opens ? local : opens).toUTC();
    }
    return now; // no allowed day (cannot be: days are 1 to 7); send rather than wait for ever
}

QJsonObject SendWindow::toJson() const
{
    QJsonArray d;
    for (int day : days)
        d.append(day);
    return {{QStringLiteral("fromHour"), fromHour}, {QStringLiteral("toHour"), toHour}, {QStringLiteral("days"), d}};
}

bool Campaign::isEditable() const
{
    return status == QLatin1String("DRAFT") || status == QLatin1String("SCHEDULED");
}

QJsonObject Campaign::toJson() const
{
    auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s); };
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("type"), type},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("channel"), channel},
                  {QStringLiteral("subject"), subject},
                  {QStringLiteral("htmlContent"), htmlContent},
                  {QStringLiteral("broadcastListId"), orNull(broadcastListId)},
                  {QStringLiteral("scheduledAt"), orNull(scheduledAt)},
                  {QStringLiteral("templateName"), orNull(templateName)},
                  {QStringLiteral("templateLanguage"), orNull(templateLanguage)},
                  {QStringLiteral("templateParams"), QJsonArray::fromStringList(templateParams)},
                  {QStringLiteral("statusReason"), orNull(statusReason)},
                  {QStringLiteral("startedAt"), orNull(startedAt)},
                  {QStringLiteral("completedAt"), orNull(completedAt)},
                  {QStringLiteral("createdBy"), orNull(createdBy)},
                  {QStringLiteral("createdAt"), createdAt},
                  {QStringLiteral("updatedAt"), updatedAt}};
    if (type != QLatin1String("BROADCAST")) {
        QJsonArray s;
        for (const DripStep &step : steps)
            s.append(step.toJson());
        o.insert(QStringLiteral("steps"), s);
        o.insert(QStringLiteral("sendWindow"), window.toJson());
    }
    if (type == QLatin1String("TRIGGERED"))
        o.insert(QStringLiteral("trigger"), trigger);
    return o;
}

double CampaignStats::deliveryRate() const
{
    return sent > 0 ? std::round(1000.0 * double(delivered) / double(sent)) / 10.0 : 0.0;
}

double CampaignStats::openRate() const
{
    return delivered > 0 ? std::round(1000.0 * double(opened) / double(delivered)) / 10.0 : 0.0;
}

double CampaignStats::clickRate() const
{
    return delivered > 0 ? std::round(1000.0 * double(clicked) / double(delivered)) / 10.0 : 0.0;
}

QJsonObject CampaignStats::toJson() const
{
    return {{QStringLiteral("sent"), sent},
            {QStringLiteral("delivered"), delivered},
            {QStringLiteral("opened"), opened},
            {QStringLiteral("clicked"), clicked},
            {QStringLiteral("bounced"), bounced},
            {QStringLiteral("deliveryRate"), deliveryRate()},
            {QStringLiteral("openRate"), openRate()},
            {QStringLiteral("clickRate"), clickRate()},
            {QStringLiteral("total"), total},
            {QStringLiteral("pending"), pending},
            {QStringLiteral("failed"), failed},
            {QStringLiteral("skipped"), skipped},
            {QStringLiteral("unsubscribed"), unsubscribed},
            {QStringLiteral("proxyOpens"), proxyOpens}};
}

CampaignChanges CampaignRules::parse(const QJsonObject &body)
{
    FieldReader r(body);
    CampaignChanges c;
    c.name = r.string("name", kMaxName, false);
    if (body.contains(QStringLiteral("type"))) {
        std::optional<QString> t = r.string("type", 32, false);
        if (t)
            *t = t->toUpper();
        r.among(t, QStringLiteral("type"), Types);
        c.type = t;
    }
    if (body.contains(QStringLiteral("channel"))) {
        std::optional<QString> ch = r.string("channel", 32, false);
        if (ch)
            *ch = ch->toLower();
        r.among(ch, QStringLiteral("channel"), Channels);
        c.channel = ch;
    }
    c.subject = r.string("subject", kMaxSubject);
    c.htmlContent = r.string("htmlContent", kMaxHtml);
    c.templateName = r.string("templateName", 200);
    c.templateLanguage = r.string("templateLanguage", 20);
    c.broadcastListId = r.string("broadcastListId", 64);
    c.scheduledAt = r.string("scheduledAt", 64);
    if (c.scheduledAt && !c.scheduledAt->isEmpty()) {
        const std::optional<QDateTime> at = TimeUtil::parse(*c.scheduledAt);
        if (!at || TimeUtil::isDate(*c.scheduledAt)) {
            r.fail(QStringLiteral("scheduledAt"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a date-time with a time zone")));
            c.scheduledAt.reset();
        } else {
            c.scheduledAt = TimeUtil::iso(*at);
        }
    }
    if (r.has(QStringLiteral("templateParams"))) {
        const QJsonValue v = r.value(QStringLiteral("templateParams"));
        QStringList params;
        if (v.isArray() && v.toArray().size() <= kMaxTemplateParams) {
            const QJsonArray a = v.toArray();
            for (int i = 0; i < a.size(); ++i) {
                if (auto t = r.stringValue(QStringLiteral("templateParams[%1]").arg(i), a.at(i), 1024))
                    params << *t;
            }
            c.templateParams = params;
        } else if (v.isNull()) {
            c.templateParams = params;
        } else {
            r.fail(QStringLiteral("templateParams"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of at most %1 texts"),
                             {kMaxTemplateParams}));
        }
    }
    c.steps = readSteps(r);
    c.window = readWindow(r);
    c.trigger = readTrigger(r);
    r.throwIfAny();
    return c;
}

void CampaignRules::apply(Campaign &c, const CampaignChanges &ch)
{
    auto set = [](QString &field, const std::optional<QString> &v) {
        if (v)
            field = *v;
    };
    set(c.name, ch.name);
    set(c.type, ch.type);
    set(c.channel, ch.channel);
    set(c.subject, ch.subject);
    set(c.htmlContent, ch.htmlContent);
    set(c.templateName, ch.templateName);
    set(c.templateLanguage, ch.templateLanguage);
    set(c.broadcastListId, ch.broadcastListId);
    if (ch.templateParams)
        c.templateParams = *ch.templateParams;
    set(c.scheduledAt, ch.scheduledAt);
    if (ch.steps)
        c.steps = *ch.steps;
    if (ch.window)
        c.window = *ch.window;
    if (ch.trigger)
        c.trigger = *ch.trigger;
}

void CampaignRules::checkComplete(const Campaign &c)
{
    FieldProblems missing;
    if (c.name.trimmed().isEmpty())
        missing.insert(QStringLiteral("name"), DomainError::isRequired());
    const bool email = c.channel == QLatin1String("email");
    const bool whatsapp = c.channel == QLatin1String("whatsapp");
    if (c.type == QLatin1String("BROADCAST")) {
        if (email && c.subject.isEmpty())
            missing.insert(QStringLiteral("subject"), DomainError::isRequired());
        if (whatsapp && c.templateName.isEmpty())
            missing.insert(QStringLiteral("templateName"), DomainError::isRequired());
        else if (!whatsapp && c.htmlContent.isEmpty())
            missing.insert(QStringLiteral("htmlContent"), DomainError::isRequired());
    } else {
        if (c.steps.isEmpty())
            missing.insert(QStringLiteral("steps"), DomainError::isRequired());
        for (int i = 0; i < c.steps.size(); ++i) {
            const DripStep &s = c.steps.at(i);
            const QString at = QStringLiteral("steps[%1]").arg(i);
            if (email && s.subject.isEmpty())
                missing.insert(at + QStringLiteral(".subject"), DomainError::isRequired());
            if (whatsapp && s.templateName.isEmpty())
                missing.insert(at + QStringLiteral(".templateName"), DomainError::isRequired());
            else if (!whatsapp && s.htmlContent.isEmpty())
                missing.insert(at + QStringLiteral(".htmlContent"), DomainError::isRequired());
        }
    }
    if (c.type == QLatin1String("TRIGGERED") && c.trigger.value(QStringLiteral("event")).toString().isEmpty())
        missing.insert(QStringLiteral("trigger.event"), DomainError::isRequired());
    if (!missing.isEmpty())
        throw DomainError::missing(missing);
}

bool CampaignRules::canMove(const QString &from, const QString &to)
{
    static const QHash<QString, QStringList> moves = {
        {QStringLiteral("DRAFT"),
         {QStringLiteral("SCHEDULED"), QStringLiteral("SENDING"), QStringLiteral("CANCELLED")}},
        {QStringLiteral("SCHEDULED"),
         {QStringLiteral("DRAFT"), QStringLiteral("SENDING"), QStringLiteral("CANCELLED")}},
        {QStringLiteral("SENDING"),
         {QStringLiteral("PAUSED"), QStringLiteral("SENT"), QStringLiteral("FAILED"), QStringLiteral("CANCELLED")}},
        {QStringLiteral("PAUSED"), {QStringLiteral("SENDING"), QStringLiteral("CANCELLED")}},
        // retry-failed sends the failed recipients again
        {QStringLiteral("SENT"), {QStringLiteral("SENDING")}},
        {QStringLiteral("FAILED"), {QStringLiteral("SENDING")}},
    };
    return moves.value(from).contains(to);
}

void CampaignRules::checkMove(const QString &from, const QString &to)
{
    if (!canMove(from, to))
        refuseMove(from, to);
}

void CampaignRules::refuseMove(const QString &from, const QString &to)
{
    throw DomainError(DomainError::Conflict, QStringLiteral("INVALID_TRANSITION"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "A campaign cannot go from %1 to %2"), {from, to}),
                      QJsonObject{{QStringLiteral("from"), from}, {QStringLiteral("to"), to}});
}

QStringList CampaignRules::triggerSources()
{
    return {QStringLiteral("contact.created"), QStringLiteral("contact.updated"), QStringLiteral("deal.stage_changed"),
            QStringLiteral("message.received")};
}

QString CampaignRules::triggeredContact(const QJsonObject &trigger, const QString &event, const QJsonObject &data)
{
    const QString on = trigger.value(QStringLiteral("event")).toString();
    const QString contactId = data.value(QStringLiteral("contactId")).toString();
    if (contactId.isEmpty())
        return {};
    if (on == QLatin1String("contact.created"))
        return event == on ? contactId : QString();
    if (on == QLatin1String("contact.tagged")) {
        const bool created = event == QLatin1String("contact.created");
        const bool tagsChanged =
            event == QLatin1String("contact.updated") &&
            data.value(QStringLiteral("changedFields")).toArray().contains(QJsonValue(QStringLiteral("tags")));
        if (!created && !tagsChanged)
            return {};
        const QString tag = trigger.value(QStringLiteral("tag")).toString().trimmed();
        const QJsonArray tags = data.value(QStringLiteral("tags")).toArray();
        if (tag.isEmpty())
            return created && tags.isEmpty() ? QString() : contactId;
        for (const QJsonValue &t : tags) {
            if (t.toString().trimmed().compare(tag, Qt::CaseInsensitive) == 0)
                return contactId;
        }
        return {};
    }
    if (on == QLatin1String("deal.stage_changed")) {
        if (event != on)
            return {};
        const QString stage = trigger.value(QStringLiteral("stage")).toString();
        return stage.isEmpty() || data.value(QStringLiteral("to")).toString() == stage ? contactId : QString();
    }
    if (on == QLatin1String("message.received")) {
        if (event != on || data.value(QStringLiteral("direction")).toString() != QLatin1String("incoming"))
            return {};
        const QString channel = trigger.value(QStringLiteral("channel")).toString();
        return channel.isEmpty() || data.value(QStringLiteral("channel")).toString() == channel ? contactId : QString();
    }
    return {};
}

QStringList MergeFields::used(const QString &text)
{
    QStringList names;
    QRegularExpressionMatchIterator it = mergeFieldPattern().globalMatch(text);
    while (it.hasNext()) {
        const QString name = it.next().captured(1);
        if (!names.contains(name))
            names.append(name);
    }
    return names;
}

QString MergeFields::render(const QString &text, const Contact &contact, bool html,
                            const QHash<QString, QString> &extra)
{
    QString out;
    out.reserve(text.size() + 64);
    qsizetype last = 0;
    QRegularExpressionMatchIterator it = mergeFieldPattern().globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        const QString name = m.captured(1);
        QString value = extra.contains(name) ? extra.value(name) : campaignFieldValue(contact, name).trimmed();
        const bool fromExtra = extra.contains(name);
        if (value.isEmpty())
            value = m.captured(2).trimmed();
        else if (html && !fromExtra)
            value = value.toHtmlEscaped();
        out += value;
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out;
}
