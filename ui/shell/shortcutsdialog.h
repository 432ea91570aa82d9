#pragma once

#include <QDialog>
#include <QString>
#include <QVector>

class QTableWidget;

// Help > Keyboard shortcuts: the keys of the window in one table (where they work, the keys, what
// they do), as the window lists them (MainWindow::showShortcuts).
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    struct Row
    {
        QString where;
        QString keys;
        QString action;
    };
    ShortcutsDialog(const QVector<Row> &rows, QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }

private:
    QTableWidget *m_table;
};
