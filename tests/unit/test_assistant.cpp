// The assistant's retrieval: reading a text (normalisation, Turkish case folding, ASCII folding,
// stemming, language detection), the knowledge entries' rules, CSV import and export, the index kept
// in step with the stored entries, and the evaluation set of tests/data/assistant with its figures.
#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistant.h"
#include "model/assistant/assistantconversation.h"
#include "model/assistant/knowledgeindex.h"
#include "model/assistant/knowledgerepository.h"
#include "model/assistant/textanalysis.h"
#include "model/core/csv.h"
#include "model/core/errors.h"
#include "tests/support/modelsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QtTest>

namespace {

QString dataFile(const QString &name)
{
    if (QFileInfo(name).isAbsolute())
        return name;
    return QFileInfo(QStringLiteral(__FILE__)).absolutePath() + QStringLiteral("/../data/assistant/") + name;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// The held-out set's floors (heldOutSet).
constexpr double kHeldOutTop1 = 0.65;
constexpr double kHeldOutRefusals = 0.7;

struct EvalQuestion
{
    QString expected; // an entry's ref, or "none"
    QString language;
    QString question;
};

struct Evaluation
{
    int answerable = 0;
    int top1 = 0;      // answered with the expected entry
    int retrieved = 0; // the expected entry ranked first, answered or not
    int unanswerable = 0;
    int refused = 0;
    QStringList misses;
    double accuracy() const { return answerable ? double(top1) / answerable : 0; }
    double refusals() const { return unanswerable ? double(refused) / unanswerable : 0; }
};

} // namespace

class TestAssistant final : public QObject
{
    Q_OBJECT

private:
    // The evaluation set's entries imported; ref -> entry id.
    QHash<QString, QString> importEvaluationSet(KnowledgeRepository &repo)
    {
        const QByteArray csv = readAll(dataFile(QStringLiteral("knowledge.csv")));
        const KnowledgeImportReport report = repo.importCsv(csv);
        if (report.created < 60 || report.skipped != 0)
            qFatal("the evaluation entries did not import: %s", QJsonDocument(report.toJson()).toJson().constData());
        // The refs are a column of the file the import ignores: matched by the question.
        QHash<QString, QString> byQuestion;
        KnowledgeQuery all;
        all.limit = 0;
        for (const KnowledgeEntry &e : repo.list(all).items)
            byQuestion.insert(e.language + QLatin1Char('|') + e.question, e.id);
        QHash<QString, QString> refs;
        const QVector<QStringList> rows = Csv::parse(Csv::decode(csv));
        for (int i = 1; i < rows.size(); ++i)
            refs.insert(rows.at(i).at(0),
                        byQuestion.value(rows.at(i).at(2) + QLatin1Char('|') + rows.at(i).at(3).trimmed()));
        return refs;
    }

    QVector<EvalQuestion> questions(const QString &file = QStringLiteral("questions.csv"))
    {
        QVector<EvalQuestion> out;
        const QVector<QStringList> rows = Csv::parse(Csv::decode(readAll(dataFile(file))));
        for (int i = 1; i < rows.size(); ++i)
            out.append({rows.at(i).at(0).isEmpty() ? QStringLiteral("none") : rows.at(i).at(0), rows.at(i).at(1),
                        rows.at(i).at(2)});
        return out;
    }

    Evaluation evaluate(const KnowledgeIndex &index, const QHash<QString, QString> &refs, AssistantThresholds t,
                        bool languageGiven, const QString &file = QStringLiteral("questions.csv"))
    {
        Evaluation ev;
        const Assistant assistant(index, t);
        // LIAISON_ASSISTANT_DUMP=FILE: every question's outcome appended as a tab-separated line.
        QFile dump(qEnvironmentVariable("LIAISON_ASSISTANT_DUMP"));
        if (!dump.fileName().isEmpty())
            dump.open(QIODevice::Append);
        for (const EvalQuestion &q : questions(file)) {
            const AssistantReply r = assistant.answer({q.question, languageGiven ? q.language : QString(), {}});
            if (dump.isOpen())
                dump.write(
                    QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6\t%7\n")
                        .arg(file, q.expected, refs.key(r.entryId, QStringLiteral("-")))
                        .arg(r.confidence)
                        .arg(r.margin)
                        .arg(r.handoffReason.isEmpty() ? QStringLiteral("answered") : r.handoffReason, q.question)
                        .toUtf8());
            if (q.expected == QLatin1String("none")) {
                ++ev.unanswerable;
                if (!r.answered)
                    ++ev.refused;
                else
                    ev.misses << QStringLiteral("ANSWERED %1 -> %2 (%3)").arg(q.question, r.entryId).arg(r.confidence);
                continue;
            }
            ++ev.answerable;
            const QString want = refs.value(q.expected);
            if (r.entryId == want)
                ++ev.retrieved;
            if (r.answered && r.entryId == want)
                ++ev.top1;
            else
                ev.misses << QStringLiteral("MISSED %1 [%2] -> %3 %4 (%5, margin %6)")
                                 .arg(q.question, q.expected, r.answered ? QStringLiteral("answered") : r.handoffReason,
                                      refs.key(r.entryId))
                                 .arg(r.confidence)
                                 .arg(r.margin);
        }
        return ev;
    }

    // Prints a set's figures (and, when verbose, each miss) as the evaluation reports them.
    static void report(const QString &label, const Evaluation &ev, bool verbose)
    {
        qInfo().noquote() << QStringLiteral(
                                 "%1: %2 answerable, top-1 %3 (ranked first %4); %5 unanswerable, refused %6")
                                 .arg(label)
                                 .arg(ev.answerable)
                                 .arg(ev.accuracy(), 0, 'f', 3)
                                 .arg(double(ev.retrieved) / ev.answerable, 0, 'f', 3)
                                 .arg(ev.unanswerable)
                                 .arg(ev.refusals(), 0, 'f', 3);
        if (verbose)
            for (const QString &m : ev.misses)
                qInfo().noquote() << m;
    }

private slots:
    void normalise_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("normalised");
        QTest::newRow("turkish capitals") << "İSTANBUL IRMAK"
                                          << "tr"
                                          << "istanbul ırmak";
        QTest::newRow("english capitals") << "IKEA Is"
                                          << "en"
                                          << "ikea is";
        QTest::newRow("dotted capital in english") << "İzmir"
                                                   << "en"
                                                   << "izmir";
        QTest::newRow("nfkc ligature and width") << "ﬁyat ＴＬ"
                                                 << "en"
                                                 << "fiyat tl";
        QTest::newRow("decomposed letters") << QString::fromUtf8("gu\xcc\x88n") << "tr"
                                            << "gün";
    }
    void normalise()
    {
        QFETCH(QString, text);
        QFETCH(QString, language);
        QFETCH(QString, normalised);
        QCOMPARE(TextAnalysis::normalise(text, language), normalised);
    }

    void terms_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("language");
        // The same terms for both texts.
        QTest::newRow("suffix after an apostrophe") << "Kadıköy'deki mağaza"
                                                    << "kadıköy mağaza"
                                                    << "tr";
        QTest::newRow("stop words and greetings") << "Merhaba, iyi günler! İade süresi nedir?"
                                                  << "iade süresi"
                                                  << "tr";
        QTest::newRow("english plural and verb forms") << "Shipping costs for orders"
                                                       << "shipping cost order"
                                                       << "en";
        QTest::newRow("english stop words") << "Hi, what are the opening hours please?"
                                            << "opening hours"
                                            << "en";
    }
    void terms()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, language);
        QCOMPARE(TextAnalysis::terms(a, language), TextAnalysis::terms(b, language));
    }

    void stems()
    {
        // Snowball's Turkish stemmer: inflected nouns meet at their stem.
        QCOMPARE(TextAnalysis::stem(QStringLiteral("kargolar"), QStringLiteral("tr")), QStringLiteral("kargo"));
        QCOMPARE(TextAnalysis::stem(QStringLiteral("siparişler"), QStringLiteral("tr")),
                 TextAnalysis::stem(QStringLiteral("sipariş"), QStringLiteral("tr")));
        QCOMPARE(TextAnalysis::stem(QStringLiteral("returns"), QStringLiteral("en")), QStringLiteral("return"));
        QCOMPARE(TextAnalysis::asciiFold(QStringLiteral("çığöşü")), QStringLiteral("cigosu"));
    }

    void detectLanguage_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("language");
        QTest::newRow("turkish letters") << "Siparişim ne zaman gelir?"
                                         << "tr";
        QTest::newRow("turkish without letters") << "kargo ne zaman gelir acaba"
                                                 << "tr";
        QTest::newRow("turkish suffixes") << "iade etmek istiyorum"
                                          << "tr";
        QTest::newRow("english") << "When will my order arrive?"
                                 << "en";
        QTest::newRow("english lower case") << "how much is shipping"
                                            << "en";
        QTest::newRow("german") << "Wann kommt die Bestellung und ist das kostenlos?"
                                << "other";
        QTest::newRow("russian") << "Когда придёт мой заказ?"
                                 << "other";
        QTest::newRow("arabic") << "متى يصل طلبي؟"
                                << "other";
        QTest::newRow("nothing tells") << "IBAN?"
                                       << "";
    }
    void detectLanguage()
    {
        QFETCH(QString, text);
        QFETCH(QString, language);
        QCOMPARE(TextAnalysis::detectLanguage(text).language, language);
    }

    void asksForPerson_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("asks");
        QTest::newRow("temsilci") << "Bir müşteri temsilcisiyle görüşmek istiyorum" << true;
        QTest::newRow("canlı destek") << "CANLI DESTEK lütfen" << true;
        QTest::newRow("yetkili") << "yetkili biriyle konuşabilir miyim" << true;
        QTest::newRow("human") << "Can I talk to a human?" << true;
        QTest::newRow("real person") << "I want a real person" << true;
        QTest::newRow("question") << "Kargo ücreti ne kadar?" << false;
        QTest::newRow("english question") << "How do I return an item?" << false;
    }
    void asksForPerson()
    {
        QFETCH(QString, text);
        QFETCH(bool, asks);
        QCOMPARE(TextAnalysis::asksForPerson(text), asks);
    }

    void editDistance_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("distance");
        QTest::newRow("same") << "teslimat"
                              << "teslimat" << 0;
        QTest::newRow("missing letter") << "teslimt"
                                        << "teslimat" << 1;
        QTest::newRow("swapped") << "teslmiat"
                                 << "teslimat" << 1;
        QTest::newRow("changed") << "adres"
                                 << "adris" << 1;
        QTest::newRow("two apart") << "shiping"
                                   << "shopping" << 2;
        QTest::newRow("far") << "kargo"
                             << "fatura" << 3; // over the limit of 2: limit + 1
    }
    void editDistance()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, distance);
        QCOMPARE(TextAnalysis::editDistance(a, b, 2), distance);
    }

    void knowledgeRules_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("fields"); // refused fields, "" accepted
        QTest::addColumn<int>("kind");
        const int bad = DomainError::BadRequest;
        const int missing = DomainError::Unprocessable;
        const QJsonObject ok{{"question", "Kargo ne zaman gelir?"}, {"answer", "1-3 iş günü"}, {"language", "tr"}};
        auto with = [ok](const char *key, const QJsonValue &v) {
            QJsonObject b = ok;
            b.insert(QLatin1String(key), v);
            return b;
        };
        QTest::newRow("ok") << ok << "" << -1;
        QTest::newRow("article") << with("type", "ARTICLE") << "" << -1;
        QTest::newRow("unknown type") << with("type", "poem") << "type" << bad;
        QTest::newRow("language code") << with("language", "Türkçe") << "language" << bad;
        QTest::newRow("language region") << with("language", "pt_BR") << "" << -1;
        QTest::newRow("tags not strings") << with("tags", QJsonArray{1, 2}) << "tags" << bad;
        QTest::newRow("tag too long") << with("tags", QJsonArray{QString(51, 'x')}) << "tags" << bad;
        QTest::newRow("question not a string") << with("question", 5) << "question" << bad;
        QTest::newRow("blank answer") << with("answer", "  ") << "answer" << missing;
        QTest::newRow("no language") << QJsonObject{{"question", "q"}, {"answer", "a"}} << "language" << missing;
    }
    void knowledgeRules()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, fields);
        QFETCH(int, kind);
        const QPair<QString, int> refused = refusalOf([&] { KnowledgeRules::parse(body, true); });
        QCOMPARE(refused.first, fields);
        QCOMPARE(refused.second, kind);
    }

    void csv()
    {
        const QString line =
            Csv::line({QStringLiteral("a,b"), QStringLiteral("say \"hi\""), QStringLiteral("two\nlines"), {}});
        QCOMPARE(line, QStringLiteral("\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n"));
        QVector<int> lines;
        const QVector<QStringList> rows = Csv::parse(line + QStringLiteral("\r\nx;y\n"), QLatin1Char(','), &lines);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(0), (QStringList{"a,b", "say \"hi\"", "two\nlines", ""}));
        QCOMPARE(rows.at(1), QStringList{"x;y"});
        QCOMPARE(lines, (QVector<int>{1, 4}));
        QCOMPARE(Csv::guessSeparator(QStringLiteral("a;b;\"c,d\"\n")), QLatin1Char(';'));
        QCOMPARE(Csv::guessSeparator(QStringLiteral("a\tb\n")), QLatin1Char('\t'));
        // A Turkish Excel file (Windows-1254), and UTF-8 with its byte order mark.
        QCOMPARE(Csv::decode(QByteArray("\xdd\xfeyeri, \xf0\xfd")), QStringLiteral("İşyeri, ğı"));
        QCOMPARE(Csv::decode(QByteArray("\xEF\xBB\xBFsoru")), QStringLiteral("soru"));
    }

    // Entries are written, changed and removed; the index follows the stored revision.
    void indexFollowsTheStoredEntries()
    {
        TempDatabase db;
        KnowledgeRepository repo(testStore());
        KnowledgeIndex index;
        index.refresh(repo);
        QCOMPARE(index.size(), 0);
        KnowledgeChanges ch;
        ch.question = QStringLiteral("Kargo ücreti ne kadar?");
        ch.answer = QStringLiteral("750 TL üzeri kargo ücretsiz.");
        ch.language = QStringLiteral("TR");
        ch.tags = QStringList{QStringLiteral("Kargo"), QStringLiteral("kargo "), QStringLiteral("ücret")};
        const KnowledgeEntry e = repo.create(ch);
        QCOMPARE(e.language, QStringLiteral("tr"));
        QCOMPARE(e.tags, (QStringList{"kargo", "ücret"}));
        QCOMPARE(e.type, QStringLiteral("faq"));
        const qint64 r1 = repo.revision();
        QVERIFY(r1 > 0);
        index.refresh(repo);
        QCOMPARE(index.size(), 1);
        QCOMPARE(index.search(QStringLiteral("kargo ucreti"), QStringLiteral("tr")).candidates.value(0).entryId, e.id);
        // Typed without diacritics, in capitals, misspelt: the words the index holds.
        const QStringList terms = index.search(QStringLiteral("kargo ücreti ne kadar"), QStringLiteral("tr")).terms;
        QCOMPARE(index.search(QStringLiteral("KARGO UCRETI NE KADAR"), QStringLiteral("tr")).terms, terms);
        QCOMPARE(index.search(QStringLiteral("kargoo ucreti ne kadr"), QStringLiteral("tr")).terms, terms);

        KnowledgeChanges edit;
        edit.question = QStringLiteral("Teslimat ücreti ne kadar?");
        repo.update(e.id, edit);
        QVERIFY(repo.revision() > r1);
        index.refresh(repo);
        QCOMPARE(index.size(), 1);
        QCOMPARE(index.search(QStringLiteral("teslimat"), QStringLiteral("tr")).candidates.value(0).entryId, e.id);
        QCOMPARE(index.entry(e.id)->question, edit.question.value());

        repo.remove(e.id);
        index.refresh(repo);
        QCOMPARE(index.size(), 0);
        QVERIFY(index.search(QStringLiteral("teslimat"), QStringLiteral("tr")).candidates.isEmpty());
        QCOMPARE(refusalOf([&] { repo.get(e.id); }).second, int(DomainError::NotFound));

        // The list: search without accents, language and tag filters, paging.
        for (int i = 0; i < 25; ++i) {
            KnowledgeChanges c;
            c.question = QStringLiteral("Soru %1 iade").arg(i);
            c.answer = QStringLiteral("Cevap %1").arg(i);
            c.language = i % 2 ? QStringLiteral("en") : QStringLiteral("tr");
            c.tags = QStringList{i % 3 ? QStringLiteral("kargo") : QStringLiteral("iade")};
            repo.create(c);
        }
        KnowledgeQuery q;
        q.language = QStringLiteral("tr");
        QCOMPARE(repo.list(q).total, 13);
        q.tags = QStringList{QStringLiteral("iade")};
        QCOMPARE(repo.list(q).total, 5);
        KnowledgeQuery s;
        s.search = QStringLiteral("SORU 1");
        QCOMPARE(repo.list(s).total, 11); // 1, 10..19
        KnowledgeQuery page;
        page.page = 2;
        page.limit = 10;
        QCOMPARE(repo.list(page).items.size(), 10);
        QCOMPARE(repo.list(page).total, 25);
    }

    // What the Inbox's thumbs read back: the answer each message became and the user's own feedback
    // on it (another user's is not theirs), the newest answer of a message, and a replaced rating.
    void aUsersFeedbackIsReadBackByMessageAndByAnswer()
    {
        TempDatabase db;
        AiAnswerRepository answers(testStore());
        AssistantReply reply;
        reply.answered = true;
        reply.answer = QStringLiteral("750 TL üzeri kargo ücretsiz.");
        reply.language = QStringLiteral("tr");
        AiAnswerOrigin origin;
        origin.mode = QStringLiteral("auto_reply");
        origin.channel = QStringLiteral("widget");
        origin.messageId = QStringLiteral("msg_a");
        const AiAnswer first = answers.record(QStringLiteral("Kargo ücreti?"), reply, origin);
        origin.messageId = QStringLiteral("msg_b");
        const AiAnswer other = answers.record(QStringLiteral("İade?"), reply, origin);
        origin.messageId.clear();
        const AiAnswer draft = answers.record(QStringLiteral("Taksit?"), reply, origin);

        QVERIFY(answers.messageAnswers({}, QStringLiteral("usr_1")).isEmpty());
        QHash<QString, AiMessageAnswer> byMessage =
            answers.messageAnswers({"msg_a", "msg_b", "msg_none"}, QStringLiteral("usr_1"));
        QCOMPARE(byMessage.size(), 2);
        QCOMPARE(byMessage.value("msg_a").answerId, first.id);
        QVERIFY(!byMessage.value("msg_a").feedback);
        QVERIFY(!answers.feedbackOf(QStringLiteral("msg_a"), QStringLiteral("usr_1")));
        QVERIFY(!answers.feedbackOf(QStringLiteral("msg_none"), QStringLiteral("usr_1")));

        answers.giveFeedback({QStringLiteral("msg_a"), QStringLiteral("THUMBS"), 1, {}, {}}, QStringLiteral("usr_1"));
        answers.giveFeedback({QStringLiteral("msg_a"), QStringLiteral("THUMBS"), -1, QStringLiteral("outdated"), {}},
                             QStringLiteral("usr_2"));
        answers.giveFeedback({draft.id, QStringLiteral("THUMBS"), -1, {}, {}}, QStringLiteral("usr_1"));
        byMessage = answers.messageAnswers({"msg_a", "msg_b"}, QStringLiteral("usr_1"));
        QCOMPARE(byMessage.value("msg_a").feedback->rating, 1);
        QCOMPARE(byMessage.value("msg_a").feedback->userId, QStringLiteral("usr_1"));
        QVERIFY(!byMessage.value("msg_b").feedback);
        QCOMPARE(answers.messageAnswers({"msg_a"}, QStringLiteral("usr_2")).value("msg_a").feedback->reason,
                 QStringLiteral("outdated"));
        QCOMPARE(answers.feedbackOf(draft.id, QStringLiteral("usr_1"))->rating, -1);
        QVERIFY(!answers.feedbackOf(draft.id, QStringLiteral("usr_2")));

        // The other thumb replaces the first.
        answers.giveFeedback({QStringLiteral("msg_a"), QStringLiteral("THUMBS"), -1, {}, {}}, QStringLiteral("usr_1"));
        QCOMPARE(answers.feedbackOf(QStringLiteral("msg_a"), QStringLiteral("usr_1"))->rating, -1);
        QCOMPARE(answers.feedbackOf(first.id, QStringLiteral("usr_1"))->rating, -1);
        // A draft sent as msg_b is that message's answer now, its feedback with it.
        AssistantConversation(testStore()).linkAnswer(draft.id, QStringLiteral("msg_b"));
        QCOMPARE(answers.messageAnswers({"msg_b"}, QStringLiteral("usr_1")).value("msg_b").answerId, draft.id);
        QCOMPARE(answers.feedbackOf(QStringLiteral("msg_b"), QStringLiteral("usr_1"))->rating, -1);
        QCOMPARE(answers.resolve(QStringLiteral("msg_b")).id, draft.id);
        QVERIFY(!answers.feedbackOf(other.id, QStringLiteral("usr_1")));
    }

    void importAndExport()
    {
        TempDatabase db;
        KnowledgeRepository repo(testStore());
        // Columns in another order and case, a ';' separator, Windows-1254, a bad row and a blank one.
        QByteArray file("Language;QUESTION;answer;tags;extra\r\n"
                        "tr;\xdd\xfe yeri adresi nerede?;Moda Cad. No: 48;adres,ma\xf0"
                        "aza;x\r\n"
                        "tr;;cevapsiz soru;;\r\n"
                        "Türkçe;soru;cevap;;\r\n"
                        "\r\n"
                        "en;Opening hours?;10:00-20:00;store;\r\n");
        KnowledgeImportReport r = repo.importCsv(file);
        QCOMPARE(r.rows, 4);
        QCOMPARE(r.created, 2);
        QCOMPARE(r.skipped, 2);
        QCOMPARE(r.problems.size(), 2);
        QCOMPARE(r.problems.at(0).line, 3);
        QCOMPARE(r.problems.at(0).field, QStringLiteral("question"));
        QCOMPARE(r.problems.at(1).line, 4);
        QCOMPARE(r.problems.at(1).field, QStringLiteral("language"));
        // The window shows the same problem in its language: the text behind the English message.
        QCOMPARE(r.problems.at(1).text.english(), r.problems.at(1).message);
        // What the list's filters offer.
        QCOMPARE(repo.tags(), (QStringList{"adres", "mağaza", "store"}));
        QCOMPARE(repo.languages(), (QStringList{"en", "tr"}));
        KnowledgeQuery all;
        all.limit = 0;
        const KnowledgePage stored = repo.list(all);
        QCOMPARE(stored.items.last().question, QStringLiteral("İş yeri adresi nerede?"));
        QCOMPARE(stored.items.last().tags, (QStringList{"adres", "mağaza"}));

        // The export reads back as the same entries: importing it changes nothing.
        const QByteArray exported = repo.exportCsv(all);
        QVERIFY(exported.startsWith("\xEF\xBB\xBFid,type,language,question,answer,tags\r\n"));
        r = repo.importCsv(exported);
        QCOMPARE(r.created, 0);
        QCOMPARE(r.updated, 0);
        QCOMPARE(r.skipped, 2);
        // An edited export changes the entry its id names.
        QByteArray edited = exported;
        edited.replace("10:00-20:00", "10:00-21:00");
        r = repo.importCsv(edited);
        QCOMPARE(r.updated, 1);
        QCOMPARE(repo.list(all).items.first().answer, QStringLiteral("10:00-21:00"));

        // A file without the required columns is refused whole.
        QCOMPARE(refusalOf([&] { repo.importCsv("soru,cevap\r\na,b\r\n"); }).second, int(DomainError::Unprocessable));

        // Cancelled after the first batch: that batch stays, nothing of the next.
        QByteArray big("question,answer,language\r\n");
        for (int i = 0; i < KnowledgeRepository::kImportBatch + 200; ++i)
            big += QStringLiteral("Soru %1,Cevap %1,tr\r\n").arg(i).toUtf8();
        int calls = 0;
        r = repo.importCsv(big, {}, [&calls](int done, int total) {
            ++calls;
            return done < total / 2;
        });
        QCOMPARE(calls, 1);
        QVERIFY(r.cancelled);
        QCOMPARE(r.created, KnowledgeRepository::kImportBatch);
        QCOMPARE(repo.count(), 2 + KnowledgeRepository::kImportBatch);
    }

    // The evaluation set: top-1 accuracy on answerable questions and correct refusals on the
    // others, with the default thresholds, the language given and detected. With
    // LIAISON_ASSISTANT_SWEEP=1 it prints both figures over a grid of thresholds (how the defaults
    // were chosen) and every miss.
    void evaluationSet()
    {
        TempDatabase db;
        KnowledgeRepository repo(testStore());
        const QHash<QString, QString> refs = importEvaluationSet(repo);
        KnowledgeIndex index;
        index.refresh(repo);
        QCOMPARE(index.size(), refs.size());
        const bool verbose = qEnvironmentVariableIntValue("LIAISON_ASSISTANT_SWEEP") == 1;
        // LIAISON_ASSISTANT_ASK="question": what the pipeline makes of one question.
        if (const QString ask = qEnvironmentVariable("LIAISON_ASSISTANT_ASK"); !ask.isEmpty()) {
            const AssistantReply r = Assistant(index).answer({ask, {}, {}});
            QJsonObject out = r.toTestJson({});
            QJsonArray named;
            for (const QJsonValue &c : out.value(QStringLiteral("candidates")).toArray()) {
                QJsonObject o = c.toObject();
                o.insert(QStringLiteral("ref"), refs.key(o.value(QStringLiteral("entryId")).toString()));
                named.append(o);
            }
            out.insert(QStringLiteral("candidates"), named);
            qInfo().noquote() << QJsonDocument(out).toJson();
            return;
        }
        if (verbose) {
            // The grid: the unknown word's weight and the coverage's share, then the thresholds.
            const KnowledgeIndex::Tuning base = index.tuning();
            for (double u : {0.8}) {
                for (double share : {0.75}) {
                    for (double rerank : {0.3}) {
                        for (double qw : {0.4, 0.6, 0.8, 1.0}) {
                            for (double aw : {0.4}) {
                                KnowledgeIndex::Tuning t = base;
                                t.unknownWordWeight = u;
                                t.coverageShare = share;
                                t.rerankConfidence = rerank;
                                t.answerOnlyShare = qw;
                                t.rerankTrigrams = aw;
                                index.setTuning(t);
                                QString line = QStringLiteral("unknown %1 coverage %2 rerank by confidence %3, "
                                                              "answer-only share %4, rerank by trigrams %5:")
                                                   .arg(u)
                                                   .arg(share)
                                                   .arg(rerank)
                                                   .arg(qw)
                                                   .arg(aw);
                                double bestSum = 0;
                                QString best;
                                for (double a = 0.3; a <= 0.701; a += 0.025) {
                                    for (double m : {0.0, 0.02, 0.04, 0.06, 0.08}) {
                                        const Evaluation ev = evaluate(index, refs, {a, m}, false);
                                        if (ev.refusals() >= 0.8 && ev.accuracy() > bestSum) {
                                            bestSum = ev.accuracy();
                                            best = QStringLiteral(" a %1 m %2 -> %3/%4 (first %5)")
                                                       .arg(a)
                                                       .arg(m)
                                                       .arg(ev.accuracy(), 0, 'f', 3)
                                                       .arg(ev.refusals(), 0, 'f', 3)
                                                       .arg(double(ev.retrieved) / ev.answerable, 0, 'f', 3);
                                        }
                                    }
                                }
                                qInfo().noquote() << line + best;
                            }
                        }
                    }
                }
            }
            index.setTuning(base);
        }
        for (bool given : {true, false}) {
            const Evaluation ev = evaluate(index, refs, {}, given);
            qInfo().noquote() << QStringLiteral(
                                     "evaluation (language %1): %2 answerable, top-1 %3 (ranked first %4); %5 "
                                     "unanswerable, refused %6")
                                     .arg(given ? QStringLiteral("given") : QStringLiteral("detected"))
                                     .arg(ev.answerable)
                                     .arg(ev.accuracy(), 0, 'f', 3)
                                     .arg(double(ev.retrieved) / ev.answerable, 0, 'f', 3)
                                     .arg(ev.unanswerable)
                                     .arg(ev.refusals(), 0, 'f', 3);
            if (verbose)
                for (const QString &m : ev.misses)
                    qInfo().noquote() << m;
            QVERIFY(ev.answerable >= 200 || ev.answerable + ev.unanswerable >= 200);
            // The targets (docs/architecture.md, "The assistant"): a change that makes the
            // answers worse than them fails here.
            QVERIFY2(ev.accuracy() >= 0.85, qPrintable(QString::number(ev.accuracy())));
            QVERIFY2(ev.refusals() >= 0.8, qPrintable(QString::number(ev.refusals())));
        }
    }

    // A second set written apart from the tuning (tests/data/assistant/heldout.csv: the phrases,
    // synonyms and parameters were never looked at against it): how the assistant does on questions
    // it has not seen. Its floor is below the tuned set's targets, on purpose.
    void heldOutSet()
    {
        TempDatabase db;
        KnowledgeRepository repo(testStore());
        const QHash<QString, QString> refs = importEvaluationSet(repo);
        KnowledgeIndex index;
        index.refresh(repo);
        const bool verbose = qEnvironmentVariableIntValue("LIAISON_ASSISTANT_SWEEP") == 1;
        const Evaluation ev = evaluate(index, refs, {}, false, QStringLiteral("heldout.csv"));
        report(QStringLiteral("held-out set"), ev, verbose);
        // LIAISON_ASSISTANT_SWEEP=2: both sets over a grid (tuned set / held-out set).
        if (qEnvironmentVariableIntValue("LIAISON_ASSISTANT_SWEEP") == 2) {
            const KnowledgeIndex::Tuning base = index.tuning();
            for (double u : {0.3, 0.5, 0.8}) {
                for (double share : {0.5, 0.6, 0.75}) {
                    KnowledgeIndex::Tuning t = base;
                    t.unknownWordWeight = u;
                    t.coverageShare = share;
                    index.setTuning(t);
                    for (double a : {0.25, 0.3, 0.35, 0.4}) {
                        const Evaluation tuned = evaluate(index, refs, {a, 0.02}, false);
                        const Evaluation held = evaluate(index, refs, {a, 0.02}, false, QStringLiteral("heldout.csv"));
                        qInfo().noquote() << QStringLiteral("u %1 share %2 a %3: tuned %4/%5 held-out %6/%7")
                                                 .arg(u)
                                                 .arg(share)
                                                 .arg(a)
                                                 .arg(tuned.accuracy(), 0, 'f', 3)
                                                 .arg(tuned.refusals(), 0, 'f', 3)
                                                 .arg(held.accuracy(), 0, 'f', 3)
                                                 .arg(held.refusals(), 0, 'f', 3);
                    }
                }
            }
            index.setTuning(base);
        }
        QVERIFY(ev.answerable >= 80 && ev.unanswerable >= 25);
        QVERIFY2(ev.accuracy() >= kHeldOutTop1, qPrintable(QString::number(ev.accuracy())));
        QVERIFY2(ev.refusals() >= kHeldOutRefusals, qPrintable(QString::number(ev.refusals())));
        // A third set, written apart from both and kept back from every choice made on them
        // (heldout2.csv): measured, held to the same floors.
        const Evaluation third = evaluate(index, refs, {}, false, QStringLiteral("heldout2.csv"));
        report(QStringLiteral("second held-out set"), third, verbose);
        // A fourth set (heldout3.csv), written after every choice above and measured once as it
        // came: held to the same floors.
        const Evaluation fourth = evaluate(index, refs, {}, false, QStringLiteral("heldout3.csv"));
        report(QStringLiteral("third held-out set"), fourth, verbose);
        QVERIFY(fourth.answerable >= 90 && fourth.unanswerable >= 25);
        QVERIFY2(fourth.accuracy() >= kHeldOutTop1, qPrintable(QString::number(fourth.accuracy())));
        QVERIFY2(fourth.refusals() >= kHeldOutRefusals, qPrintable(QString::number(fourth.refusals())));
        // LIAISON_ASSISTANT_EVAL=FILE: a further set kept outside the tests, measured and printed.
        const QString extra = qEnvironmentVariable("LIAISON_ASSISTANT_EVAL");
        if (!extra.isEmpty())
            report(extra, evaluate(index, refs, {}, false, extra), verbose);
        QVERIFY(third.answerable >= 70 && third.unanswerable >= 25);
        QVERIFY2(third.accuracy() >= kHeldOutTop1, qPrintable(QString::number(third.accuracy())));
        QVERIFY2(third.refusals() >= kHeldOutRefusals, qPrintable(QString::number(third.refusals())));
    }
};

QTEST_GUILESS_MAIN(TestAssistant)
#include "test_assistant.moc"
