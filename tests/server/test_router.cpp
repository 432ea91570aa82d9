// The routing table on its own: literal segments before parameters at every level, parameters
// captured and percent-decoded, HEAD served by GET routes, 405's allowed methods for a known path,
// unknown paths, empty and doubled slashes, and backtracking from a literal that leads nowhere; and
// the registrations it refuses (no operationId, one taken or not camelCase, no one-line summary).
#include "server/api/router.h"

#include <QtTest>

namespace {
// Each route is told apart by its documented summary.
RouteDoc named(const QString &name)
{
    RouteDoc doc;
    doc.summary = name;
    return doc;
}

QString nameOf(const Router::Match &m)
{
    return m.route ? m.route->doc.summary : QString();
}

const Handler kHandler = [](ApiRequest &) { return ApiResponse(); };
} // namespace

class TestRouter final : public QObject
{
    Q_OBJECT

private:
    Router m_router;

private slots:
    void initTestCase()
    {
        const Access a = Access::scoped("contacts:read");
        m_router.add("GET", "/api/v1/contacts", "list", kHandler, a, named("list"));
        m_router.add("POST", "/api/v1/contacts", "create", kHandler, a, named("create"));
        m_router.add("GET", "/api/v1/contacts/:id", "get", kHandler, a, named("get"));
        m_router.add("PATCH", "/api/v1/contacts/:id", "update", kHandler, a, named("update"));
        m_router.add("GET", "/api/v1/contacts/search", "search", kHandler, a, named("search"));
        m_router.add("POST", "/api/v1/contacts/:id/tags", "tag", kHandler, a, named("tag"));
        m_router.add("DELETE", "/api/v1/contacts/:id/tags/:tag", "untag", kHandler, a, named("untag"));
        m_router.add("GET", "/api/v1/deals/pipeline", "pipeline", kHandler, a, named("pipeline"));
        m_router.add("GET", "/api/v1/deals/:id", "deal", kHandler, a, named("deal"));
        // A literal that leads nowhere for a longer path: the parameter branch must still be tried.
        m_router.add("GET", "/api/v1/items/special", "special", kHandler, a, named("special"));
        m_router.add("GET", "/api/v1/items/:id/parts", "parts", kHandler, a, named("parts"));
    }

    void matches_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QString>("handler");
        QTest::addColumn<QString>("params"); // "name=value;…"
        QTest::newRow("list") << QByteArray("GET") << QByteArray("/api/v1/contacts") << "list"
                              << "";
        QTest::newRow("create") << QByteArray("POST") << QByteArray("/api/v1/contacts") << "create"
                                << "";
        QTest::newRow("by id") << QByteArray("GET") << QByteArray("/api/v1/contacts/contact_1") << "get"
                               << "id=contact_1";
        QTest::newRow("literal beats parameter")
            << QByteArray("GET") << QByteArray("/api/v1/contacts/search") << "search"
            << "";
        QTest::newRow("literal beats parameter (deals)")
            << QByteArray("GET") << QByteArray("/api/v1/deals/pipeline") << "pipeline"
            << "";
        QTest::newRow("two parameters") << QByteArray("DELETE") << QByteArray("/api/v1/contacts/c1/tags/vip") << "untag"
                                        << "id=c1;tag=vip";
        QTest::newRow("percent-decoded") << QByteArray("DELETE")
                                         << QByteArray("/api/v1/contacts/c1/tags/%C3%B6zel%20m%C3%BC%C5%9Fteri")
                                         << "untag" << QString::fromUtf8("id=c1;tag=özel müşteri");
        QTest::newRow("HEAD as GET") << QByteArray("HEAD") << QByteArray("/api/v1/contacts/c1") << "get"
                                     << "id=c1";
        QTest::newRow("trailing slash") << QByteArray("GET") << QByteArray("/api/v1/contacts/") << "list"
                                        << "";
        QTest::newRow("doubled slash") << QByteArray("GET") << QByteArray("/api/v1//contacts") << "list"
                                       << "";
        QTest::newRow("backtracks from a literal")
            << QByteArray("GET") << QByteArray("/api/v1/items/special/parts") << "parts"
            << "id=special";
        QTest::newRow("unknown path") << QByteArray("GET") << QByteArray("/api/v1/nothing") << ""
                                      << "";
        QTest::newRow("too deep") << QByteArray("GET") << QByteArray("/api/v1/contacts/c1/tags/vip/more") << ""
                                  << "";
        QTest::newRow("root") << QByteArray("GET") << QByteArray("/") << ""
                              << "";
    }

    void matches()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, path);
        QFETCH(QString, handler);
        QFETCH(QString, params);
        const Router::Match m = m_router.match(method, path);
        QCOMPARE(nameOf(m), handler);
        QStringList got;
        for (auto it = m.params.begin(); it != m.params.end(); ++it)
            got << it.key() + "=" + it.value();
        got.sort();
        QStringList want = params.isEmpty() ? QStringList() : params.split(';');
        want.sort();
        QCOMPARE(got, want);
    }

    void knownPathOtherMethodListsTheAllowedOnes()
    {
        const Router::Match m = m_router.match("DELETE", "/api/v1/contacts/c1");
        QVERIFY(!m.route);
        QList<QByteArray> allowed = m.allowedMethods;
        std::sort(allowed.begin(), allowed.end());
        QCOMPARE(allowed, (QList<QByteArray>{"GET", "HEAD", "PATCH"}));
        // An unknown path has none: 404, not 405.
        QVERIFY(m_router.match("DELETE", "/api/v1/nothing").allowedMethods.isEmpty());
    }

    void everyRouteIsListed()
    {
        QCOMPARE(m_router.routes().size(), 11);
        QCOMPARE(m_router.routes().at(2).pattern, QString("/api/v1/contacts/:id"));
        QCOMPARE(m_router.routes().at(2).operationId, QString("get"));
    }

    // Router::add stops the program on these (qFatal); problemWith says why.
    void refusesARouteWithoutAGoodIdOrSummary_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("operationId");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QString>("problem"); // a part of the reason; empty: accepted
        QTest::newRow("accepted") << QByteArray("DELETE") << "/api/v1/deals/:id"
                                  << "deleteDeal"
                                  << "Delete a deal"
                                  << "";
        QTest::newRow("no id") << QByteArray("DELETE") << "/api/v1/deals/:id"
                               << ""
                               << "Delete a deal"
                               << "no operationId";
        QTest::newRow("words") << QByteArray("DELETE") << "/api/v1/deals/:id"
                               << "delete deal"
                               << "Delete a deal"
                               << "not camelCase";
        QTest::newRow("upper first") << QByteArray("DELETE") << "/api/v1/deals/:id"
                                     << "DeleteDeal"
                                     << "Delete a deal"
                                     << "not camelCase";
        QTest::newRow("snake") << QByteArray("DELETE") << "/api/v1/deals/:id"
                               << "delete_deal"
                               << "Delete a deal"
                               << "not camelCase";
        QTest::newRow("id taken") << QByteArray("DELETE") << "/api/v1/deals/:id"
                                  << "deal"
                                  << "Delete a deal"
                                  << "is taken by GET /api/v1/deals/:id";
        QTest::newRow("no summary") << QByteArray("DELETE") << "/api/v1/deals/:id"
                                    << "deleteDeal"
                                    << " "
                                    << "no summary";
        QTest::newRow("two lines") << QByteArray("DELETE") << "/api/v1/deals/:id"
                                   << "deleteDeal"
                                   << "Delete a deal\nand its activities"
                                   << "more than one line";
        QTest::newRow("a summary too long")
            << QByteArray("DELETE") << "/api/v1/deals/:id"
            << "deleteDeal" << QString(RouteDoc::kMaxSummary + 1, 'x') << "more than 100 characters";
        QTest::newRow("a summary just short enough") << QByteArray("DELETE") << "/api/v1/deals/:id"
                                                     << "deleteDeal" << QString(RouteDoc::kMaxSummary, 'x') << "";
        QTest::newRow("twice") << QByteArray("GET") << "/api/v1/deals/:id"
                               << "getDeal"
                               << "A deal"
                               << "registered twice";
    }
    void refusesARouteWithoutAGoodIdOrSummary()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, pattern);
        QFETCH(QString, operationId);
        QFETCH(QString, summary);
        QFETCH(QString, problem);
        const QString got = m_router.problemWith(method, pattern, operationId, named(summary).described("The rest."));
        if (problem.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got));
        else
            QVERIFY2(got.contains(problem), qPrintable(got));
    }
};

QTEST_MAIN(TestRouter)
#include "test_router.moc"
