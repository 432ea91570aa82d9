// The window keeps how the user arranged it: its size, the splitters and the table columns come
// back in a new window from the INI file, and a table whose columns changed keeps its defaults.

#include "tests/ui/uitest.h"

#include "tests/ui/windowfixture.h"
#include "ui/deals/pipelineboard.h"
#include "ui/shell/windowstate.h"

#include <QHeaderView>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

class TestWindowState final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<WindowFixture> m_fixture;
    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> window() { return m_fixture->window(); }

private slots:
    void init() { m_fixture = std::make_unique<WindowFixture>(); }
    void cleanup() { m_fixture.reset(); }

    void theArrangementComesBack()
    {
        // Within the screen (the offscreen platform's is 800 pixels wide), as a saved size is, but not
        // under the window's own minimum (the navigation with its icons and counts is wider than 800
        // pixels leave beside the contacts).
        QSize kSize = QSize(1100, 700).boundedTo(QGuiApplication::primaryScreen()->availableGeometry().size());
        const QString ini = m_dir.filePath("window.ini");
        QList<int> sizes;
        int emailWidth = 0;
        {
            auto w = window();
            kSize = kSize.expandedTo(w->minimumSizeHint());
            auto *state = new WindowState(w.get(), ini);
            state->restore(); // nothing saved yet: defaults
            w->resize(kSize);
            w->show();
            QVERIFY(QTest::qWaitForWindowExposed(w.get()));
            auto *splitter = w->findChild<QSplitter *>("contactsSplitter");
            QVERIFY(splitter);
            const int total = splitter->sizes().at(0) + splitter->sizes().at(1);
            splitter->setSizes({total - 400, 400});
            sizes = splitter->sizes();
            QHeaderView *header = w->findChild<QTableView *>("contactsTable")->horizontalHeader();
            header->resizeSection(1, 260);
            emailWidth = header->sectionSize(1);
            // The contact's Details, folded by default on this small screen, opened.
            auto *details = w->findChild<QToolButton *>("contactDetailsToggle");
            QVERIFY(details);
            QVERIFY(!details->isChecked());
            details->setChecked(true);
            w->close(); // saves
        }
        QVERIFY(QSettings(ini, QSettings::IniFormat).contains("window/geometry"));
        auto w = window();
        auto *state = new WindowState(w.get(), ini);
        state->restore();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QCOMPARE(w->size(), kSize);
        QCOMPARE(w->findChild<QSplitter *>("contactsSplitter")->sizes(), sizes);
        QCOMPARE(w->findChild<QTableView *>("contactsTable")->horizontalHeader()->sectionSize(1), emailWidth);
        QVERIFY(w->findChild<QToolButton *>("contactDetailsToggle")->isChecked());
        QSettings saved(ini, QSettings::IniFormat);
        saved.beginGroup("toggles");
        QVERIFY2(saved.allKeys().filter("contactDetailsToggle").size() == 1, qPrintable(saved.allKeys().join(' ')));
    }

    void theLastAreaComesBackAndTheWindowFitsTheScreen()
    {
        const QString ini = m_dir.filePath("area.ini");
        const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
        {
            auto w = window();
            (new WindowState(w.get(), ini))->restore();
            auto *board = w->findChild<PipelineBoard *>();
            QVERIFY(board);
            w->showArea(board);
            QCOMPARE(w->currentArea(), 1);
            w->show();
            QVERIFY(QTest::qWaitForWindowExposed(w.get()));
            w->resize(screen.width() + 60, screen.height() + 40); // as if a long text had widened it
            w->move(120, 90); // and further down and right than a smaller screen reaches
            w->close();
        }
        auto w = window();
        QCOMPARE(w->currentArea(), 0); // a new window starts on Contacts
        (new WindowState(w.get(), ini))->restore();
        QCOMPARE(w->currentArea(), 1);
        QCOMPARE(w->findChild<QStackedWidget *>("areaStack")->currentWidget(), w->findChild<PipelineBoard *>());
        QVERIFY2(w->width() <= screen.width() && w->height() <= screen.height(),
                 qPrintable(QStringLiteral("%1×%2").arg(w->width()).arg(w->height())));
        // Whole on the screen, not only as large as it.
        QVERIFY2(QGuiApplication::primaryScreen()->availableGeometry().contains(w->geometry()),
                 qPrintable(QStringLiteral("%1,%2 %3×%4").arg(w->x()).arg(w->y()).arg(w->width()).arg(w->height())));

        QSettings(ini, QSettings::IniFormat).setValue("window/area", 42); // an area this version lacks
        auto other = window();
        (new WindowState(other.get(), ini))->restore();
        QCOMPARE(other->currentArea(), 0);
    }

    void aFoldedChartStaysFolded()
    {
        const QString ini = m_dir.filePath("chart.ini");
        {
            auto w = window();
            (new WindowState(w.get(), ini))->restore();
            w->resize(1200, 800);
            w->show();
            QVERIFY(QTest::qWaitForWindowExposed(w.get()));
            auto *board = w->findChild<PipelineBoard *>();
            QVERIFY(board);
            w->showArea(board);
            QVERIFY(board->isChartVisible());
            board->setChartVisible(false);
            w->close();
        }
        auto w = window();
        (new WindowState(w.get(), ini))->restore();
        w->resize(1200, 800);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto *board = w->findChild<PipelineBoard *>();
        w->showArea(board);
        QTRY_VERIFY(!board->isChartVisible());
        QVERIFY(!board->findChild<QToolButton *>("chartToggle")->isChecked());
        board->setChartVisible(true);
        QVERIFY(board->isChartVisible());
        QVERIFY(board->findChild<QToolButton *>("chartToggle")->isChecked());
    }

    void aTableWhoseColumnsChangedKeepsItsDefaults()
    {
        const QString ini = m_dir.filePath("changed.ini");
        {
            auto w = window();
            WindowState(w.get(), ini).save();
        }
        QSettings file(ini, QSettings::IniFormat);
        const QStringList keys = file.allKeys().filter(QRegularExpression("contactsTable/columns$"));
        QCOMPARE(keys.size(), 1);
        const QString key = keys.first();
        file.setValue(key, 99); // as if saved by a version with other columns
        file.setValue(QString(key).replace("/columns", "/state"), QByteArray("garbage"));
        file.sync();
        auto w = window();
        const int before = w->findChild<QTableView *>("contactsTable")->horizontalHeader()->sectionSize(0);
        WindowState(w.get(), ini).restore();
        QCOMPARE(w->findChild<QTableView *>("contactsTable")->horizontalHeader()->sectionSize(0), before);
    }

    void anotherVersionsFileIsIgnored()
    {
        const QString ini = m_dir.filePath("old.ini");
        {
            QSettings file(ini, QSettings::IniFormat);
            file.setValue("version", 0);
            file.setValue("window/geometry", QByteArray("not a geometry"));
        }
        auto w = window();
        const QSize before = w->size();
        WindowState(w.get(), ini).restore();
        QCOMPARE(w->size(), before);
    }
};

QTEST_MAIN(TestWindowState)
#include "test_windowstate.moc"
