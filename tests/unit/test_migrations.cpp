// The numbered migrations as the database layer applies them: numbered 1, 2, 3… without a gap or a
// repeat, each named and non-empty; applied to an empty database they leave user_version at the
// last number, and applying them again changes nothing. A migration that rebuilds a table keeps its
// rows and those that refer to them.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/migrations.h"
#include "tests/support/modelsupport.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

class TestMigrations final : public QObject
{
    Q_OBJECT

private slots:
    void numberedInOrderWithoutGaps()
    {
        const QVector<Migration> &all = migrations();
        QVERIFY(!all.isEmpty());
        for (int i = 0; i < all.size(); ++i) {
            const Migration &m = all.at(i);
            QVERIFY2(m.version == i + 1, qPrintable(QStringLiteral("migration at position %1 is numbered %2: the list "
                                                                   "must read 1, 2, 3… in order")
                                                        .arg(i + 1)
                                                        .arg(m.version)));
            QVERIFY2(m.name && *m.name, qPrintable(QStringLiteral("migration %1 has no name").arg(m.version)));
            QVERIFY2(!m.statements.isEmpty(), qPrintable(QStringLiteral("migration %1 is empty").arg(m.version)));
            for (const MigrationStatement &statement : m.statements)
                QVERIFY2(!statement.sql.trimmed().isEmpty(),
                         qPrintable(QStringLiteral("migration %1 holds an empty statement").arg(m.version)));
        }
    }

    void appliedOnceToTheLastVersion()
    {
        TempDatabase db; // migrated by its constructor
        const int last = migrations().constLast().version;
        QCOMPARE(Database::schemaVersion(), last);
        QSqlQuery q(Database::connection());
        QCOMPARE(Database::migrate(), last); // again: nothing to do
        QVERIFY(q.exec("SELECT count(*) FROM pipelines WHERE id = 'pipeline_default'") && q.next());
        QCOMPARE(q.value(0).toInt(), 1); // the seeded default pipeline, not seeded twice
    }

    // Migration 19 gives the contacts it finds the sort keys the repository writes for new ones
    // (liaison_fold in SQL, TextFold::fold in C++), on either database.
    void sortKeysOfExistingContactsMatchTheRepository()
    {
        TempDatabase db;
        const bool pg = Database::dialect() == Database::Dialect::PostgreSQL;
        QString fill;
        for (const MigrationStatement &s : migrations().at(18).statements) {
            if (s.sql.trimmed().startsWith(QLatin1String("UPDATE")) &&
                s.only == (pg ? MigrationStatement::PostgreSQL : MigrationStatement::SQLite))
                fill = s.sql;
        }
        QVERIFY(!fill.isEmpty());
        ContactRepository repo(testStore());
        const QList<QStringList> people = {
            {"Çağla", "Yılmaz", ""}, {"İsmail", "", "  Öz Gıda "}, {"Ayşe", "Kaya", "ACME"}};
        QStringList ids;
        for (const QStringList &p : people)
            ids << repo.create(ContactRules::parse({{"firstName", p[0]},
                                                    {"lastName", p[1]},
                                                    {"company", p[2]},
                                                    {"phone", "+90532000000" + QString::number(ids.size())}}))
                       .id;
        auto keys = [] {
            QStringList out;
            QSqlQuery q = Database::exec("SELECT name_sort, company_sort FROM contacts ORDER BY seq");
            while (q.next())
                out << q.value(0).toString() << q.value(1).toString();
            return out;
        };
        const QStringList written = keys();
        const QString blank = QStringLiteral("\U0010FFFF");
        QCOMPARE(written, (QStringList{"cagla yilmaz", blank, "ismail", "oz gida", "ayse kaya", "acme"}));
        Database::exec("UPDATE contacts SET name_sort = '', company_sort = ''"); // as migration 19 finds them
        Database::exec(fill);
        QCOMPARE(keys(), written);
    }

    void visitorsWithoutContactKeepEveryRowOfTheRebuiltTables()
    {
        if (qEnvironmentVariable("LIAISON_TEST_DATABASE") == QLatin1String("postgresql"))
            QSKIP("migration 18 rebuilds tables on SQLite only");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v17.db"));
        {
            // A file as version 17 left it, with a widget conversation, its messages, visitor and media.
            QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v17"));
            raw.setDatabaseName(path);
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            QVERIFY(q.exec("PRAGMA foreign_keys=ON"));
            for (const Migration &m : migrations()) {
                if (m.version > 17)
                    break;
                for (const MigrationStatement &s : m.statements) {
                    if (s.only != MigrationStatement::PostgreSQL)
                        QVERIFY2(q.exec(s.sql), qPrintable(q.lastError().text()));
                }
            }
            QVERIFY(q.exec("PRAGMA user_version = 17"));
            const char *rows[] = {
                "INSERT INTO contacts (id, first_name, created_at, updated_at) VALUES ('contact_a', 'Ayşe', "
                "'2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
                "INSERT INTO conversations (id, contact_id, channel, external_id, last_activity_at, created_at, "
                "updated_at) VALUES ('conv_a', 'contact_a', 'widget', 'visitor_a', '2026-01-01T00:00:00Z', "
                "'2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
                "INSERT INTO messages (id, conversation_seq, conversation_id, contact_id, channel, direction, status, "
                "created_at) SELECT 'msg_1', seq, id, contact_id, 'widget', 'incoming', 'delivered', "
                "'2026-01-01T00:00:00Z' FROM conversations",
                "INSERT INTO messages (id, conversation_seq, conversation_id, contact_id, channel, direction, status, "
                "created_at) SELECT 'msg_2', seq, id, contact_id, 'widget', 'outgoing', 'sent', "
                "'2026-01-01T00:00:01Z' FROM conversations",
                "INSERT INTO widget_visitors (id, token_hash, contact_id, conversation_id, created_at) VALUES "
                "('visitor_a', 'h', 'contact_a', 'conv_a', '2026-01-01T00:00:00Z')",
                "INSERT INTO media (id, token_hash, filename, mime_type, kind, size, sha256, conversation_id, "
                "message_id, created_at, expires_at) VALUES ('media_a', 'h', 'a.png', 'image/png', 'image', 1, 'x', "
                "'conv_a', 'msg_2', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')",
            };
            for (const char *sql : rows)
                QVERIFY2(q.exec(QString::fromUtf8(sql)), qPrintable(q.lastError().text()));
            q.finish();
            raw.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v17"));

        Database::setPath(path);
        QCOMPARE(Database::migrate(), migrations().constLast().version);
        auto one = [](const QString &sql) {
            QSqlQuery q(Database::connection());
            if (!q.exec(sql) || !q.next())
                return QVariant();
            return q.value(0);
        };
        QCOMPARE(one("SELECT count(*) FROM messages WHERE conversation_id = 'conv_a'").toInt(), 2);
        QCOMPARE(one("SELECT contact_id FROM widget_visitors WHERE id = 'visitor_a'").toString(), QString("contact_a"));
        QCOMPARE(one("SELECT conversation_id FROM media WHERE id = 'media_a'").toString(), QString("conv_a"));
        QVERIFY(one("SELECT visitor_name FROM conversations WHERE id = 'conv_a'").isNull());
        QCOMPARE(one("SELECT \"notnull\" FROM pragma_table_info('conversations') WHERE name = 'contact_id'").toInt(),
                 0);
        QCOMPARE(one("SELECT \"notnull\" FROM pragma_table_info('widget_visitors') WHERE name = 'contact_id'").toInt(),
                 0);
        QCOMPARE(one("PRAGMA foreign_keys").toInt(), 1); // back on
        QVERIFY(!one("PRAGMA foreign_key_check").isValid());
        // The references hold on the new tables: deleting the contact takes the conversation, its
        // messages and visitor, and unlinks the media.
        QVERIFY(one("SELECT count(*) FROM sqlite_master WHERE name = 'conversations_activity'").toInt() == 1);
        QSqlQuery del(Database::connection());
        QVERIFY(del.exec("DELETE FROM contacts WHERE id = 'contact_a'"));
        QCOMPARE(one("SELECT count(*) FROM conversations").toInt(), 0);
        QCOMPARE(one("SELECT count(*) FROM messages").toInt(), 0);
        QCOMPARE(one("SELECT count(*) FROM widget_visitors").toInt(), 0);
        QVERIFY(one("SELECT conversation_id FROM media WHERE id = 'media_a'").isNull());
        Database::closeThreadConnection();
    }
};

QTEST_MAIN(TestMigrations)
#include "test_migrations.moc"
