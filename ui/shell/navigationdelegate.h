#pragma once

#include <QStyledItemDelegate>

// Paints an entry of the window's navigation: the area's line icon, its name, and on the right a
// count badge (unread conversations in the accent colour, overdue tasks in red) when the count is
// above 0. The entry's data: the name (DisplayRole), IconRole (the icon's name in
// resources/icons/ui), CountRole (int) and CountToneRole (UiKit::Tone).
class NavigationDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    enum Role
    {
        IconRole = Qt::UserRole + 40,
        CountRole,
        CountToneRole,
    };
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // "99+" above 99.
    static QString countText(int count);
};
