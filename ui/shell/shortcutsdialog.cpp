#include "ui/shell/shortcutsdialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

ShortcutsDialog::ShortcutsDialog(const QVector<Row> &rows, QWidget *parent)
    : QDialog(parent)
    , m_table(new QTableWidget(int(rows.size()), 3, this))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->setHorizontalHeaderLabels({tr("Where"), tr("Keys"), tr("Action")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    for (int i = 0; i < rows.size(); ++i) {
        const Row &row = rows.at(i);
        // The place is named on its first row only, so that the table reads as groups.
        const bool first = i == 0 || rows.at(i - 1).where != row.where;
        m_table->setItem(i, 0, new QTableWidgetItem(first ? row.where : QString()));
        auto *keys = new QTableWidgetItem(row.keys);
        QFont bold = keys->font();
        bold.setBold(true);
        keys->setFont(bold);
        m_table->setItem(i, 1, keys);
        m_table->setItem(i, 2, new QTableWidgetItem(row.action));
    }
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    // The whole table without scrolling where the screen has the room (every row, every action).
    const int tableWidth = m_table->horizontalHeader()->length() + 2 * m_table->frameWidth();
    const int tableHeight =
        m_table->horizontalHeader()->height() + m_table->verticalHeader()->length() + 2 * m_table->frameWidth();
    m_table->setMinimumSize(qMin(tableWidth + 4, 1000), qMin(tableHeight + 4, 560));
    resize(sizeHint());
}
