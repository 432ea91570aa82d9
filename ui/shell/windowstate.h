#pragma once

#include <QObject>
#include <QString>

class QAbstractButton;
class QWidget;

// Remembers how the user arranged the window: its size, position and maximised state (within the
// screen it comes back on), the area shown (the window's "currentArea" property, where it has one),
// the sizes of every named QSplitter in it, the columns (widths, order, hidden, sort) of every
// named table and the state of every named button marked with keepChecked() (a section open or
// folded), in an INI file of its own (DATA/window.ini; liaison.ini is the admin's and is never
// written).
// restore() after the window's areas are built, before it is shown; the state is saved when the
// window closes and when the application quits. A table whose columns changed since (a new
// version) keeps its defaults rather than a state that no longer fits.
class WindowState : public QObject
{
    Q_OBJECT
public:
    WindowState(QWidget *window, QString iniPath);

    void restore();
    void save() const;

    // Marks a checkable button whose state the window keeps (a section shown or folded); it needs an
    // object name.
    static void keepChecked(QAbstractButton *button);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_window;
    QString m_path;
};
