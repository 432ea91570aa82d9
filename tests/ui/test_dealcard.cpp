// A deal card as the board paints it: the expected close date turns red once passed while the deal is
// open, and never for a won or lost deal (its close is done, not late); a name too long for one line
// takes two, broken between words, rather than being cut to a word and a half. "Today" is the store's
// clock's (a FakeClock here), not the machine's.
#include "tests/support/fakeclock.h"
#include "ui/deals/dealcarddelegate.h"
#include "ui/deals/dealcolumnmodel.h"

#include <QApplication>
#include <QImage>
#include <QListView>
#include <QPainter>
#include <QStandardItemModel>
#include <QTest>

class TestDealCard final : public QObject
{
    Q_OBJECT

    // The store's today: a day that is not the machine's.
    static QDate today() { return QDate(2027, 3, 15); }

    // How many strongly red pixels the card's date line has.
    static int redPixelsOfDateLine(const QString &stage, const QDate &close)
    {
        EventBus bus;
        const FakeClock clock(QDateTime(today(), QTime(12, 0)).toUTC());
        const Store store(bus, clock);
        QStandardItemModel model;
        auto *item = new QStandardItem(QStringLiteral("Teklif 12"));
        item->setData(QStringLiteral("12.500 TRY"), DealColumnModel::ValueRole);
        item->setData(QStringLiteral("Ayşe Yılmaz"), DealColumnModel::ContactRole);
        item->setData(close.toString(Qt::ISODate), DealColumnModel::CloseDateRole);
        item->setData(stage, DealColumnModel::StageRole);
        item->setData(false, DealColumnModel::RottenRole);
        model.appendRow(item);
        QListView view;
        DealCardDelegate delegate(store);
        QStyleOptionViewItem option;
        option.initFrom(&view);
        option.rect = QRect(QPoint(0, 0), delegate.sizeHint(option, model.index(0, 0)).expandedTo(QSize(240, 0)));
        QImage image(option.rect.size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            delegate.paint(&painter, option, model.index(0, 0));
        }
        // The date's line: in the lower half of the card (under the value and the contact).
        int red = 0;
        for (int y = image.height() / 2; y < image.height(); ++y) {
            for (int x = 12; x < image.width() - 12; ++x) {
                const QColor c = image.pixelColor(x, y);
                red += c.red() > 150 && c.green() < 100 && c.blue() < 100;
            }
        }
        return red;
    }

private Q_SLOTS:
    void aPassedCloseDateIsRedOnlyWhileTheDealIsOpen_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<int>("daysFromToday");
        QTest::addColumn<bool>("red");
        QTest::newRow("open, passed") << "proposal" << -3 << true;
        QTest::newRow("open, ahead") << "proposal" << 5 << false;
        QTest::newRow("won, passed") << "won" << -3 << false;
        QTest::newRow("lost, passed") << "lost" << -30 << false;
        QTest::newRow("open, yesterday") << "proposal" << -1 << true;
        QTest::newRow("open, today") << "proposal" << 0 << false;
    }

    void aPassedCloseDateIsRedOnlyWhileTheDealIsOpen()
    {
        QFETCH(QString, stage);
        QFETCH(int, daysFromToday);
        QFETCH(bool, red);
        const int pixels = redPixelsOfDateLine(stage, today().addDays(daysFromToday));
        QVERIFY2(red ? pixels > 5 : pixels == 0, qPrintable(QString::number(pixels)));
    }

    void aLongNameTakesTwoLinesBrokenBetweenWords_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("lines");
        QTest::newRow("fits") << "Filo bakımı" << QStringList{"Filo bakımı"};
        QTest::newRow("two words") << "Kumaş tedariki 2027" << QStringList{"Kumaş tedariki", "2027"};
        QTest::newRow("Turkish, long") << "Şantiye iş güvenliği eğitimi"
                                       << QStringList{"Şantiye iş", "güvenliği eğitimi"};
        QTest::newRow("English") << "Warehouse automation" << QStringList{"Warehouse", "automation"};
        QTest::newRow("one long word") << "Kaliteyönetimsistemidanışmanlığıhizmeti" << QStringList{};
        QTest::newRow("three lines' worth")
            << "Yıllık bakım ve destek sözleşmesi yenilemesi 2027 ve 2028 dönemi" << QStringList{};
    }

    void aLongNameTakesTwoLinesBrokenBetweenWords()
    {
        // The width a card's text has in a column of the six-stage board beside the navigation on a
        // 1,366-pixel screen (about 140 pixels at the body size).
        QFETCH(QString, name);
        QFETCH(QStringList, lines);
        QFont bold = QApplication::font();
        bold.setPointSizeF(10);
        bold.setBold(true);
        const int width = QFontMetrics(bold).horizontalAdvance(QStringLiteral("güvenliği eğitimi")) + 2;
        const QStringList shown = DealCardDelegate::nameLines(name, bold, width);
        QVERIFY(!shown.isEmpty() && shown.size() <= 2);
        for (const QString &line : shown)
            QVERIFY2(QFontMetrics(bold).horizontalAdvance(line) <= width, qPrintable(line));
        if (!lines.isEmpty()) {
            QCOMPARE(shown, lines);
        } else { // more than two lines' worth: the first line full, the rest elided at the end
            QCOMPARE(shown.size(), 2);
            QVERIFY(name.startsWith(shown.first()));
            QVERIFY2(shown.last().endsWith(QChar(0x2026)), qPrintable(shown.last()));
        }
    }
};

QTEST_MAIN(TestDealCard)
#include "test_dealcard.moc"
