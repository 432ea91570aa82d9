// The assistant over real HTTPS on loopback: the knowledge base (CRUD, list filters, CSV import as
// text/csv and multipart, export and its round trip, 10,000 rows at once), chat (answers, hand-offs
// and their reasons, language detection, a follow-up read with its history), the hand-off in a
// conversation (flagged, agents assigned in turn across the conversations), test-knowledge (nothing
// stored), feedback (THUMBS, SCALE, a replacement, unknown ids, bad ratings), the figures checked
// against the rows the test made, the suggestions (paraphrases grouped, accepted into an entry,
// dismissed for good), roles and scopes, and bad input answered in the envelope (400, 404, 413, 422),
// never 500. The knowledge base is the test's own handful of Turkish and English entries.
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/passwordhasher.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"
#include "server/api/multipart.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QtTest>

namespace {

qint64 countOf(const QString &sql, const QVariantList &values = {})
{
    QSqlQuery q = Database::exec(sql, values);
    return q.next() ? q.value(0).toLongLong() : -1;
}

QString textOf(const QString &sql, const QVariantList &values = {})
{
    QSqlQuery q = Database::exec(sql, values);
    return q.next() ? q.value(0).toString() : QString();
}

struct Entry
{
    const char *language;
    const char *question;
    const char *answer;
    QStringList tags;
    const char *type = "faq";
};

// The test's knowledge base.
const QVector<Entry> &knowledge()
{
    static const QVector<Entry> list = {
        {"tr",
         "Kargom ne zaman gelir?",
         "Siparişler 2 iş günü içinde kargoya verilir, teslimat ortalama 3 gün sürer.",
         {"kargo", "teslimat"}},
        {"tr",
         "Ürünü nasıl iade ederim?",
         "Ürünü teslim aldıktan sonra 14 gün içinde ücretsiz iade edebilirsiniz: Hesabım > Siparişlerim > İade.",
         {"iade"}},
        {"tr",
         "Hangi ödeme yöntemlerini kabul ediyorsunuz?",
         "Kredi kartı, banka kartı ve havale ile ödeme yapabilirsiniz; 6 aya varan taksit vardır.",
         {"ödeme"}},
        {"tr",
         "Mağazanız nerede?",
         "Mağazamız Kadıköy'de, Moda Caddesi 12 numarada; her gün 10.00-20.00 arası açık.",
         {"mağaza"},
         "article"},
        {"en",
         "How long does shipping take?",
         "Orders ship within 2 business days and arrive in about 3 days.",
         {"shipping"}},
        {"en",
         "How can I return a product?",
         "You can return any product within 14 days of delivery, free of charge, from My Account > Orders.",
         {"returns"}},
        {"en",
         "Do you ship internationally?",
         "We ship to the EU and the UK; customs fees are paid on delivery.",
         {"shipping", "international"},
         "snippet"},
    };
    return list;
}

QJsonObject entryBody(const Entry &e)
{
    return {{"type", e.type},
            {"language", e.language},
            {"question", e.question},
            {"answer", e.answer},
            {"tags", QJsonArray::fromStringList(e.tags)}};
}

QByteArray csvOf(const QStringList &lines)
{
    return lines.join("\r\n").toUtf8() + "\r\n";
}

} // namespace

class TestAiApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_fx;
    QHash<QString, QString> m_ids; // question -> entry id

    ApiClient &api() { return *m_fx->client; }

    void seedKnowledge()
    {
        for (const Entry &e : knowledge()) {
            const HttpResult r = api().post("/api/v1/ai/knowledge", entryBody(e));
            QVERIFY2(r.status == 201, r.body.constData());
            m_ids.insert(e.question, r.data().value("id").toString());
        }
    }

    HttpResult chat(const QJsonObject &body, ApiClient *client = nullptr)
    {
        return (client ? *client : api()).post("/api/v1/ai/chat", body);
    }

    QString userId(const QString &email)
    {
        const std::optional<User> u = UserRepository(m_fx->server.store()).findByEmail(email);
        return u ? u->id : QString();
    }

    QString addUser(const QString &email, const QString &name, const QString &role)
    {
        return UserRepository(m_fx->server.store())
            .create(email, name, role, PasswordHasher::hash(QStringLiteral("correct horse battery"), 1000))
            .id;
    }

    QString conversation(const QString &phone)
    {
        const Store store = m_fx->server.store();
        const Contact c = ContactRepository(store).create(
            ContactRules::parse({{"firstName", "Müşteri"}, {"lastName", phone.right(4)}, {"phone", phone}}));
        return ConversationRepository(store).findOrCreate(c.id, QStringLiteral("whatsapp"), phone).id;
    }

    HttpResult upload(const QByteArray &file, const QByteArray &type, const QString &filename = "bilgi.csv")
    {
        const QByteArray boundary = Multipart::makeBoundary();
        const QByteArray body = Multipart::serialize({MultipartField{"file", file, filename, true, type}}, boundary);
        return api().call("POST", "/api/v1/ai/knowledge/import", body,
                          {{"Content-Type", "multipart/form-data; boundary=" + boundary}});
    }

    HttpResult importCsv(const QByteArray &file, const QByteArray &type = "text/csv; charset=utf-8")
    {
        return api().call("POST", "/api/v1/ai/knowledge/import", file, {{"Content-Type", type}});
    }

    static void expectRefusal(const HttpResult &r, int status)
    {
        QVERIFY2(r.status == status, qPrintable(QString::number(r.status) + ' ' + QString::fromUtf8(r.body)));
        QCOMPARE(r.json.value("success").toBool(true), false);
        QVERIFY(!r.errorCode().isEmpty());
        QVERIFY(!r.json.value("error").toObject().value("message").toString().isEmpty());
    }

private Q_SLOTS:
    void init()
    {
        m_fx = std::make_unique<ApiFixture>();
        m_ids.clear();
    }

    void cleanup() { m_fx.reset(); }

    void knowledgeCrudAndFilters()
    {
        seedKnowledge();
        HttpResult r = api().get("/api/v1/ai/knowledge");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), knowledge().size());
        const QJsonObject newest = r.json.value("data").toArray().first().toObject();
        QCOMPARE(newest.value("question").toString(), QString(knowledge().last().question));
        QCOMPARE(newest.value("type").toString(), QStringLiteral("snippet"));
        QCOMPARE(newest.value("tags").toArray(), QJsonArray({"shipping", "international"}));
        QVERIFY(newest.value("id").toString().startsWith("kn_"));

        // Filters: each row a query and the questions it finds.
        const QList<QPair<QString, QStringList>> filters = {
            {"language=tr",
             {"Mağazanız nerede?", "Hangi ödeme yöntemlerini kabul ediyorsunuz?", "Ürünü nasıl iade ederim?",
              "Kargom ne zaman gelir?"}},
            {"language=EN&type=snippet", {"Do you ship internationally?"}},
            {"tags=shipping", {"Do you ship internationally?", "How long does shipping take?"}},
            {"tags=shipping,international", {"Do you ship internationally?"}},
            {"tags=shipping&tags=returns", {}},
            {"type=article", {"Mağazanız nerede?"}},
            {"search=iade", {"Ürünü nasıl iade ederim?"}},
            {"search=ODEME", {"Hangi ödeme yöntemlerini kabul ediyorsunuz?"}},
            {"search=kadıköy", {"Mağazanız nerede?"}},
            {"language=tr&limit=2&page=2", {"Ürünü nasıl iade ederim?", "Kargom ne zaman gelir?"}},
        };
        for (const auto &[query, expected] : filters) {
            r = api().get("/api/v1/ai/knowledge?" + query);
            QVERIFY2(r.status == 200, qPrintable(query));
            QStringList found;
            for (const QJsonValue &v : r.json.value("data").toArray())
                found << v.toObject().value("question").toString();
            QVERIFY2(found == expected, qPrintable(query + ": " + found.join(" | ")));
        }
        r = api().get("/api/v1/ai/knowledge?language=tr&limit=2&page=2");
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 4);
        QCOMPARE(r.json.value("pagination").toObject().value("limit").toInt(), 2);

        // Detail, a partial change (only the fields given), delete.
        const QString id = m_ids.value("Mağazanız nerede?");
        r = api().get("/api/v1/ai/knowledge/" + id);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("language").toString(), QStringLiteral("tr"));
        r = api().put("/api/v1/ai/knowledge/" + id, {{"answer", "Mağazamız artık Beşiktaş'ta."},
                                                     {"tags", QJsonArray{"Mağaza", " adres ", "mağaza"}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("answer").toString(), QStringLiteral("Mağazamız artık Beşiktaş'ta."));
        QCOMPARE(r.data().value("question").toString(), QStringLiteral("Mağazanız nerede?"));
        QCOMPARE(r.data().value("type").toString(), QStringLiteral("article"));
        QCOMPARE(r.data().value("tags").toArray(), QJsonArray({"mağaza", "adres"}));
        r = api().patch("/api/v1/ai/knowledge/" + id, {{"type", "faq"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("type").toString(), QStringLiteral("faq"));
        QCOMPARE(r.data().value("answer").toString(), QStringLiteral("Mağazamız artık Beşiktaş'ta."));
        QCOMPARE(api().del("/api/v1/ai/knowledge/" + id).status, 200);
        expectRefusal(api().get("/api/v1/ai/knowledge/" + id), 404);
        QCOMPARE(api().get("/api/v1/ai/knowledge").json.value("pagination").toObject().value("total").toInt(),
                 knowledge().size() - 1);
    }

    void importAndExportRoundTrip()
    {
        seedKnowledge();
        // Export: the filters of the list, a CSV file with its name.
        HttpResult r = api().get("/api/v1/ai/knowledge/export?language=en");
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("Content-Type").startsWith("text/csv"));
        QVERIFY2(r.header("Content-Disposition").startsWith("attachment; filename=\"knowledge-"),
                 r.header("Content-Disposition").constData());
        QVERIFY(r.header("Content-Disposition").endsWith(".csv\""));
        QVERIFY(r.body.startsWith("\xEF\xBB\xBF"));
        QString text = QString::fromUtf8(r.body.mid(3));
        QStringList lines = text.split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 3);
        QCOMPARE(lines.first(), QStringLiteral("id,type,language,question,answer,tags"));
        QVERIFY(lines.contains(m_ids.value("Do you ship internationally?") +
                               ",snippet,en,Do you ship internationally?,We ship to the EU and the UK; customs "
                               "fees are paid on delivery.,shipping;international"));

        // The whole export imported again changes nothing: every row is the same as its entry.
        r = api().get("/api/v1/ai/knowledge/export");
        QCOMPARE(r.status, 200);
        const QByteArray all = r.body;
        r = importCsv(all);
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.data().value("rows").toInt(), knowledge().size());
        QCOMPARE(r.data().value("created").toInt(), 0);
        QCOMPARE(r.data().value("updated").toInt(), 0);
        QCOMPARE(r.data().value("skipped").toInt(), knowledge().size());
        QCOMPARE(r.data().value("problems").toArray().first().toObject().value("code").toString(),
                 QStringLiteral("UNCHANGED"));

        // Changed in a spreadsheet (one answer, one new row, one bad row) and sent back as a form's file.
        text = QString::fromUtf8(all.mid(3));
        text.replace("free of charge", "at no cost");
        text += "," + QStringLiteral("faq,tr,Kapıda ödeme var mı?,\"Evet, 1.000 TL'ye kadar kapıda ödeme "
                                     "yapabilirsiniz.\",ödeme;kapıda\r\n");
        text += ",faq,tr,,Soru yok,\r\n";
        r = upload(text.toUtf8(), "text/csv");
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.data().value("created").toInt(), 1);
        QCOMPARE(r.data().value("updated").toInt(), 1);
        QCOMPARE(r.data().value("skipped").toInt(), knowledge().size() - 1 + 1);
        bool sawBadLine = false;
        for (const QJsonValue &p : r.data().value("problems").toArray()) {
            if (p.toObject().value("field").toString() == QLatin1String("question")) {
                sawBadLine = true;
                QCOMPARE(p.toObject().value("line").toInt(), knowledge().size() + 3);
            }
        }
        QVERIFY(sawBadLine);
        r = api().get("/api/v1/ai/knowledge/" + m_ids.value("How can I return a product?"));
        QVERIFY(r.data().value("answer").toString().contains("at no cost"));
        r = api().get("/api/v1/ai/knowledge?search=kapıda");
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        QCOMPARE(r.json.value("data").toArray().first().toObject().value("tags").toArray(),
                 QJsonArray({"ödeme", "kapıda"}));

        // A Turkish Excel file: Windows-1254, ';' between the columns, the columns in another order.
        QByteArray excel("Soru;question;language;answer;tags\r\n");
        excel += QByteArray("x;Kargo \xFC"
                            "cretli mi?;TR;150 TL \xFC"
                            "zeri \xFC"
                            "cretsiz.;kargo\r\n");
        r = importCsv(excel, "application/vnd.ms-excel");
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.data().value("created").toInt(), 1);
        r = api().get("/api/v1/ai/knowledge?search=ücretli");
        QCOMPARE(r.json.value("data").toArray().first().toObject().value("answer").toString(),
                 QStringLiteral("150 TL üzeri ücretsiz."));
    }

    void importsTenThousandRows()
    {
        QStringList lines{"type,language,question,answer,tags"};
        constexpr int kRows = 10000;
        for (int i = 0; i < kRows; ++i)
            lines << QStringLiteral(
                         "faq,%1,Ürün %2 stokta var mı?,\"Evet, ürün %2 depomuzda; %3 adet var.\",stok;ürün%4")
                         .arg(i % 2 ? "tr" : "en")
                         .arg(i)
                         .arg(i % 97)
                         .arg(i % 10);
        const QByteArray file = csvOf(lines);
        QElapsedTimer timer;
        timer.start();
        const HttpResult r = importCsv(file);
        const qint64 ms = timer.elapsed();
        qInfo("imported %d rows (%lld bytes) in %lld ms on %s", kRows, qint64(file.size()), ms,
              Database::dialect() == Database::Dialect::PostgreSQL ? "PostgreSQL" : "SQLite");
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.data().value("created").toInt(), kRows);
        QCOMPARE(r.data().value("skipped").toInt(), 0);
        QVERIFY2(ms < 30000, qPrintable(QString::number(ms)));
        QCOMPARE(countOf("SELECT count(*) FROM knowledge_entries"), qint64(kRows));
        const HttpResult page = api().get("/api/v1/ai/knowledge?tags=ürün7&language=tr&limit=1");
        QCOMPARE(page.json.value("pagination").toObject().value("total").toInt(), kRows / 10);
        // The index takes them all in at the next question.
        const HttpResult a = chat({{"message", "Ürün 4242 stokta var mı?"}, {"language", "en"}});
        QCOMPARE(a.status, 200);
        QCOMPARE(a.data().value("metadata").toObject().value("entryId").toString().isEmpty(), false);
    }

    void chatAnswersAndHandsOff_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("language"); // given; empty: detected
        QTest::addColumn<QString>("entry");    // the entry answered with; empty: a hand-off
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("answerLanguage");
        QTest::newRow("tr, detected") << "Kargom ne zaman gelir acaba?"
                                      << ""
                                      << "Kargom ne zaman gelir?"
                                      << ""
                                      << "tr";
        QTest::newRow("tr, other words") << "siparişim ne zaman gelir"
                                         << ""
                                         << "Kargom ne zaman gelir?"
                                         << ""
                                         << "tr";
        QTest::newRow("tr, no accents") << "urunu nasil iade ederim"
                                        << "tr"
                                        << "Ürünü nasıl iade ederim?"
                                        << ""
                                        << "tr";
        QTest::newRow("en, detected") << "How long does shipping usually take?"
                                      << ""
                                      << "How long does shipping take?"
                                      << ""
                                      << "en";
        QTest::newRow("en, given") << "return a product"
                                   << "en"
                                   << "How can I return a product?"
                                   << ""
                                   << "en";
        QTest::newRow("a person asked for") << "Bir müşteri temsilcisiyle görüşmek istiyorum"
                                            << ""
                                            << ""
                                            << "customer_request"
                                            << "tr";
        QTest::newRow("nothing known") << "Şirketinizde staj imkanı var mı?"
                                       << ""
                                       << ""
                                       << "missing_knowledge"
                                       << "tr";
        QTest::newRow("another language") << "Wie lange dauert der Versand nach Deutschland?"
                                          << ""
                                          << ""
                                          << "unsupported_language"
                                          << "";
    }

    void chatAnswersAndHandsOff()
    {
        QFETCH(QString, message);
        QFETCH(QString, language);
        QFETCH(QString, entry);
        QFETCH(QString, reason);
        QFETCH(QString, answerLanguage);
        seedKnowledge();
        QJsonObject body{{"message", message}};
        if (!language.isEmpty())
            body.insert("language", language);
        const HttpResult r = chat(body);
        QVERIFY2(r.status == 200, r.body.constData());
        const QJsonObject d = r.data();
        const QString id = d.value("id").toString();
        QVERIFY(id.startsWith("aia_"));
        QCOMPARE(d.value("language").toString(), answerLanguage);
        QCOMPARE(d.value("metadata").toObject().value("languageDetected").toBool(), language.isEmpty());
        QVERIFY(d.value("conversationId").isNull());
        if (entry.isEmpty()) {
            QVERIFY2(d.value("handoff").isObject(), r.body.constData());
            QCOMPARE(d.value("handoff").toObject().value("reason").toString(), reason);
            QCOMPARE(d.value("answered").toBool(), false);
            QVERIFY(!d.value("answer").toString().isEmpty()); // the fallback reply
        } else {
            QVERIFY2(d.value("handoff").isNull(), r.body.constData());
            const QString expected = m_ids.value(entry);
            QCOMPARE(d.value("metadata").toObject().value("entryId").toString(), expected);
            QCOMPARE(d.value("sources").toArray().first().toObject().value("entryId").toString(), expected);
            QVERIFY(d.value("confidence").toDouble() > 0);
        }
        // Recorded as asked.
        QCOMPARE(countOf("SELECT count(*) FROM ai_answers"), qint64(1));
        QCOMPARE(textOf("SELECT decision FROM ai_answers WHERE id = ?", {id}),
                 entry.isEmpty() ? QStringLiteral("handoff") : QStringLiteral("answered"));
        QCOMPARE(textOf("SELECT coalesce(reason, '') FROM ai_answers WHERE id = ?", {id}), reason);
        QCOMPARE(textOf("SELECT mode || '/' || channel FROM ai_answers WHERE id = ?", {id}),
                 QStringLiteral("chat/api"));
        QCOMPARE(textOf("SELECT question FROM ai_answers WHERE id = ?", {id}), message);
    }

    void chatReadsAFollowUpWithItsHistory()
    {
        seedKnowledge();
        // Alone, a short follow-up says too little; after the customer's question it is read with it.
        const QJsonObject followUp{{"message", "peki ya o?"}, {"language", "tr"}};
        HttpResult r = chat(followUp);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("answered").toBool(), false);
        QJsonObject withHistory = followUp;
        withHistory.insert("history",
                           QJsonArray{QJsonObject{{"role", "user"}, {"content", "Kargom ne zaman gelir?"}},
                                      QJsonObject{{"role", "assistant"}, {"content", "Sipariş numaranız nedir?"}}});
        r = chat(withHistory);
        QCOMPARE(r.status, 200);
        QVERIFY2(r.data().value("answered").toBool(), r.body.constData());
        QCOMPARE(r.data().value("metadata").toObject().value("usedHistory").toBool(), true);
        QCOMPARE(r.data().value("metadata").toObject().value("entryId").toString(),
                 m_ids.value("Kargom ne zaman gelir?"));
    }

    void handOffInAConversationAssignsAgentsInTurn()
    {
        seedKnowledge();
        const QStringList conversations{conversation("+905321110001"), conversation("+905321110002"),
                                        conversation("+905321110003"), conversation("+905321110004")};
        // No agent yet: flagged, nobody assigned.
        HttpResult r =
            chat({{"message", "Bir temsilciyle görüşmek istiyorum"}, {"conversationId", conversations.at(3)}});
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.data().value("conversationId").toString(), conversations.at(3));
        QVERIFY(r.data().value("handoff").toObject().value("assignedTo").isNull());
        QCOMPARE(textOf("SELECT ai_handoff FROM conversations WHERE id = ?", {conversations.at(3)}),
                 QStringLiteral("customer_request"));
        QCOMPARE(textOf("SELECT coalesce(assigned_to, '') FROM conversations WHERE id = ?", {conversations.at(3)}),
                 QString());

        const QString ayse = addUser("ayse@ornek.com.tr", "Ayşe Demir", "agent");
        addUser("yonetici@ornek.com.tr", "Yönetici", "admin"); // admins are not in the turn
        const QString burak = addUser("burak@ornek.com.tr", "Burak Kaya", "agent");
        const QString ayseSeq = textOf("SELECT seq FROM users WHERE id = ?", {ayse});
        const QStringList expected{ayse, burak, ayse};
        const QStringList reasons{"missing_knowledge", "customer_request", "missing_knowledge"};
        const QStringList questions{"Yarın hava yağmurlu olacak mı?", "Bir temsilciyle görüşmek istiyorum",
                                    "Dün akşamki maçı kim kazandı?"};
        for (int i = 0; i < 3; ++i) {
            r = chat({{"message", questions.at(i)}, {"conversationId", conversations.at(i)}});
            QVERIFY2(r.status == 200, r.body.constData());
            const QJsonObject handoff = r.data().value("handoff").toObject();
            QCOMPARE(handoff.value("reason").toString(), reasons.at(i));
            QCOMPARE(handoff.value("assignedTo").toObject().value("id").toString(), expected.at(i));
            QCOMPARE(textOf("SELECT assigned_to FROM conversations WHERE id = ?", {conversations.at(i)}),
                     expected.at(i));
            QCOMPARE(textOf("SELECT ai_handoff FROM conversations WHERE id = ?", {conversations.at(i)}), reasons.at(i));
            QCOMPARE(textOf("SELECT conversation_id FROM ai_answers WHERE id = ?", {r.data().value("id").toString()}),
                     conversations.at(i));
        }
        // As any assignment: conversation.assigned, once per conversation.
        QCOMPARE(countOf("SELECT count(*) FROM outbox WHERE event = 'conversation.assigned'"), qint64(3));
        // The cursor is stored: the last agent given a conversation.
        QCOMPARE(textOf("SELECT user_seq FROM ai_handoff_cursor WHERE name = 'agents'"), ayseSeq);
        // Handed off again, a conversation keeps its person and moves no one's turn.
        r = chat({{"message", "Bir temsilciyle görüşmek istiyorum"}, {"conversationId", conversations.at(1)}});
        QCOMPARE(r.data().value("handoff").toObject().value("assignedTo").toObject().value("id").toString(), burak);
        QCOMPARE(textOf("SELECT user_seq FROM ai_handoff_cursor WHERE name = 'agents'"), ayseSeq);
        // An answer hands nothing off.
        const QString fresh = conversation("+905321110005");
        r = chat({{"message", "Kargom ne zaman gelir?"}, {"conversationId", fresh}});
        QVERIFY(r.data().value("handoff").isNull());
        QCOMPARE(textOf("SELECT coalesce(ai_handoff, '') || coalesce(assigned_to, '') FROM conversations WHERE id = ?",
                        {fresh}),
                 QString());
        // A deactivated agent leaves the turn.
        UserRepository(m_fx->server.store()).setActive(burak, false);
        const QString next = conversation("+905321110006");
        r = chat({{"message", "Bir temsilciyle görüşmek istiyorum"}, {"conversationId", next}});
        QCOMPARE(r.data().value("handoff").toObject().value("assignedTo").toObject().value("id").toString(), ayse);
    }

    void testKnowledgeStoresNothing()
    {
        seedKnowledge();
        const HttpResult r = api().post("/api/v1/ai/test-knowledge", {{"message", "Kargom ne zaman gelir?"}});
        QVERIFY2(r.status == 200, r.body.constData());
        const QJsonObject d = r.data();
        QCOMPARE(d.value("decision").toString(), QStringLiteral("answer"));
        QVERIFY(!d.value("candidates").toArray().isEmpty());
        const QJsonObject best = d.value("candidates").toArray().first().toObject();
        QCOMPARE(best.value("entryId").toString(), m_ids.value("Kargom ne zaman gelir?"));
        QVERIFY(best.value("score").toDouble() > 0);
        QVERIFY(!best.value("matchedTerms").toArray().isEmpty());
        QCOMPARE(d.value("thresholds").toObject().value("answer").toDouble(), AssistantThresholds::kDefaultAnswer);
        QCOMPARE(d.value("thresholds").toObject().value("margin").toDouble(), AssistantThresholds::kDefaultMargin);
        QVERIFY(!d.contains("id"));
        const HttpResult h = api().post("/api/v1/ai/test-knowledge", {{"message", "Staj imkanı var mı?"}});
        QCOMPARE(h.data().value("decision").toString(), QStringLiteral("handoff"));
        QCOMPARE(countOf("SELECT count(*) FROM ai_answers"), qint64(0));
    }

    void feedback()
    {
        seedKnowledge();
        const QString answered = chat({{"message", "Kargom ne zaman gelir?"}}).data().value("id").toString();
        const QString other = chat({{"message", "Ürünü nasıl iade ederim?"}}).data().value("id").toString();
        QVERIFY(!answered.isEmpty() && !other.isEmpty());

        HttpResult r =
            api().post("/api/v1/ai/feedback", {{"messageId", answered}, {"rating", 1}, {"feedbackType", "THUMBS"}});
        QVERIFY2(r.status == 201, r.body.constData());
        QCOMPARE(r.data().value("answerId").toString(), answered);
        QCOMPARE(r.data().value("positive").toInt(), 1);
        const QString firstAt = r.data().value("createdAt").toString();
        // The same user again: replaced, 200.
        m_fx->server.clock().setOffset(5);
        r = api().post("/api/v1/ai/feedback", {{"messageId", answered},
                                               {"rating", -1},
                                               {"feedbackType", "thumbs"},
                                               {"reason", "outdated"},
                                               {"comment", "Teslimat artık 5 gün."}});
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.data().value("positive").toInt(), -1);
        QCOMPARE(r.data().value("feedbackType").toString(), QStringLiteral("THUMBS"));
        QCOMPARE(r.data().value("reason").toString(), QStringLiteral("outdated"));
        QCOMPARE(r.data().value("createdAt").toString(), firstAt);
        QVERIFY(r.data().value("updatedAt").toString() > firstAt);
        QCOMPARE(countOf("SELECT count(*) FROM ai_feedback"), qint64(1));

        // SCALE: 4 and 5 positive, 3 neutral, 1 and 2 negative.
        for (const auto &[rating, positive] : QList<QPair<int, int>>{{5, 1}, {4, 1}, {3, 0}, {2, -1}, {1, -1}}) {
            r = api().post("/api/v1/ai/feedback",
                           {{"messageId", other}, {"rating", rating}, {"feedbackType", "SCALE"}});
            QVERIFY2(r.status == 200 || r.status == 201, r.body.constData());
            QCOMPARE(r.data().value("positive").toInt(), positive);
        }

        // Another user's feedback on the same answer is their own; an API key's is its owner's.
        const QString owner = addUser("ayse@ornek.com.tr", "Ayşe Demir", "agent");
        const QString secret =
            ApiKeyRepository(m_fx->server.store()).create("asistan", {QStringLiteral("ai:write")}, owner).secret;
        auto keyClient = m_fx->server.client(secret);
        r = keyClient->post("/api/v1/ai/feedback",
                            {{"messageId", answered}, {"rating", 1}, {"feedbackType", "THUMBS"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("userId").toString(), owner);
        QCOMPARE(countOf("SELECT count(*) FROM ai_feedback WHERE answer_id = ?", {answered}), qint64(2));

        // An inbox message an answer became names it too.
        Database::exec("UPDATE ai_answers SET message_id = 'msg_01TESTINBOX' WHERE id = ?", {other});
        r = keyClient->post("/api/v1/ai/feedback",
                            {{"messageId", "msg_01TESTINBOX"}, {"rating", 2}, {"feedbackType", "SCALE"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("answerId").toString(), other);
        QCOMPARE(r.data().value("messageId").toString(), QStringLiteral("msg_01TESTINBOX"));

        expectRefusal(
            api().post("/api/v1/ai/feedback", {{"messageId", "aia_nope"}, {"rating", 1}, {"feedbackType", "THUMBS"}}),
            404);
        expectRefusal(
            api().post("/api/v1/ai/feedback", {{"messageId", "msg_nope"}, {"rating", 1}, {"feedbackType", "THUMBS"}}),
            404);
    }

    void feedbackRefusals_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        const QJsonObject ok{{"rating", 1}, {"feedbackType", "THUMBS"}};
        auto with = [&ok](const QString &key, const QJsonValue &v) {
            QJsonObject b = ok;
            if (v.isUndefined())
                b.remove(key);
            else
                b.insert(key, v);
            return b;
        };
        QTest::newRow("THUMBS 0") << with("rating", 0) << 400 << "rating";
        QTest::newRow("THUMBS 2") << with("rating", 2) << 400 << "rating";
        QTest::newRow("SCALE 6") << QJsonObject{{"rating", 6}, {"feedbackType", "SCALE"}} << 400 << "rating";
        QTest::newRow("SCALE 0") << QJsonObject{{"rating", 0}, {"feedbackType", "SCALE"}} << 400 << "rating";
        QTest::newRow("SCALE 4.5") << QJsonObject{{"rating", 4.5}, {"feedbackType", "SCALE"}} << 400 << "rating";
        QTest::newRow("rating a string") << with("rating", "1") << 400 << "rating";
        QTest::newRow("rating missing") << with("rating", QJsonValue::Undefined) << 422 << "rating";
        QTest::newRow("unknown type") << with("feedbackType", "STARS") << 400 << "feedbackType";
        QTest::newRow("type missing") << with("feedbackType", QJsonValue::Undefined) << 422 << "feedbackType";
        QTest::newRow("unknown reason") << with("reason", "boring") << 400 << "reason";
        QTest::newRow("comment too long") << with("comment", QString(2001, 'x')) << 400 << "comment";
        QTest::newRow("comment a number") << with("comment", 3) << 400 << "comment";
        QTest::newRow("messageId missing") << with("messageId", QJsonValue::Undefined) << 422 << "messageId";
        QTest::newRow("messageId a number") << with("messageId", 7) << 400 << "messageId";
    }

    void feedbackRefusals()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, field);
        seedKnowledge();
        const QString id = chat({{"message", "Kargom ne zaman gelir?"}}).data().value("id").toString();
        if (!body.contains("messageId") && field != QLatin1String("messageId"))
            body.insert("messageId", id);
        const HttpResult r = api().post("/api/v1/ai/feedback", body);
        expectRefusal(r, status);
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        QCOMPARE(countOf("SELECT count(*) FROM ai_feedback"), qint64(0));
    }

    void stats()
    {
        seedKnowledge();
        FakeClock &clock = m_fx->server.clock();
        const QTimeZone tz = QTimeZone::systemTimeZone();
        const QDate today(2026, 11, 20);
        // Two days ago: two answers and a hand-off; today: three answers (one entry twice) and two hand-offs.
        clock.set(QDateTime(today.addDays(-2), QTime(12, 0), tz).toUTC());
        const QString a1 = chat({{"message", "Kargom ne zaman gelir?"}}).data().value("id").toString();
        chat({{"message", "How long does shipping take?"}});
        chat({{"message", "Bir temsilciyle görüşmek istiyorum"}});
        clock.set(QDateTime(today, QTime(9, 30), tz).toUTC());
        const QString a2 = chat({{"message", "Kargom ne zaman gelir?"}}).data().value("id").toString();
        const QString a3 = chat({{"message", "Ürünü nasıl iade ederim?"}}).data().value("id").toString();
        chat({{"message", "Kargom ne zaman gelir?"}});
        chat({{"message", "Şirketinizde staj imkanı var mı?"}});
        chat({{"message", "Wie lange dauert der Versand?"}});
        // Long ago: outside the period.
        clock.set(QDateTime(today.addDays(-60), QTime(9, 0), tz).toUTC());
        chat({{"message", "Kargom ne zaman gelir?"}});
        clock.set(QDateTime(today, QTime(18, 0), tz).toUTC());
        for (const auto &[id, rating, type] :
             QList<std::tuple<QString, int, QString>>{{a1, -1, "THUMBS"}, {a2, 2, "SCALE"}, {a3, 5, "SCALE"}}) {
            QCOMPARE(api()
                         .post("/api/v1/ai/feedback", {{"messageId", id}, {"rating", rating}, {"feedbackType", type}})
                         .status,
                     201);
        }

        HttpResult r = api().get("/api/v1/ai/stats");
        QVERIFY2(r.status == 200, r.body.constData());
        QJsonObject s = r.data();
        const QJsonObject answers = s.value("answers").toObject();
        QCOMPARE(answers.value("total").toInt(), 8);
        QCOMPARE(answers.value("answered").toInt(), 5);
        QCOMPARE(answers.value("handedOff").toInt(), 3);
        QCOMPARE(answers.value("answerRate").toDouble(), 62.5);
        QCOMPARE(answers.value("handoffRate").toDouble(), 37.5);
        QCOMPARE(s.value("handoffReasons").toObject(),
                 QJsonObject({{"customer_request", 1}, {"missing_knowledge", 1}, {"unsupported_language", 1}}));
        const double confidence = textOf("SELECT avg(confidence) FROM ai_answers WHERE created_at >= ?",
                                         {TimeUtil::iso(QDateTime(today.addDays(-29), QTime(0, 0), tz))})
                                      .toDouble();
        QCOMPARE(s.value("averageConfidence").toDouble(), std::round(confidence * 1000) / 1000);
        const QJsonObject feedback = s.value("feedback").toObject();
        QCOMPARE(feedback.value("total").toInt(), 3);
        QCOMPARE(feedback.value("positive").toInt(), 1);
        QCOMPARE(feedback.value("negative").toInt(), 2);
        QCOMPARE(feedback.value("positiveRatio").toDouble(), 0.333);
        QCOMPARE(feedback.value("averageRating").toDouble(), 3.5);
        const QJsonArray top = s.value("topEntries").toArray();
        QCOMPARE(top.size(), 3);
        QCOMPARE(top.first().toObject(), QJsonObject({{"entryId", m_ids.value("Kargom ne zaman gelir?")},
                                                      {"question", "Kargom ne zaman gelir?"},
                                                      {"count", 3}}));
        const QJsonArray worst = s.value("worstEntries").toArray();
        QCOMPARE(worst.size(), 1);
        QCOMPARE(worst.first().toObject().value("entryId").toString(), m_ids.value("Kargom ne zaman gelir?"));
        QCOMPARE(worst.first().toObject().value("negative").toInt(), 2);
        QCOMPARE(worst.first().toObject().value("negativeRatio").toDouble(), 1.0);
        QCOMPARE(s.value("openSuggestions").toInt(), 1); // the internship question
        const QJsonArray daily = s.value("daily").toArray();
        QCOMPARE(daily.size(), 30);
        QCOMPARE(daily.last().toObject(),
                 QJsonObject({{"date", today.toString(Qt::ISODate)}, {"answered", 3}, {"handedOff", 2}}));
        QCOMPARE(daily.at(27).toObject(),
                 QJsonObject({{"date", today.addDays(-2).toString(Qt::ISODate)}, {"answered", 2}, {"handedOff", 1}}));
        QCOMPARE(daily.at(28).toObject().value("answered").toInt(), 0);

        // A period given in dates: from the first day's start to the last day's end.
        r = api().get("/api/v1/ai/stats?from=" + today.addDays(-2).toString(Qt::ISODate) +
                      "&to=" + today.addDays(-1).toString(Qt::ISODate));
        QVERIFY2(r.status == 200, r.body.constData());
        s = r.data();
        QCOMPARE(s.value("answers").toObject().value("total").toInt(), 3);
        QCOMPARE(s.value("daily").toArray().size(), 2);
        QCOMPARE(s.value("feedback").toObject().value("total").toInt(), 1);
        // Date-times.
        r = api().get(
            "/api/v1/ai/stats?from=" + QUrl::toPercentEncoding(TimeUtil::iso(QDateTime(today, QTime(9, 0), tz))) +
            "&to=" + QUrl::toPercentEncoding(TimeUtil::iso(QDateTime(today, QTime(10, 0), tz))));
        QCOMPARE(r.data().value("answers").toObject().value("total").toInt(), 5);
        QCOMPARE(r.data().value("daily").toArray().size(), 1);
        // An empty period: zeros, no averages.
        r = api().get("/api/v1/ai/stats?from=2020-01-01&to=2020-01-31");
        QCOMPARE(r.data().value("answers").toObject().value("answerRate").toDouble(), 0.0);
        QVERIFY(r.data().value("averageConfidence").isNull());
        QVERIFY(r.data().value("feedback").toObject().value("averageRating").isNull());
        QCOMPARE(r.data().value("daily").toArray().size(), 31);
    }

    void suggestions()
    {
        seedKnowledge();
        const QStringList invoices{"Kurumsal fatura kesiyor musunuz?", "Kurumsal fatura kesebiliyor musunuz?",
                                   "kurumsal fatura kesiyor musunuz", "Kurumsal fatura alabilir miyim?"};
        const QStringList gifts{"Hediye paketi yapıyor musunuz?", "Hediye paketi var mı?"};
        const QStringList english{"Do you sell gift cards?"};
        for (const QStringList &questions : {invoices, gifts, english}) {
            for (const QString &q : questions) {
                const HttpResult r = chat({{"message", q}});
                QVERIFY2(r.status == 200 && !r.data().value("answered").toBool(), r.body.constData());
            }
        }
        chat({{"message", "Bir temsilciyle görüşmek istiyorum"}}); // not a question to learn from
        chat({{"message", "Merhaba"}});                            // no words that say anything

        HttpResult r = api().get("/api/v1/ai/suggestions");
        QVERIFY2(r.status == 200, r.body.constData());
        QJsonArray list = r.json.value("data").toArray();
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 3);
        QCOMPARE(list.size(), 3);
        const QJsonObject invoice = list.at(0).toObject();
        QCOMPARE(invoice.value("count").toInt(), invoices.size());
        QCOMPARE(invoice.value("language").toString(), QStringLiteral("tr"));
        // The most frequent wording (two ask it with and without capitals and the mark).
        QCOMPARE(invoice.value("question").toString(), QStringLiteral("kurumsal fatura kesiyor musunuz"));
        QCOMPARE(invoice.value("examples").toArray().size(), 3);
        const QString firstInvoice = textOf("SELECT id FROM ai_answers WHERE question = ?", {invoices.first()});
        QCOMPARE(invoice.value("id").toString(), "sug_" + firstInvoice);
        QCOMPARE(list.at(1).toObject().value("count").toInt(), gifts.size());
        QCOMPARE(list.at(2).toObject().value("language").toString(), QStringLiteral("en"));
        // Paging.
        r = api().get("/api/v1/ai/suggestions?limit=1&page=2");
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        QCOMPARE(r.json.value("data").toArray().first().toObject().value("id"), list.at(1).toObject().value("id"));

        // Accepted: the entry is made, its questions leave the list, the knowledge base answers them.
        r = api().post(
            "/api/v1/ai/suggestions/" + invoice.value("id").toString() + "/accept",
            {{"answer", "Evet, siparişte vergi numaranızı yazmanız yeterli."}, {"tags", QJsonArray{"fatura"}}});
        QVERIFY2(r.status == 201, r.body.constData());
        QCOMPARE(r.data().value("question").toString(), QStringLiteral("kurumsal fatura kesiyor musunuz"));
        QCOMPARE(r.data().value("language").toString(), QStringLiteral("tr"));
        QCOMPARE(r.data().value("type").toString(), QStringLiteral("faq"));
        QCOMPARE(countOf("SELECT count(*) FROM ai_answers WHERE suggestion = 'accepted'"), qint64(invoices.size()));
        r = chat({{"message", "Kurumsal fatura kesiyor musunuz?"}});
        QVERIFY2(r.data().value("answered").toBool(), r.body.constData());
        list = api().get("/api/v1/ai/suggestions").json.value("data").toArray();
        QCOMPARE(list.size(), 2);
        expectRefusal(
            api().post("/api/v1/ai/suggestions/" + invoice.value("id").toString() + "/accept", {{"answer", "x"}}), 404);

        // Dismissed: gone, and the same question asked again does not bring it back.
        const QString gift = list.at(0).toObject().value("id").toString();
        r = api().post("/api/v1/ai/suggestions/" + gift + "/dismiss", {});
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(countOf("SELECT count(*) FROM ai_dismissed"), qint64(1));
        for (int i = 0; i < 2; ++i)
            chat({{"message", "Hediye paketi yapıyor musunuz?"}});
        list = api().get("/api/v1/ai/suggestions").json.value("data").toArray();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.at(0).toObject().value("language").toString(), QStringLiteral("en"));
        expectRefusal(api().post("/api/v1/ai/suggestions/" + gift + "/dismiss", {}), 404);

        // An entry added by hand that answers a suggestion takes it off the list.
        QCOMPARE(api()
                     .post("/api/v1/ai/knowledge", {{"language", "en"},
                                                    {"question", "Do you sell gift cards?"},
                                                    {"answer", "Yes, from 100 to 1,000 TL, in the shop and online."}})
                     .status,
                 201);
        QCOMPARE(api().get("/api/v1/ai/suggestions").json.value("data").toArray().size(), 0);
        QCOMPARE(api().get("/api/v1/ai/stats").data().value("openSuggestions").toInt(), 0);

        expectRefusal(api().post("/api/v1/ai/suggestions/sug_nope/accept", {{"answer", "x"}}), 404);
        expectRefusal(api().post("/api/v1/ai/suggestions/sug_nope/dismiss", {}), 404);
    }

    void rolesAndScopes()
    {
        seedKnowledge();
        const QString id = m_ids.value("Kargom ne zaman gelir?");
        auto readOnly = m_fx->server.apiKeyClient({"ai:read"});
        QCOMPARE(readOnly->get("/api/v1/ai/knowledge").status, 200);
        QCOMPARE(readOnly->get("/api/v1/ai/knowledge/export").status, 200);
        QCOMPARE(readOnly->get("/api/v1/ai/stats").status, 200);
        QCOMPARE(readOnly->get("/api/v1/ai/suggestions").status, 200);
        QCOMPARE(readOnly->post("/api/v1/ai/test-knowledge", {{"message", "Kargom ne zaman gelir?"}}).status, 200);
        for (const HttpResult &r :
             {readOnly->post("/api/v1/ai/knowledge", entryBody(knowledge().first())),
              readOnly->put("/api/v1/ai/knowledge/" + id, {{"answer", "x"}}),
              readOnly->del("/api/v1/ai/knowledge/" + id),
              readOnly->call("POST", "/api/v1/ai/knowledge/import", "question,answer,language\r\na,b,tr\r\n",
                             {{"Content-Type", "text/csv"}}),
              readOnly->post("/api/v1/ai/chat", {{"message", "Kargom ne zaman gelir?"}}),
              readOnly->post("/api/v1/ai/feedback",
                             {{"messageId", "aia_x"}, {"rating", 1}, {"feedbackType", "THUMBS"}}),
              readOnly->post("/api/v1/ai/suggestions/sug_x/dismiss", {})}) {
            expectRefusal(r, 403);
            QVERIFY2(r.json.value("error").toObject().value("message").toString().contains("ai:write"),
                     r.body.constData());
        }
        QCOMPARE(countOf("SELECT count(*) FROM knowledge_entries"), qint64(knowledge().size()));
        auto other = m_fx->server.apiKeyClient({"contacts:read"});
        expectRefusal(other->get("/api/v1/ai/knowledge"), 403);
        // ai:write brings ai:read.
        auto writer = m_fx->server.apiKeyClient({"ai:write"});
        QCOMPARE(writer->get("/api/v1/ai/knowledge").status, 200);
        QCOMPARE(writer->post("/api/v1/ai/chat", {{"message", "Kargom ne zaman gelir?"}}).status, 200);
        // A hand-off in a conversation changes it: the key needs conversations:write too.
        const QString conv = conversation("+905321110009");
        expectRefusal(writer->post("/api/v1/ai/chat", {{"message", "Merhaba"}, {"conversationId", conv}}), 403);
        auto both = m_fx->server.apiKeyClient({"ai:write", "conversations:write"});
        QCOMPARE(
            both->post("/api/v1/ai/chat", {{"message", "Kargom ne zaman gelir?"}, {"conversationId", conv}}).status,
            200);
        // Agents keep the knowledge base.
        auto agent = m_fx->server.signedInClient("temsilci@ornek.com.tr", "agent");
        QVERIFY(agent);
        HttpResult r =
            agent->post("/api/v1/ai/knowledge",
                        {{"language", "tr"}, {"question", "Kargo ücretli mi?"}, {"answer", "150 TL üzeri ücretsiz."}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("createdBy").toString(), userId("temsilci@ornek.com.tr"));
        QCOMPARE(agent->del("/api/v1/ai/knowledge/" + r.data().value("id").toString()).status, 200);
        // No credential.
        expectRefusal(m_fx->server.client()->get("/api/v1/ai/knowledge"), 401);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field"); // named in details; empty: none checked
        const QByteArray longMessage = QJsonDocument(QJsonObject{{"message", QString(4001, 'a')}}).toJson();
        const QByteArray longHistory =
            QJsonDocument(
                QJsonObject{{"message", "peki?"},
                            {"history", QJsonArray{QJsonObject{{"role", "user"}, {"content", QString(4001, 'a')}}}}})
                .toJson();
        QTest::newRow("knowledge: question a number")
            << QByteArray("POST") << "/api/v1/ai/knowledge"
            << QByteArray(R"({"question":5,"answer":"a","language":"tr"})") << 400 << "question";
        QTest::newRow("knowledge: answer missing")
            << QByteArray("POST") << "/api/v1/ai/knowledge" << QByteArray(R"({"question":"q","language":"tr"})") << 422
            << "answer";
        QTest::newRow("knowledge: unknown type")
            << QByteArray("POST") << "/api/v1/ai/knowledge"
            << QByteArray(R"({"question":"q","answer":"a","language":"tr","type":"blog"})") << 400 << "type";
        QTest::newRow("knowledge: tags a string")
            << QByteArray("POST") << "/api/v1/ai/knowledge"
            << QByteArray(R"({"question":"q","answer":"a","language":"tr","tags":"kargo"})") << 400 << "tags";
        QTest::newRow("knowledge: bad language")
            << QByteArray("POST") << "/api/v1/ai/knowledge"
            << QByteArray(R"({"question":"q","answer":"a","language":"Türkçe"})") << 400 << "language";
        QTest::newRow("knowledge: malformed JSON")
            << QByteArray("POST") << "/api/v1/ai/knowledge" << QByteArray(R"({"question":)") << 400 << "";
        QTest::newRow("knowledge: unknown id")
            << QByteArray("GET") << "/api/v1/ai/knowledge/kn_nope" << QByteArray() << 404 << "";
        QTest::newRow("knowledge: change unknown id")
            << QByteArray("PUT") << "/api/v1/ai/knowledge/kn_nope" << QByteArray(R"({"answer":"a"})") << 404 << "";
        QTest::newRow("knowledge: change to blank") << QByteArray("PATCH") << "/api/v1/ai/knowledge/{id}"
                                                    << QByteArray(R"({"answer":"  "})") << 422 << "answer";
        QTest::newRow("knowledge: delete unknown id")
            << QByteArray("DELETE") << "/api/v1/ai/knowledge/kn_nope" << QByteArray() << 404 << "";
        QTest::newRow("list: unknown type")
            << QByteArray("GET") << "/api/v1/ai/knowledge?type=blog" << QByteArray() << 400 << "type";
        QTest::newRow("list: page 0") << QByteArray("GET") << "/api/v1/ai/knowledge?page=0" << QByteArray() << 400
                                      << "page";
        QTest::newRow("export: unknown type")
            << QByteArray("GET") << "/api/v1/ai/knowledge/export?type=x" << QByteArray() << 400 << "type";
        QTest::newRow("chat: no message")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray("{}") << 422 << "message";
        QTest::newRow("chat: blank message")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray(R"({"message":"  "})") << 422 << "message";
        QTest::newRow("chat: message a number")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray(R"({"message":5})") << 400 << "message";
        QTest::newRow("chat: message too long")
            << QByteArray("POST") << "/api/v1/ai/chat" << longMessage << 400 << "message";
        QTest::newRow("chat: history not an array")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray(R"({"message":"a","history":"x"})") << 400
            << "history";
        QTest::newRow("chat: history turn not an object")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray(R"({"message":"a","history":["x"]})") << 400
            << "history[0]";
        QTest::newRow("chat: unknown role")
            << QByteArray("POST") << "/api/v1/ai/chat"
            << QByteArray(R"({"message":"a","history":[{"role":"user","content":"b"},{"role":"bot","content":"c"}]})")
            << 400 << "history[1].role";
        QTest::newRow("chat: content a number")
            << QByteArray("POST") << "/api/v1/ai/chat"
            << QByteArray(R"({"message":"a","history":[{"role":"user","content":3}]})") << 400 << "history[0].content";
        QTest::newRow("chat: history turn too long")
            << QByteArray("POST") << "/api/v1/ai/chat" << longHistory << 400 << "history[0].content";
        QTest::newRow("chat: conversationId a number")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray(R"({"message":"a","conversationId":12})") << 400
            << "conversationId";
        QTest::newRow("chat: unknown conversation")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray(R"({"message":"a","conversationId":"conv_nope"})")
            << 404 << "";
        QTest::newRow("chat: bad language")
            << QByteArray("POST") << "/api/v1/ai/chat" << QByteArray(R"({"message":"a","language":"english!"})") << 400
            << "language";
        QTest::newRow("test-knowledge: message too long")
            << QByteArray("POST") << "/api/v1/ai/test-knowledge" << longMessage << 400 << "message";
        QTest::newRow("stats: bad from") << QByteArray("GET") << "/api/v1/ai/stats?from=yesterday" << QByteArray()
                                         << 400 << "from";
        QTest::newRow("stats: to before from")
            << QByteArray("GET") << "/api/v1/ai/stats?from=2026-11-20&to=2026-11-01" << QByteArray() << 400 << "to";
        QTest::newRow("stats: over a year")
            << QByteArray("GET") << "/api/v1/ai/stats?from=2024-01-01&to=2026-01-01" << QByteArray() << 400 << "from";
        QTest::newRow("suggestions: limit 0")
            << QByteArray("GET") << "/api/v1/ai/suggestions?limit=0" << QByteArray() << 400 << "limit";
        QTest::newRow("accept: answer missing") << QByteArray("POST") << "/api/v1/ai/suggestions/{suggestion}/accept"
                                                << QByteArray(R"({"tags":["a"]})") << 422 << "answer";
        QTest::newRow("accept: answer a number") << QByteArray("POST") << "/api/v1/ai/suggestions/{suggestion}/accept"
                                                 << QByteArray(R"({"answer":1})") << 400 << "answer";
    }

    void badInput()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, field);
        seedKnowledge();
        path.replace("{id}", m_ids.value("Kargom ne zaman gelir?"));
        if (path.contains("{suggestion}")) {
            const QString id = chat({{"message", "Kurumsal fatura kesiyor musunuz?"}}).data().value("id").toString();
            path.replace("{suggestion}", "sug_" + id);
        }
        const qint64 entries = countOf("SELECT count(*) FROM knowledge_entries");
        const qint64 answers = countOf("SELECT count(*) FROM ai_answers");
        const HttpResult r = api().call(method, path, body, {{"Content-Type", "application/json"}});
        expectRefusal(r, status);
        if (!field.isEmpty())
            QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        QCOMPARE(countOf("SELECT count(*) FROM knowledge_entries"), entries);
        QCOMPARE(countOf("SELECT count(*) FROM ai_answers"), answers);
    }

    void badImports_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QByteArray>("contentType"); // "form:<type>": the file part of a form of that type
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        const QByteArray png =
            QByteArray::fromHex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489") +
            QByteArray(64, '\0');
        QTest::newRow("empty") << QByteArray() << QByteArray("text/csv") << 422 << "EMPTY_FILE";
        QTest::newRow("blank lines only")
            << QByteArray("\r\n\r\n") << QByteArray("text/csv") << 422 << "VALIDATION_ERROR";
        QTest::newRow("no required columns")
            << QByteArray("soru,cevap\r\nKargo?,3 gün\r\n") << QByteArray("text/csv") << 422 << "VALIDATION_ERROR";
        QTest::newRow("no language column") << QByteArray("question,answer\r\nKargo?,3 gün\r\n")
                                            << QByteArray("form:text/csv") << 422 << "VALIDATION_ERROR";
        QTest::newRow("a picture as text/csv") << png << QByteArray("text/csv") << 422 << "VALIDATION_ERROR";
        QTest::newRow("a picture in the form")
            << png << QByteArray("form:image/png") << 400 << "UNSUPPORTED_MEDIA_TYPE";
        QTest::newRow("a binary file in the form")
            << png << QByteArray("form:application/octet-stream") << 422 << "VALIDATION_ERROR";
        QTest::newRow("JSON") << QByteArray(R"({"question":"q"})") << QByteArray("application/json") << 400
                              << "UNSUPPORTED_MEDIA_TYPE";
        QTest::newRow("no content type") << QByteArray("question,answer,language\r\n") << QByteArray() << 400
                                         << "UNSUPPORTED_MEDIA_TYPE";
        QTest::newRow("form without a file") << QByteArray() << QByteArray("form:") << 422 << "VALIDATION_ERROR";
        QTest::newRow("malformed form") << QByteArray("--x\r\n") << QByteArray("multipart/form-data; boundary=x") << 400
                                        << "INVALID_MULTIPART";
    }

    void badImports()
    {
        QFETCH(QByteArray, file);
        QFETCH(QByteArray, contentType);
        QFETCH(int, status);
        QFETCH(QString, code);
        HttpResult r;
        if (contentType == "form:") {
            const QByteArray boundary = Multipart::makeBoundary();
            r = api().call("POST", "/api/v1/ai/knowledge/import",
                           Multipart::serialize({MultipartField{"note", "x", {}, false, {}}}, boundary),
                           {{"Content-Type", "multipart/form-data; boundary=" + boundary}});
        } else if (contentType.startsWith("form:")) {
            r = upload(file, contentType.mid(5), "bilgi.png");
        } else {
            QList<QPair<QByteArray, QByteArray>> headers;
            if (!contentType.isEmpty())
                headers.append({"Content-Type", contentType});
            r = api().call("POST", "/api/v1/ai/knowledge/import", file, headers);
        }
        expectRefusal(r, status);
        QCOMPARE(r.errorCode(), code);
        QCOMPARE(countOf("SELECT count(*) FROM knowledge_entries"), qint64(0));
    }

    void importOverTheUploadLimit()
    {
        // The upload limit (media/maxUploadBytes) holds the CSV file, sent either way.
        TestServer small(m_fx->db.dir(), [](ServerConfig &c) { c.media.maxUploadBytes = 1024; });
        auto client = small.apiKeyClient({"ai:write"});
        QStringList lines{"question,answer,language"};
        for (int i = 0; i < 100; ++i)
            lines << QStringLiteral("Soru %1?,Cevap %1.,tr").arg(i);
        const QByteArray file = csvOf(lines);
        QVERIFY(file.size() > 1024);
        HttpResult r = client->call("POST", "/api/v1/ai/knowledge/import", file, {{"Content-Type", "text/csv"}});
        expectRefusal(r, 413);
        const QByteArray boundary = Multipart::makeBoundary();
        r = client->call("POST", "/api/v1/ai/knowledge/import",
                         Multipart::serialize({MultipartField{"file", file, "bilgi.csv", true, "text/csv"}}, boundary),
                         {{"Content-Type", "multipart/form-data; boundary=" + boundary}});
        expectRefusal(r, 413);
        QCOMPARE(countOf("SELECT count(*) FROM knowledge_entries"), qint64(0));
    }

    void openApiDescribesTheRoutes()
    {
        const QJsonObject doc = api().get("/api/v1/openapi.json").json;
        const QJsonObject paths = doc.value("paths").toObject();
        for (const char *path : {"/api/v1/ai/knowledge", "/api/v1/ai/knowledge/{id}", "/api/v1/ai/knowledge/import",
                                 "/api/v1/ai/knowledge/export", "/api/v1/ai/chat", "/api/v1/ai/test-knowledge",
                                 "/api/v1/ai/feedback", "/api/v1/ai/stats", "/api/v1/ai/suggestions",
                                 "/api/v1/ai/suggestions/{id}/accept", "/api/v1/ai/suggestions/{id}/dismiss"})
            QVERIFY2(paths.contains(path), path);
        const QJsonObject import = paths.value("/api/v1/ai/knowledge/import").toObject().value("post").toObject();
        const QJsonObject content = import.value("requestBody").toObject().value("content").toObject();
        QVERIFY(content.contains("multipart/form-data"));
        QVERIFY(content.contains("text/csv"));
        const QJsonObject exportOk = paths.value("/api/v1/ai/knowledge/export")
                                         .toObject()
                                         .value("get")
                                         .toObject()
                                         .value("responses")
                                         .toObject()
                                         .value("200")
                                         .toObject();
        QVERIFY(exportOk.value("content").toObject().contains("text/csv"));
        const QJsonObject schemas = doc.value("components").toObject().value("schemas").toObject();
        for (const char *name : {"KnowledgeEntry", "KnowledgeImportReport", "AiChatReply", "AiTestReply", "AiFeedback",
                                 "AiStats", "KnowledgeSuggestion"})
            QVERIFY2(schemas.contains(name), name);
    }
};

QTEST_MAIN(TestAiApi)
#include "test_aiapi.moc"
