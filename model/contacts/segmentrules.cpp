#include "model/contacts/segmentrules.h"

#include "model/contacts/contact.h"
#include "model/core/errors.h"
#include "model/core/sqldialect.h"
#include "model/core/timeutil.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>
#include <functional>

namespace {
const QString kCustomPrefix = QStringLiteral("customField.");
const QString kName = QStringLiteral("trim(c.first_name || ' ' || c.last_name)");
constexpr int MaxValueLength = 500;
constexpr int MaxSpanDays = 36500;

struct FieldInfo
{
    const char *name;
    SegmentRules::FieldType type;
};

const FieldInfo kFields[] = {
    {"name", SegmentRules::FieldType::Text},
    {"email", SegmentRules::FieldType::Text},
    {"phone", SegmentRules::FieldType::Text},
    {"company", SegmentRules::FieldType::Text},
    {"position", SegmentRules::FieldType::Text},
    {"city", SegmentRules::FieldType::Text},
    {"country", SegmentRules::FieldType::Text},
    {"tags", SegmentRules::FieldType::Tags},
    {"source", SegmentRules::FieldType::Text},
    {"leadScore", SegmentRules::FieldType::Number},
    {"lastMessageAt", SegmentRules::FieldType::Date},
    {"createdAt", SegmentRules::FieldType::Date},
    {"totalMessages", SegmentRules::FieldType::Number},
    {"sentiment", SegmentRules::FieldType::Sentiment},
};

// The SQL of a plain text field (name, e-mail and phone have rules of their own as well).
QString textColumn(const QString &field)
{
    if (field == QLatin1String("email"))
        return QStringLiteral("c.email");
    if (field == QLatin1String("phone"))
        return QStringLiteral("c.phone");
    if (field == QLatin1String("company"))
        return QStringLiteral("c.company");
    if (field == QLatin1String("position"))
        return QStringLiteral("c.position");
    if (field == QLatin1String("city"))
        return SqlDialect::jsonText(QStringLiteral("c.address"), QStringLiteral("city"));
    if (field == QLatin1String("country"))
        return SqlDialect::jsonText(QStringLiteral("c.address"), QStringLiteral("country"));
    return QStringLiteral("c.source");
}

QString likeEscape(const QString &s)
{
    QString out;
    out.reserve(s.size() + 4);
    for (QChar ch : s) {
        if (ch == QLatin1Char('\\') || ch == QLatin1Char('%') || ch == QLatin1Char('_'))
            out.append(QLatin1Char('\\'));
        out.append(ch);
    }
    return out;
}

// One walk over the filters both checks them and builds the SQL, so that the two never disagree.
class Compiler
{
public:
    explicit Compiler(const Clock &clock)
        : m_now(clock.now().toUTC())
    {
    }

    QJsonObject group(const QJsonValue &value, const QString &path, int depth, QString *sql);
    const FieldProblems &errors() const { return m_errors; }
    const ModelText &firstError() const { return m_first; }
    QVariantList values;

private:
    void fail(const QString &path, const ModelText &message)
    {
        if (m_first.isNull())
            m_first = ModelText(QT_TRANSLATE_NOOP("ModelError", "%1: %2"), {ModelTextArg::field(path), message});
        if (!m_errors.contains(path))
            m_errors.insert(path, message);
    }
    QJsonObject rule(const QJsonObject &rule, const QString &path, QString *sql);

    // Values, each reporting a wrong type at path; nullopt when wrong.
    std::optional<QString> text(const QJsonValue &v, const QString &path, const QString &field);
    std::optional<double> number(const QJsonValue &v, const QString &path, const QString &field);
    // A date value as the interval it names: [from, to).
    struct Interval
    {
        QString from, to;
    };
    std::optional<Interval> date(const QJsonValue &v, const QString &path, const QString &field);
    bool pair(const QJsonValue &v, const QString &path, QJsonValue *low, QJsonValue *high);

    QString textSql(const QString &expr, const QString &op, const QString &value);
    QString bind(const QVariant &v)
    {
        values << v;
        return QStringLiteral("?");
    }
    // Binds the value of a ? that the fragment before it holds already.
    QString bindOnly(const QVariant &v)
    {
        values << v;
        return {};
    }

    QDateTime m_now;
    FieldProblems m_errors;
    ModelText m_first;
    int m_rules = 0;
};

QJsonObject Compiler::group(const QJsonValue &value, const QString &path, int depth, QString *sql)
{
    // path: "" for the top group, "rules[1]" for a nested one; members are named below it.
    const QString prefix = path.isEmpty() ? QString() : path + QLatin1Char('.');
    const QString where = path.isEmpty() ? QStringLiteral("filters") : path;
    if (!value.isObject()) {
        fail(where, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object with rules and logic")));
        return {};
    }
    if (depth > SegmentRules::MaxDepth) {
        fail(where,
             ModelText(QT_TRANSLATE_NOOP("ModelError", "groups nest at most %1 levels"), {SegmentRules::MaxDepth}));
        return {};
    }
    const QJsonObject in = value.toObject();
    QString logic = QStringLiteral("AND");
    const QJsonValue logicValue = in.value(QLatin1String("logic"));
    if (!logicValue.isUndefined() && !logicValue.isNull()) {
        const QString l = logicValue.toString().trimmed().toUpper();
        if (!logicValue.isString())
            fail(prefix + QStringLiteral("logic"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be AND or OR")));
        else if (l != QLatin1String("AND") && l != QLatin1String("OR"))
            fail(prefix + QStringLiteral("logic"),
                 ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown logic %1 (use AND or OR)"),
                           {logicValue.toString().left(20)}));
        else
            logic = l;
    }
    const QJsonValue rulesValue = in.value(QLatin1String("rules"));
    if (rulesValue.isUndefined() || rulesValue.isNull()) {
        fail(prefix + QStringLiteral("rules"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required")));
        return {};
    }
    if (!rulesValue.isArray()) {
        fail(prefix + QStringLiteral("rules"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array")));
        return {};
    }
    const QJsonArray rules = rulesValue.toArray();
    if (rules.isEmpty()) {
        fail(prefix + QStringLiteral("rules"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must not be empty")));
        return {};
    }
    QJsonArray outRules;
    QStringList parts;
    for (int i = 0; i < rules.size(); ++i) {
        const QString itemPath = prefix + QStringLiteral("rules[%1]").arg(i);
        const QJsonValue item = rules.at(i);
        if (!item.isObject()) {
            fail(itemPath, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object (a rule or a group)")));
            continue;
        }
        QString part;
        if (item.toObject().contains(QLatin1String("rules")))
            outRules.append(group(item, itemPath, depth + 1, &part));
        else
            outRules.append(rule(item.toObject(), itemPath, &part));
        parts << part;
    }
    *sql = QLatin1Char('(') +
           parts.join(logic == QLatin1String("AND") ? QStringLiteral(" AND ") : QStringLiteral(" OR ")) +
           QLatin1Char(')');
    return {{QStringLiteral("logic"), logic}, {QStringLiteral("rules"), outRules}};
}

std::optional<QString> Compiler::text(const QJsonValue &v, const QString &path, const QString &field)
{
    if (!v.isString()) {
        fail(path,
             ModelText(QT_TRANSLATE_NOOP("ModelError", "value for %1 must be a string"), {ModelTextArg::field(field)}));
        return std::nullopt;
    }
    const QString s = v.toString().trimmed();
    if (s.isEmpty()) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError",
                                               "value for %1 must not be empty (use isEmpty to find empty fields)"),
                             {ModelTextArg::field(field)}));
        return std::nullopt;
    }
    if (s.size() > MaxValueLength) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "value for %1 must be at most %2 characters"),
                             {ModelTextArg::field(field), MaxValueLength}));
        return std::nullopt;
    }
    return s;
}

std::optional<double> Compiler::number(const QJsonValue &v, const QString &path, const QString &field)
{
    double d = 0;
    bool ok = false;
    if (v.isDouble()) {
        d = v.toDouble();
        ok = std::isfinite(d);
    } else if (v.isString()) {
        // The spec shows values as "string or number": "70" is read as 70.
        d = v.toString().trimmed().toDouble(&ok);
        ok = ok && std::isfinite(d);
    }
    if (!ok) {
        fail(path,
             ModelText(QT_TRANSLATE_NOOP("ModelError", "value for %1 must be a number"), {ModelTextArg::field(field)}));
        return std::nullopt;
    }
    if (field == QLatin1String("leadScore") && (d < 0 || d > 100)) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "value for %1 must be between 0 and 100"),
                             {ModelTextArg::field(QStringLiteral("leadScore"))}));
        return std::nullopt;
    }
    if (field == QLatin1String("totalMessages") && d < 0) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "value for %1 must not be negative"),
                             {ModelTextArg::field(QStringLiteral("totalMessages"))}));
        return std::nullopt;
    }
    return d;
}

std::optional<Compiler::Interval> Compiler::date(const QJsonValue &v, const QString &path, const QString &field)
{
    static const QRegularExpression span(QStringLiteral("^(\\d{1,6})d$"));
    const QString s = v.isString() ? v.toString().trimmed() : QString();
    const QRegularExpressionMatch m = span.match(s);
    if (m.hasMatch()) {
        const int days = m.captured(1).toInt();
        if (days > MaxSpanDays) {
            fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "a span for %1 must be at most %2d"),
                                 {ModelTextArg::field(field), MaxSpanDays}));
            return std::nullopt;
        }
        const QDateTime t = m_now.addDays(-days);
        return Interval{TimeUtil::iso(t), TimeUtil::iso(t.addMSecs(1))};
    }
    if (TimeUtil::isDate(s)) {
        const QDateTime t = *TimeUtil::parse(s);
        return Interval{TimeUtil::iso(t), TimeUtil::iso(t.addDays(1))};
    }
    if (const auto t = TimeUtil::parse(s))
        return Interval{TimeUtil::iso(*t), TimeUtil::iso(t->addMSecs(1))};
    fail(path, ModelText(QT_TRANSLATE_NOOP(
                             "ModelError",
                             "value for %1 must be a date (YYYY-MM-DD), an ISO 8601 date-time or a span like 30d"),
                         {ModelTextArg::field(field)}));
    return std::nullopt;
}

bool Compiler::pair(const QJsonValue &v, const QString &path, QJsonValue *low, QJsonValue *high)
{
    if (!v.isArray() || v.toArray().size() != 2 || v.toArray().at(0).isNull() || v.toArray().at(1).isNull()) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "between needs a value [low, high] with two values")));
        return false;
    }
    *low = v.toArray().at(0);
    *high = v.toArray().at(1);
    return true;
}

QString Compiler::textSql(const QString &expr, const QString &op, const QString &value)
{
    // Case-insensitive (SqlDialect: ASCII letters on SQLite, the server's letters on PostgreSQL).
    // The negative operators include contacts whose field is empty.
    if (op == QLatin1String("equals"))
        return SqlDialect::equalsFolded(expr) + bindOnly(value);
    if (op == QLatin1String("notEquals"))
        return SqlDialect::notEqualsFolded(expr) + bindOnly(value);
    if (op == QLatin1String("contains"))
        return SqlDialect::likeFolded(expr) + bindOnly(QLatin1Char('%') + likeEscape(value) + QLatin1Char('%'));
    if (op == QLatin1String("notContains"))
        return SqlDialect::likeFolded(expr, true) + bindOnly(QLatin1Char('%') + likeEscape(value) + QLatin1Char('%'));
    if (op == QLatin1String("startsWith"))
        return SqlDialect::likeFolded(expr) + bindOnly(likeEscape(value) + QLatin1Char('%'));
    if (op == QLatin1String("isEmpty"))
        return QStringLiteral("coalesce(%1, '') = ''").arg(expr);
    return QStringLiteral("coalesce(%1, '') != ''").arg(expr);
}

QJsonObject Compiler::rule(const QJsonObject &in, const QString &path, QString *sql)
{
    using SegmentRules::FieldType;
    *sql = QStringLiteral("1 = 0");
    if (++m_rules > SegmentRules::MaxRules) {
        if (m_rules == SegmentRules::MaxRules + 1)
            fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "a segment has at most %1 rules"),
                                 {SegmentRules::MaxRules}));
        return {};
    }
    const QJsonValue fieldValue = in.value(QLatin1String("field"));
    const QJsonValue opValue = in.value(QLatin1String("operator"));
    const QJsonValue value = in.value(QLatin1String("value"));
    if (!fieldValue.isString() || fieldValue.toString().isEmpty()) {
        fail(path, fieldValue.isUndefined() || fieldValue.isNull()
                       ? ModelText(QT_TRANSLATE_NOOP("ModelError", "field is required"))
                       : ModelText(QT_TRANSLATE_NOOP("ModelError", "field must be a string")));
        return in;
    }
    const QString field = fieldValue.toString();
    FieldType type;
    if (!SegmentRules::fieldType(field, &type)) {
        if (field.startsWith(kCustomPrefix))
            fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError",
                                                   "customField key must be 1 to 64 characters of A-Z a-z 0-9 _ . -")));
        else
            fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown field %1"), {field.left(100)}));
        return in;
    }
    if (!opValue.isString() || opValue.toString().isEmpty()) {
        fail(path, opValue.isUndefined() || opValue.isNull()
                       ? ModelText(QT_TRANSLATE_NOOP("ModelError", "operator is required"))
                       : ModelText(QT_TRANSLATE_NOOP("ModelError", "operator must be a string")));
        return in;
    }
    const QString op = opValue.toString();
    if (!SegmentRules::operators().contains(op)) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown operator %1"), {op.left(100)}));
        return in;
    }
    if (!SegmentRules::operatorsFor(type).contains(op)) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "operator %1 is not valid for %2 (%3)"),
                             {op, ModelTextArg::field(field), SegmentRules::typeName(type)}));
        return in;
    }
    QJsonObject out{{QStringLiteral("field"), field}, {QStringLiteral("operator"), op}};
    const bool emptiness = !SegmentRules::takesValue(op);
    if (!emptiness) {
        if (value.isUndefined() || value.isNull()) {
            fail(path,
                 op == QLatin1String("between")
                     ? ModelText(QT_TRANSLATE_NOOP("ModelError", "between needs a value [low, high] with two values"))
                     : ModelText(QT_TRANSLATE_NOOP("ModelError", "value is required for operator %1"), {op}));
            return in;
        }
        out.insert(QStringLiteral("value"), value);
    }
    const bool between = op == QLatin1String("between");
    QJsonValue low, high;
    if (between && !pair(value, path, &low, &high))
        return in;
    if (!between && !emptiness && value.isArray()) {
        fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError",
                                               "value must be a single value; only between takes [low, high]")));
        return in;
    }

    switch (type) {
    case FieldType::Text: {
        if (emptiness) {
            *sql = textSql(field == QLatin1String("name") ? kName : textColumn(field), op, {});
            break;
        }
        const auto v = text(value, path, field);
        if (!v)
            return in;
        if (field == QLatin1String("name")) {
            *sql = textSql(kName, op, *v);
        } else if (field == QLatin1String("email")) {
            // email_norm holds the lower-case address under a unique index.
            if (op == QLatin1String("equals"))
                *sql = QStringLiteral("c.email_norm = ") + bind(v->toLower());
            else if (op == QLatin1String("notEquals"))
                *sql = QStringLiteral("coalesce(c.email_norm, '') != ") + bind(v->toLower());
            else
                *sql = textSql(QStringLiteral("c.email"), op, *v);
        } else if (field == QLatin1String("phone")) {
            // Phones compare as E.164 ("+90 532 123 45 67" equals "+905321234567"); contains and
            // startsWith look at the digits.
            QString digits;
            for (QChar ch : *v) {
                if (ch.isDigit())
                    digits.append(ch);
            }
            if (digits.isEmpty()) {
                fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "value for phone must contain digits")));
                return in;
            }
            const QString e164 = ContactRules::toE164(*v);
            const QString digitsLike = QLatin1Char('%') + digits + QLatin1Char('%');
            if (op == QLatin1String("equals"))
                *sql = QStringLiteral("c.phone_e164 = ") + bind(e164.isEmpty() ? QLatin1Char('+') + digits : e164);
            else if (op == QLatin1String("notEquals"))
                *sql = QStringLiteral("coalesce(c.phone_e164, '') != ") +
                       bind(e164.isEmpty() ? QLatin1Char('+') + digits : e164);
            else if (op == QLatin1String("contains"))
                *sql = QStringLiteral("c.phone_e164 LIKE ") + bind(digitsLike);
            else if (op == QLatin1String("notContains"))
                *sql = QStringLiteral("coalesce(c.phone_e164, '') NOT LIKE ") + bind(digitsLike);
            else
                *sql = QStringLiteral("c.phone_e164 LIKE ") + bind(QLatin1Char('+') + digits + QLatin1Char('%'));
        } else {
            *sql = textSql(textColumn(field), op, *v); // company, position, city, country, source
        }
        break;
    }
    case FieldType::Tags: {
        // Driven from the tag index: the subquery is computed once, not per contact.
        const QString has = QStringLiteral("c.seq IN (SELECT contact_seq FROM contact_tags WHERE tag_norm = ?)");
        if (op == QLatin1String("isEmpty")) {
            *sql = QStringLiteral("NOT EXISTS (SELECT 1 FROM contact_tags t WHERE t.contact_seq = c.seq)");
            break;
        }
        if (op == QLatin1String("isNotEmpty")) {
            *sql = QStringLiteral("EXISTS (SELECT 1 FROM contact_tags t WHERE t.contact_seq = c.seq)");
            break;
        }
        const auto v = text(value, path, field);
        if (!v)
            return in;
        const QString key = ContactRules::tagKey(*v);
        if (op == QLatin1String("equals") || op == QLatin1String("contains")) {
            *sql = has;
            values << key;
        } else if (op == QLatin1String("notEquals") || op == QLatin1String("notContains")) {
            *sql = QStringLiteral("NOT ") + has;
            values << key;
        } else {
            // startsWith: a range over the tag index (tag_norm is lower case already).
            *sql =
                QStringLiteral("c.seq IN (SELECT contact_seq FROM contact_tags WHERE tag_norm >= ? AND tag_norm < ?)");
            values << key << key + QString::fromUcs4(U"\U0010FFFF");
        }
        break;
    }
    case FieldType::Number: {
        const QString col =
            field == QLatin1String("leadScore") ? QStringLiteral("c.lead_score") : QStringLiteral("c.total_messages");
        // Both columns are NOT NULL with default 0: 0 is "empty" (not scored, no messages).
        if (op == QLatin1String("isEmpty")) {
            *sql = col + QStringLiteral(" = 0");
            break;
        }
        if (op == QLatin1String("isNotEmpty")) {
            *sql = col + QStringLiteral(" != 0");
            break;
        }
        if (between) {
            const auto a = number(low, path, field);
            const auto b = number(high, path, field);
            if (!a || !b)
                return in;
            *sql = col + QStringLiteral(" BETWEEN ? AND ?");
            values << qMin(*a, *b) << qMax(*a, *b);
            break;
        }
        const auto v = number(value, path, field);
        if (!v)
            return in;
        const char *cmp = op == QLatin1String("equals")        ? " = "
                          : op == QLatin1String("notEquals")   ? " != "
                          : op == QLatin1String("greaterThan") ? " > "
                                                               : " < ";
        *sql = col + QLatin1String(cmp) + bind(*v);
        break;
    }
    case FieldType::Date: {
        const QString col =
            field == QLatin1String("createdAt") ? QStringLiteral("c.created_at") : QStringLiteral("c.last_message_at");
        if (op == QLatin1String("isEmpty")) {
            *sql = QStringLiteral("coalesce(%1, '') = ''").arg(col);
            break;
        }
        if (op == QLatin1String("isNotEmpty")) {
            *sql = QStringLiteral("coalesce(%1, '') != ''").arg(col);
            break;
        }
        if (between) {
            const auto a = date(low, path, field);
            const auto b = date(high, path, field);
            if (!a || !b)
                return in;
            *sql = col + QStringLiteral(" >= ? AND ") + col + QStringLiteral(" < ?");
            values << qMin(a->from, b->from) << qMax(a->to, b->to);
            break;
        }
        const auto v = date(value, path, field);
        if (!v)
            return in;
        // ISO text with milliseconds and Z sorts as time, so the column's index serves the comparison.
        if (op == QLatin1String("greaterThan"))
            *sql = col + QStringLiteral(" >= ") + bind(v->to);
        else
            *sql = col + QStringLiteral(" < ") + bind(v->from);
        break;
    }
    case FieldType::Sentiment: {
        if (emptiness) {
            *sql = textSql(QStringLiteral("c.sentiment"), op, {});
            break;
        }
        const QString v = value.toString().trimmed().toLower();
        if (!value.isString() || !SegmentRules::sentiments().contains(v)) {
            fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError",
                                                   "value for sentiment must be positive, negative or neutral")));
            return in;
        }
        *sql = op == QLatin1String("equals") ? QStringLiteral("c.sentiment = ") + bind(v)
                                             : QStringLiteral("coalesce(c.sentiment, '') != ") + bind(v);
        break;
    }
    case FieldType::Any: {
        // customField.<key> is answered from contact_custom_fields (migration 6): one row per contact
        // and top-level key of its custom_fields, kept by triggers in the contact's own transaction,
        // holding type = json_type, value_text = CAST(json_extract AS TEXT) and value_num = the value
        // when it is an integer or a real. Each condition below is, row for row, the json_extract
        // condition it replaces, but runs on an index of (key, value) instead of parsing the JSON of
        // every contact. A contact without the key has no row: the negative operators (notEquals,
        // notContains, isEmpty) include it, as before. The key (checked against [A-Za-z0-9_.-]) is
        // bound, never written into the SQL.
        const QString key = field.mid(kCustomPrefix.size());
        // "c.seq [NOT] IN (contacts whose row for key meets cond)"; cond is built after the key is
        // bound, so that the values are bound in the order their ? appear.
        auto members = [&](bool in, const std::function<QString()> &cond) {
            QString s = in ? QStringLiteral("c.seq IN (") : QStringLiteral("c.seq NOT IN (");
            s += QStringLiteral("SELECT contact_seq FROM contact_custom_fields WHERE key = ");
            s += bind(key);
            s += QStringLiteral(" AND ");
            s += cond();
            s += QLatin1Char(')');
            return s;
        };
        if (emptiness) {
            // Empty: no key, JSON null or "" (a CAST to text that is NULL or '').
            *sql = members(op == QLatin1String("isNotEmpty"), [] { return QStringLiteral("value_text != ''"); });
            break;
        }
        // A comparable value: a number (compared with stored numbers) or a string (compared as text
        // with stored strings; a span "<n>d" becomes the ISO instant n days ago, so stored ISO dates compare).
        auto scalar = [&](const QJsonValue &v, QVariant *out) {
            if (v.isDouble() && std::isfinite(v.toDouble())) {
                *out = v.toDouble();
                return true;
            }
            if (v.isString() && !v.toString().trimmed().isEmpty() && v.toString().size() <= MaxValueLength) {
                static const QRegularExpression span(QStringLiteral("^(\\d{1,5})d$"));
                const QRegularExpressionMatch m = span.match(v.toString().trimmed());
                *out = m.hasMatch() ? QVariant(TimeUtil::iso(m_now.addDays(-m.captured(1).toInt())))
                                    : QVariant(v.toString().trimmed());
                return true;
            }
            fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "value for %1 must be a non-empty string or a number"),
                                 {ModelTextArg::field(field)}));
            return false;
        };
        // Ordering compares a number with stored numbers (value_num is set for those only) and a
        // string with stored strings, by code point (BINARY, as json_extract's text compared).
        auto compare = [&](const QVariant &v, const QString &cmp) {
            const bool numeric = v.typeId() == QMetaType::Double;
            QString s = numeric ? QStringLiteral("value_num") : QStringLiteral("type = 'text' AND value_text");
            s += cmp;
            s += bind(v);
            return s;
        };
        if (between) {
            QVariant a, b;
            if (!scalar(low, &a) || !scalar(high, &b))
                return in;
            if (a.typeId() != b.typeId()) {
                fail(path, ModelText(QT_TRANSLATE_NOOP("ModelError", "between needs two numbers or two strings")));
                return in;
            }
            const bool swap =
                a.typeId() == QMetaType::Double ? a.toDouble() > b.toDouble() : a.toString() > b.toString();
            if (swap)
                std::swap(a, b);
            *sql = members(true, [&] {
                QString s = compare(a, QStringLiteral(" >= "));
                s += QStringLiteral(" AND ");
                s += compare(b, QStringLiteral(" <= "));
                return s;
            });
            break;
        }
        QVariant v;
        if (!scalar(value, &v))
            return in;
        const bool numeric = v.typeId() == QMetaType::Double;
        // Equality matches a number or its text ("5" and 5 alike); strings case-insensitively.
        const QString textForm = numeric ? QJsonValue(v.toDouble()).toVariant().toString() : v.toString();
        auto equals = [&] {
            QString s = QStringLiteral("(");
            if (numeric) {
                s += QStringLiteral("value_num = ");
                s += bind(v);
                s += QStringLiteral(" OR ");
            }
            s += SqlDialect::equalsFolded(QStringLiteral("value_text"));
            s += bindOnly(textForm);
            // json_extract gave true and false as 1 and 0, equal to the numbers 1 and 0. Their text
            // ('1', '0') matches already unless the number's text differs (-0).
            if (numeric && v.toDouble() == 1.0 && textForm != QLatin1String("1"))
                s += QStringLiteral(" OR type = 'true'");
            if (numeric && v.toDouble() == 0.0 && textForm != QLatin1String("0"))
                s += QStringLiteral(" OR type = 'false'");
            s += QLatin1Char(')');
            return s;
        };
        auto like = [&](const QString &pattern) {
            return [&, pattern] { return SqlDialect::likeFolded(QStringLiteral("value_text")) + bindOnly(pattern); };
        };
        if (op == QLatin1String("equals"))
            *sql = members(true, equals);
        else if (op == QLatin1String("notEquals"))
            *sql = members(false, equals);
        else if (op == QLatin1String("greaterThan"))
            *sql = members(true, [&] { return compare(v, QStringLiteral(" > ")); });
        else if (op == QLatin1String("lessThan"))
            *sql = members(true, [&] { return compare(v, QStringLiteral(" < ")); });
        else if (op == QLatin1String("contains"))
            *sql = members(true, like(QLatin1Char('%') + likeEscape(textForm) + QLatin1Char('%')));
        else if (op == QLatin1String("notContains"))
            *sql = members(false, like(QLatin1Char('%') + likeEscape(textForm) + QLatin1Char('%')));
        else
            *sql = members(true, like(likeEscape(textForm) + QLatin1Char('%')));
        break;
    }
    }
    return out;
}
} // namespace

QStringList SegmentRules::fields()
{
    QStringList out;
    for (const FieldInfo &f : kFields)
        out << QLatin1String(f.name);
    out << kCustomPrefix;
    return out;
}

QStringList SegmentRules::operators()
{
    return {QStringLiteral("equals"),      QStringLiteral("notEquals"),  QStringLiteral("contains"),
            QStringLiteral("notContains"), QStringLiteral("startsWith"), QStringLiteral("greaterThan"),
            QStringLiteral("lessThan"),    QStringLiteral("between"),    QStringLiteral("isEmpty"),
            QStringLiteral("isNotEmpty")};
}

bool SegmentRules::fieldType(const QString &field, FieldType *type)
{
    for (const FieldInfo &f : kFields) {
        if (field == QLatin1String(f.name)) {
            *type = f.type;
            return true;
        }
    }
    if (field.startsWith(kCustomPrefix) && isValidCustomFieldKey(field.mid(kCustomPrefix.size()))) {
        *type = FieldType::Any;
        return true;
    }
    return false;
}

QString SegmentRules::typeName(FieldType type)
{
    switch (type) {
    case FieldType::Text:
        return QStringLiteral("string");
    case FieldType::Tags:
        return QStringLiteral("tags");
    case FieldType::Number:
        return QStringLiteral("number");
    case FieldType::Date:
        return QStringLiteral("date");
    case FieldType::Sentiment:
        return QStringLiteral("positive, negative or neutral");
    case FieldType::Any:
        return QStringLiteral("any");
    }
    return {};
}

QStringList SegmentRules::operatorsFor(FieldType type)
{
    const QString eq = QStringLiteral("equals"), ne = QStringLiteral("notEquals"), co = QStringLiteral("contains"),
                  nc = QStringLiteral("notContains"), sw = QStringLiteral("startsWith"),
                  gt = QStringLiteral("greaterThan"), lt = QStringLiteral("lessThan"), bw = QStringLiteral("between"),
                  ie = QStringLiteral("isEmpty"), ne2 = QStringLiteral("isNotEmpty");
    switch (type) {
    case FieldType::Text:
    case FieldType::Tags:
        return {eq, ne, co, nc, sw, ie, ne2};
    case FieldType::Number:
        return {eq, ne, gt, lt, bw, ie, ne2};
    case FieldType::Date:
        return {gt, lt, bw, ie, ne2};
    case FieldType::Sentiment:
        return {eq, ne, ie, ne2};
    case FieldType::Any:
        return operators();
    }
    return {};
}

bool SegmentRules::takesValue(const QString &op)
{
    return op != QLatin1String("isEmpty") && op != QLatin1String("isNotEmpty");
}

bool SegmentRules::isValidCustomFieldKey(const QString &key)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_.-]{1,64}$"));
    return re.match(key).hasMatch();
}

QStringList SegmentRules::sentiments()
{
    return {QStringLiteral("positive"), QStringLiteral("negative"), QStringLiteral("neutral")};
}

namespace {
QJsonObject run(const QJsonValue &filters, const Clock &clock, SegmentRules::Sql *sql)
{
    Compiler compiler(clock);
    QString where;
    const QJsonObject normalized = compiler.group(filters, QString(), 1, &where);
    if (!compiler.errors().isEmpty())
        throw DomainError::badRequest(compiler.firstError(), compiler.errors());
    if (sql) {
        sql->where = where;
        sql->values = compiler.values;
    }
    return normalized;
}
} // namespace

QJsonObject SegmentRules::validate(const QJsonValue &filters)
{
    return run(filters, Clock::system(), nullptr);
}

SegmentRules::Sql SegmentRules::compile(const QJsonObject &filters, const Clock &clock)
{
    Sql sql;
    run(filters, clock, &sql);
    return sql;
}
