// QueryReader, the reader of a request's query string: paging bounds, dates and date-times, one of
// a list, comma lists, numbers and booleans; a parameter it cannot read refuses at once
// (BadRequest, "Query parameter <name> <problem>", the problem under the parameter's name).
#include "model/core/errors.h"
#include "server/api/queryreader.h"

#include <QJsonDocument>
#include <QtTest>

#include <functional>

namespace {
// The outcome of reading a query string: the value written out, or the refusal's message and details.
QString readQuery(const QString &query, const std::function<QString(const QueryReader &)> &read)
{
    HttpRequest http;
    QString raw = query;
    const ApiRequest request{http, QStringLiteral("req_test"), {}, QUrlQuery(raw.replace('+', "%20")), {}, false, {}};
    try {
        return read(QueryReader(request));
    } catch (const DomainError &e) {
        if (e.kind() != DomainError::BadRequest || e.code() != QLatin1String("VALIDATION_ERROR"))
            return QStringLiteral("wrong kind or code");
        return e.message() + QStringLiteral(" | ") +
               QString::fromUtf8(QJsonDocument(e.details()).toJson(QJsonDocument::Compact));
    }
}

QString paging(const QString &query)
{
    return readQuery(query, [](const QueryReader &q) {
        const QueryReader::Paging p = q.paging(20, 100);
        return QStringLiteral("%1/%2").arg(p.page).arg(p.limit);
    });
}
} // namespace

class TestQueryReader final : public QObject
{
    Q_OBJECT

private slots:
    void pagingBounds_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("outcome");
        const QString pageRefused =
            R"(Query parameter page must be a positive integer | {"page":"must be a positive integer"})";
        const QString limitRefused =
            R"(Query parameter limit must be a positive integer | {"limit":"must be a positive integer"})";
        QTest::newRow("defaults") << ""
                                  << "1/20";
        QTest::newRow("given") << "page=3&limit=50"
                               << "3/50";
        QTest::newRow("limit lowered to the most") << "limit=101"
                                                   << "1/100";
        QTest::newRow("limit huge") << "limit=99999999999999"
                                    << "1/100";
        QTest::newRow("page huge") << "page=99999999999999"
                                   << "1000000000/20";
        QTest::newRow("limit 1") << "limit=1"
                                 << "1/1";
        QTest::newRow("page 0") << "page=0" << pageRefused;
        QTest::newRow("page negative") << "page=-2" << pageRefused;
        QTest::newRow("page not a number") << "page=two" << pageRefused;
        QTest::newRow("page empty") << "page=" << pageRefused;
        QTest::newRow("page fraction") << "page=1.5" << pageRefused;
        QTest::newRow("limit 0") << "limit=0" << limitRefused;
        QTest::newRow("page refused before limit") << "page=0&limit=0" << pageRefused;
    }

    void pagingBounds()
    {
        QFETCH(QString, query);
        QFETCH(QString, outcome);
        QCOMPARE(paging(query), outcome);
    }

    void dates_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("outcome");
        const QString refused = R"(Query parameter since must be a date (YYYY-MM-DD) or an ISO 8601 date-time | )"
                                R"({"since":"must be a date or date-time"})";
        QTest::newRow("absent") << ""
                                << "none";
        QTest::newRow("date") << "since=2026-03-01"
                              << "2026-03-01T00:00:00Z";
        QTest::newRow("date-time with offset") << "since=2026-03-01T10:00:00%2B03:00"
                                               << "2026-03-01T07:00:00Z";
        // A + not encoded is a space in a query string.
        QTest::newRow("offset with a bare +") << "since=2026-03-01T10:00:00+03:00" << refused;
        QTest::newRow("date-time Z") << "since=2026-03-01T10:00:00Z"
                                     << "2026-03-01T10:00:00Z";
        QTest::newRow("not a date") << "since=yesterday" << refused;
        QTest::newRow("no day 31") << "since=2026-02-31" << refused;
        QTest::newRow("empty") << "since=" << refused;
    }

    void dates()
    {
        QFETCH(QString, query);
        QFETCH(QString, outcome);
        QCOMPARE(readQuery(query,
                           [](const QueryReader &q) {
                               const auto t = q.dateTime(QStringLiteral("since"));
                               return t ? t->toUTC().toString(Qt::ISODate) : QStringLiteral("none");
                           }),
                 outcome);
    }

    // A day given to instant() is the start of that day in the zone; date() takes days only.
    void daysAndInstants()
    {
        const QTimeZone istanbul("Europe/Istanbul");
        QCOMPARE(readQuery("dueAfter=2026-03-01",
                           [&](const QueryReader &q) {
                               return q.instant(QStringLiteral("dueAfter"), istanbul)->toString(Qt::ISODate);
                           }),
                 QStringLiteral("2026-02-28T21:00:00Z"));
        QCOMPARE(
            readQuery("dueDate=2026-03-01",
                      [](const QueryReader &q) { return q.date(QStringLiteral("dueDate"))->toString(Qt::ISODate); }),
            QStringLiteral("2026-03-01"));
        const QString refused = QStringLiteral("Query parameter dueDate must be a date (YYYY-MM-DD) | "
                                               "{\"dueDate\":\"must be a date (YYYY-MM-DD)\"}");
        QCOMPARE(readQuery("dueDate=2026-03-01T10:00:00Z",
                           [](const QueryReader &q) { return q.date(QStringLiteral("dueDate"))->toString(); }),
                 refused);
    }

    void valuesAndLists_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("outcome");
        QTest::newRow("one of: absent") << ""
                                        << "oneOf"
                                        << "";
        QTest::newRow("one of: listed") << "status=open"
                                        << "oneOf"
                                        << "open";
        QTest::newRow("one of: case counts")
            << "status=Open"
            << "oneOf"
            << R"(Query parameter status must be one of open, closed | {"status":"must be one of open, closed"})";
        QTest::newRow("list: commas and repeats") << "tag=a,b&tags=+c+,,&tag="
                                                  << "list"
                                                  << "a|b|c";
        QTest::newRow("list: none") << ""
                                    << "list"
                                    << "";
        QTest::newRow("number") << "minValue=12.5"
                                << "number"
                                << "12.5";
        QTest::newRow("number: not finite")
            << "minValue=inf"
            << "number"
            << R"(Query parameter minValue must be a number | {"minValue":"must be a number"})";
        QTest::newRow("boolean: 1") << "rotten=1"
                                    << "boolean"
                                    << "true";
        QTest::newRow("boolean: FALSE") << "rotten=FALSE"
                                        << "boolean"
                                        << "false";
        QTest::newRow("boolean: yes")
            << "rotten=yes"
            << "boolean"
            << R"(Query parameter rotten must be true or false | {"rotten":"must be true or false"})";
    }

    void valuesAndLists()
    {
        QFETCH(QString, query);
        QFETCH(QString, what);
        QFETCH(QString, outcome);
        const QString got = readQuery(query, [&](const QueryReader &q) -> QString {
            if (what == QLatin1String("oneOf"))
                return q.oneOf(QStringLiteral("status"), {QStringLiteral("open"), QStringLiteral("closed")});
            if (what == QLatin1String("list"))
                return q.list({QStringLiteral("tag"), QStringLiteral("tags")}).join(QLatin1Char('|'));
            if (what == QLatin1String("number")) {
                const auto n = q.number(QStringLiteral("minValue"));
                return n ? QString::number(*n) : QStringLiteral("none");
            }
            const auto b = q.boolean(QStringLiteral("rotten"));
            return b ? (*b ? QStringLiteral("true") : QStringLiteral("false")) : QStringLiteral("none");
        });
        QCOMPARE(got, outcome);
    }
};

QTEST_GUILESS_MAIN(TestQueryReader)
#include "test_queryreader.moc"
