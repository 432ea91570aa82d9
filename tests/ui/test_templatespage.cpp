// Settings > Templates as an admin uses it: a template added with the model's rules shown in the
// window's words when refused, edited (status, buttons) and deleted after a question.
#include "model/core/database.h"
#include "model/inbox/templaterepository.h"
#include "tests/support/testsupport.h"
#include "ui/settings/templatespage.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

namespace {
template<typename T>
T *openDialog(QWidget *parent)
{
    for (T *d : parent->findChildren<T *>()) {
        if (d->isVisible())
            return d;
    }
    return nullptr;
}

QLabel *visibleError(QWidget *w)
{
    auto *label = w->findChild<QLabel *>(QStringLiteral("errorLabel"));
    return label && label->isVisible() ? label : nullptr;
}
} // namespace

class TestTemplatesPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void addsEditsAndDeletesTemplates()
    {
        TempDatabase db;
        TemplatesPage page(testStore());
        page.show();
        QCOMPARE(page.table()->rowCount(), 0);

        page.addTemplate();
        TemplateDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<TemplateDialog>(&page)));
        dialog->findChild<QLineEdit *>(QStringLiteral("templateNameEdit"))->setText(QStringLiteral("Sipariş Durumu"));
        dialog->findChild<QLineEdit *>(QStringLiteral("templateLanguageEdit"))->setText(QStringLiteral("tr"));
        dialog->findChild<QPlainTextEdit *>(QStringLiteral("templateBodyEdit"))
            ->setPlainText(QStringLiteral("Merhaba {{1}}, siparişiniz {{2}} yolda."));
        dialog->findChild<QPlainTextEdit *>(QStringLiteral("templateButtonsEdit"))
            ->setPlainText(QStringLiteral("Teşekkürler\n\nSorum var"));
        dialog->accept();
        QVERIFY(dialog->isVisible()); // the name must be lower-case letters, digits and _
        QVERIFY(visibleError(dialog));
        QVERIFY2(visibleError(dialog)->text().contains(QLatin1String("name"), Qt::CaseInsensitive) ||
                     visibleError(dialog)->text().contains(QLatin1String("Ad")),
                 qPrintable(visibleError(dialog)->text()));
        dialog->findChild<QLineEdit *>(QStringLiteral("templateNameEdit"))->setText(QStringLiteral("siparis_durumu"));
        dialog->accept();
        QTRY_VERIFY(!openDialog<TemplateDialog>(&page));
        QCOMPARE(page.table()->rowCount(), 1);
        TemplateRepository repo(testStore());
        const std::optional<MessageTemplate> stored = repo.find(QStringLiteral("siparis_durumu"), QStringLiteral("tr"));
        QVERIFY(stored);
        QCOMPARE(stored->status, QStringLiteral("approved"));
        QCOMPARE(stored->category, QStringLiteral("utility"));
        QCOMPARE(stored->parameterCount(), 2);
        QCOMPARE(stored->buttons.size(), 2); // the empty line is no button
        QCOMPARE(page.currentTemplateId(), stored->id);

        // Edit: pending again, one button less.
        page.editTemplate();
        QTRY_VERIFY((dialog = openDialog<TemplateDialog>(&page)));
        QCOMPARE(dialog->findChild<QLineEdit *>(QStringLiteral("templateNameEdit"))->text(),
                 QStringLiteral("siparis_durumu"));
        auto *status = dialog->findChild<QComboBox *>(QStringLiteral("templateStatusCombo"));
        status->setCurrentIndex(status->findData(QStringLiteral("pending")));
        dialog->findChild<QPlainTextEdit *>(QStringLiteral("templateButtonsEdit"))
            ->setPlainText(QStringLiteral("Tamam"));
        dialog->accept();
        QTRY_VERIFY(!openDialog<TemplateDialog>(&page));
        QCOMPARE(repo.get(stored->id).status, QStringLiteral("pending"));
        QCOMPARE(repo.get(stored->id).buttons.size(), 1);
        QCOMPARE(page.table()->item(0, TemplatesPage::StatusColumn)->text(), QStringLiteral("Pending"));

        // Delete asks first.
        page.table()->selectRow(0);
        page.deleteTemplate();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = openDialog<QMessageBox>(&page)));
        box->button(QMessageBox::Yes)->click();
        QTRY_COMPARE(page.table()->rowCount(), 0);
        QVERIFY(!repo.find(QStringLiteral("siparis_durumu"), QStringLiteral("tr")));
        Database::closeThreadConnection();
    }
};

QTEST_MAIN(TestTemplatesPage)
#include "test_templatespage.moc"
