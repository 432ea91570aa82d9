#include "ui/shell/uikit.h"

#include <QAbstractTextDocumentLayout>
#include <QBoxLayout>
#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QTextEdit>
#include <QtMath>

QString UiKit::localTime(const QString &iso)
{
    if (iso.isEmpty())
        return {};
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : iso;
}

QLabel *UiKit::errorLabel(QWidget *parent, const QString &name)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // data from outside is never markup
    label->setObjectName(name);
    label->setStyleSheet(QStringLiteral("color: #c0392b;"));
    label->setWordWrap(true);
    label->hide();
    return label;
}

void UiKit::showError(QLabel *label, const QString &message)
{
    label->setText(message);
    label->setVisible(!message.isEmpty());
}

QTextEdit *UiKit::wrappingText(QWidget *parent, const QString &name)
{
    auto *text = new QTextEdit(parent);
    text->setObjectName(name);
    text->setReadOnly(true);
    text->setAcceptRichText(false);
    text->setFrameShape(QFrame::NoFrame);
    text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    text->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    text->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    text->viewport()->setAutoFillBackground(false);
    text->document()->setDocumentMargin(0);
    text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    text->setMinimumWidth(text->fontMetrics().averageCharWidth() * 12);
    // One line until its text is laid out (a text edit's own size hint is a box of many lines).
    text->setFixedHeight(text->fontMetrics().height());
    QObject::connect(
        text->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, text,
        [text](const QSizeF &size) { text->setFixedHeight(qMax(text->fontMetrics().height(), qCeil(size.height()))); });
    return text;
}

void UiKit::layOutRecordPage(QWidget *page, const QString &intro, QTableWidget *table, QLabel *error,
                             const QList<QPushButton *> &buttons)
{
    auto *introLabel = new QLabel(intro, page);
    introLabel->setWordWrap(true);
    auto *row = new QHBoxLayout;
    for (QPushButton *button : buttons)
        row->addWidget(button);
    row->addStretch(1);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(introLabel);
    layout->addWidget(table, 1);
    layout->addWidget(error);
    layout->addLayout(row);
}

QTableWidget *UiKit::recordTable(int columns, const QStringList &headers, const QString &name, QWidget *parent)
{
    auto *t = new QTableWidget(0, columns, parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

QTableWidgetItem *UiKit::tableItem(const QString &text, const QString &id)
{
    auto *i = new QTableWidgetItem(text);
    i->setToolTip(text);
    if (!id.isEmpty())
        i->setData(IdRole, id);
    return i;
}

void UiKit::reselect(QTableWidget *table, const QString &id)
{
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, 0)->data(IdRole).toString() == id) {
            table->selectRow(row);
            return;
        }
    }
    if (table->rowCount() > 0)
        table->selectRow(0);
}

QString UiKit::selectedId(const QTableWidget *table)
{
    const QList<QTableWidgetItem *> selected = table->selectedItems();
    return selected.isEmpty() ? QString() : table->item(selected.first()->row(), 0)->data(IdRole).toString();
}
