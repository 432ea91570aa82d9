// The assistant's optional language model (an OpenAI-compatible chat completions API, faked on
// loopback with the project's own HttpEngine): the request it makes (path, bearer, model, the
// entries in the system message, the history, the question), a phrased answer, a decline, an error
// status, a timeout and a refused URL; and the responder's decisions around it: the model phrases an
// answer retrieval found, its decline hands off, its failure keeps retrieval's answer, and without a
// model nothing is asked.
#include "messaging/assistant/assistantautoreply.h"
#include "messaging/assistant/assistantresponder.h"
#include "messaging/assistant/languagemodelclient.h"
#include "messaging/channels/channelregistry.h"
#include "model/accounts/userrepository.h"
#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistantconversation.h"
#include "model/assistant/knowledgerepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"
#include "server/http/httpengine.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QtTest>

#include <optional>

namespace {

// A chat completions server on 127.0.0.1: keeps every request and answers with `content` (none
// when reply() returns nullopt: the request hangs until the client gives up).
class FakeLanguageModel
{
public:
    FakeLanguageModel()
    {
        m_engine.setHandler([this](const HttpRequest &request, const HttpResponder &responder) {
            requests.append(request);
            if (const std::optional<HttpResponse> r = reply(request))
                responder.respond(*r);
        });
        if (!m_engine.listen(QHostAddress::LocalHost, 0, std::nullopt))
            qFatal("fake language model cannot listen");
    }
    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1/v1").arg(m_engine.serverPort()); }
    QJsonObject lastBody() const { return QJsonDocument::fromJson(requests.last().body).object(); }

    static HttpResponse answer(const QString &content, int status = 200)
    {
        HttpResponse r;
        r.status = status;
        r.setHeader("Content-Type", "application/json");
        r.body =
            QJsonDocument(
                status == 200
                    ? QJsonObject{{"id", "chatcmpl-1"},
                                  {"object", "chat.completion"},
                                  {"choices", QJsonArray{QJsonObject{
                                                  {"index", 0},
                                                  {"message", QJsonObject{{"role", "assistant"}, {"content", content}}},
                                                  {"finish_reason", "stop"}}}}}
                    : QJsonObject{{"error", QJsonObject{{"message", content}, {"type", "server_error"}}}})
                .toJson();
        return r;
    }

    std::function<std::optional<HttpResponse>(const HttpRequest &)> reply = [](const HttpRequest &) {
        return std::optional<HttpResponse>(answer(QStringLiteral("Siparişiniz 1-3 iş gününde kargoya verilir.")));
    };
    QList<HttpRequest> requests;

private:
    HttpEngine m_engine;
};

PhrasingRequest kargoQuestion()
{
    KnowledgeEntry e;
    e.id = QStringLiteral("kn_1");
    e.language = QStringLiteral("tr");
    e.question = QStringLiteral("Kargo ne zaman gelir?");
    e.answer = QStringLiteral("1-3 iş günü.");
    return {QStringLiteral("kargom ne zaman gelir"),
            QStringLiteral("tr"),
            {{QStringLiteral("user"), QStringLiteral("Merhaba")},
             {QStringLiteral("assistant"), QStringLiteral("Merhaba!")}},
            {e}};
}

} // namespace

class TestAssistantReplies final : public QObject
{
    Q_OBJECT

private slots:
    void asksWithTheEntriesAndReadsTheAnswer()
    {
        FakeLanguageModel fake;
        LanguageModelClient client({fake.baseUrl(), QStringLiteral("qwen2.5-3b"), QStringLiteral("sk-test"), 5});
        QVERIFY(client.isValid());
        const Phrasing p = client.phraseAndWait(kargoQuestion());
        QCOMPARE(p.outcome, Phrasing::Phrased);
        QCOMPARE(p.text, QStringLiteral("Siparişiniz 1-3 iş gününde kargoya verilir."));
        QCOMPARE(fake.requests.size(), 1);
        QCOMPARE(fake.requests.last().method, QByteArray("POST"));
        QCOMPARE(fake.requests.last().path, QByteArray("/v1/chat/completions"));
        QCOMPARE(fake.requests.last().header("Authorization"), QByteArray("Bearer sk-test"));
        const QJsonObject body = fake.lastBody();
        QCOMPARE(body.value("model").toString(), QStringLiteral("qwen2.5-3b"));
        const QJsonArray messages = body.value("messages").toArray();
        QCOMPARE(messages.size(), 4);
        QCOMPARE(messages.first().toObject().value("role").toString(), QStringLiteral("system"));
        const QString system = messages.first().toObject().value("content").toString();
        QVERIFY(system.contains(QStringLiteral("Answer: 1-3 iş günü.")));
        QVERIFY(system.contains(QStringLiteral("Turkish")));
        QVERIFY(system.contains(QStringLiteral("HANDOFF")));
        QCOMPARE(messages.at(1).toObject().value("content").toString(), QStringLiteral("Merhaba"));
        QCOMPARE(messages.last().toObject().value("content").toString(), QStringLiteral("kargom ne zaman gelir"));
    }

    void readsDeclinesAndFailures_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("outcome");
        QTest::newRow("decline") << "HANDOFF" << 200 << int(Phrasing::Declined);
        QTest::newRow("decline with a full stop") << " handoff. " << 200 << int(Phrasing::Declined);
        QTest::newRow("empty answer") << "" << 200 << int(Phrasing::Failed);
        QTest::newRow("server error") << "model not loaded" << 500 << int(Phrasing::Failed);
        QTest::newRow("key refused") << "invalid api key" << 401 << int(Phrasing::Failed);
        QTest::newRow("an answer that mentions the word")
            << "No HANDOFF needed: 2 days." << 200 << int(Phrasing::Phrased);
    }
    void readsDeclinesAndFailures()
    {
        QFETCH(QString, content);
        QFETCH(int, status);
        QFETCH(int, outcome);
        FakeLanguageModel fake;
        fake.reply = [content, status](const HttpRequest &) {
            return std::optional<HttpResponse>(FakeLanguageModel::answer(content, status));
        };
        LanguageModelClient client({fake.baseUrl(), {}, {}, 5});
        const Phrasing p = client.phraseAndWait(kargoQuestion());
        QCOMPARE(int(p.outcome), outcome);
        if (outcome == Phrasing::Failed && status != 200)
            QVERIFY2(p.error.contains(QString::number(status)), qPrintable(p.error));
    }

    void timesOut()
    {
        FakeLanguageModel fake;
        fake.reply = [](const HttpRequest &) { return std::optional<HttpResponse>(); };
        LanguageModelClient client({fake.baseUrl(), {}, {}, 1});
        QElapsedTimer t;
        t.start();
        const Phrasing p = client.phraseAndWait(kargoQuestion());
        QCOMPARE(p.outcome, Phrasing::Failed);
        QVERIFY2(t.elapsed() < 4000, qPrintable(QString::number(t.elapsed())));
    }

    void refusesAPlainRemoteUrl()
    {
        LanguageModelClient client({QStringLiteral("http://llm.example.com/v1"), {}, {}, 1});
        QString why;
        QVERIFY(!client.isValid(&why));
        QCOMPARE(client.phraseAndWait(kargoQuestion()).outcome, Phrasing::Failed);
    }

    // The responder around retrieval: phrased, declined, failed, and no model at all.
    void respondsWithTheModelAroundRetrieval()
    {
        TempDatabase db;
        const Store store = testStore();
        KnowledgeRepository repo(store);
        KnowledgeChanges ch;
        ch.question = QStringLiteral("Kargo ne zaman gelir?");
        ch.answer = QStringLiteral("Siparişler 1-3 iş gününde teslim edilir.");
        ch.language = QStringLiteral("tr");
        ch.tags = QStringList{QStringLiteral("kargo"), QStringLiteral("teslimat")};
        repo.create(ch);
        auto index = std::make_shared<KnowledgeIndex>();
        const AssistantQuestion q{QStringLiteral("kargom ne zaman gelir"), {}, {}};

        AssistantResponder plain(store, index, {});
        const AssistantResponder::Response none = plain.respond(q);
        QVERIFY(none.reply.answered);
        QCOMPARE(none.reply.answer, ch.answer.value());
        QCOMPARE(none.phrasedBy, QStringLiteral("retrieval"));
        QVERIFY(none.model.isEmpty());

        FakeLanguageModel fake;
        AssistantResponder withModel(store, index, {}, {fake.baseUrl(), QStringLiteral("m"), {}, 2});
        AssistantResponder::Response r = withModel.respond(q);
        QVERIFY(r.reply.answered);
        QCOMPARE(r.phrasedBy, QStringLiteral("model"));
        QCOMPARE(r.reply.answer, QStringLiteral("Siparişiniz 1-3 iş gününde kargoya verilir."));
        QCOMPARE(r.toJson().value("metadata").toObject().value("model").toObject().value("outcome").toString(),
                 QStringLiteral("phrased"));

        fake.reply = [](const HttpRequest &) {
            return std::optional<HttpResponse>(FakeLanguageModel::answer("HANDOFF"));
        };
        r = withModel.respond(q);
        QVERIFY(!r.reply.answered);
        QCOMPARE(r.reply.handoffReason, QStringLiteral("low_confidence"));
        QCOMPARE(r.reply.answer, Assistant::fallbackReply(QStringLiteral("low_confidence"), QStringLiteral("tr")));

        fake.reply = [](const HttpRequest &) { return std::optional<HttpResponse>(); };
        r = withModel.respond(q);
        QVERIFY(r.reply.answered);
        QCOMPARE(r.reply.answer, ch.answer.value());
        QCOMPARE(r.model, QStringLiteral("failed"));
        QVERIFY(!r.modelError.isEmpty());

        // Off the knowledge base: the model is not asked.
        const int asked = int(fake.requests.size());
        r = withModel.respond({QStringLiteral("hava nasıl olacak yarın"), {}, {}});
        QVERIFY(!r.reply.answered);
        QCOMPARE(int(fake.requests.size()), asked);

        // Asynchronously, as the inbox's auto-reply asks.
        fake.reply = [](const HttpRequest &) {
            return std::optional<HttpResponse>(FakeLanguageModel::answer("Tamam."));
        };
        std::optional<AssistantResponder::Response> later;
        withModel.respond(q, [&later](const AssistantResponder::Response &x) { later = x; });
        QVERIFY(QTest::qWaitFor([&later] { return later.has_value(); }, 10000));
        QCOMPARE(later->reply.answer, QStringLiteral("Tamam."));
    }

    // The inbox: each channel's mode, the AI's message, the hand-off in turn, the draft, the claim
    // that answers a message once, and a conversation handed back.
    void answersTheInboxAsEachChannelSays()
    {
        TempDatabase db;
        const Store store = testStore();
        KnowledgeRepository repo(store);
        KnowledgeChanges ch;
        ch.question = QStringLiteral("Kargo ne zaman gelir?");
        ch.answer = QStringLiteral("Siparişler 1-3 iş gününde teslim edilir.");
        ch.language = QStringLiteral("tr");
        repo.create(ch);
        UserRepository users(store);
        const User ayse = users.create(QStringLiteral("ayse@ornek.com.tr"), QStringLiteral("Ayşe"),
                                       QStringLiteral("agent"), QStringLiteral("x"));
        const User mert = users.create(QStringLiteral("mert@ornek.com.tr"), QStringLiteral("Mert"),
                                       QStringLiteral("agent"), QStringLiteral("x"));
        ContactRepository contacts(store);
        ConversationRepository conversations(store);
        auto conversation = [&](const QString &name) {
            const Contact c = contacts.create(ContactRules::parse(
                {{"firstName", name}, {"email", name.toLower() + QStringLiteral("@ornek.com.tr")}}));
            return conversations.findOrCreate(c.id, QStringLiteral("widget"), QStringLiteral("v-") + name);
        };
        AutoReplyConfig config;
        config.modes.insert(QStringLiteral("widget"), QStringLiteral("on"));
        auto index = std::make_shared<KnowledgeIndex>();
        auto autoReply = std::make_unique<AssistantAutoReply>(
            store, index, AssistantThresholds{}, LanguageModelConfig{}, config, ChannelRegistry::defaults());
        QStringList outcomes;
        auto watch = [this, &outcomes](AssistantAutoReply *r) {
            connect(r, &AssistantAutoReply::handled, this,
                    [&outcomes](const QString &, const QString &outcome) { outcomes << outcome; });
        };
        watch(autoReply.get());
        // A customer's message: the bus's news starts the auto-reply (as the delivery thread's would).
        auto ask = [&](const QString &conversationId, const QString &text) {
            MessageContent m;
            m.text = text;
            const qsizetype before = outcomes.size();
            const Message in = conversations.receive(conversationId, m);
            if (!QTest::qWaitFor([&] { return outcomes.size() > before; }, 10000))
                qFatal("no outcome");
            return in;
        };

        // Answered: the AI's message, recorded with the conversation and the message.
        const Conversation elif = conversation(QStringLiteral("Elif"));
        const Message q1 = ask(elif.id, QStringLiteral("kargom ne zaman gelir?"));
        QCOMPARE(outcomes.last(), QStringLiteral("sent"));
        const QVector<Message> thread = conversations.messages(elif.id, {}).items;
        QCOMPARE(thread.last().direction, QStringLiteral("outgoing"));
        QCOMPARE(thread.last().text, ch.answer.value());
        QCOMPARE(thread.last().sender.type, QStringLiteral("ai"));
        QCOMPARE(thread.last().sender.name, QStringLiteral("Asistan"));
        const AiAnswer a = AiAnswerRepository(store).resolve(thread.last().id);
        QCOMPARE(a.mode, QStringLiteral("auto_reply"));
        QCOMPARE(a.conversationId, elif.id);
        QCOMPARE(a.decision, QStringLiteral("answered"));
        // The same message again (another copy's news, a restart): not answered twice.
        autoReply->handle(q1.id);
        QCOMPARE(outcomes.last(), QStringLiteral("skipped"));
        QCOMPARE(conversations.messages(elif.id, {}).items.size(), thread.size());

        // Not answered: the fallback reply, then the conversation goes to one agent, the next to
        // the other, and no auto-reply in a conversation handed off.
        const Conversation can = conversation(QStringLiteral("Can"));
        ask(can.id, QStringLiteral("Mobilya satıyor musunuz?"));
        QCOMPARE(outcomes.last(), QStringLiteral("handed_off"));
        Conversation v = conversations.get(can.id);
        QVERIFY(!v.aiHandoff.isEmpty());
        QCOMPARE(conversations.messages(can.id, {}).items.last().text,
                 Assistant::fallbackReply(v.aiHandoff, QStringLiteral("tr")));
        const QString first = v.assignedTo;
        QVERIFY(first == ayse.id || first == mert.id);
        const Conversation deniz = conversation(QStringLiteral("Deniz"));
        ask(deniz.id, QStringLiteral("Bir temsilciyle görüşmek istiyorum"));
        QCOMPARE(outcomes.last(), QStringLiteral("handed_off"));
        QCOMPARE(conversations.get(deniz.id).aiHandoff, QStringLiteral("customer_request"));
        QCOMPARE(conversations.get(deniz.id).assignedTo, first == ayse.id ? mert.id : ayse.id);
        const int held = int(conversations.messages(can.id, {}).items.size());
        ask(can.id, QStringLiteral("kargom ne zaman gelir?"));
        QCOMPARE(outcomes.last(), QStringLiteral("skipped"));
        QCOMPARE(int(conversations.messages(can.id, {}).items.size()), held + 1); // the question alone

        // Handed back: the assistant answers in it again; closing also ends the hand-off.
        AssistantConversation(store).handBack(can.id);
        QVERIFY(conversations.get(can.id).aiHandoff.isEmpty());
        ask(can.id, QStringLiteral("kargom ne zaman gelir?"));
        QCOMPARE(outcomes.last(), QStringLiteral("sent"));
        conversations.close(deniz.id);
        QVERIFY(conversations.get(deniz.id).aiHandoff.isEmpty());

        // Suggest: a draft; sending it makes the answer that message.
        config.modes.insert(QStringLiteral("widget"), QStringLiteral("suggest"));
        autoReply = std::make_unique<AssistantAutoReply>(store, index, AssistantThresholds{}, LanguageModelConfig{},
                                                         config, ChannelRegistry::defaults());
        watch(autoReply.get());
        const Conversation ece = conversation(QStringLiteral("Ece"));
        const Message in = ask(ece.id, QStringLiteral("kargo kaç günde gelir"));
        QCOMPARE(outcomes.last(), QStringLiteral("drafted"));
        v = conversations.get(ece.id);
        QCOMPARE(v.aiDraft, ch.answer.value());
        QCOMPARE(conversations.messages(ece.id, {}).items.last().id, in.id); // nothing sent
        MessageContent reply;
        reply.text = v.aiDraft;
        const Message sent = conversations.addOutgoing(ece.id, reply, {QStringLiteral("agent"), ayse.id, ayse.name},
                                                       QStringLiteral("sent"));
        AssistantConversation(store).draftSent(ece.id, v.aiDraftAnswerId, sent.id);
        QVERIFY(conversations.get(ece.id).aiDraft.isEmpty());
        QCOMPARE(AiAnswerRepository(store).resolve(sent.id).id, v.aiDraftAnswerId);
        // Not answered in suggest mode: recorded for the suggestions, nobody assigned.
        ask(ece.id, QStringLiteral("Mobilya satıyor musunuz?"));
        QCOMPARE(outcomes.last(), QStringLiteral("recorded"));
        QVERIFY(conversations.get(ece.id).aiHandoff.isEmpty());

        // Off: nothing.
        config.modes.insert(QStringLiteral("widget"), QStringLiteral("off"));
        autoReply = std::make_unique<AssistantAutoReply>(store, index, AssistantThresholds{}, LanguageModelConfig{},
                                                         config, ChannelRegistry::defaults());
        watch(autoReply.get());
        ask(ece.id, QStringLiteral("kargo kaç günde gelir"));
        QCOMPARE(outcomes.last(), QStringLiteral("skipped"));
    }
};

QTEST_GUILESS_MAIN(TestAssistantReplies)
#include "test_assistantreplies.moc"
