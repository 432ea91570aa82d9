// IncomingWebhookRepository on the database of the pass: an endpoint's rules (typed as in the
// window or read from a body), its unguessable address and generated secret, a call checked step by
// step (signature, then the body's form) before its action runs, each action's outcome, and the
// call log with the endpoint's count.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "model/webhooks/incomingwebhookrepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

#include <optional>

namespace {
const QDateTime kNow(QDate(2031, 3, 4), QTime(10, 0), Qt::UTC);
} // namespace

class TestIncomingWebhookRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock;

    Store store() { return Store(m_bus, m_clock); }
    IncomingWebhook endpoint(const QString &action, bool signed_ = false)
    {
        IncomingWebhookChanges c{QStringLiteral("Form"), action, QString(), signed_};
        return IncomingWebhookRepository(store()).create(c).endpoint;
    }
    // check() then run(), as the server's receiver does.
    IncomingOutcome call(const IncomingWebhook &e, const QJsonObject &data)
    {
        IncomingWebhookRepository incoming(store());
        const QByteArray body = QJsonDocument(QJsonObject{{"event", "form.sent"}, {"data", data}}).toJson();
        QString event;
        QJsonObject read;
        incoming.check(e, body, WebhookRules::signature(e.secret, body), &event, &read);
        return incoming.run(e, read);
    }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(kNow);
    }
    void cleanup() { m_db.reset(); }

    // An endpoint typed in the window meets the rules of a request body: the same values typed and
    // as JSON are refused on the same fields with the same kind, or stored alike.
    void incomingChangesMeetTheBodyRules_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("badFields");
        QTest::addColumn<int>("kind");
        const int bad = DomainError::BadRequest, missing = DomainError::Unprocessable;
        QTest::newRow("form") << "  İletişim formu "
                              << "contact.upsert"
                              << ""
                              << "" << -1;
        QTest::newRow("signed") << "Sipariş"
                                << "deal.upsert"
                                << "0123456789abcdef"
                                << "" << -1;
        QTest::newRow("unknown action") << "Sipariş"
                                        << "deal.delete"
                                        << ""
                                        << "action" << bad;
        QTest::newRow("short secret") << "Sipariş"
                                      << "task.create"
                                      << "short"
                                      << "secret" << bad;
        QTest::newRow("long name") << QString(201, QLatin1Char('a')) << "task.create"
                                   << ""
                                   << "name" << bad;
        QTest::newRow("nothing") << " "
                                 << ""
                                 << ""
                                 << "action,name" << missing;
    }
    void incomingChangesMeetTheBodyRules()
    {
        QFETCH(QString, name);
        QFETCH(QString, action);
        QFETCH(QString, secret);
        QFETCH(QString, badFields);
        QFETCH(int, kind);
        IncomingWebhookChanges typed{name, action, secret, false};
        QJsonObject body{{"name", name}, {"action", action}};
        if (!secret.isEmpty())
            body.insert("secret", secret);
        QCOMPARE(refusalOf([&] { WebhookRules::checkIncoming(typed); }), qMakePair(badFields, kind));
        std::optional<IncomingWebhookChanges> parsed;
        QCOMPARE(refusalOf([&] { parsed = WebhookRules::parseIncoming(body); }), qMakePair(badFields, kind));
        if (badFields.isEmpty()) {
            IncomingWebhookRepository endpoints(store());
            const IncomingWebhook a = endpoints.create(typed).endpoint;
            const IncomingWebhook b = endpoints.create(*parsed).endpoint;
            QCOMPARE(a.name, name.trimmed());
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.action, a.action);
            QCOMPARE(b.secret, a.secret);
        }
    }

    void anEndpointsAddressIsUnguessableAndItsSecretShownOnce()
    {
        IncomingWebhookRepository incoming(store());
        QSignalSpy spy(&m_bus, &EventBus::changed);
        const IncomingWebhookRepository::Saved unsigned_ =
            incoming.create({QStringLiteral("Form"), QStringLiteral("contact.upsert"), QString(), false});
        const IncomingWebhookRepository::Saved generated =
            incoming.create({QStringLiteral("Sipariş"), QStringLiteral("deal.upsert"), QString(), true});
        const IncomingWebhookRepository::Saved given = incoming.create(
            {QStringLiteral("Görev"), QStringLiteral("task.create"), QStringLiteral("0123456789abcdef"), false});
        QCOMPARE(spy.size(), 3);
        static const QRegularExpression address(QStringLiteral("^iwh_[0-9a-f]{40}$"));
        QVERIFY2(address.match(unsigned_.endpoint.id).hasMatch(), qPrintable(unsigned_.endpoint.id));
        QVERIFY(unsigned_.endpoint.id != generated.endpoint.id);
        QCOMPARE(unsigned_.secret, QString());
        QCOMPARE(unsigned_.endpoint.secret, QString());
        QVERIFY(generated.secret.startsWith(QLatin1String("whsec_")));
        QCOMPARE(generated.endpoint.secret, generated.secret);
        QCOMPARE(given.secret, QString()); // the caller knows it already
        QCOMPARE(incoming.get(given.endpoint.id).secret, QStringLiteral("0123456789abcdef"));
        QCOMPARE(incoming.get(generated.endpoint.id).createdAt, QStringLiteral("2031-03-04T10:00:00.000Z"));

        // Newest first, a page at a time, with the total.
        qint64 total = 0;
        const QVector<IncomingWebhook> page = incoming.list(1, 2, &total);
        QCOMPARE(total, 3);
        QCOMPARE(page.size(), 2);
        QCOMPARE(page.at(0).id, given.endpoint.id);
        QCOMPARE(incoming.list(2, 2).constFirst().id, unsigned_.endpoint.id);

        incoming.remove(generated.endpoint.id);
        QVERIFY(!incoming.find(generated.endpoint.id));
        QCOMPARE(refusalOf([&] { incoming.remove(generated.endpoint.id); }).second, int(DomainError::NotFound));
        QCOMPARE(refusalOf([&] { incoming.get(QStringLiteral("iwh_none")); }).second, int(DomainError::NotFound));
        QCOMPARE(spy.size(), 4);
    }

    void aSignedEndpointTakesOnlyItsOwnSignature()
    {
        const IncomingWebhook e = endpoint(QStringLiteral("contact.upsert"), true);
        IncomingWebhookRepository incoming(store());
        const QByteArray body = R"({"event":"form.sent","data":{"firstName":"Ayşe"}})";
        QString event;
        QJsonObject data;
        incoming.check(e, body, WebhookRules::signature(e.secret, body), &event, &data);
        QCOMPARE(event, QStringLiteral("form.sent"));
        QCOMPARE(data.value("firstName").toString(), QStringLiteral("Ayşe"));
        // The signature of other bytes, or by another secret, is refused.
        try {
            incoming.check(e, body + ' ', WebhookRules::signature(e.secret, body), &event, &data);
            QFAIL("accepted the signature of other bytes");
        } catch (const DomainError &err) {
            QCOMPARE(err.code(), QStringLiteral("INVALID_SIGNATURE"));
        }
        QCOMPARE(refusalOf([&] {
                     incoming.check(e, body, WebhookRules::signature(QStringLiteral("whsec_other-secret-0123"), body),
                                    &event, &data);
                 }).second,
                 int(DomainError::Unauthorized));
    }

    void eachActionSaysWhatItDid()
    {
        // deal.upsert: an id of an existing deal updates it, anything else creates one.
        const IncomingWebhook deals = endpoint(QStringLiteral("deal.upsert"));
        IncomingOutcome r = call(deals, {{"name", "Yıllık bakım"}, {"value", 1200}});
        QCOMPARE(r.data.value("result").toString(), QStringLiteral("created"));
        const QString deal = r.data.value("dealId").toString();
        QCOMPARE(r.resultId, deal);
        r = call(deals, {{"id", deal}, {"value", 1500}});
        QCOMPARE(r.data.value("result").toString(), QStringLiteral("updated"));
        QCOMPARE(DealRepository(store()).get(deal).value, 1500.0);
        r = call(deals, {{"id", "deal_none"}, {"name", "Yeni"}});
        QCOMPARE(r.data.value("result").toString(), QStringLiteral("created"));
        QVERIFY(r.resultId != deal);

        // task.create: the task's own rules.
        const IncomingWebhook tasks = endpoint(QStringLiteral("task.create"));
        r = call(tasks, {{"title", "Geri ara"}});
        QCOMPARE(TaskRepository(store()).get(r.resultId).title, QStringLiteral("Geri ara"));
        QCOMPARE(refusalOf([&] {
                     call(tasks, {{"description", "başlıksız"}});
                 }).second,
                 int(DomainError::Unprocessable));

        // message.received: once per provider message id.
        const IncomingWebhook messages = endpoint(QStringLiteral("message.received"));
        const QJsonObject inbound{{"channel", "whatsapp"},
                                  {"from", "905321112233"},
                                  {"name", "Ali Kaya"},
                                  {"messageId", "wamid.1"},
                                  {"text", "Merhaba"}};
        r = call(messages, inbound);
        QCOMPARE(r.data.value("result").toString(), QStringLiteral("created"));
        QVERIFY(!r.data.value("conversationId").toString().isEmpty());
        QCOMPARE(call(messages, inbound).data.value("result").toString(), QStringLiteral("duplicate"));
        QCOMPARE(refusalOf([&] {
                     call(messages, {{"channel", "sms"}, {"from", "x"}, {"text", "a"}});
                 }),
                 qMakePair(QStringLiteral("channel"), int(DomainError::BadRequest)));
        QCOMPARE(refusalOf([&] {
                     call(messages, {{"channel", "whatsapp"}, {"from", "ali"}, {"text", "a"}});
                 }),
                 qMakePair(QStringLiteral("from"), int(DomainError::BadRequest)));
    }

    void callsAreLoggedNewestFirstAndCounted()
    {
        const IncomingWebhook a = endpoint(QStringLiteral("contact.upsert"));
        const IncomingWebhook b = endpoint(QStringLiteral("task.create"));
        IncomingWebhookRepository incoming(store());
        QSignalSpy spy(&m_bus, &EventBus::changed);
        incoming.recordCall(a, QStringLiteral("form.sent"), QStringLiteral("processed"), 200, {}, QStringLiteral("c_1"),
                            "{}");
        m_clock.advance(60);
        const QString rejected = incoming.recordCall(a, QString(), QStringLiteral("rejected"), 401,
                                                     QStringLiteral("bad signature"), {}, QByteArray());
        incoming.recordCall(b, QStringLiteral("x"), QStringLiteral("failed"), 422, QStringLiteral("no title"), {},
                            QByteArray(70 * 1024, 'x'));
        QCOMPARE(spy.size(), 3);

        qint64 total = 0;
        const QVector<IncomingWebhookCall> ofA = incoming.calls(a.id, 1, 10, &total);
        QCOMPARE(total, 2);
        QCOMPARE(ofA.at(0).id, rejected);
        QCOMPARE(ofA.at(0).statusCode, 401);
        QCOMPARE(ofA.at(0).event, QString());
        QCOMPARE(ofA.at(0).body, QByteArray());
        QCOMPARE(ofA.at(1).resultId, QStringLiteral("c_1"));
        QCOMPARE(ofA.at(1).error, QString());
        QCOMPARE(incoming.calls(QString(), 1, 10, &total).size(), 3);
        QCOMPARE(total, 3);
        QCOMPARE(incoming.calls(b.id, 1, 10).constFirst().body.size(), 64 * 1024); // the log keeps the start
        QCOMPARE(incoming.get(a.id).callCount, 2);
        QCOMPARE(incoming.get(a.id).lastCallAt, QStringLiteral("2031-03-04T10:01:00.000Z"));
        QCOMPARE(incoming.get(b.id).callCount, 1);
    }

    void contactUpsertMatchesByEmailThenPhone()
    {
        IncomingWebhookRepository incoming(store());
        const IncomingWebhook endpoint =
            incoming.create(WebhookRules::parseIncoming({{"name", "Form"}, {"action", "contact.upsert"}})).endpoint;
        QString event;
        auto call = [&](const QByteArray &body) {
            QJsonObject data;
            incoming.check(endpoint, body, {}, &event, &data);
            return incoming.run(endpoint, data);
        };
        IncomingOutcome r = call(R"({"event":"e","data":{"firstName":"A","phone":"+90 532 111 22 33"}})");
        QCOMPARE(r.data.value("result").toString(), QString("created"));
        const QString contact = r.data.value("contactId").toString();
        QCOMPARE(r.resultId, contact);
        QCOMPARE(event, QString("e"));
        r = call(R"({"event":"e","data":{"phone":"+905321112233","company":"K"}})");
        QCOMPARE(r.data.value("result").toString(), QString("updated"));
        QCOMPARE(r.data.value("contactId").toString(), contact);
        QCOMPARE(ContactRepository(testStore()).get(contact).company, QString("K"));
    }

    void incomingCallsAreCheckedBeforeTheAction_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("signature");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("code");
        const QByteArray good = R"({"event":"e","data":{"firstName":"A"}})";
        QTest::newRow("no signature") << good << QByteArray() << int(DomainError::Unauthorized) << "INVALID_SIGNATURE";
        QTest::newRow("wrong signature") << good << QByteArray("sha256=00") << int(DomainError::Unauthorized)
                                         << "INVALID_SIGNATURE";
        QTest::newRow("not JSON") << QByteArray("{x") << QByteArray() << int(DomainError::BadRequest) << "INVALID_JSON";
        QTest::newRow("no event") << QByteArray(R"({"data":{}})") << QByteArray() << int(DomainError::BadRequest)
                                  << "VALIDATION_ERROR";
        QTest::newRow("data not an object") << QByteArray(R"({"event":"e","data":[]})") << QByteArray()
                                            << int(DomainError::BadRequest) << "VALIDATION_ERROR";
    }

    void incomingCallsAreCheckedBeforeTheAction()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, signature);
        QFETCH(int, kind);
        QFETCH(QString, code);
        IncomingWebhookRepository incoming(store());
        const bool signedRows = QByteArray(QTest::currentDataTag()).contains("signature");
        QJsonObject create{{"name", "Form"}, {"action", "contact.upsert"}};
        if (signedRows)
            create.insert("secret", true);
        const IncomingWebhook endpoint = incoming.create(WebhookRules::parseIncoming(create)).endpoint;
        // A signed endpoint with a right signature gets past the check.
        QString event;
        QJsonObject data;
        try {
            incoming.check(endpoint, body, signature, &event, &data);
            QFAIL("accepted");
        } catch (const DomainError &e) {
            QCOMPARE(int(e.kind()), kind);
            QCOMPARE(e.code(), code);
        }
        // An action the endpoint does not know is refused as unprocessable.
        IncomingWebhook unknown = endpoint;
        unknown.action = "nothing.here";
        try {
            incoming.run(unknown, {});
            QFAIL("ran");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Unprocessable);
            QCOMPARE(e.code(), QString("ACTION_NOT_AVAILABLE"));
        }
    }
};

QTEST_GUILESS_MAIN(TestIncomingWebhookRepository)
#include "test_incomingwebhookrepository.moc"
