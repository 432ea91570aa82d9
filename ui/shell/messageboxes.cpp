#include "ui/shell/messageboxes.h"

#include <QAbstractButton>
#include <QMessageBox>
#include <QPointer>

namespace MessageBoxes {

void confirm(QWidget *parent, const QString &title, const QString &text, const QString &acceptText,
             std::function<void()> onYes)
{
    auto *box = new QMessageBox(QMessageBox::Question, title, text, QMessageBox::Yes | QMessageBox::No, parent);
    box->setObjectName(QStringLiteral("confirmationBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->button(QMessageBox::Yes)->setText(acceptText);
    box->setDefaultButton(QMessageBox::No);
    box->setEscapeButton(QMessageBox::No);
    QObject::connect(box, &QMessageBox::finished, box, [box, onYes = std::move(onYes)](int) {
        if (box->clickedButton() == box->button(QMessageBox::Yes) && onYes)
            onYes();
    });
    box->open();
}

void warn(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("warningBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace MessageBoxes
