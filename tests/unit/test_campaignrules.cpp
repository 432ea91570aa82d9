// The campaigns' rules, data-driven: the state machine's moves, merge fields (names used, values,
// fallbacks, HTML escaping, Turkish text), the statistics' rates and their denominators, the body's
// checks, and the signed link tokens.
#include "model/campaigns/campaign.h"
#include "model/campaigns/campaignrepository.h"
#include "model/contacts/contact.h"

#include <QtTest>

class TestCampaignRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void moves_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("allowed");
        const QStringList all = CampaignRules::Statuses;
        const QSet<QPair<QString, QString>> allowed = {
            {"DRAFT", "SCHEDULED"},   {"DRAFT", "SENDING"},       {"DRAFT", "CANCELLED"}, {"SCHEDULED", "DRAFT"},
            {"SCHEDULED", "SENDING"}, {"SCHEDULED", "CANCELLED"}, {"SENDING", "PAUSED"},  {"SENDING", "SENT"},
            {"SENDING", "FAILED"},    {"SENDING", "CANCELLED"},   {"PAUSED", "SENDING"},  {"PAUSED", "CANCELLED"},
            {"SENT", "SENDING"},      {"FAILED", "SENDING"}};
        for (const QString &from : all) {
            for (const QString &to : all)
                QTest::newRow(qPrintable(from + "->" + to)) << from << to << allowed.contains({from, to});
        }
    }

    void moves()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, allowed);
        QCOMPARE(CampaignRules::canMove(from, to), allowed);
        if (allowed)
            return;
        try {
            CampaignRules::checkMove(from, to);
            QFAIL("no refusal");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
            QCOMPARE(e.code(), QString("INVALID_TRANSITION"));
            QCOMPARE(e.message(), QStringLiteral("A campaign cannot go from %1 to %2").arg(from, to));
        }
    }

    void mergeFields_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("html");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << "Merhaba {{firstName}}!" << false << "Merhaba İsmail!";
        QTest::newRow("spaces") << "{{ firstName }} {{ lastName }}" << false << "İsmail Çağlar";
        QTest::newRow("full name") << "{{fullName}}" << false << "İsmail Çağlar";
        QTest::newRow("fallback unused") << "{{firstName|değerli müşterimiz}}" << false << "İsmail";
        QTest::newRow("fallback used") << "{{position|değerli müşterimiz}}" << false << "değerli müşterimiz";
        QTest::newRow("empty no fallback") << "[{{position}}]" << false << "[]";
        QTest::newRow("custom field") << "Beden: {{shoeSize}}" << false << "Beden: 42";
        QTest::newRow("custom text") << "{{city|?}}" << false << "İzmir";
        QTest::newRow("escaped in html") << "<b>{{company}}</b>" << true << "<b>Ali &amp; Veli &lt;Ltd&gt;</b>";
        QTest::newRow("as is in text") << "{{company}}" << false << "Ali & Veli <Ltd>";
        QTest::newRow("not a field") << "{ {firstName} } {{}}" << false << "{ {firstName} } {{}}";
        QTest::newRow("extra") << "{{unsubscribeUrl}}" << true << "https://x/u/t?a=1&b=2";
    }

    void mergeFields()
    {
        QFETCH(QString, text);
        QFETCH(bool, html);
        QFETCH(QString, expected);
        Contact c;
        c.firstName = QStringLiteral("İsmail");
        c.lastName = QStringLiteral("Çağlar");
        c.company = QStringLiteral("Ali & Veli <Ltd>");
        c.customFields = {{"shoeSize", 42}, {"city", "İzmir"}};
        QCOMPARE(MergeFields::render(text, c, html, {{"unsubscribeUrl", "https://x/u/t?a=1&b=2"}}), expected);
    }

    void namesUsed()
    {
        QCOMPARE(MergeFields::used("{{a}} {{b|x}} {{ a }} {{c.d}}"), (QStringList{"a", "b", "c.d"}));
        QVERIFY(MergeFields::used("{x} {{}} {{1a}}").isEmpty());
    }

    void rates_data()
    {
        QTest::addColumn<qint64>("sent");
        QTest::addColumn<qint64>("delivered");
        QTest::addColumn<qint64>("opened");
        QTest::addColumn<qint64>("clicked");
        QTest::addColumn<double>("deliveryRate");
        QTest::addColumn<double>("openRate");
        QTest::addColumn<double>("clickRate");
        QTest::newRow("nothing sent") << 0LL << 0LL << 0LL << 0LL << 0.0 << 0.0 << 0.0;
        QTest::newRow("all") << 10LL << 10LL << 10LL << 10LL << 100.0 << 100.0 << 100.0;
        QTest::newRow("thirds") << 3LL << 3LL << 1LL << 2LL << 100.0 << 33.3 << 66.7;
        QTest::newRow("bounces lower delivery") << 200LL << 180LL << 45LL << 9LL << 90.0 << 25.0 << 5.0;
        QTest::newRow("none delivered") << 5LL << 0LL << 0LL << 0LL << 0.0 << 0.0 << 0.0;
    }

    void rates()
    {
        QFETCH(qint64, sent);
        QFETCH(qint64, delivered);
        QFETCH(qint64, opened);
        QFETCH(qint64, clicked);
        CampaignStats s;
        s.sent = sent;
        s.delivered = delivered;
        s.opened = opened;
        s.clicked = clicked;
        QTEST(s.deliveryRate(), "deliveryRate");
        QTEST(s.openRate(), "openRate");
        QTEST(s.clickRate(), "clickRate");
        const QJsonObject o = s.toJson();
        for (const char *key :
             {"sent", "delivered", "opened", "clicked", "bounced", "deliveryRate", "openRate", "clickRate"})
            QVERIFY2(o.contains(key), key);
    }

    void parseRefusesBadBodies_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("type") << QJsonObject{{"type", "MAILING"}} << "type";
        QTest::newRow("channel") << QJsonObject{{"channel", 3}} << "channel";
        QTest::newRow("schedule") << QJsonObject{{"scheduledAt", "2026-12-01"}} << "scheduledAt";
        QTest::newRow("steps not array") << QJsonObject{{"steps", "x"}} << "steps";
        QTest::newRow("step delay") << QJsonObject{{"steps", QJsonArray{QJsonObject{{"delayMinutes", 1.5}}}}}
                                    << "steps[0].delayMinutes";
        QTest::newRow("window hours") << QJsonObject{{"sendWindow", QJsonObject{{"fromHour", 18}, {"toHour", 9}}}}
                                      << "sendWindow.toHour";
        QTest::newRow("window days") << QJsonObject{{"sendWindow", QJsonObject{{"days", QJsonArray{0}}}}}
                                     << "sendWindow.days";
        QTest::newRow("trigger event") << QJsonObject{{"trigger", QJsonObject{{"event", "contact.exploded"}}}}
                                       << "trigger.event";
    }

    void parseRefusesBadBodies()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        try {
            CampaignRules::parse(body);
            QFAIL("no refusal");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::BadRequest);
            QVERIFY2(e.problems().contains(field), qPrintable(e.message()));
        }
    }

    void daysAndMinutes()
    {
        CampaignChanges c;
        try {
            c = CampaignRules::parse(
                {{"type", "drip"},
                 {"steps", QJsonArray{QJsonObject{{"delayDays", 2}, {"subject", "a"}, {"htmlContent", "b"}},
                                      QJsonObject{{"delayMinutes", 90}, {"subject", "c"}, {"htmlContent", "d"}}}},
                 {"scheduledAt", "2026-12-01T09:00:00+03:00"}});
        } catch (const DomainError &e) {
            QFAIL(qPrintable(e.message()));
        }
        QCOMPARE(*c.type, QString("DRIP"));
        QCOMPARE(c.steps->at(0).delayMinutes, 2 * 24 * 60);
        QCOMPARE(c.steps->at(1).delayMinutes, 90);
        QCOMPARE(*c.scheduledAt, QString("2026-12-01T06:00:00.000Z"));
    }

    void linkTokens_data()
    {
        QTest::addColumn<QString>("purpose");
        QTest::addColumn<QString>("url");
        QTest::newRow("open") << "open" << QString();
        QTest::newRow("unsubscribe") << "unsubscribe" << QString();
        QTest::newRow("click") << "click"
                               << "https://ornek.com.tr/ürün?a=1&b=2";
    }

    void linkTokens()
    {
        QFETCH(QString, purpose);
        QFETCH(QString, url);
        const QByteArray key = "0123456789abcdef0123456789abcdef";
        const QString id = QStringLiteral("rcp_01kbx7y3z4a5b6c7d8e9f0g1h2");
        const QString token = CampaignLinks::token(key, purpose, id, url);
        QCOMPARE(CampaignLinks::verify(key, purpose, token, url), id);
        QVERIFY(CampaignLinks::verify("another key", purpose, token, url).isEmpty());
        QVERIFY(CampaignLinks::verify(key, purpose == "open" ? "click" : "open", token, url).isEmpty());
        QVERIFY(CampaignLinks::verify(key, purpose, token, url + "x").isEmpty());
        QVERIFY(CampaignLinks::verify(key, purpose, token.left(token.size() - 1), url).isEmpty());
        QVERIFY(CampaignLinks::verify(key, purpose, "rcp_x.abc", url).isEmpty());
        QVERIFY(CampaignLinks::verify(key, purpose, QString(), url).isEmpty());
    }

    // When a drip step may go: now inside the window, else the window's next opening (Istanbul,
    // UTC+3; 2026-11-28 is a Saturday).
    void sendWindowOpening_data()
    {
        QTest::addColumn<int>("fromHour");
        QTest::addColumn<int>("toHour");
        QTest::addColumn<QList<int>>("days");
        QTest::addColumn<QString>("now");      // UTC
        QTest::addColumn<QString>("expected"); // UTC
        const QList<int> every;
        const QList<int> weekdays{1, 2, 3, 4, 5};
        QTest::newRow("always") << 0 << 24 << every << "2026-11-28T23:59:00Z"
                                << "2026-11-28T23:59:00Z";
        QTest::newRow("inside") << 9 << 18 << every << "2026-11-28T07:00:00Z"
                                << "2026-11-28T07:00:00Z";
        QTest::newRow("at the opening") << 9 << 18 << every << "2026-11-28T06:00:00Z"
                                        << "2026-11-28T06:00:00Z";
        QTest::newRow("before the opening") << 9 << 18 << every << "2026-11-28T03:00:00Z"
                                            << "2026-11-28T06:00:00Z";
        QTest::newRow("at the close: tomorrow") << 9 << 18 << every << "2026-11-28T15:00:00Z"
                                                << "2026-11-29T06:00:00Z";
        QTest::newRow("evening: tomorrow") << 9 << 18 << every << "2026-11-28T17:30:00Z"
                                           << "2026-11-29T06:00:00Z";
        QTest::newRow("late UTC is already tomorrow in Istanbul") << 9 << 18 << every << "2026-11-28T22:30:00Z"
                                                                  << "2026-11-29T06:00:00Z";
        QTest::newRow("Saturday: Monday") << 9 << 18 << weekdays << "2026-11-28T08:00:00Z"
                                          << "2026-11-30T06:00:00Z";
        QTest::newRow("Friday evening: Monday") << 9 << 18 << weekdays << "2026-11-27T16:00:00Z"
                                                << "2026-11-30T06:00:00Z";
        QTest::newRow("until midnight") << 20 << 24 << every << "2026-11-28T20:30:00Z"
                                        << "2026-11-28T20:30:00Z";
        QTest::newRow("only Sundays") << 0 << 24 << QList<int>{7} << "2026-11-28T12:00:00Z"
                                      << "2026-11-28T21:00:00Z";
    }

    void sendWindowOpening()
    {
        QFETCH(int, fromHour);
        QFETCH(int, toHour);
        QFETCH(QList<int>, days);
        QFETCH(QString, now);
        QFETCH(QString, expected);
        SendWindow w;
        w.fromHour = fromHour;
        w.toHour = toHour;
        w.days = days;
        const QDateTime at = QDateTime::fromString(now, Qt::ISODate);
        const QDateTime opening = w.nextOpening(at, QTimeZone("Europe/Istanbul"));
        QCOMPARE(opening.toUTC(), QDateTime::fromString(expected, Qt::ISODate).toUTC());
    }

    // Which contact an outbox event starts a TRIGGERED campaign for.
    void triggeredContact_data()
    {
        QTest::addColumn<QJsonObject>("trigger");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QJsonObject>("data");
        QTest::addColumn<QString>("contact");
        const QJsonObject created{{"event", "contact.created"}};
        const QJsonObject tagged{{"event", "contact.tagged"}, {"tag", "VIP"}};
        const QJsonObject stage{{"event", "deal.stage_changed"}, {"stage", "proposal"}};
        const QJsonObject anyStage{{"event", "deal.stage_changed"}};
        const QJsonObject whatsapp{{"event", "message.received"}, {"channel", "whatsapp"}};
        const QJsonObject contact{{"contactId", "cnt_1"}, {"tags", QJsonArray{"vip", "İzmir"}}};
        QTest::newRow("created") << created << "contact.created" << contact << "cnt_1";
        QTest::newRow("created: not an update") << created << "contact.updated" << contact << "";
        QTest::newRow("tagged at creation, any case") << tagged << "contact.created" << contact << "cnt_1";
        QJsonObject retagged = contact;
        retagged.insert("changedFields", QJsonArray{"tags"});
        QTest::newRow("tagged by an update") << tagged << "contact.updated" << retagged << "cnt_1";
        QJsonObject renamed = contact;
        renamed.insert("changedFields", QJsonArray{"firstName"});
        QTest::newRow("an update of other fields") << tagged << "contact.updated" << renamed << "";
        QJsonObject otherTags = retagged;
        otherTags.insert("tags", QJsonArray{"ankara"});
        QTest::newRow("tags changed, not this one") << tagged << "contact.updated" << otherTags << "";
        const QJsonObject deal{{"contactId", "cnt_2"}, {"from", "lead"}, {"to", "proposal"}};
        QTest::newRow("deal to the stage") << stage << "deal.stage_changed" << deal << "cnt_2";
        QTest::newRow("deal to another stage")
            << stage << "deal.stage_changed" << QJsonObject{{"contactId", "cnt_2"}, {"to", "won"}} << "";
        QTest::newRow("any stage") << anyStage << "deal.stage_changed" << deal << "cnt_2";
        QTest::newRow("deal without a contact")
            << anyStage << "deal.stage_changed" << QJsonObject{{"contactId", QJsonValue()}, {"to", "won"}} << "";
        const QJsonObject incoming{{"contactId", "cnt_3"}, {"channel", "whatsapp"}, {"direction", "incoming"}};
        QTest::newRow("message on the channel") << whatsapp << "message.received" << incoming << "cnt_3";
        QJsonObject telegram = incoming;
        telegram.insert("channel", "telegram");
        QTest::newRow("message on another channel") << whatsapp << "message.received" << telegram << "";
        QTest::newRow("any channel") << QJsonObject{{"event", "message.received"}} << "message.received" << telegram
                                     << "cnt_3";
        QJsonObject outgoing = incoming;
        outgoing.insert("direction", "outgoing");
        QTest::newRow("our own message") << whatsapp << "message.received" << outgoing << "";
    }

    void triggeredContact()
    {
        QFETCH(QJsonObject, trigger);
        QFETCH(QString, event);
        QFETCH(QJsonObject, data);
        QFETCH(QString, contact);
        QCOMPARE(CampaignRules::triggeredContact(trigger, event, data), contact);
    }
};

QTEST_MAIN(TestCampaignRules)
#include "test_campaignrules.moc"
