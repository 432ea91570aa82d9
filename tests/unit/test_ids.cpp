// Ids::make and Ids::looksLike: "<prefix>_<26 Crockford base32 chars>", unique, sorted by creation
// time (ULID layout), and the look-alikes that are refused.
#include "model/core/ids.h"

#include <QDateTime>
#include <QSet>
#include <QtTest>

class TestIds final : public QObject
{
    Q_OBJECT

private slots:
    void madeIdsHaveTheirForm()
    {
        const QString id = Ids::make(u"contact");
        QVERIFY2(id.startsWith("contact_"), qPrintable(id));
        QCOMPARE(id.size(), int(strlen("contact_")) + 26);
        static const QRegularExpression crockford("^[0-9a-hjkmnp-tv-z]{26}$");
        QVERIFY2(crockford.match(id.mid(8)).hasMatch(), qPrintable(id));
        QVERIFY(Ids::looksLike(id, u"contact"));
        QVERIFY(!Ids::looksLike(id, u"deal"));
    }

    void uniqueAndSortedByTime()
    {
        QSet<QString> seen;
        QString previous;
        for (int i = 0; i < 2000; ++i) {
            const QString id = Ids::make(u"task");
            QVERIFY2(!seen.contains(id), qPrintable(id));
            seen.insert(id);
            if (i % 500 == 0) {
                // A later millisecond sorts after every earlier id.
                const qint64 ms = QDateTime::currentMSecsSinceEpoch();
                QVERIFY(QTest::qWaitFor([ms] { return QDateTime::currentMSecsSinceEpoch() > ms; }, 1000));
                const QString later = Ids::make(u"task");
                QVERIFY2(later > id, qPrintable(later + " <= " + id));
                seen.insert(later);
            }
            previous = id;
        }
        QCOMPARE(seen.size(), 2000 + 4);
    }

    void lookAlikesAreRefused_data()
    {
        // Each row changes one thing of a real id.
        const QString id = Ids::make(u"contact");
        const QString tail = id.mid(8);
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << "";
        QTest::newRow("prefix only") << "contact_";
        QTest::newRow("one short") << id.chopped(1);
        QTest::newRow("one too long") << id + "0";
        QTest::newRow("no underscore") << "contact" + tail + "0";
        QTest::newRow("other prefix") << "deal_" + tail;
        QTest::newRow("upper case") << "contact_" + tail.toUpper();
        QTest::newRow("u, not in the alphabet") << "contact_" + tail.chopped(1) + "u";
        QTest::newRow("space") << "contact_" + tail.chopped(1) + " ";
        QTest::newRow("dotless i") << "contact_" + tail.chopped(1) + QString::fromUtf8("ı");
        QTest::newRow("sql") << "contact_' OR 1=1 --" + tail.left(14);
    }

    void lookAlikesAreRefused()
    {
        QFETCH(QString, text);
        QVERIFY(!Ids::looksLike(text, u"contact"));
    }
};

QTEST_MAIN(TestIds)
#include "test_ids.moc"
