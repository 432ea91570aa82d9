// A data directory whose database cannot be served, as the real executable ($LIAISON_BINARY) meets
// it: a page overwritten, bytes changed mid-file, a zero-length liaison.db, a read-only data
// directory. `liaison serve` refuses to start (exit code 1, a line that names the file or folder and
// says what to do) instead of serving and then answering 500, or taking the empty file for a new
// database; `liaison db check` runs SQLite's integrity_check and reports it (exit code 1); the window
// shows a message in Turkish and waits for the user instead of crashing or opening on no data. The
// file is left as it was found.
#include "app/startfailure.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "tests/support/serveprocess.h"
#include "tests/support/testsupport.h"
#include "tests/support/virtualdisplay.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

#include <csignal>
#include <unistd.h>

namespace {
constexpr qint64 kPageSize = 4096;

// 300 contacts written through the model, then every connection closed (the WAL is folded into
// the file). Returns the root page of the contacts table.
int seed(const QString &dataDir)
{
    Database::setPath(QDir(dataDir).filePath(QStringLiteral("liaison.db")));
    Database::migrate();
    ContactRepository contacts(testStore());
    {
        Transaction tx;
        for (int i = 0; i < 300; ++i)
            contacts.create(ContactRules::parse({{"firstName", QStringLiteral("Kişi %1").arg(i)},
                                                 {"lastName", "Yılmaz"},
                                                 {"email", QStringLiteral("kisi%1@ornek.com.tr").arg(i)},
                                                 {"company", QStringLiteral("Firma %1 A.Ş.").arg(i % 17)},
                                                 {"tags", QJsonArray{"müşteri"}}}));
        tx.commit();
    }
    QSqlQuery q = Database::exec(QStringLiteral("SELECT rootpage FROM sqlite_master WHERE name = 'contacts'"));
    const int root = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    Database::closeThreadConnection();
    return root;
}

bool overwrite(const QString &file, qint64 offset, const QByteArray &bytes)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadWrite) || !f.seek(offset))
        return false;
    return f.write(bytes) == bytes.size();
}

// The first b-tree page from the middle of the file on (its first byte is a page type).
qint64 middleBtreePage(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const qint64 pages = f.size() / kPageSize;
    for (qint64 page = pages / 2; page < pages; ++page) {
        f.seek(page * kPageSize);
        char type = 0;
        f.getChar(&type);
        if (type == 0x02 || type == 0x05 || type == 0x0a || type == 0x0d)
            return page;
    }
    return -1;
}

QByteArray digest(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

QString turkishQm()
{
    const QString binary = qEnvironmentVariable("LIAISON_BINARY");
    const QString qm = QDir::cleanPath(QFileInfo(binary).absolutePath() + "/../app/liaison_tr.qm");
    return QFileInfo::exists(qm) ? qm : QString();
}
} // namespace

class TestDamagedDatabase : public QObject
{
    Q_OBJECT

private:
    QString m_binary;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_file;
    QString m_mounted; // a read-only bind mount to undo
    std::unique_ptr<VirtualDisplay> m_display;

    // Runs a command of the executable on the data directory (bounded): exit code and stderr.
    std::pair<int, QString> run(const QStringList &args)
    {
        QProcess p;
        p.start(m_binary, QStringList(args) << QStringLiteral("--data-dir") << m_dir->path());
        if (!p.waitForStarted(10000) || !p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished(5000);
            return {-1, QStringLiteral("did not end")};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
                QString::fromUtf8(p.readAllStandardError() + p.readAllStandardOutput())};
    }

    // Damages (or locks) the data directory as the row says; QSKIP when it cannot be done here.
    void prepare(const QString &damage)
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_file = m_dir->filePath(QStringLiteral("liaison.db"));
        const int root = seed(m_dir->path());
        QVERIFY(root > 1);
        if (damage == QLatin1String("page overwritten")) {
            QVERIFY(overwrite(m_file, (root - 1) * kPageSize, QByteArray(kPageSize, char(0xa5))));
        } else if (damage == QLatin1String("bytes changed mid-file")) {
            const qint64 page = middleBtreePage(m_file);
            QVERIFY(page > 0);
            QVERIFY(overwrite(m_file, page * kPageSize, QByteArray(16, char(0xff))));
        } else if (damage == QLatin1String("index entry changed")) {
            // The last bytes of an index's root page: a row id of one entry. Every page is still
            // well formed (quick_check: ok); the index no longer matches its table.
            Database::setPath(m_file);
            QSqlQuery q = Database::exec(QStringLiteral("SELECT rootpage FROM sqlite_master WHERE name = ?"),
                                         {QStringLiteral("contacts_created")});
            const qint64 index = q.next() ? q.value(0).toLongLong() : 0;
            q.finish();
            Database::closeThreadConnection();
            QVERIFY(index > 1);
            QVERIFY(overwrite(m_file, index * kPageSize - 2, QByteArray("\x7f\x7f", 2)));
            QVERIFY(DatabaseCheck::run(m_file, DatabaseCheck::Depth::Quick).ok());
            QVERIFY(!DatabaseCheck::run(m_file, DatabaseCheck::Depth::Integrity).ok());
        } else if (damage == QLatin1String("zero-length file")) {
            QVERIFY(QFile(m_file).resize(0));
        } else if (damage == QLatin1String("read-only data directory")) {
            QVERIFY(QFile::setPermissions(m_dir->path(), QFile::ReadOwner | QFile::ExeOwner));
            if (::access(QFile::encodeName(m_dir->path()).constData(), W_OK) == 0) {
                // root writes anywhere a permission allows: a read-only bind mount does bind it.
                QProcess mount;
                mount.start(QStringLiteral("sh"), {QStringLiteral("-c"),
                                                   QStringLiteral("mount --bind \"$0\" \"$0\" && mount -o "
                                                                  "remount,ro,bind \"$0\""),
                                                   m_dir->path()});
                if (!mount.waitForFinished(10000) || mount.exitCode() != 0) {
                    QFile::setPermissions(m_dir->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
                    QSKIP("running as root without the right to mount: a read-only directory cannot be made here");
                }
                m_mounted = m_dir->path();
            }
        }
    }

    static void addRows()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("says");  // in the line on stderr
        QTest::addColumn<bool>("namesDir"); // the line names the folder, not the file
        QTest::newRow("page overwritten") << "page overwritten"
                                          << "is damaged" << false;
        QTest::newRow("bytes changed mid-file") << "bytes changed mid-file"
                                                << "is damaged" << false;
        QTest::newRow("index entry changed") << "index entry changed"
                                             << "is damaged" << false;
        QTest::newRow("zero-length file") << "zero-length file"
                                          << "is empty (0 bytes)" << false;
        QTest::newRow("read-only data directory") << "read-only data directory"
                                                  << "is read-only" << true;
    }

    QString named(bool namesDir) const { return namesDir ? m_dir->path() : m_file; }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(QFile::exists(m_binary), "LIAISON_BINARY must name the built liaison executable");
    }

    void cleanup()
    {
        if (!m_mounted.isEmpty()) {
            QProcess::execute(QStringLiteral("umount"), {m_mounted});
            m_mounted.clear();
        }
        if (m_dir)
            QFile::setPermissions(m_dir->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        m_dir.reset();
    }

    void cleanupTestCase() { m_display.reset(); }

    void serveRefusesToStart_data() { addRows(); }
    void serveRefusesToStart()
    {
        QFETCH(QString, damage);
        QFETCH(QString, says);
        QFETCH(bool, namesDir);
        prepare(damage);
        const QByteArray before = digest(m_file);
        ServeTest::ServeProcess server(m_binary, m_dir->path(), ServeTest::freePort());
        QVERIFY2(!server.start(), server.describe().constData());
        QVERIFY(server.waitForExit());
        QCOMPARE(server.process().exitCode(), 1);
        const QString err = server.err();
        QVERIFY2(err.contains(says) && err.contains(named(namesDir)), server.describe().constData());
        if (says == QLatin1String("is damaged"))
            QVERIFY2(err.contains(QLatin1String(".recover")) && err.contains(QLatin1String("backup")), qPrintable(err));
        QCOMPARE(digest(m_file), before); // not migrated, not checkpointed into, not made new
    }

    void dbCheckReportsIt_data() { addRows(); }
    void dbCheckReportsIt()
    {
        QFETCH(QString, damage);
        QFETCH(QString, says);
        QFETCH(bool, namesDir);
        prepare(damage);
        const auto [code, output] = run({QStringLiteral("db"), QStringLiteral("check")});
        QCOMPARE(code, 1);
        QVERIFY2(output.contains(says) && output.contains(named(namesDir)), qPrintable(output));
        if (says == QLatin1String("is damaged"))
            QVERIFY2(output.contains(QLatin1String("integrity_check")), qPrintable(output));
        if (damage == QLatin1String("zero-length file"))
            QCOMPARE(QFileInfo(m_file).size(), 0);
    }

    // A healthy file: db check says integrity_check found it ok, with the time it took.
    void dbCheckReportsAHealthyFile()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        seed(m_dir->path());
        const auto [code, output] = run({QStringLiteral("db"), QStringLiteral("check")});
        QCOMPARE(code, 0);
        static const QRegularExpression ok(QStringLiteral("integrity_check: ok \\(\\d+ ms\\)"));
        QVERIFY2(ok.match(output).hasMatch(), qPrintable(output));
    }

    void windowShowsWhyAndWaits_data() { addRows(); }
    void windowShowsWhyAndWaits()
    {
        QFETCH(QString, damage);
        QFETCH(QString, says);
        QFETCH(bool, namesDir);
        if (!m_display)
            m_display = std::make_unique<VirtualDisplay>();
        QVERIFY2(!m_display->display().isEmpty(), "Xvfb did not start (Debian package xvfb)");
        prepare(damage);
        QProcess window;
        QProcessEnvironment env = m_display->programEnvironment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("tr_TR.UTF-8"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("tr_TR.UTF-8"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("tr"));
        window.setProcessEnvironment(env);
        window.setProcessChannelMode(QProcess::MergedChannels);
        window.start(m_binary, {QStringLiteral("--data-dir"), m_dir->path(), QStringLiteral("--set"),
                                QStringLiteral("server/listen=127.0.0.1:0")});
        QVERIFY(window.waitForStarted(10000));
        QByteArray said;
        QTRY_VERIFY_WITH_TIMEOUT(
            (said += window.readAll()).contains(says.toUtf8()) || window.state() == QProcess::NotRunning, 30000);
        QVERIFY2(window.state() == QProcess::Running, said.constData()); // its message waits for the user
        QVERIFY2(QString::fromUtf8(said).contains(named(namesDir)), said.constData());
        ::kill(pid_t(window.processId()), SIGTERM);
        QVERIFY(window.waitForFinished(15000));
        QCOMPARE(window.exitStatus(), QProcess::NormalExit);
        QCOMPARE(window.exitCode(), 1);
    }

    // The message the window shows, in Turkish, names the file or folder and says what to do.
    void windowMessageIsTranslated_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("turkish"); // a phrase of the translation
        QTest::newRow("damaged") << int(DatabaseFault::Damaged) << "hasarlı";
        QTest::newRow("empty") << int(DatabaseFault::EmptyFile) << "boş";
        QTest::newRow("read-only") << int(DatabaseFault::ReadOnly) << "salt okunur";
    }
    void windowMessageIsTranslated()
    {
        QFETCH(int, kind);
        QFETCH(QString, turkish);
        const QString qm = turkishQm();
        QVERIFY2(!qm.isEmpty(), "liaison_tr.qm not found: build the liaison target first");
        QTranslator translator;
        QVERIFY(translator.load(qm));
        QCoreApplication::installTranslator(&translator);
        DatabaseFault fault;
        fault.kind = DatabaseFault::Kind(kind);
        fault.path = QStringLiteral("/veri/liaison.db");
        fault.detail = QStringLiteral("database disk image is malformed");
        const StartFailureText words = startFailureText(QStringLiteral("english line"), fault);
        QCoreApplication::removeTranslator(&translator);
        QVERIFY2(words.text.contains(turkish, Qt::CaseInsensitive), qPrintable(words.text));
        QVERIFY2(words.informative.contains(fault.path), qPrintable(words.informative));
        QVERIFY2(!words.informative.contains(QLatin1String("Liaison does not")), qPrintable(words.informative));
        if (fault.kind == DatabaseFault::Damaged)
            QVERIFY2(words.informative.contains(QLatin1String(".recover")), qPrintable(words.informative));
    }
};

QTEST_GUILESS_MAIN(TestDamagedDatabase)
#include "test_damageddatabase.moc"
