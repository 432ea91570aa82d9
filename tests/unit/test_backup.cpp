// Backups (model/backup): a backup made while another thread writes contacts holds every write
// acknowledged before it began, as one consistent state; a damaged or foreign file is refused with
// nothing changed; a restore refuses a data directory that holds data unless forced, and keeps
// what it replaces; the daily backup keeps backup/keep files. SQLite only (PostgreSQL is pg_dump's).
#include "model/backup/backup.h"
#include "model/backup/dailybackup.h"
#include "model/contacts/contact.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <mutex>

namespace {
Backup::Place placeIn(const QString &dir)
{
    return {dir, QDir(dir).filePath(QStringLiteral("liaison.db")), QDir(dir).filePath(QStringLiteral("media"))};
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The contacts' ids of a database file, read on a connection of the test's own.
QStringList contactIdsIn(const QString &file)
{
    QStringList ids;
    const QString name = QStringLiteral("backupcheck");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(file);
        if (db.open()) {
            QSqlQuery q(db);
            q.exec(QStringLiteral("SELECT id FROM contacts"));
            while (q.next())
                ids << q.value(0).toString();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return ids;
}

QString codeOf(const std::function<void()> &call)
{
    try {
        call();
    } catch (const DomainError &e) {
        return e.code();
    }
    return {};
}
} // namespace

class TestBackup : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    EventBus m_bus;

    QString dataDir() const { return m_dir->filePath(QStringLiteral("data")); }

    // A data directory with a migrated database of `contacts` contacts and two uploads.
    void makeDataDir(int contacts)
    {
        QDir().mkpath(dataDir());
        Database::setPath(placeIn(dataDir()).databaseFile);
        Database::migrate();
        const Store store(m_bus);
        ContactRepository repo(store);
        Transaction tx;
        for (int i = 0; i < contacts; ++i)
            repo.create(ContactRules::parse({{"firstName", QStringLiteral("Kişi %1").arg(i)},
                                             {"email", QStringLiteral("k%1@ornek.com.tr").arg(i)}}));
        tx.commit();
        QVERIFY(writeFile(QDir(dataDir()).filePath(QStringLiteral("media/media_one")), "first upload"));
        QVERIFY(writeFile(QDir(dataDir()).filePath(QStringLiteral("media/media_two")), QByteArray(70000, 'x')));
    }

    // A good backup of makeDataDir's directory.
    QString goodBackup()
    {
        makeDataDir(20);
        const QString file = m_dir->filePath(QStringLiteral("good.tar.gz"));
        Backup::create(placeIn(dataDir()), file);
        return file;
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }
    void cleanup()
    {
        Database::closeThreadConnection();
        m_dir.reset();
    }

    void restoresTheDatabaseAndTheMedia()
    {
        const QString file = goodBackup();
        const QString target = m_dir->filePath(QStringLiteral("restored"));
        const Backup::Restored r = Backup::restore(file, placeIn(target), false);
        QCOMPARE(r.mediaFiles, 2);
        QVERIFY(r.replacedDir.isEmpty());
        QCOMPARE(r.manifest.schemaVersion, Database::schemaVersion());
        QCOMPARE(contactIdsIn(QDir(target).filePath(QStringLiteral("liaison.db"))).size(), 20);
        QCOMPARE(readFile(QDir(target).filePath(QStringLiteral("media/media_one"))), QByteArray("first upload"));
        QCOMPARE(readFile(QDir(target).filePath(QStringLiteral("media/media_two"))), QByteArray(70000, 'x'));
        // Nothing of the work left behind.
        QCOMPARE(QDir(target).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList({QStringLiteral("liaison.db"), QStringLiteral("media")}));
    }

    // Another thread creates contacts one by one, each its own committed transaction, while the
    // backup runs. The copy holds every contact acknowledged before the backup began, and is one
    // moment of the database: the first k acknowledged, no gap.
    void holdsEveryAcknowledgedWriteUnderLoad()
    {
        makeDataDir(3000);
        const QString dbFile = placeIn(dataDir()).databaseFile;
        std::mutex lock;
        QStringList acknowledged;
        std::atomic<bool> stop{false};
        std::atomic<int> failures{0};
        QThread *writer = QThread::create([&] {
            Database::setPath(dbFile);
            const Store store(m_bus);
            ContactRepository repo(store);
            for (int i = 0; i < 20000 && !stop; ++i) {
                try {
                    const Contact c =
                        repo.create(ContactRules::parse({{"firstName", QStringLiteral("Yük %1").arg(i)},
                                                         {"email", QStringLiteral("y%1@ornek.com.tr").arg(i)}}));
                    const std::lock_guard<std::mutex> g(lock);
                    acknowledged << c.id;
                } catch (const std::exception &) {
                    ++failures;
                }
            }
            Database::closeThreadConnection();
        });
        writer->start();
        auto count = [&] {
            const std::lock_guard<std::mutex> g(lock);
            return acknowledged.size();
        };
        QTRY_VERIFY_WITH_TIMEOUT(count() >= 50, 30000);
        const QString file = m_dir->filePath(QStringLiteral("underload.tar.gz"));
        qsizetype before = 0;
        qsizetype after = 0;
        // Bounded: each backup with writes acknowledged while it ran (a fast machine may need a few).
        for (int round = 0; round < 5 && after <= before; ++round) {
            before = count();
            Backup::create(placeIn(dataDir()), file);
            after = count();
        }
        stop = true;
        QVERIFY(writer->wait(60000));
        delete writer;
        QCOMPARE(failures.load(), 0);
        QVERIFY2(after > before, "no write was acknowledged while the backup ran");

        const QString target = m_dir->filePath(QStringLiteral("restored"));
        Backup::restore(file, placeIn(target), false);
        const QStringList restored = contactIdsIn(QDir(target).filePath(QStringLiteral("liaison.db")));
        QSet<QString> inCopy(restored.cbegin(), restored.cend());
        const QStringList all = acknowledged;
        for (qsizetype i = 0; i < before; ++i)
            QVERIFY2(inCopy.contains(all.at(i)), qPrintable(QStringLiteral("acknowledged write %1 is missing").arg(i)));
        // One moment: of the load's contacts, the copy holds a prefix of the acknowledged order.
        const qsizetype loadInCopy = restored.size() - 3000;
        QVERIFY(loadInCopy >= before);
        for (qsizetype i = 0; i < all.size(); ++i)
            QCOMPARE(inCopy.contains(all.at(i)), i < loadInCopy);
    }

    void refusesADamagedOrForeignFile_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("code");
        QTest::newRow("cut at a quarter") << "cut:4"
                                          << "BACKUP_DAMAGED";
        QTest::newRow("cut at the half") << "cut:2"
                                         << "BACKUP_DAMAGED";
        QTest::newRow("last byte missing") << "cut:last"
                                           << "BACKUP_DAMAGED";
        QTest::newRow("bytes changed in the middle") << "flip:2"
                                                     << "BACKUP_DAMAGED";
        QTest::newRow("its checksum changed") << "flip:crc"
                                              << "BACKUP_DAMAGED";
        QTest::newRow("bytes added at the end") << "append"
                                                << "BACKUP_DAMAGED";
        QTest::newRow("empty file") << "empty"
                                    << "NOT_A_BACKUP";
        QTest::newRow("a text file") << "text"
                                     << "NOT_A_BACKUP";
        QTest::newRow("a gzip of something else") << "othergzip"
                                                  << "NOT_A_BACKUP";
    }
    void refusesADamagedOrForeignFile()
    {
        QFETCH(QString, damage);
        QFETCH(QString, code);
        const QString file = goodBackup();
        QByteArray bytes = readFile(file);
        QVERIFY(bytes.size() > 1000);
        if (damage == QLatin1String("cut:4"))
            bytes.truncate(bytes.size() / 4);
        else if (damage == QLatin1String("cut:2"))
            bytes.truncate(bytes.size() / 2);
        else if (damage == QLatin1String("cut:last"))
            bytes.chop(1);
        else if (damage == QLatin1String("flip:2")) {
            // Some bits of a deflate stream change nothing it holds (1 in 8 runs hit one when a
            // single byte was changed here): 16 bytes change the content for sure.
            for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 16; ++i)
                bytes[i] = char(bytes.at(i) ^ 0x5a);
        } else if (damage == QLatin1String("flip:crc"))
            bytes[bytes.size() - 8] = char(bytes.at(bytes.size() - 8) ^ 0x01); // gzip's CRC-32 of the content
        else if (damage == QLatin1String("append"))
            bytes.append("trailing bytes");
        else if (damage == QLatin1String("empty"))
            bytes.clear();
        else if (damage == QLatin1String("text"))
            bytes = "firstName,email\nAyşe,ayse@ornek.com.tr\n";
        else if (damage == QLatin1String("othergzip"))
            bytes = QByteArray::fromBase64("H4sIAAAAAAAC/8tIzcnJBwCGphA2BQAAAA=="); // gzip of "hello"
        const QString broken = m_dir->filePath(QStringLiteral("broken.tar.gz"));
        QVERIFY(writeFile(broken, bytes));

        // Into an empty directory: refused, and nothing left there.
        const QString target = m_dir->filePath(QStringLiteral("restored"));
        QCOMPARE(codeOf([&] { Backup::restore(broken, placeIn(target), false); }), code);
        QVERIFY(!QFileInfo::exists(QDir(target).filePath(QStringLiteral("liaison.db"))));
        QCOMPARE(QDir(target).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
        // Over data, forced: refused before anything is touched.
        Database::closeThreadConnection(); // its checkpoint first: then the file stays as it is
        const QByteArray dbBefore = readFile(placeIn(dataDir()).databaseFile);
        QCOMPARE(codeOf([&] { Backup::restore(broken, placeIn(dataDir()), true); }), code);
        QCOMPARE(readFile(placeIn(dataDir()).databaseFile), dbBefore);
        QCOMPARE(readFile(QDir(dataDir()).filePath(QStringLiteral("media/media_one"))), QByteArray("first upload"));
        QVERIFY(QDir(dataDir())
                    .entryList({QStringLiteral("replaced-*"), QStringLiteral(".restore-*")},
                               QDir::AllEntries | QDir::Hidden)
                    .isEmpty());
    }

    void refusesADirectoryThatHoldsDataUnlessForced()
    {
        const QString file = goodBackup();
        Database::closeThreadConnection();
        const QString target = m_dir->filePath(QStringLiteral("other"));
        QVERIFY(writeFile(QDir(target).filePath(QStringLiteral("liaison.db")), "not replaced"));
        QVERIFY(writeFile(QDir(target).filePath(QStringLiteral("liaison.db-wal")), "its log"));
        QVERIFY(writeFile(QDir(target).filePath(QStringLiteral("media/media_old")), "old upload"));
        QCOMPARE(codeOf([&] { Backup::restore(file, placeIn(target), false); }), QStringLiteral("DATA_DIR_NOT_EMPTY"));
        QCOMPARE(readFile(QDir(target).filePath(QStringLiteral("liaison.db"))), QByteArray("not replaced"));
        // Uploads alone count as data too.
        const QString mediaOnly = m_dir->filePath(QStringLiteral("mediaonly"));
        QVERIFY(writeFile(QDir(mediaOnly).filePath(QStringLiteral("media/media_x")), "x"));
        QCOMPARE(codeOf([&] { Backup::restore(file, placeIn(mediaOnly), false); }),
                 QStringLiteral("DATA_DIR_NOT_EMPTY"));

        const Backup::Restored r = Backup::restore(file, placeIn(target), true);
        QVERIFY(!r.replacedDir.isEmpty());
        QCOMPARE(readFile(QDir(r.replacedDir).filePath(QStringLiteral("liaison.db"))), QByteArray("not replaced"));
        QCOMPARE(readFile(QDir(r.replacedDir).filePath(QStringLiteral("liaison.db-wal"))), QByteArray("its log"));
        QCOMPARE(readFile(QDir(r.replacedDir).filePath(QStringLiteral("media/media_old"))), QByteArray("old upload"));
        QVERIFY(!QFileInfo::exists(QDir(target).filePath(QStringLiteral("liaison.db-wal"))));
        QVERIFY(!QFileInfo::exists(QDir(target).filePath(QStringLiteral("media/media_old"))));
        QCOMPARE(contactIdsIn(QDir(target).filePath(QStringLiteral("liaison.db"))).size(), 20);
    }

    void keepsTheNewestBackups_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<int>("keep");
        QTest::addColumn<QStringList>("deleted");
        const QStringList week{"liaison-2026-11-23-030000.tar.gz", "liaison-2026-11-24-030000.tar.gz",
                               "liaison-2026-11-25-030000.tar.gz", "liaison-2026-11-26-030000.tar.gz",
                               "liaison-2026-11-27-030000.tar.gz", "liaison-2026-11-28-030000.tar.gz",
                               "liaison-2026-11-29-030000.tar.gz"};
        QTest::newRow("fewer than keep") << week.mid(0, 3) << 7 << QStringList();
        QTest::newRow("as many as keep") << week << 7 << QStringList();
        QTest::newRow("keep 3 of 7") << week << 3 << week.mid(0, 4);
        QTest::newRow("keep 1") << week << 1 << week.mid(0, 6);
        QTest::newRow("keep 0: nothing deleted") << week << 0 << QStringList();
        QTest::newRow("two on one day") << QStringList{"liaison-2026-11-29-030000.tar.gz",
                                                       "liaison-2026-11-29-141500.tar.gz",
                                                       "liaison-2026-11-28-030000.tar.gz"}
                                        << 2 << QStringList{"liaison-2026-11-28-030000.tar.gz"};
        QTest::newRow("other files are not ours to delete")
            << QStringList{"liaison-2026-11-28-030000.tar.gz", "notes.txt", "liaison-old.tar.gz",
                           "liaison-2026-11-29-030000.tar.gz"}
            << 1 << QStringList{"liaison-2026-11-28-030000.tar.gz"};
    }
    void keepsTheNewestBackups()
    {
        QFETCH(QStringList, names);
        QFETCH(int, keep);
        QFETCH(QStringList, deleted);
        QStringList got = Backup::beyondKeep(names, keep);
        got.sort();
        deleted.sort();
        QCOMPARE(got, deleted);
    }

    // The daily backup over a run of days: one a day however often it looks, the newest keep stay.
    void dailyBackupMakesOneADayAndKeepsN_data()
    {
        QTest::addColumn<int>("keep");
        QTest::addColumn<int>("days");
        QTest::addColumn<int>("expected");
        QTest::newRow("keep 7, 3 days") << 7 << 3 << 3;
        QTest::newRow("keep 3, 5 days") << 3 << 5 << 3;
        QTest::newRow("keep 1, 2 days") << 1 << 2 << 1;
        QTest::newRow("keep 0: off") << 0 << 2 << 0;
    }
    void dailyBackupMakesOneADayAndKeepsN()
    {
        QFETCH(int, keep);
        QFETCH(int, days);
        QFETCH(int, expected);
        makeDataDir(5);
        const Backup::Place place = placeIn(dataDir());
        DailyBackup daily(place, keep);
        const QDateTime first(QDate(2026, 11, 20), QTime(9, 0));
        for (int d = 0; d < days; ++d) {
            const QDateTime morning = first.addDays(d);
            QCOMPARE(daily.runIfDue(morning), keep > 0);
            QVERIFY(!daily.runIfDue(morning.addSecs(3600))); // the same day again: nothing
            QVERIFY(!daily.runIfDue(morning.addSecs(8 * 3600)));
        }
        const QList<QFileInfo> left = Backup::list(place.backupsDir());
        QCOMPARE(left.size(), expected);
        if (expected > 0) {
            QCOMPARE(
                left.constFirst().fileName(),
                QStringLiteral("liaison-%1-090000.tar.gz").arg(first.addDays(days - 1).date().toString(Qt::ISODate)));
            QVERIFY(Backup::hasBackupOf(place.backupsDir(), first.addDays(days - 1).date()));
        }
    }

    // A backup stopped half-way (kill -9, a power cut) leaves its scratch files: the next one in the
    // folder removes those an hour old, not a newer one another process may be writing.
    void sweepsWhatAStoppedBackupLeft()
    {
        makeDataDir(5);
        const Backup::Place place = placeIn(dataDir());
        const QDir dir(place.backupsDir());
        QVERIFY(writeFile(dir.filePath(QStringLiteral(".liaison-backup-AbCdEf.db")), "scratch"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral(".liaison-backup-AbCdEf.db-wal")), "its log"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("liaison-2026-11-20-030000.tar.gz.XyZ123")), "half"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral(".liaison-backup-new123.db")), "busy"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("notes.txt")), "the user's"));
        for (const char *old : {".liaison-backup-AbCdEf.db", ".liaison-backup-AbCdEf.db-wal",
                                "liaison-2026-11-20-030000.tar.gz.XyZ123", "notes.txt"}) {
            QFile f(dir.filePath(QLatin1String(old)));
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-7200), QFileDevice::FileModificationTime));
        }
        Backup::createInBackupsDir(place, QDateTime::currentDateTime(), 7);
        QStringList left = dir.entryList(QDir::Files | QDir::Hidden);
        left.removeIf([](const QString &n) { return n.endsWith(QLatin1String(".tar.gz")); });
        QCOMPARE(left, QStringList({QStringLiteral(".liaison-backup-new123.db"), QStringLiteral("notes.txt")}));
    }

    void noDatabaseNoBackup()
    {
        QCOMPARE(codeOf([&] {
                     Backup::create(placeIn(m_dir->filePath(QStringLiteral("none"))),
                                    m_dir->filePath(QStringLiteral("x.tar.gz")));
                 }),
                 QStringLiteral("NO_DATABASE"));
        QVERIFY(!QFileInfo::exists(m_dir->filePath(QStringLiteral("x.tar.gz"))));
    }
};

QTEST_GUILESS_MAIN(TestBackup)
#include "test_backup.moc"
