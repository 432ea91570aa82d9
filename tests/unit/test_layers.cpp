// The layers of docs/architecture.md, read from the sources: each folder includes only the project
// folders below it. A change that reaches upwards (the model including messaging, messaging the
// HTTP server, the window the server) fails here rather than in a review.
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

struct Layer
{
    const char *folder;             // a folder of the repository (its subfolders included)
    QStringList mayInclude;         // project folders its #include "…" lines may name
    const char *exceptIn = "";      // a subfolder that belongs to another row (listed first)
    QStringList mayNotInclude = {}; // folders inside mayInclude that it must not name all the same
};

QList<Layer> layers()
{
    return {
        {"model", {"model/"}},
        {"messaging", {"messaging/", "model/"}},
        {"server/http", {"server/http/"}},
        {"server", {"server/", "messaging/", "model/"}, "server/http"},
        {"ui", {"ui/", "model/"}},
        // The app starts the server (server/apiserver.h, its configuration) but shares none of its
        // request handling: the window's account rules are the model's, as the API's are.
        {"app", {"app/", "ui/", "server/", "messaging/", "model/"}, "", {"server/controllers/", "server/api/"}},
        // The tests link what they test: a model test the model and its support library only
        // (liaison_modeltestsupport), a messaging test messaging and the loopback HTTPS fakes.
        {"tests/unit",
         {"model/", "tests/support/modelsupport.h", "tests/support/fakeclock.h", "tests/support/fulldisk.h"}},
        {"tests/messaging",
         {"messaging/", "model/", "server/http/", "tests/support/modelsupport.h", "tests/support/fakeclock.h",
          "tests/support/webhookreceiver.h", "tests/support/smtpsink.h", "tests/support/faketwilio.h"}},
    };
}

} // namespace

class TestLayers : public QObject
{
    Q_OBJECT

private slots:
    void includesPointDownwards_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QStringList>("mayInclude");
        QTest::addColumn<QString>("exceptIn");
        QTest::addColumn<QStringList>("mayNotInclude");
        for (const Layer &l : layers())
            QTest::newRow(l.folder) << QString::fromLatin1(l.folder) << l.mayInclude << QString::fromLatin1(l.exceptIn)
                                    << l.mayNotInclude;
    }
    void includesPointDownwards()
    {
        QFETCH(QString, folder);
        QFETCH(QStringList, mayInclude);
        QFETCH(QString, exceptIn);
        QFETCH(QStringList, mayNotInclude);
        const QString root = qEnvironmentVariable("LIAISON_SOURCE_DIR");
        QVERIFY2(!root.isEmpty(), "LIAISON_SOURCE_DIR is not set: run this test through CTest");
        static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s+\"([^\"]+)\""),
                                                QRegularExpression::MultilineOption);
        QStringList wrong;
        int files = 0;
        QDirIterator it(root + QLatin1Char('/') + folder, {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString relative = path.mid(root.size() + 1);
            if (!exceptIn.isEmpty() && relative.startsWith(exceptIn + QLatin1Char('/')))
                continue;
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            ++files;
            const QString text = QString::fromUtf8(f.readAll());
            auto m = include.globalMatch(text);
            while (m.hasNext()) {
                const QString target = m.next().captured(1);
                if (!target.contains(QLatin1Char('/')))
                    continue; // a moc file or a generated header
                const auto under = [&target](const QString &p) { return target.startsWith(p); };
                const bool allowed = std::any_of(mayInclude.cbegin(), mayInclude.cend(), under) &&
                                     std::none_of(mayNotInclude.cbegin(), mayNotInclude.cend(), under);
                if (!allowed)
                    wrong << relative + QStringLiteral(" includes ") + target;
            }
        }
        QVERIFY2(files > 0, qPrintable(QStringLiteral("no sources under %1").arg(folder)));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "test_layers.moc"
