#pragma once

// Helpers shared by the UI tests: find the dialog a view opened with open() and press its buttons,
// so that no test ever waits on a modal dialog for a person.

#include "ui/shell/recordpicker.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QDialogButtonBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTest>
#include <QWidget>

namespace UiTest {

// The topmost modal dialog when it is a T (dialogs here are opened with open(): window-modal).
template<typename T>
T *modal()
{
    return qobject_cast<T *>(QApplication::activeModalWidget());
}

inline void click(QAbstractButton *button)
{
    QVERIFY(button);
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
}

// The button of a dialog's QDialogButtonBox with this standard role.
inline QAbstractButton *dialogButton(QWidget *dialog, QDialogButtonBox::StandardButton which)
{
    auto *box = dialog->findChild<QDialogButtonBox *>();
    return box ? box->button(which) : nullptr;
}

// Types `text` into a record picker as a user would and clicks the offered row of record `id` in the
// list under it. False when no such row was offered.
inline bool pickRecord(RecordPicker *picker, const QString &text, const QString &id)
{
    if (!picker)
        return false;
    picker->window()->raise();
    picker->window()->activateWindow();
    if (!QTest::qWaitForWindowActive(picker->window(), 2000))
        qWarning("pickRecord: the picker's window is not active");
    picker->lineEdit()->setFocus();
    if (!QTest::qWaitFor([picker] { return picker->lineEdit()->hasFocus(); }, 2000))
        qWarning("pickRecord: the field has no focus");
    picker->lineEdit()->selectAll();
    for (const QChar ch : text) { // QTest::keyClicks knows ASCII only: "ı" and "ş" are typed as text
        QKeyEvent press(QEvent::KeyPress, Qt::Key_unknown, Qt::NoModifier, QString(ch));
        QApplication::sendEvent(picker->lineEdit(), &press);
        QKeyEvent release(QEvent::KeyRelease, Qt::Key_unknown, Qt::NoModifier, QString(ch));
        QApplication::sendEvent(picker->lineEdit(), &release);
    }
    picker->searchNow();
    QAbstractItemView *popup = picker->popup();
    if (!QTest::qWaitFor([popup] { return popup->isVisible(); }, 2000)) {
        qWarning(
            "pickRecord: no list under the field (%d offered, %d in the list, focus %d, popup %s)",
            int(picker->choices()->rowCount()), int(popup->model()->rowCount()), int(picker->lineEdit()->hasFocus()),
            QApplication::activePopupWidget() ? QApplication::activePopupWidget()->metaObject()->className() : "-");
        return false;
    }
    for (int row = 0; row < popup->model()->rowCount(); ++row) {
        const QModelIndex index = popup->model()->index(row, 0);
        if (index.data(RecordPicker::IdRole).toString() == id) {
            popup->scrollTo(index);
            QTest::mouseClick(popup->viewport(), Qt::LeftButton, {}, popup->visualRect(index).center());
            return picker->currentId() == id;
        }
    }
    return false;
}

} // namespace UiTest
