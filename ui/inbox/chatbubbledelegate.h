#pragma once

#include <QHash>
#include <QIcon>
#include <QStyledItemDelegate>

class QAbstractItemView;

// Paints a conversation's messages as chat bubbles: incoming on the left, outgoing on the right,
// each with its sender, the time and (outgoing) the delivery ticks under the text, and a day
// separator ("Today", "Yesterday", the date) above the first message of each day. The assistant's
// messages have a tint of their own and its mark before the sender, and room under the bubble for
// their thumbs. The item's display text is the message itself; the rest comes from the roles below.
class ChatBubbleDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    enum Role
    {
        OutgoingRole = Qt::UserRole + 20, // bool
        SenderRole,                       // who wrote it, shown above the text
        TimeRole,                         // "14:05", shown under the text
        TickRole,                         // "✓", "✓✓", … (outgoing)
        TickColorRole,                    // QColor of the ticks (read: blue, failed: red); none: muted
        DayRole,                          // the separator's text when the message opens a day, else empty
        NoteRole,                         // a line under the text (a failure reason, an attachment)
        AssistantRole,                    // bool: the assistant wrote it (its tint, its mark before the sender)
        ActionsSizeRole, // QSize of the widget under the bubble (the assistant's thumbs); none: no room
    };

    // The bubbles are at most this share of the view's width.
    static constexpr qreal kMaxWidthShare = 0.72;
    // The assistant's colour: its bubbles' tint and its name.
    static QColor assistantColor(const QPalette &palette);

    explicit ChatBubbleDelegate(QAbstractItemView *view);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // The item's widget (QListWidget::setItemWidget: the thumbs) goes under its bubble, at the
    // bubble's outer edge, in the room ActionsSizeRole keeps.
    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const override;

    // Where the bubble of `index` is drawn inside an item rectangle (tests check the side).
    QRect bubbleRect(const QRect &itemRect, const QModelIndex &index) const;

private:
    struct Geometry;
    Geometry measure(const QModelIndex &index, int itemWidth) const;
    int viewWidth() const;

    QAbstractItemView *m_view;
    mutable QHash<QString, QIcon> m_marks; // the assistant's mark by colour and size
};
