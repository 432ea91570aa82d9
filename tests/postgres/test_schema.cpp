#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/migrations.h"
#include "tests/support/testsupport.h"

#include <QSqlQuery>
#include <QtTest>

#include <memory>

// The same numbered migrations build the embedded SQLite file and a team's PostgreSQL database:
// the same tables with the same columns in the same order, of matching types, and the custom-field
// rows the segment rules read come out alike.
class TestPostgresSchema : public QObject
{
    Q_OBJECT

    struct Column
    {
        QString name;
        QString type; // as PostgreSQL names it
        bool operator==(const Column &o) const { return name == o.name && type == o.type; }
    };

    // The columns of every table of the database this thread uses now.
    static QMap<QString, QVector<Column>> schema()
    {
        QMap<QString, QVector<Column>> out;
        const bool postgres = Database::dialect() == Database::Dialect::PostgreSQL;
        for (const QString &table : Database::tables()) {
            QSqlQuery q = Database::exec(
                postgres
                    ? QStringLiteral("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                     "table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position")
                    : QStringLiteral("SELECT name, type FROM pragma_table_info(?) ORDER BY cid"),
                {table});
            while (q.next()) {
                QString type = q.value(1).toString();
                if (!postgres) { // what the migrations' SQLite types become
                    static const QHash<QString, QString> asPostgres{{"INTEGER", "bigint"},
                                                                    {"TEXT", "text"},
                                                                    {"REAL", "double precision"},
                                                                    {"BLOB", "bytea"},
                                                                    {"", "double precision"}}; // value_num
                    type = asPostgres.value(type, QStringLiteral("? ") + type);
                }
                out[table].append({q.value(0).toString(), type});
            }
        }
        return out;
    }

    static QList<QStringList> customFieldRows()
    {
        QList<QStringList> rows;
        QSqlQuery q = Database::exec(QStringLiteral("SELECT f.key, f.type, coalesce(f.value_text, '<null>'), "
                                                    "coalesce(f.value_num, -999) FROM contact_custom_fields f JOIN "
                                                    "contacts c ON c.seq = f.contact_seq ORDER BY c.id, f.key"));
        while (q.next())
            rows.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                         QString::number(q.value(3).toDouble())});
        return rows;
    }

    // Writes the same contacts through plain SQL on the database of now (the trigger's work).
    static void writeContacts()
    {
        const QStringList fields{
            QStringLiteral(R"({"city":"İzmir","size":12,"ratio":1.5,"vip":true,"lost":false,"none":null})"),
            QStringLiteral(R"({"tags":["a","b"],"address":{"street":"Kordon"},"score":-3})"), QStringLiteral("{}")};
        for (int i = 0; i < fields.size(); ++i)
            Database::exec(QStringLiteral("INSERT INTO contacts (id, first_name, custom_fields, created_at, "
                                          "updated_at) VALUES (?, ?, ?, '2026-11-27T08:00:00.000Z', "
                                          "'2026-11-27T08:00:00.000Z')"),
                           {QStringLiteral("contact_%1").arg(i), QStringLiteral("Kişi %1").arg(i), fields.at(i)});
        // A change replaces the rows; the same value again keeps them.
        Database::exec(QStringLiteral("UPDATE contacts SET custom_fields = ? WHERE id = 'contact_2'"),
                       {QStringLiteral(R"({"segment":"kurumsal"})")});
        Database::exec(QStringLiteral("UPDATE contacts SET custom_fields = custom_fields WHERE id = 'contact_0'"));
    }

private slots:
    void initTestCase()
    {
        TempPostgresSchema probe;
        if (!probe.available())
            QFAIL(qPrintable(probe.why()));
    }

    void migratesAnEmptyDatabaseOnce()
    {
        TempPostgresSchema pg;
        QCOMPARE(Database::dialect(), Database::Dialect::PostgreSQL);
        QCOMPARE(Database::schemaVersion(), 0);
        const int latest = migrations().constLast().version;
        QCOMPARE(Database::migrate(), latest);
        QCOMPARE(Database::schemaVersion(), latest);
        QCOMPARE(Database::migrate(), latest); // nothing left to apply
        QSqlQuery q = Database::exec(QStringLiteral("SELECT count(*) FROM schema_version"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), migrations().size());
        // The default pipeline is there, with its stages.
        QCOMPARE(Database::rowCount(QStringLiteral("pipelines")), 1);
        QCOMPARE(Database::rowCount(QStringLiteral("pipeline_stages")), 6);
    }

    void holdsTheSameTablesAndColumnsAsSQLite()
    {
        QMap<QString, QVector<Column>> sqlite;
        {
            TempDatabase db;
            sqlite = schema();
        }
        TempPostgresSchema pg;
        Database::migrate();
        QMap<QString, QVector<Column>> postgres = schema();
        // Each has a search index of its own: SQLite's FTS5 table (not listed), PostgreSQL's words.
        QCOMPARE(postgres.take(QStringLiteral("contact_words")).size(), 2);
        // The uploads' bytes: files in DATA/media on SQLite, rows on PostgreSQL.
        QCOMPARE(postgres.take(QStringLiteral("media_contents")).size(), 2);
        QCOMPARE(postgres.keys(), sqlite.keys());
        for (auto it = sqlite.begin(); it != sqlite.end(); ++it) {
            QVector<Column> expected = it.value();
            if (it.key() == QLatin1String("contacts")) { // the custom fields are jsonb there
                for (Column &c : expected) {
                    if (c.name == QLatin1String("custom_fields"))
                        c.type = QStringLiteral("jsonb");
                }
            }
            const QVector<Column> got = postgres.value(it.key());
            QCOMPARE(got.size(), expected.size());
            for (int i = 0; i < got.size(); ++i) {
                QCOMPARE(got.at(i).name, expected.at(i).name);
                QVERIFY2(got.at(i) == expected.at(i),
                         qPrintable(QStringLiteral("%1.%2: %3 on PostgreSQL, %4 expected")
                                        .arg(it.key(), got.at(i).name, got.at(i).type, expected.at(i).type)));
            }
        }
    }

    void customFieldRowsMatchSQLite()
    {
        QList<QStringList> sqlite;
        {
            TempDatabase db;
            writeContacts();
            sqlite = customFieldRows();
        }
        TempPostgresSchema pg;
        Database::migrate();
        writeContacts();
        const QList<QStringList> postgres = customFieldRows();
        QVERIFY(sqlite.size() >= 9);
        for (int i = 0; i < qMax(sqlite.size(), postgres.size()); ++i) {
            const QStringList a = sqlite.value(i), b = postgres.value(i);
            // Objects and arrays are JSON text on both, spaced differently: compared as JSON.
            if (a.value(1) == QLatin1String("object") || a.value(1) == QLatin1String("array")) {
                QCOMPARE(b.mid(0, 2), a.mid(0, 2));
                QCOMPARE(QJsonDocument::fromJson(b.value(2).toUtf8()), QJsonDocument::fromJson(a.value(2).toUtf8()));
            } else {
                QCOMPARE(b, a);
            }
        }
        QCOMPARE(postgres.size(), sqlite.size());
    }

    void aServerThatIsNotThereIsOneClearError()
    {
        QString why;
        const std::optional<DatabaseUrl> url =
            DatabaseUrl::parse(QStringLiteral("postgresql://liaison@127.0.0.1:1/liaison?connect_timeout=2"), &why);
        QVERIFY2(url, qPrintable(why));
        Database::setPostgres(*url, QString());
        try {
            Database::migrate();
            QFAIL("migrated without a server");
        } catch (const DatabaseError &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.startsWith(QStringLiteral("cannot connect to PostgreSQL at "
                                                       "postgresql://liaison@127.0.0.1:1/liaison")),
                     qPrintable(message));
            QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
        }
        Database::closeThreadConnection();
    }
};

QTEST_GUILESS_MAIN(TestPostgresSchema)
#include "test_schema.moc"
