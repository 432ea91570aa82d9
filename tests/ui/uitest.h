#pragma once

// Helpers shared by the UI tests: find the dialog a view opened with open() and press its buttons,
// so that no test ever waits on a modal dialog for a person.

#include <QAbstractButton>
#include <QApplication>
#include <QDialogButtonBox>
#include <QPushButton>
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

} // namespace UiTest
