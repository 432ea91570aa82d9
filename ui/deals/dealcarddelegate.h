#pragma once

#include "model/core/store.h"

#include <QStyledItemDelegate>

// Paints a deal as a card (name, contact, value, owner, expected close date; a red edge when the
// deal is rotting) instead of creating a widget per deal.
class DealCardDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    // The store's clock says which close dates have passed (drawn red).
    explicit DealCardDelegate(const Store &store, QObject *parent = nullptr)
        : QStyledItemDelegate(parent)
        , m_store(store)
    {
    }
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // A deal's name as a card shows it at this width: one line, or two (broken between words, the
    // second elided at its end).
    static QStringList nameLines(const QString &name, const QFont &font, int width);

private:
    Store m_store;
};
