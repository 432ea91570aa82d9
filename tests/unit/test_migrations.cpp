// The numbered migrations as the database layer applies them: numbered 1, 2, 3… without a gap or a
// repeat, each named and non-empty; applied to an empty database they leave user_version at the
// last number, and applying them again changes nothing.
#include "model/core/database.h"
#include "model/core/migrations.h"
#include "tests/support/testsupport.h"

#include <QSqlQuery>
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
};

QTEST_MAIN(TestMigrations)
#include "test_migrations.moc"
