// UiKit::nameFormFields: every field of a form gets the name a screen reader reads from its row's
// label, also inside an error cell or beside another field, where Qt finds no buddy by itself.
#include "tests/ui/uitest.h"
#include "ui/shell/fielderrors.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDateEdit>
#include <QDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTest>
#include <QTimeEdit>

class TestFormNames final : public QObject
{
    Q_OBJECT

private slots:
    void fieldsTakeTheirRowsLabel()
    {
        QDialog dialog;
        FieldErrors errors;
        auto *form = new QFormLayout(&dialog);
        auto *name = new QLineEdit(&dialog);
        form->addRow(QStringLiteral("&Name:"), errors.cell(name, {QStringLiteral("name")}, &dialog));
        auto *date = new QDateEdit(&dialog);
        auto *time = new QTimeEdit(&dialog);
        time->setToolTip(QStringLiteral("Time of day"));
        auto *zone = new QComboBox(&dialog);
        form->addRow(QStringLiteral("Due:"), FieldErrors::row({date, time, zone}, &dialog));
        auto *currency = new QComboBox(&dialog);
        currency->setEditable(true);
        form->addRow(QStringLiteral("Currency:"), currency);
        auto *notes = new QPlainTextEdit(&dialog);
        notes->setAccessibleName(QStringLiteral("Notes of the deal")); // a name given stays
        form->addRow(QStringLiteral("Notes:"), notes);
        auto *already = new QLineEdit(&dialog);
        form->addRow(QStringLiteral("Buddy:"), already); // Qt made the label its buddy

        UiKit::nameFormFields(&dialog);

        QCOMPARE(name->accessibleName(), QStringLiteral("Name")); // no & and no colon
        QCOMPARE(
            qobject_cast<QLabel *>(form->labelForField(form->itemAt(0, QFormLayout::FieldRole)->layout()))->buddy(),
            name); // Alt+N reaches it
        QCOMPARE(date->accessibleName(), QStringLiteral("Due"));
        QCOMPARE(time->accessibleName(), QStringLiteral("Due: Time of day"));
        QCOMPARE(zone->accessibleName(), QStringLiteral("Due (3)"));
        QCOMPARE(currency->accessibleName(), QStringLiteral("Currency"));
        QCOMPARE(currency->lineEdit()->accessibleName(), QStringLiteral("Currency"));
        QCOMPARE(notes->accessibleName(), QStringLiteral("Notes of the deal"));
        QCOMPARE(already->accessibleName(), QStringLiteral("Buddy"));
        // The line edits inside the date and time edits are theirs, not fields of their own.
        for (QLineEdit *inner : date->findChildren<QLineEdit *>())
            QVERIFY(inner->accessibleName().isEmpty());
    }
};

QTEST_MAIN(TestFormNames)
#include "test_formnames.moc"
