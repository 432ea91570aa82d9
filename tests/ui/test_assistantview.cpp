// The Assistant area driven as a user would, offscreen: the knowledge base's list (search without
// case or accents as typed, the language, type and tag filters, paging, the empty state), the editor
// with the model's refusals under their fields in Turkish, delete after a question, a CSV import in the
// worker thread with its progress, its report (saved as CSV) and a Cancel that keeps the first batch
// only, the export of what the filters show, the test console's decision and ranked candidates (a
// candidate opening its entry), the suggestions of questions the test records (grouped, most asked
// first, paged; accepted through the editor into an entry that takes the group off the list;
// dismissed after a question, or under the window's undo bar), the statistics against the rows the
// test made (answered, handed off, feedback, the days of a period, the reasons, the top and worst
// entries, one opening in the editor), and the area whole in Turkish at 1366 × 768 and 1920 × 1080.
// Settings > Assistant as the app wires it (app/assistantsettings.h): the form filled from the
// settings file and the secret store, a bad base URL and threshold refused under their fields in
// Turkish by the rules the file is read with, Save writing liaison.ini and the key, and "Try the
// model" asking a loopback fake of an OpenAI-compatible server in a thread of its own.

#include "tests/ui/uilayout.h"
#include "tests/ui/uitest.h"

#include "app/appsettings.h"
#include "app/assistantarea.h"
#include "app/assistantsettings.h"
#include "app/secrets/secretstore.h"
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/assistant/aianswerrepository.h"
#include "model/assistant/knowledgeindex.h"
#include "model/assistant/knowledgerepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "server/http/httpengine.h"
#include "tests/support/fakeclock.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/assistant/assistantstatspanel.h"
#include "ui/assistant/assistanttestconsole.h"
#include "ui/assistant/assistanttext.h"
#include "ui/assistant/assistantview.h"
#include "ui/assistant/knowledgebasepanel.h"
#include "ui/assistant/knowledgeeditor.h"
#include "ui/assistant/knowledgeimportreport.h"
#include "ui/assistant/suggestionspanel.h"
#include "ui/settings/assistantpage.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/pagerbar.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"
#include "ui/shell/undobar.h"

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

using namespace UiTest;

namespace {
// An OpenAI-compatible chat completions server on 127.0.0.1 (the project's HttpEngine): keeps every
// request and answers with `content`.
class FakeLanguageModel
{
public:
    FakeLanguageModel()
    {
        m_engine.setHandler([this](const HttpRequest &request, const HttpResponder &responder) {
            requests.append(request);
            HttpResponse r;
            r.status = status;
            r.setHeader("Content-Type", "application/json");
            r.body = QJsonDocument(status == 200
                                       ? QJsonObject{{"choices", QJsonArray{QJsonObject{
                                                                     {"index", 0},
                                                                     {"message", QJsonObject{{"role", "assistant"},
                                                                                             {"content", content}}}}}}}
                                       : QJsonObject{{"error", QJsonObject{{"message", content}}}})
                         .toJson();
            responder.respond(r);
        });
        if (!m_engine.listen(QHostAddress::LocalHost, 0, std::nullopt))
            qFatal("the fake language model cannot listen");
    }
    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1/v1").arg(m_engine.serverPort()); }

    QString content = QStringLiteral("Evet, cumartesi 10:00 ile 16:00 arası açığız.");
    int status = 200;
    QList<HttpRequest> requests;

private:
    HttpEngine m_engine;
};
} // namespace

class TestAssistantView final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    User m_admin;
    Store::Actor m_actor;
    QTemporaryDir m_dir;

    Store desk() const { return Store(*m_bus).actingAs(m_actor); }

    KnowledgeEntry entry(const QString &question, const QString &language = QStringLiteral("tr"),
                         const QString &type = QStringLiteral("faq"), const QStringList &tags = {})
    {
        KnowledgeChanges ch;
        ch.question = question;
        ch.answer = QStringLiteral("Yanıt: ") + question;
        ch.language = language;
        ch.type = type;
        ch.tags = tags;
        return KnowledgeRepository(desk()).create(ch);
    }

    static QStringList column(QTableWidget *table, int column)
    {
        QStringList out;
        for (int row = 0; row < table->rowCount(); ++row)
            out << table->item(row, column)->text();
        out.sort();
        return out;
    }

    static void choose(QComboBox *combo, const QString &data)
    {
        const int i = combo->findData(data);
        QVERIFY2(i >= 0, qPrintable(data));
        combo->setCurrentIndex(i);
    }

    static QLabel *errorUnder(QWidget *dialog, const QString &key)
    {
        auto *label = dialog->findChild<QLabel *>(key + QStringLiteral("Error"));
        return label && label->isVisible() ? label : nullptr;
    }

    // A CSV of `rows` new entries (question, answer, language, tags); the rows named in `bad` have no
    // question.
    QString csv(const QString &name, int rows, const QList<int> &bad = {})
    {
        QByteArray text("question,answer,language,tags\r\n");
        for (int i = 0; i < rows; ++i) {
            const QString question =
                bad.contains(i) ? QString() : QStringLiteral("İçe aktarılan soru %1 kargo hakkında?").arg(i);
            text += QStringLiteral("\"%1\",\"Yanıt %2, iki satır\ndaha\",tr,kargo;içe aktarma\r\n")
                        .arg(question)
                        .arg(i)
                        .toUtf8();
        }
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    static QString read(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

    // A question the assistant handed to a person, recorded as POST /ai/chat records it.
    AiAnswer handedOff(const QString &question, const QString &language = QStringLiteral("tr"),
                       const QString &reason = QStringLiteral("missing_knowledge"), const Clock *clock = nullptr)
    {
        AssistantReply r;
        r.language = language;
        r.handoffReason = reason;
        r.confidence = reason == QLatin1String("missing_knowledge") ? 0.05 : 0.2;
        r.answer = Assistant::fallbackReply(reason, language);
        const Store store = clock ? Store(*m_bus, *clock) : desk();
        return AiAnswerRepository(store).record(question, r);
    }

    // A question the assistant answered with entry e.
    AiAnswer answered(const QString &question, const KnowledgeEntry &e, double confidence)
    {
        AssistantReply r;
        r.answered = true;
        r.language = e.language;
        r.entryId = e.id;
        r.confidence = confidence;
        r.answer = e.answer;
        r.sources = {{e.id, e.question, 4.2, confidence}};
        return AiAnswerRepository(desk()).record(question, r);
    }

    void thumbs(const AiAnswer &a, int rating, const QString &userId)
    {
        AiFeedbackInput f;
        f.messageId = a.id;
        f.feedbackType = QStringLiteral("THUMBS");
        f.rating = rating;
        AiAnswerRepository(desk()).giveFeedback(f, userId);
    }

    QString suggestionState(const AiAnswer &a) const { return AiAnswerRepository(desk()).find(a.id)->suggestion; }

    // The suggestions' table's questions, in its order.
    static QStringList rows(QTableWidget *table)
    {
        QStringList out;
        for (int row = 0; row < table->rowCount(); ++row)
            out << table->item(row, 0)->text();
        return out;
    }

    // Settings > Assistant as the app wires it (app/assistantsettings.h), on a data directory and a
    // secret store (its owner-only file) of the test's own.
    struct SettingsFixture
    {
        QTemporaryDir dir;
        AppSettings settings{dir.path()};
        SecretStore secrets{QStringLiteral("liaison-test-assistant"), dir.filePath(QStringLiteral("secrets.json"))};

        std::unique_ptr<AssistantPage> page()
        {
            auto p = std::make_unique<AssistantPage>();
            p->setValues(AssistantSettings::values(settings, secrets));
            p->setCheckFunction(&AssistantSettings::check);
            const QString ini = settings.iniPath();
            p->setSaveFunction([ini, this](const AssistantPage::Values &values, QString *error) {
                return AssistantSettings::save(values, ini, secrets, error);
            });
            AssistantPage *raw = p.get();
            p->setTestFunction([raw](const AssistantPage::Values &values, const AssistantPage::TestQuestion &question,
                                     AssistantPage::TestDone done) {
                AssistantSettings::tryModel(values, question, raw, std::move(done));
            });
            p->resize(900, 1200);
            p->show();
            return p;
        }
        QString ini(const QString &key) const
        {
            return QSettings(settings.iniPath(), QSettings::IniFormat).value(key).toString();
        }
        void writeIni(const QHash<QString, QString> &values)
        {
            QString error;
            QVERIFY2(AppSettings::writeIni(settings.iniPath(), values, &error), qPrintable(error));
        }
    };

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("DBUS_SESSION_BUS_ADDRESS", ""); // the secret store's owner-only file, no keychain
    }

    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_admin = UserRepository(Store(*m_bus)).create("selin@ornek.com.tr", "Selin Aksoy", "admin", "x");
        m_actor = {m_admin.id, m_admin.name, m_admin.role};
    }

    void cleanup()
    {
        // Every job of the area's worker thread ended its reads.
        QCOMPARE(Database::leakedSnapshots(), 0);
        m_bus.reset();
        m_db.reset();
    }

    void theListSearchesFiltersAndPages()
    {
        for (int i = 0; i < 55; ++i)
            entry(QStringLiteral("Sipariş sorusu %1").arg(i), "tr", "faq", {"sipariş"});
        for (int i = 0; i < 3; ++i)
            entry(QStringLiteral("Return policy %1").arg(i), "en", "article", {"returns"});
        entry("Kargo ücreti ne kadar?", "tr", "snippet", {"kargo", "ücret"});
        entry("Ücretsiz kargo var mı?", "tr", "snippet", {"kargo"});
        AssistantView view(desk(), std::make_shared<KnowledgeIndex>());
        KnowledgeBasePanel *kb = view.knowledgeBase();
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        QCOMPARE(kb->table()->rowCount(), KnowledgeBasePanel::PageSize);
        QCOMPARE(kb->pager()->pageLabel()->text(), QString("1–50 of 60"));
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::QuestionColumn)->text(), QString("Ücretsiz kargo var mı?"));
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::TypeColumn)->text(), QString("Snippet"));
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::LanguageColumn)->text(), QString("Türkçe"));
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::TagsColumn)->text(), QString("kargo"));
        click(kb->pager()->nextButton());
        QCOMPARE(kb->table()->rowCount(), 10);
        QCOMPARE(kb->pager()->pageLabel()->text(), QString("51–60 of 60"));
        QVERIFY(!kb->pager()->nextButton()->isEnabled());

        // Typed without case or accents, read after a pause, from the first page.
        QTest::keyClicks(kb->searchField(), "UCRET");
        QTRY_COMPARE(column(kb->table(), KnowledgeBasePanel::QuestionColumn),
                     QStringList({"Kargo ücreti ne kadar?", "Ücretsiz kargo var mı?"}));
        QCOMPARE(kb->pager()->page(), 1);
        kb->searchField()->clear();
        QTRY_COMPARE(kb->table()->rowCount(), KnowledgeBasePanel::PageSize);

        choose(kb->languageFilter(), "en");
        QCOMPARE(column(kb->table(), KnowledgeBasePanel::QuestionColumn),
                 QStringList({"Return policy 0", "Return policy 1", "Return policy 2"}));
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::LanguageColumn)->text(), QString("English"));
        kb->languageFilter()->setCurrentIndex(0);
        choose(kb->typeFilter(), "snippet");
        QCOMPARE(kb->table()->rowCount(), 2);
        kb->typeFilter()->setCurrentIndex(0);
        // The tags the knowledge base holds are offered.
        choose(kb->tagFilter(), "ücret");
        QCOMPARE(column(kb->table(), KnowledgeBasePanel::QuestionColumn), QStringList({"Kargo ücreti ne kadar?"}));

        // Nothing left: the empty state offers to clear what emptied it.
        choose(kb->languageFilter(), "en");
        QCOMPARE(kb->table()->rowCount(), 0);
        QVERIFY(kb->emptyHint()->isVisible());
        QCOMPARE(kb->emptyHint()->text(), QString("No entry matches the search or the filters."));
        click(emptyHintAction(kb->emptyHint()));
        QCOMPARE(kb->table()->rowCount(), KnowledgeBasePanel::PageSize);
        QCOMPARE(kb->tagFilter()->currentIndex(), 0);

        // An entry written elsewhere (the API, another window) shows through the bus.
        const KnowledgeEntry added = entry("Mağaza saatleri nedir?", "tr", "faq", {"mağaza"});
        QTRY_COMPARE(kb->pager()->pageLabel()->text(), QString("1–50 of 61"));
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::QuestionColumn)->text(), added.question);
        QVERIFY(kb->tagFilter()->findData("mağaza") >= 0);
        // News does not scroll the list away from where the user is reading.
        QScrollBar *bar = kb->table()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        bar->setValue(bar->maximum());
        const int scrolled = bar->value();
        entry("Fatura adresimi nasıl değiştiririm?");
        QTRY_COMPARE(kb->pager()->pageLabel()->text(), QString("1–50 of 62"));
        QCOMPARE(bar->value(), scrolled);
    }

    void theEditorShowsRefusalsUnderTheirFieldsInTurkish()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        AssistantView view(desk(), std::make_shared<KnowledgeIndex>());
        KnowledgeBasePanel *kb = view.knowledgeBase();
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(kb->emptyHint()->isVisible());

        kb->newEntry();
        KnowledgeEditor *editor = kb->openEditor();
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(editor));
        QCOMPARE(editor->windowTitle(), QString("Yeni bilgi kaydı"));
        editor->questionField()->setText("Kargom nerede?");
        editor->languageField()->setEditText("Türkçe!");
        editor->tagsField()->setText("kargo, " + QString(60, QLatin1Char('x')));
        QVERIFY(!editor->save());
        QVERIFY(editor->isVisible());
        // Every problem at once: the wrong values and what is missing.
        QVERIFY(errorUnder(editor, "answer"));
        QCOMPARE(errorUnder(editor, "answer")->text(), QString("Zorunlu"));
        QVERIFY(errorUnder(editor, "language"));
        QCOMPARE(errorUnder(editor, "language")->text(), QString("Tr ya da en gibi bir dil kodu olmalı"));
        QVERIFY(errorUnder(editor, "tags"));
        QCOMPARE(errorUnder(editor, "tags")->text(), QString("Bir etiket en fazla 50 karakter olmalı"));
        QVERIFY(!errorUnder(editor, "question"));
        QCOMPARE(editor->findChild<QLabel *>("formError")->text(), QString("Aşağıda işaretli 3 alanı düzeltin."));
        editor->languageField()->setCurrentIndex(editor->languageField()->findData("tr"));
        editor->tagsField()->setText("kargo");
        QVERIFY(!editor->save());
        QVERIFY(!errorUnder(editor, "language"));
        QVERIFY(!errorUnder(editor, "tags"));
        QVERIFY(errorUnder(editor, "answer"));
        QCOMPARE(KnowledgeRepository(desk()).count(), 0);

        editor->answerField()->setPlainText("Kargo takip numaranızla\nYurtiçi Kargo'nun sitesinden bakabilirsiniz.");
        editor->tagsField()->setText("Kargo; takip, kargo");
        QVERIFY(editor->save());
        QTRY_VERIFY(!kb->openEditor());
        QCOMPARE(kb->table()->rowCount(), 1);
        const KnowledgeEntry saved = KnowledgeRepository(desk()).get(kb->currentEntryId());
        QCOMPARE(saved.tags, QStringList({"kargo", "takip"}));
        QCOMPARE(saved.createdBy, m_admin.id);
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::TagsColumn)->text(), QString("kargo, takip"));
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::TypeColumn)->text(), QString("SSS"));
        QCOMPARE(kb->statusLabel()->text(), QString("Kayıt kaydedildi."));

        // Enter on the chosen row opens it; a change is saved to it.
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        kb->table()->setFocus();
        QTest::keyClick(kb->table(), Qt::Key_Return);
        editor = kb->openEditor();
        QVERIFY(editor);
        QCOMPARE(editor->windowTitle(), QString("Bilgi kaydını düzenle"));
        QCOMPARE(editor->answerField()->toPlainText(), saved.answer);
        QCOMPARE(editor->tagsField()->text(), QString("kargo, takip"));
        editor->questionField()->clear();
        QVERIFY(!editor->save());
        QCOMPARE(errorUnder(editor, "question")->text(), QString("Zorunlu"));
        editor->questionField()->setText("Kargom nerede, nasıl takip ederim?");
        editor->typeField()->setCurrentIndex(editor->typeField()->findData("snippet"));
        QVERIFY(editor->save());
        QTRY_VERIFY(!kb->openEditor());
        const KnowledgeEntry changed = KnowledgeRepository(desk()).get(saved.id);
        QCOMPARE(changed.question, QString("Kargom nerede, nasıl takip ederim?"));
        QCOMPARE(changed.type, QString("snippet"));
        QCOMPARE(kb->currentEntryId(), saved.id);
    }

    void deleteAsksFirst()
    {
        const KnowledgeEntry keep = entry("İade süresi kaç gün?");
        const KnowledgeEntry gone = entry("Kapıda ödeme var mı?");
        AssistantView view(desk(), std::make_shared<KnowledgeIndex>());
        KnowledgeBasePanel *kb = view.knowledgeBase();
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(kb->selectEntry(gone.id));
        click(kb->button("delete"));
        auto *box = modal<QMessageBox>();
        QVERIFY(box);
        QVERIFY(box->text().contains(gone.question));
        click(box->button(QMessageBox::No));
        QCOMPARE(kb->table()->rowCount(), 2);
        QVERIFY(kb->selectEntry(gone.id));
        kb->deleteEntry();
        click(modal<QMessageBox>()->button(QMessageBox::Yes));
        QCOMPARE(kb->table()->rowCount(), 1);
        QCOMPARE(kb->table()->item(0, KnowledgeBasePanel::QuestionColumn)->text(), keep.question);
        QCOMPARE(KnowledgeRepository(desk()).count(), 1);
        QCOMPARE(kb->statusLabel()->text(), QString("Entry deleted."));
    }

    void importsInTheWorkerWithProgressAndAReport()
    {
        entry("İçe aktarılan soru 7 kargo hakkında?"); // the file changes it rather than repeating it
        const QString path = csv("musteri-sorulari-2026-kasim-tum-magazalar-ve-cagri-merkezi.csv", 1203, {10, 600});
        AssistantView view(desk(), std::make_shared<KnowledgeIndex>());
        KnowledgeBasePanel *kb = view.knowledgeBase();
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy progress(kb, &KnowledgeBasePanel::importProgressed);
        QSignalSpy finished(kb, &KnowledgeBasePanel::importFinished);
        // The progress line fits its pane however long the file's name and counts.
        QStringList cut;
        connect(kb, &KnowledgeBasePanel::importProgressed, this, [&cut, &view] {
            for (int i = 0; i < 3; ++i)
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            cut += clippedControls(&view);
        });

        QVERIFY(kb->importFile(path));
        QVERIFY(kb->isImporting());
        QVERIFY(kb->importRow()->isVisible());
        QVERIFY(!kb->button("import")->isEnabled());
        QVERIFY(!kb->importFile(path)); // one at a time
        QVERIFY(finished.wait(30000));
        QCOMPARE(progress.size(), 3); // a batch of 500 at a time
        QCOMPARE(progress.at(0), QVariantList({500, 1203}));
        QCOMPARE(progress.at(2), QVariantList({1203, 1203}));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("; ")));
        QVERIFY(!kb->isImporting());
        QVERIFY(!kb->importRow()->isVisible());
        QVERIFY(kb->button("import")->isEnabled());

        const KnowledgeImportReport &r = kb->lastImport();
        QVERIFY(!r.cancelled);
        QCOMPARE(r.created, 1200);
        QCOMPARE(r.updated, 1);
        QCOMPARE(r.skipped, 2);
        QCOMPARE(KnowledgeRepository(desk()).count(), 1201);
        QCOMPARE(kb->pager()->pageLabel()->text(), QString("1–50 of %1").arg(QLocale().toString(1201)));
        // A quoted answer keeps its line break.
        QVERIFY(KnowledgeRepository(desk()).list({}).items.first().answer.contains('\n'));

        KnowledgeImportReportDialog *report = kb->importReport();
        QVERIFY(report);
        QVERIFY(QTest::qWaitForWindowExposed(report));
        QCOMPARE(report->summaryLabel()->text(),
                 QString("New entries: %1 · changed: 1 · unchanged: 0 · left out: 2 (of %2 rows read)")
                     .arg(QLocale().toString(1200), QLocale().toString(1203)));
        QTableWidget *problems = report->problemsTable();
        QCOMPARE(problems->rowCount(), 2);
        // Each row by its line in the file (the header is line 1; each row above has two lines).
        QCOMPARE(problems->item(0, KnowledgeImportReportDialog::LineColumn)->text(), QString("22"));
        QCOMPARE(problems->item(1, KnowledgeImportReportDialog::LineColumn)->text(), QLocale().toString(1202));
        QCOMPARE(problems->item(0, KnowledgeImportReportDialog::FieldColumn)->text(), QString("Question"));
        QVERIFY2(problems->item(0, KnowledgeImportReportDialog::ProblemColumn)->text().contains("Question"),
                 qPrintable(problems->item(0, KnowledgeImportReportDialog::ProblemColumn)->text()));
        const QString saved = m_dir.filePath("rapor.csv");
        QVERIFY(report->saveTo(saved));
        const QStringList lines = read(saved).split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.at(0), QString("\xEF\xBB\xBF"
                                      "line,field,code,problem"));
        QVERIFY2(lines.at(1).startsWith("22,question,VALIDATION_ERROR,"), qPrintable(lines.at(1)));
        report->close();

        // The same file again changes nothing: its rows are unchanged, not problems to fix.
        QVERIFY(kb->importFile(path));
        QVERIFY(finished.wait(30000));
        QCOMPARE(kb->lastImport().skipped, 1203);
        QVERIFY(kb->importReport());
        QCOMPARE(kb->importReport()->summaryLabel()->text(),
                 QString("New entries: 0 · changed: 0 · unchanged: %1 · left out: 2 (of %2 rows read)")
                     .arg(QLocale().toString(1201), QLocale().toString(1203)));
        QCOMPARE(kb->importReport()->problemsTable()->rowCount(), 2);
        QCOMPARE(kb->statusLabel()->text(), QString("musteri-sorulari-2026-kasim-tum-magazalar-ve-cagri-merkezi.csv "
                                                    "imported: 0 new, 0 changed, 2 left out."));
        kb->importReport()->close();

        // A file without the required columns is refused whole, and says why.
        const QString wrong = m_dir.filePath("yanlis.csv");
        QFile f(wrong);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("soru,cevap\r\nA,B\r\n");
        f.close();
        QVERIFY(kb->importFile(wrong));
        QVERIFY(finished.wait(10000));
        QVERIFY2(kb->statusLabel()->text().contains("question, answer, language"),
                 qPrintable(kb->statusLabel()->text()));
        auto *box = modal<QMessageBox>();
        QVERIFY(box);
        box->close();
    }

    // Cancel stops after the batch being written: that batch stays, nothing of the next.
    void cancelKeepsTheFirstBatchOnly()
    {
        const QString path = csv("buyuk.csv", 1200);
        AssistantView view(desk(), std::make_shared<KnowledgeIndex>());
        KnowledgeBasePanel *kb = view.knowledgeBase();
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy finished(kb, &KnowledgeBasePanel::importFinished);
        {
            // The worker's first batch waits for this write lock: Cancel is pressed while it waits.
            Transaction hold;
            QVERIFY(kb->importFile(path));
            click(kb->cancelImportButton());
            QVERIFY(!kb->cancelImportButton()->isEnabled());
        }
        QVERIFY(finished.wait(30000));
        QVERIFY(kb->lastImport().cancelled);
        QCOMPARE(kb->lastImport().created, KnowledgeRepository::kImportBatch);
        QCOMPARE(KnowledgeRepository(desk()).count(), KnowledgeRepository::kImportBatch);
        QCOMPARE(kb->pager()->pageLabel()->text(), QString("1–50 of 500"));
        QVERIFY(kb->importReport());
        QVERIFY(kb->importReport()->summaryLabel()->text().startsWith("Stopped at Cancel"));
        kb->importReport()->close();
    }

    void exportsWhatTheFiltersShow()
    {
        entry("Kargo ücreti ne kadar?", "tr", "faq", {"kargo"});
        entry("How much is shipping?", "en", "faq", {"shipping"});
        entry("Do you ship abroad?", "en", "faq", {"shipping"});
        AssistantView view(desk(), std::make_shared<KnowledgeIndex>());
        KnowledgeBasePanel *kb = view.knowledgeBase();
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        choose(kb->languageFilter(), "en");
        const QString path = m_dir.filePath("disari.csv");
        QVERIFY(kb->exportTo(path));
        const QString text = read(path);
        QVERIFY(text.startsWith(QString("\xEF\xBB\xBF"
                                        "id,type,language,question,answer,tags\r\n")));
        QCOMPARE(text.count("\r\n"), 3);
        QVERIFY(text.contains("How much is shipping?"));
        QVERIFY(text.contains("Do you ship abroad?"));
        QVERIFY(!text.contains("Kargo"));
        QVERIFY2(kb->statusLabel()->text().startsWith("2 entries saved to"), qPrintable(kb->statusLabel()->text()));
        // It reads back as the same entries: nothing new, nothing changed.
        QCOMPARE(KnowledgeRepository(desk()).importCsv(text.toUtf8()).created, 0);
    }

    void theConsoleShowsTheDecisionAndTheCandidates()
    {
        QFile knowledge(qEnvironmentVariable("LIAISON_SOURCE_DIR") + "/tests/data/assistant/knowledge.csv");
        QVERIFY(knowledge.open(QIODevice::ReadOnly));
        QCOMPARE(KnowledgeRepository(desk()).importCsv(knowledge.readAll()).created, 88);
        auto index = std::make_shared<KnowledgeIndex>();
        AssistantView view(desk(), index);
        AssistantTestConsole *console = view.testConsole();
        view.resize(1200, 700);
        view.show();
        view.tabs()->setCurrentWidget(console);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(console->candidatesTable()->rowCount() == 0);
        QSignalSpy answered(console, &AssistantTestConsole::answered);

        console->questionField()->setText("Kargo ücreti ne kadar?");
        click(console->askButton());
        QVERIFY(answered.wait(10000));
        QVERIFY(console->lastReply());
        const AssistantReply reply = *console->lastReply();
        QVERIFY(reply.answered);
        QCOMPARE(index->size(), 88); // the shared index, brought up to the stored entries
        const QString best = index->entry(reply.entryId)->question;
        QCOMPARE(best, QString("Kargo ücreti ne kadar?"));
        QCOMPARE(console->decisionLabel()->text(), QString("Answers with “Kargo ücreti ne kadar?”"));
        QVERIFY(console->measuresLabel()->text().startsWith("Confidence " + AssistantText::percent(reply.confidence)));
        QVERIFY(console->measuresLabel()->text().contains("Türkçe, detected"));
        QCOMPARE(console->replyText()->toPlainText(), index->entry(reply.entryId)->answer);
        QTableWidget *candidates = console->candidatesTable();
        QCOMPARE(candidates->rowCount(), reply.search.candidates.size());
        QVERIFY(candidates->rowCount() >= 2);
        QCOMPARE(candidates->item(0, AssistantTestConsole::QuestionColumn)->text(), best);
        QCOMPARE(candidates->item(0, AssistantTestConsole::ConfidenceColumn)->text(),
                 AssistantText::percent(reply.search.candidates.first().confidence));
        QVERIFY(candidates->item(0, AssistantTestConsole::MatchedColumn)->text().contains("kargo"));
        QCOMPARE(KnowledgeRepository(desk()).count(), 88); // nothing stored

        // A question no entry answers: handed to a person, with the reason in the window's words.
        console->questionField()->setText("Uzay mekiği kiralıyor musunuz?");
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        console->questionField()->setFocus();
        QTest::keyClick(console->questionField(), Qt::Key_Return);
        QVERIFY(answered.wait(10000));
        QVERIFY(!console->lastReply()->answered);
        QCOMPARE(console->decisionLabel()->text(),
                 "Hands off to a person: " + AssistantText::handoffReason(console->lastReply()->handoffReason));

        // An entry made since is found by the next question (the index follows the stored entries).
        entry("Akvaryum balığı satıyor musunuz?", "tr", "faq", {"akvaryum"});
        console->questionField()->setText("Akvaryum balığı satıyor musunuz?");
        console->languageChoice()->setCurrentIndex(console->languageChoice()->findData("tr"));
        console->ask();
        QVERIFY(answered.wait(10000));
        QVERIFY2(console->lastReply()->answered,
                 QJsonDocument(console->lastReply()->toTestJson({})).toJson(QJsonDocument::Compact).constData());
        QVERIFY(!console->lastReply()->languageDetected);
        QCOMPARE(candidates->item(0, AssistantTestConsole::QuestionColumn)->text(),
                 QString("Akvaryum balığı satıyor musunuz?"));

        // A double-click on a candidate opens its entry; saving it asks the question again.
        const QRect cell = candidates->visualItemRect(candidates->item(0, AssistantTestConsole::QuestionColumn));
        QTest::mouseClick(candidates->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(candidates->viewport(), Qt::LeftButton, {}, cell.center());
        KnowledgeEditor *editor = view.knowledgeBase()->openEditor();
        QVERIFY(editor);
        QCOMPARE(editor->questionField()->text(), QString("Akvaryum balığı satıyor musunuz?"));
        QCOMPARE(view.tabs()->currentWidget(), console);
        editor->answerField()->setPlainText("Hayır, canlı hayvan satmıyoruz.");
        QVERIFY(editor->save());
        QVERIFY(answered.wait(10000));
        QCOMPARE(console->replyText()->toPlainText(), QString("Hayır, canlı hayvan satmıyoruz."));
    }

    void suggestionsAreListedAcceptedAndDismissed()
    {
        entry("Kargo ücreti ne kadar?", "tr", "faq", {"kargo"});
        entry("İade süresi kaç gün?", "tr", "faq", {"iade"});
        // One question asked three times (in two wordings), another twice, one in English, a greeting (no
        // words to group) and a question answered: three suggestions, most asked first.
        const AiAnswer gift1 = handedOff("Hediye paketi yapıyor musunuz?");
        const AiAnswer gift2 = handedOff("hediye paketi yapiyor musunuz");
        const AiAnswer gift3 = handedOff("Hediye paketi yapıyor musunuz", "tr", "low_confidence");
        const AiAnswer plant1 = handedOff("Canlı bitki gönderiyor musunuz?");
        const AiAnswer plant2 = handedOff("Canlı bitki gönderiyor musunuz?");
        const AiAnswer sofa = handedOff("Do you sell sofas?", "en");
        handedOff("Merhaba");
        answered("Kargo ücreti ne kadar?", KnowledgeRepository(desk()).list({}).items.last(), 0.9);
        auto index = std::make_shared<KnowledgeIndex>();
        AssistantView view(desk(), index);
        SuggestionsPanel *panel = view.suggestions();
        QSignalSpy listed(panel, &SuggestionsPanel::listed);
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(listed.size(), 0); // read when first shown, not before
        view.tabs()->setCurrentWidget(panel);
        QVERIFY(listed.wait(10000));
        QTableWidget *table = panel->table();
        QCOMPARE(rows(table), QStringList({"Hediye paketi yapıyor musunuz", "Canlı bitki gönderiyor musunuz?",
                                           "Do you sell sofas?"}));
        QCOMPARE(table->item(0, SuggestionsPanel::CountColumn)->text(), QString("3"));
        QCOMPARE(table->item(0, SuggestionsPanel::LanguageColumn)->text(), QString("Türkçe"));
        QCOMPARE(table->item(2, SuggestionsPanel::LanguageColumn)->text(), QString("English"));
        QCOMPARE(table->item(0, SuggestionsPanel::LastSeenColumn)->text(), UiKit::localTime(gift3.createdAt));
        QVERIFY(!panel->acceptButton()->isEnabled());
        QVERIFY(panel->selectSuggestion("sug_" + gift1.id));
        QVERIFY(panel->acceptButton()->isEnabled());
        QVERIFY2(panel->detailsLabel()->text().startsWith("Asked 3 time(s)"),
                 qPrintable(panel->detailsLabel()->text()));
        QVERIFY(panel->detailsLabel()->text().contains("“hediye paketi yapiyor musunuz”"));
        QVERIFY(panel->detailsLabel()->text().contains(AssistantText::handoffReason("low_confidence") + " (1)"));

        // Accept: the editor on the question, in its language, for the answer.
        click(panel->acceptButton());
        KnowledgeEditor *editor = panel->openEditor();
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(editor));
        QCOMPARE(editor->windowTitle(), QString("Answer a suggestion"));
        QCOMPARE(editor->questionField()->text(), QString("Hediye paketi yapıyor musunuz"));
        QCOMPARE(editor->languageCode(), QString("tr"));
        QVERIFY(editor->introLabel()->isVisible());
        QVERIFY(!editor->save()); // the answer is required, said at once
        QVERIFY(errorUnder(editor, "answer"));
        QCOMPARE(KnowledgeRepository(desk()).count(), 2);
        editor->questionField()->setText("Hediye paketi yapıyor musunuz?");
        editor->answerField()->setPlainText("Evet, sepette “Hediye paketi” seçeneğini işaretlemeniz yeterli.");
        editor->tagsField()->setText("hediye");
        QSignalSpy accepted(panel, &SuggestionsPanel::accepted);
        QVERIFY(editor->save());
        QVERIFY(editor->isSaving()); // written in the panel's thread, the dialog waiting
        QVERIFY(accepted.wait(10000));
        QTRY_VERIFY(!panel->openEditor());
        const KnowledgeEntry made = KnowledgeRepository(desk()).get(accepted.at(0).at(0).toString());
        QCOMPARE(made.question, QString("Hediye paketi yapıyor musunuz?"));
        QCOMPARE(made.language, QString("tr"));
        QCOMPARE(made.tags, QStringList({"hediye"}));
        QCOMPARE(made.createdBy, m_admin.id);
        for (const AiAnswer &a : {gift1, gift2, gift3})
            QCOMPARE(suggestionState(a), QString("accepted"));
        QTRY_COMPARE(rows(table), QStringList({"Canlı bitki gönderiyor musunuz?", "Do you sell sofas?"}));
        QCOMPARE(panel->statusLabel()->text(), QString("Entry saved: the assistant answers these questions now."));

        // Dismiss, after a question where the view has no undo bar; the same question asked again
        // stays off the list.
        QVERIFY(panel->selectSuggestion("sug_" + plant1.id));
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Delete);
        auto *box = modal<QMessageBox>();
        QVERIFY(box);
        QVERIFY(box->text().contains("Canlı bitki gönderiyor musunuz?"));
        QSignalSpy dismissed(panel, &SuggestionsPanel::dismissed);
        click(box->button(QMessageBox::Yes));
        QVERIFY(dismissed.wait(10000));
        QCOMPARE(suggestionState(plant1), QString("dismissed"));
        QCOMPARE(suggestionState(plant2), QString("dismissed"));
        QTRY_COMPARE(rows(table), QStringList({"Do you sell sofas?"}));
        handedOff("canlı bitki gönderiyor musunuz");
        listed.clear();
        QVERIFY(listed.wait(10000));
        QCOMPARE(rows(table), QStringList({"Do you sell sofas?"}));
        QCOMPARE(suggestionState(sofa), QString());

        // A page holds 50: the 51st and 52nd on the next.
        const QStringList syllables{"ka", "lo", "mi", "ru", "se", "tu", "ve", "zo"};
        for (int i = 0; i < 52; ++i)
            handedOff(QStringLiteral("%1%2%3 modeli var mı?")
                          .arg(syllables.at(i % 8), syllables.at(i / 8 % 8), syllables.at((i + 3) % 8)));
        QTRY_VERIFY(panel->pager()->pageLabel()->text() == "1–50 of 53");
        click(panel->pager()->nextButton());
        QCOMPARE(table->rowCount(), 3);
    }

    // In the window, a dismissal waits for the undo bar: Undo brings the row back; the offer's end
    // dismisses it in the database.
    void dismissingInTheWindowOffersUndo()
    {
        const AiAnswer gift = handedOff("Hediye paketi yapıyor musunuz?");
        const AiAnswer sofa = handedOff("Do you sell sofas?", "en");
        handedOff("Do you sell sofas?", "en");
        ContactRepository contacts(desk());
        ApiKeyRepository keys(desk());
        ComposedWindow window(contacts, keys, desk());
        AssistantView *view = addAssistantArea(window, desk(), std::make_shared<KnowledgeIndex>());
        window.showArea(view);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SuggestionsPanel *panel = view->suggestions();
        QSignalSpy listed(panel, &SuggestionsPanel::listed);
        view->tabs()->setCurrentWidget(panel);
        QVERIFY(listed.wait(10000));
        QCOMPARE(rows(panel->table()), QStringList({"Do you sell sofas?", "Hediye paketi yapıyor musunuz?"}));
        QVERIFY(panel->selectSuggestion("sug_" + sofa.id));
        click(panel->dismissButton());
        QVERIFY(!modal<QMessageBox>());
        QCOMPARE(rows(panel->table()), QStringList({"Hediye paketi yapıyor musunuz?"}));
        UndoBar *bar = UndoBar::of(panel);
        QVERIFY(bar && bar->hasOffer());
        QVERIFY(bar->label()->text().contains("Do you sell sofas?"));
        click(bar->undoButton());
        QCOMPARE(rows(panel->table()), QStringList({"Do you sell sofas?", "Hediye paketi yapıyor musunuz?"}));
        QCOMPARE(panel->currentSuggestionId(), "sug_" + sofa.id);
        QCOMPARE(suggestionState(sofa), QString());

        QSignalSpy dismissed(panel, &SuggestionsPanel::dismissed);
        click(panel->dismissButton());
        bar->commitPending(); // the offer's time is up
        QVERIFY(dismissed.wait(10000));
        QCOMPARE(suggestionState(sofa), QString("dismissed"));
        QCOMPARE(suggestionState(gift), QString());
        QTRY_COMPARE(rows(panel->table()), QStringList({"Hediye paketi yapıyor musunuz?"}));
    }

    void statisticsShowTheFiguresOfTheRowsMade()
    {
        const User murat = UserRepository(Store(*m_bus)).create("murat@ornek.com.tr", "Murat Çelik", "agent", "x");
        const KnowledgeEntry shipping = entry("Kargo ücreti ne kadar?", "tr", "faq", {"kargo"});
        const KnowledgeEntry returns = entry("İade süresi kaç gün?", "tr", "faq", {"iade"});
        const AiAnswer a1 = answered("kargo ücreti ne kadar", shipping, 0.8);
        answered("Kargo kaç para?", shipping, 0.8);
        const AiAnswer a3 = answered("kargo ücreti", shipping, 0.8);
        const AiAnswer r1 = answered("iade kaç gün", returns, 0.6);
        handedOff("Hediye paketi yapıyor musunuz?");                               // 0.05
        handedOff("Bir temsilciyle görüşmek istiyorum", "tr", "customer_request"); // 0.2
        thumbs(a1, 1, m_admin.id);
        thumbs(a3, -1, murat.id);
        thumbs(r1, -1, m_admin.id);
        // One more 40 days ago: in the last 90 days, not in the last 30.
        FakeClock past(QDateTime::currentDateTimeUtc().addDays(-40));
        handedOff("Eski bir soru", "tr", "missing_knowledge", &past);

        AssistantView view(desk(), std::make_shared<KnowledgeIndex>());
        view.setTimeZone(QTimeZone("Europe/Istanbul"));
        AssistantStatsPanel *stats = view.statistics();
        QSignalSpy shown(stats, &AssistantStatsPanel::shown);
        view.resize(1366, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.tabs()->setCurrentWidget(stats);
        QVERIFY(shown.wait(10000));
        QCOMPARE(stats->days(), 30);
        QCOMPARE(stats->figure("total")->text(), QString("6"));
        QCOMPARE(stats->figure("answered")->text(), QString("4"));
        QCOMPARE(stats->figureNote("answered")->text(), QString("rate: 66.7 %"));
        QCOMPARE(stats->figure("handedOff")->text(), QString("2"));
        QCOMPARE(stats->figureNote("handedOff")->text(), QString("rate: 33.3 %"));
        // (0.8 × 3 + 0.6 + 0.05 + 0.2) / 6
        QCOMPARE(stats->figure("confidence")->text(), AssistantText::percent((0.8 * 3 + 0.6 + 0.05 + 0.2) / 6));
        QCOMPARE(stats->figure("feedback")->text(), QString("3"));
        QCOMPARE(stats->figureNote("feedback")->text(), "positive: " + AssistantText::percent(1.0 / 3));
        QCOMPARE(stats->figure("openSuggestions")->text(), QString("2")); // the gift, and the one of 40 days ago
        QCOMPARE(stats->figure("total")->accessibleName(), QString("Questions"));
        QVERIFY2(stats->statusLabel()->text().endsWith("in Europe/Istanbul"), qPrintable(stats->statusLabel()->text()));

        // Per day: 30 bars, today's answered and handed off.
        QCOMPARE(stats->dailyBars().size(), 30);
        QCOMPARE(stats->dailyBars().last(), qMakePair(4, 2));
        QCOMPARE(stats->shownStats()->daily.last().date,
                 QDateTime::currentDateTimeUtc().toTimeZone(QTimeZone("Europe/Istanbul")).date());
        auto *series = qobject_cast<QStackedBarSeries *>(stats->dailyChart()->chart()->series().value(0));
        QVERIFY(series);
        QCOMPARE(series->barSets().size(), 2);
        QCOMPARE(series->barSets().at(0)->at(29), 4.0);
        QCOMPARE(series->barSets().at(1)->at(29), 2.0);

        // The reasons by their names in the window's words.
        QTableWidget *reasons = stats->reasonsTable();
        QCOMPARE(reasons->rowCount(), 2);
        QCOMPARE(QSet<QString>({reasons->item(0, 0)->text(), reasons->item(1, 0)->text()}),
                 QSet<QString>({AssistantText::handoffReason("missing_knowledge"),
                                AssistantText::handoffReason("customer_request")}));
        QCOMPARE(reasons->item(0, 1)->text(), QString("1"));
        QCOMPARE(reasons->item(0, 2)->text(), AssistantText::percent(0.5));

        // The entries answered with most, and those with the worst feedback.
        QTableWidget *top = stats->topEntriesTable();
        QCOMPARE(top->rowCount(), 2);
        QCOMPARE(top->item(0, AssistantStatsPanel::EntryQuestionColumn)->text(), shipping.question);
        QCOMPARE(top->item(0, AssistantStatsPanel::EntryCountColumn)->text(), QString("3"));
        QCOMPARE(top->item(1, AssistantStatsPanel::EntryQuestionColumn)->text(), returns.question);
        QTableWidget *worst = stats->worstEntriesTable();
        QCOMPARE(worst->rowCount(), 2);
        QCOMPARE(worst->item(0, AssistantStatsPanel::EntryQuestionColumn)->text(), returns.question);
        QCOMPARE(worst->item(0, AssistantStatsPanel::EntryCountColumn)->text(), QString("1"));
        QCOMPARE(worst->item(0, AssistantStatsPanel::EntryPositiveColumn)->text(), QString("0"));
        QCOMPARE(worst->item(0, AssistantStatsPanel::EntryShareColumn)->text(), AssistantText::percent(1.0));
        QCOMPARE(worst->item(1, AssistantStatsPanel::EntryQuestionColumn)->text(), shipping.question);
        QCOMPARE(worst->item(1, AssistantStatsPanel::EntryShareColumn)->text(), AssistantText::percent(0.5));

        // A double-click opens the entry in the knowledge base's editor.
        const QRect cell = worst->visualItemRect(worst->item(0, AssistantStatsPanel::EntryQuestionColumn));
        QTest::mouseClick(worst->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(worst->viewport(), Qt::LeftButton, {}, cell.center());
        KnowledgeEditor *editor = view.knowledgeBase()->openEditor();
        QVERIFY(editor);
        QCOMPARE(editor->entryId(), returns.id);
        editor->close();

        // A question recorded meanwhile shows through the bus; the last 90 days hold the old one.
        shown.clear();
        answered("iade süresi", returns, 0.7);
        QVERIFY(shown.wait(10000));
        QCOMPARE(stats->figure("total")->text(), QString("7"));
        QCOMPARE(stats->dailyBars().last(), qMakePair(5, 2));
        stats->periodChoice()->setCurrentIndex(stats->periodChoice()->findData(90));
        QVERIFY(shown.wait(10000));
        QCOMPARE(stats->dailyBars().size(), 90);
        QCOMPARE(stats->figure("total")->text(), QString("8"));
        QCOMPARE(stats->figure("handedOff")->text(), QString("3"));
        QCOMPARE(stats->figureNote("total")->text(), QString("in the last 90 day(s)"));
    }

    void theAssistantSettingsAreFilledFromTheFileAndTheSecretStore()
    {
        SettingsFixture f;
        {
            auto p = f.page();
            QCOMPARE(p->field("ai/llmBaseUrl")->text(), QString());
            QCOMPARE(p->field("ai/llmModel")->text(), QString());
            QCOMPARE(p->timeoutBox()->value(), 20);
            QCOMPARE(p->thresholdBox("ai/answerThreshold")->value(), 0.3);
            QCOMPARE(p->thresholdBox("ai/marginThreshold")->value(), 0.02);
            for (const char *channel : {"whatsapp", "instagram", "telegram", "widget"})
                QCOMPARE(p->autoReplyBox(channel)->currentData().toString(), QString("off"));
            QCOMPARE(p->field("ai/name")->text(), QString("Asistan"));
            QCOMPARE(p->keyStateLabel()->text(), QString("No key is stored."));
            QVERIFY(!p->removeKeyButton()->isEnabled());
            // A screen reader reads each field by its row's label, in error cells too.
            QCOMPARE(p->field("ai/llmBaseUrl")->accessibleName(), QString("API base URL"));
            QCOMPARE(p->timeoutBox()->accessibleName(), QString("Timeout"));
            QCOMPARE(p->thresholdBox("ai/marginThreshold")->accessibleName(), QString("Margin threshold"));
            QCOMPARE(p->autoReplyBox("widget")->accessibleName(), QString("Website"));
            QCOMPARE(p->testButton()->text(), QString("Try the model"));
        }
        f.writeIni({{"ai/llmBaseUrl", "http://127.0.0.1:11434/v1"},
                    {"ai/llmModel", "qwen2.5:3b"},
                    {"ai/llmTimeoutSeconds", "45"},
                    {"ai/answerThreshold", "0.42"},
                    {"ai/autoReply/telegram", "suggest"},
                    {"ai/autoReply/widget", "ON"},
                    {"ai/name", "Lale"}});
        QVERIFY(f.secrets.write("ai.llmApiKey", "sk-gizli"));
        auto p = f.page();
        QCOMPARE(p->field("ai/llmBaseUrl")->text(), QString("http://127.0.0.1:11434/v1"));
        QCOMPARE(p->field("ai/llmModel")->text(), QString("qwen2.5:3b"));
        QCOMPARE(p->timeoutBox()->value(), 45);
        QCOMPARE(p->thresholdBox("ai/answerThreshold")->value(), 0.42);
        QCOMPARE(p->thresholdBox("ai/marginThreshold")->value(), 0.02);
        QCOMPARE(p->autoReplyBox("whatsapp")->currentData().toString(), QString("off"));
        QCOMPARE(p->autoReplyBox("telegram")->currentData().toString(), QString("suggest"));
        QCOMPARE(p->autoReplyBox("widget")->currentData().toString(), QString("on"));
        QCOMPARE(p->field("ai/name")->text(), QString("Lale"));
        // The key is never shown: the field is empty and masked, the page says one is stored.
        QCOMPARE(p->field("ai.llmApiKey")->text(), QString());
        QCOMPARE(p->field("ai.llmApiKey")->echoMode(), QLineEdit::PasswordEchoOnEdit);
        QCOMPARE(p->keyStateLabel()->text(), QString("A key is stored; type another to replace it."));
        QCOMPARE(p->values().value("ai.llmApiKey"), QString("sk-gizli"));
    }

    void theAssistantSettingsRefuseBadValuesUnderTheirFieldsInTurkish()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        SettingsFixture f;
        auto p = f.page();
        p->field("ai/llmBaseUrl")->setText("http://llm.ornek.com.tr/v1");
        p->thresholdBox("ai/answerThreshold")->setValue(1.5);
        QVERIFY(!p->save());
        // Both at once, each under its field, in the window's language.
        QCOMPARE(p->errorLabel("ai/llmBaseUrl")->text(),
                 QString("Https olmalı (http yalnızca bu makinedeki bir adreste); girilen "
                         "\"http://llm.ornek.com.tr/v1\": şifresiz http yalnızca bu makinedeki (loopback) bir adreste "
                         "kullanılabilir"));
        QVERIFY(p->errorLabel("ai/llmBaseUrl")->isVisible());
        QCOMPARE(p->errorLabel("ai/answerThreshold")->text(), QString("0 ile 1 arasında bir sayı olmalı"));
        QVERIFY(p->errorLabel("ai/answerThreshold")->isVisible());
        QVERIFY(!p->errorLabel("ai/marginThreshold")->isVisible());
        QVERIFY(p->saveResultLabel()->text().startsWith("Kaydedilmedi: "));
        QVERIFY(!QFile::exists(f.settings.iniPath()));
        // The same rules refuse the same values in the settings file, in English.
        QString why;
        QVERIFY(f.settings.addOverride("ai/llmBaseUrl=http://llm.ornek.com.tr/v1", &why));
        QVERIFY(f.settings.addOverride("ai/answerThreshold=1.5", &why));
        LanguageModelConfig model;
        QVERIFY(!f.settings.languageModelConfig(&model, &why));
        QVERIFY2(why.startsWith("setting ai/llmBaseUrl must be https (http only on a loopback address)"),
                 qPrintable(why));
        AssistantThresholds thresholds;
        QVERIFY(!f.settings.assistantThresholds(&thresholds, &why));
        QCOMPARE(why, QString("setting ai/answerThreshold must be a number from 0 to 1"));
        // Corrected, the labels go.
        p->field("ai/llmBaseUrl")->setText("http://127.0.0.1:8080/v1");
        p->thresholdBox("ai/answerThreshold")->setValue(0.45);
        QVERIFY(p->save());
        QVERIFY(!p->errorLabel("ai/llmBaseUrl")->isVisible());
        QVERIFY(!p->errorLabel("ai/answerThreshold")->isVisible());
        QCOMPARE(f.ini("ai/answerThreshold"), QString("0.45"));
    }

    void theAssistantSettingsAreSavedToTheFileAndTheSecretStore()
    {
        SettingsFixture f;
        auto p = f.page();
        p->field("ai/llmBaseUrl")->setText("https://llm.ornek.com.tr/v1/");
        QTest::keyClicks(p->field("ai/llmModel"), "qwen2.5-7b-instruct");
        QTest::keyClicks(p->field("ai.llmApiKey"), "sk-yeni");
        QCOMPARE(p->keyStateLabel()->text(), QString("The key typed above is stored when you save."));
        p->timeoutBox()->setValue(45);
        p->thresholdBox("ai/answerThreshold")->setValue(0.35);
        p->thresholdBox("ai/marginThreshold")->setValue(0.05);
        choose(p->autoReplyBox("whatsapp"), "on");
        choose(p->autoReplyBox("widget"), "suggest");
        p->field("ai/name")->setText("Lale");
        click(p->saveButton());
        QVERIFY2(p->saveResultLabel()->text().contains("next start"), qPrintable(p->saveResultLabel()->text()));
        QCOMPARE(f.ini("ai/llmBaseUrl"), QString("https://llm.ornek.com.tr/v1/"));
        QCOMPARE(f.ini("ai/llmModel"), QString("qwen2.5-7b-instruct"));
        QCOMPARE(f.ini("ai/llmTimeoutSeconds"), QString("45"));
        QCOMPARE(f.ini("ai/answerThreshold"), QString("0.35"));
        QCOMPARE(f.ini("ai/marginThreshold"), QString("0.05"));
        QCOMPARE(f.ini("ai/autoReply/whatsapp"), QString("on"));
        QCOMPARE(f.ini("ai/autoReply/instagram"), QString("off"));
        QCOMPARE(f.ini("ai/autoReply/widget"), QString("suggest"));
        QCOMPARE(f.ini("ai/name"), QString("Lale"));
        QVERIFY(f.ini("ai.llmApiKey").isEmpty()); // a secret never lands in the ini file
        QCOMPARE(f.secrets.read("ai.llmApiKey").value_or(QByteArray()), QByteArray("sk-yeni"));
        QCOMPARE(p->field("ai.llmApiKey")->text(), QString());
        QCOMPARE(p->keyStateLabel()->text(), QString("A key is stored; type another to replace it."));

        // What the page saved is what the server and the inbox read at the next start.
        const AppSettings next(f.dir.path());
        QString why;
        LanguageModelConfig model;
        QVERIFY2(next.languageModelConfig(&model, &why), qPrintable(why));
        QCOMPARE(model.baseUrl, QString("https://llm.ornek.com.tr/v1"));
        QCOMPARE(model.model, QString("qwen2.5-7b-instruct"));
        QCOMPARE(model.timeoutSeconds, 45);
        AssistantThresholds thresholds;
        QVERIFY2(next.assistantThresholds(&thresholds, &why), qPrintable(why));
        QCOMPARE(thresholds.answer, 0.35);
        QCOMPARE(thresholds.margin, 0.05);
        AutoReplyConfig autoReply;
        QVERIFY2(next.autoReplyConfig(&autoReply, &why), qPrintable(why));
        QCOMPARE(autoReply.mode("whatsapp"), QString("on"));
        QCOMPARE(autoReply.mode("telegram"), QString("off"));
        QCOMPARE(autoReply.mode("widget"), QString("suggest"));
        QCOMPARE(autoReply.name, QString("Lale"));

        // Removing the stored key removes it from the store at the next save.
        click(p->removeKeyButton());
        QCOMPARE(p->keyStateLabel()->text(), QString("No key is stored."));
        QVERIFY(p->save());
        QVERIFY(!f.secrets.read("ai.llmApiKey").has_value());
    }

    void tryingTheModelAsksItInAThreadOfItsOwn()
    {
        FakeLanguageModel fake;
        SettingsFixture f;
        f.writeIni({{"ai/llmBaseUrl", fake.baseUrl()}, {"ai/llmModel", "qwen2.5-3b-instruct"}});
        QVERIFY(f.secrets.write("ai.llmApiKey", "sk-test"));
        auto p = f.page();
        click(p->testButton());
        QVERIFY(!p->testButton()->isEnabled()); // one question at a time, the window free meanwhile
        QTRY_VERIFY_WITH_TIMEOUT(p->testButton()->isEnabled(), 15000);
        QCOMPARE(fake.requests.size(), 1);
        QCOMPARE(fake.requests.last().path, QByteArray("/v1/chat/completions"));
        QCOMPARE(fake.requests.last().header("Authorization"), QByteArray("Bearer sk-test"));
        const QJsonObject body = QJsonDocument::fromJson(fake.requests.last().body).object();
        QCOMPARE(body.value("model").toString(), QString("qwen2.5-3b-instruct"));
        const QJsonArray messages = body.value("messages").toArray();
        QCOMPARE(messages.last().toObject().value("content").toString(), AssistantPage::testQuestion().question);
        QVERIFY(messages.first().toObject().value("content").toString().contains(
            AssistantPage::testQuestion().entryAnswer));
        QVERIFY2(p->testResultLabel()->text().startsWith("The model answered in "),
                 qPrintable(p->testResultLabel()->text()));
        QVERIFY(p->testResultLabel()->text().endsWith(": “Evet, cumartesi 10:00 ile 16:00 arası açığız.”"));

        // Its decline (a threshold being typed wrong elsewhere does not stop the model's test), then an
        // error status with a key typed here (not saved): what the form holds is what is tried.
        fake.content = "HANDOFF";
        p->thresholdBox("ai/marginThreshold")->setValue(2);
        click(p->testButton());
        QTRY_VERIFY_WITH_TIMEOUT(p->testButton()->isEnabled(), 15000);
        QVERIFY2(p->testResultLabel()->text().contains("would hand the question to a person"),
                 qPrintable(p->testResultLabel()->text()));
        QCOMPARE(fake.requests.size(), 2);
        fake.status = 401;
        fake.content = "invalid api key";
        p->field("ai.llmApiKey")->setText("sk-yanlis");
        click(p->testButton());
        QTRY_VERIFY_WITH_TIMEOUT(p->testButton()->isEnabled(), 15000);
        QCOMPARE(fake.requests.last().header("Authorization"), QByteArray("Bearer sk-yanlis"));
        QCOMPARE(p->testResultLabel()->text(), QString("No answer from the model: HTTP 401: invalid api key"));

        // Without a base URL nothing is asked, and the field says why.
        p->field("ai/llmBaseUrl")->clear();
        click(p->testButton());
        QVERIFY(p->errorLabel("ai/llmBaseUrl")->isVisible());
        QCOMPARE(p->testResultLabel()->text(), QString("Not asked: no language model is set up."));
        QCOMPARE(fake.requests.size(), 3);
    }

    void theAssistantPageIsWholeInTurkish()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        SettingsDialog dialog;
        auto *p = new AssistantPage;
        dialog.addPage(AssistantPage::tr("Assistant"), p);
        QVERIFY(dialog.showPage("assistantPage"));
        dialog.resize(820, 700);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCoreApplication::processEvents();
        const QStringList cut = clippedControls(&dialog);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("; ")));
    }

    void nothingIsCutInTurkishAt1366AndOnALargeScreen()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        const QFont font = QApplication::font();
        Theme::instance().setChoice(Theme::Choice::Light);
        QFont body = font;
        body.setPointSizeF(qMax(body.pointSizeF(), UiKit::kMinBodyPoints));
        QApplication::setFont(body);
        const auto restoreFont = qScopeGuard([font] { QApplication::setFont(font); });
        QFile knowledge(qEnvironmentVariable("LIAISON_SOURCE_DIR") + "/tests/data/assistant/knowledge.csv");
        QVERIFY(knowledge.open(QIODevice::ReadOnly));
        KnowledgeRepository(desk()).importCsv(knowledge.readAll());
        // Questions for the suggestions and the statistics: long ones too, answered and rated.
        const QVector<KnowledgeEntry> entries = KnowledgeRepository(desk()).list({}).items;
        for (int i = 0; i < 12; ++i) {
            const AiAnswer a = answered(entries.at(i % 5).question, entries.at(i % 5), 0.5 + i * 0.03);
            thumbs(a, i % 3 == 0 ? -1 : 1, m_admin.id);
        }
        for (const char *q :
             {"Mağazanızda engelli rampası var mı, tekerlekli sandalyeyle girişte basamak ya da dar bir "
              "kapı olursa bir görevli yardımcı olabiliyor mu?",
              "Köpeğimle mağazaya gelebilir miyim?", "Köpeğimle mağazaya gelebilir miyim",
              "Bulaşık makinesi satıyor musunuz?"})
            handedOff(QString::fromUtf8(q));
        handedOff("Bir temsilciyle görüşmek istiyorum", "tr", "customer_request");
        handedOff("Können Sie mir helfen?", "de", "unsupported_language");
        ContactRepository contacts(desk());
        ApiKeyRepository keys(desk());
        ComposedWindow window(contacts, keys, desk());
        AssistantView *view = addAssistantArea(window, desk(), std::make_shared<KnowledgeIndex>());
        window.showArea(view);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto whole = [](QWidget *root, const QString &where) {
            QCoreApplication::processEvents();
            for (int i = 0; i < 3; ++i) // a layout nested in another settles one level a round
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            const QStringList cut = clippedControls(root);
            QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1 (%2 pixels wide): %3")
                                                   .arg(where)
                                                   .arg(root->width())
                                                   .arg(cut.join(QStringLiteral("; ")))));
        };
        const QString navigation = window.navigation()->item(window.currentArea())->text();
        QCOMPARE(navigation, QString("Asistan"));
        QCOMPARE(view->tabs()->tabText(0), QString("Bilgi bankası"));
        QCOMPARE(view->tabs()->tabText(1), QString("Test konsolu"));
        QCOMPARE(view->tabs()->tabText(2), QString("Öneriler"));
        QCOMPARE(view->tabs()->tabText(3), QString("İstatistikler"));
        AssistantTestConsole *console = view->testConsole();
        QSignalSpy answered(console, &AssistantTestConsole::answered);
        QSignalSpy listed(view->suggestions(), &SuggestionsPanel::listed);
        QSignalSpy figures(view->statistics(), &AssistantStatsPanel::shown);
        for (const QSize size : {QSize(1366, 690), QSize(1920, 1000)}) {
            window.resize(size);
            view->tabs()->setCurrentIndex(0);
            whole(view, "the knowledge base");
            view->tabs()->setCurrentWidget(view->suggestions());
            QVERIFY(!listed.isEmpty() || listed.wait(10000));
            QVERIFY(view->suggestions()->table()->rowCount() >= 1);
            view->suggestions()->table()->selectRow(0);
            whole(view, "the suggestions");
            view->tabs()->setCurrentWidget(view->statistics());
            QVERIFY(!figures.isEmpty() || figures.wait(10000));
            QCOMPARE(view->statistics()->figure("total")->text(), QString("18"));
            QCOMPARE(view->statistics()->figureNote("answered")->text(), "oran: %" + QLocale().toString(66.7, 'f', 1));
            whole(view, "the statistics");
            view->tabs()->setCurrentWidget(console);
            console->questionField()->setText("İade süresi kaç gün?");
            console->ask();
            QVERIFY(answered.wait(10000));
            whole(view, "the console with a reply");
            console->questionField()->setText("Uzay mekiği kiralıyor musunuz?");
            console->ask();
            QVERIFY(answered.wait(10000));
            whole(view, "the console handing off");
        }
        view->tabs()->setCurrentIndex(0);
        view->knowledgeBase()->selectEntry(UiKit::selectedId(view->knowledgeBase()->table()));
        view->knowledgeBase()->table()->selectRow(0);
        view->knowledgeBase()->editEntry();
        KnowledgeEditor *editor = view->knowledgeBase()->openEditor();
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(editor));
        QVERIFY(editor->width() <= 1366 && editor->height() <= 768);
        whole(editor, "the editor");
        editor->questionField()->clear();
        QVERIFY(!editor->save());
        whole(editor, "the editor with a refusal");
        editor->close();
        view->tabs()->setCurrentWidget(view->suggestions());
        view->suggestions()->table()->selectRow(0);
        view->suggestions()->acceptSuggestion();
        editor = view->suggestions()->openEditor();
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(editor));
        QCOMPARE(editor->windowTitle(), QString("Öneriyi yanıtla"));
        whole(editor, "the editor of a suggestion");
        editor->close();
    }
};

QTEST_MAIN(TestAssistantView)
#include "test_assistantview.moc"
