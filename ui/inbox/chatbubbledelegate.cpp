#include "ui/inbox/chatbubbledelegate.h"

#include "ui/shell/uikit.h"

#include <QAbstractItemView>
#include <QPainter>
#include <QPainterPath>
#include <QTextLayout>

namespace {
constexpr int kSide = 8;   // space between a bubble and the view's edge
constexpr int kGap = 3;    // space above a bubble
constexpr int kPad = 8;    // space inside a bubble
constexpr int kRadius = 9; // corners
constexpr int kMinText = 80;
constexpr int kActionsGap = 2; // between a bubble and the widget under it

QColor mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

QFont smallFont(const QFont &base)
{
    QFont f = base;
    if (base.pointSizeF() > 0)
        f.setPointSizeF(base.pointSizeF() * 0.85);
    else
        f.setPixelSize(qMax(8, int(base.pixelSize() * 0.85)));
    return f;
}

// Lays `text` out in lines of at most `width` (breaking long words too); returns the size used.
QSizeF layOut(QTextLayout &layout, int width)
{
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.setCacheEnabled(true);
    qreal y = 0;
    qreal w = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        line.setPosition(QPointF(0, y));
        y += line.height();
        w = qMax(w, line.naturalTextWidth());
    }
    layout.endLayout();
    return {std::ceil(w), std::ceil(y)};
}

QString forLayout(QString text)
{
    text.replace(QLatin1Char('\n'), QChar::LineSeparator);
    return text;
}
} // namespace

struct ChatBubbleDelegate::Geometry
{
    int dayHeight = 0;
    QRect bubble; // relative to the item's top left
    int senderHeight = 0;
    QSize text;
    QSize note;
    int metaHeight = 0;
    int markSize = 0; // the assistant's mark before the sender (0: none)
    QSize actions;    // the widget under the bubble
    int height = 0;
};

ChatBubbleDelegate::ChatBubbleDelegate(QAbstractItemView *view)
    : QStyledItemDelegate(view)
    , m_view(view)
{
}

int ChatBubbleDelegate::viewWidth() const
{
    const int w = m_view->viewport()->width();
    return w > 0 ? w : 400;
}

ChatBubbleDelegate::Geometry ChatBubbleDelegate::measure(const QModelIndex &index, int itemWidth) const
{
    Geometry g;
    const QFont base = m_view->font();
    const QFont small = smallFont(base);
    QFont bold = small;
    bold.setBold(true);
    const QFontMetrics smallMetrics(small);
    const QFontMetrics boldMetrics(bold);
    const int maxText = qMax(kMinText, int(itemWidth * kMaxWidthShare) - 2 * kPad);

    if (!index.data(DayRole).toString().isEmpty())
        g.dayHeight = smallMetrics.height() + 12;
    const QString sender = index.data(SenderRole).toString();
    int inner = 0;
    if (!sender.isEmpty()) {
        g.senderHeight = boldMetrics.height() + 2;
        if (index.data(AssistantRole).toBool())
            g.markSize = boldMetrics.height();
        inner = qMin(maxText, boldMetrics.horizontalAdvance(sender) + (g.markSize ? g.markSize + 3 : 0));
    }
    QTextLayout text(forLayout(index.data(Qt::DisplayRole).toString()), base);
    g.text = layOut(text, maxText).toSize();
    inner = qMax(inner, g.text.width());
    const QString note = index.data(NoteRole).toString();
    if (!note.isEmpty()) {
        QTextLayout noteLayout(forLayout(note), small);
        g.note = layOut(noteLayout, maxText).toSize();
        inner = qMax(inner, g.note.width());
    }
    const QString meta = index.data(TimeRole).toString() + QStringLiteral("  ") + index.data(TickRole).toString();
    g.metaHeight = smallMetrics.height();
    inner = qMax(inner, smallMetrics.horizontalAdvance(meta.trimmed()));

    const int bubbleHeight =
        2 * kPad + g.senderHeight + g.text.height() + (note.isEmpty() ? 0 : g.note.height() + 2) + 2 + g.metaHeight;
    const int bubbleWidth = inner + 2 * kPad;
    const bool outgoing = index.data(OutgoingRole).toBool();
    const int x = outgoing ? qMax(kSide, itemWidth - kSide - bubbleWidth) : kSide;
    g.bubble = QRect(x, g.dayHeight + kGap, bubbleWidth, bubbleHeight);
    g.actions = index.data(ActionsSizeRole).toSize();
    g.height = g.bubble.bottom() + 1 + kGap + (g.actions.isValid() ? g.actions.height() + kActionsGap : 0);
    return g;
}

QSize ChatBubbleDelegate::sizeHint(const QStyleOptionViewItem &, const QModelIndex &index) const
{
    const int width = viewWidth();
    return {width, measure(index, width).height};
}

void ChatBubbleDelegate::updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
                                              const QModelIndex &index) const
{
    const Geometry g = measure(index, option.rect.width());
    const QSize size = editor->sizeHint();
    const bool outgoing = index.data(OutgoingRole).toBool();
    const int x = outgoing ? qMax(kSide, g.bubble.right() + 1 - size.width()) : g.bubble.left();
    editor->setGeometry(QRect(option.rect.topLeft() + QPoint(x, g.bubble.bottom() + 1 + kActionsGap), size));
}

QColor ChatBubbleDelegate::assistantColor(const QPalette &palette)
{
    // A violet that stays readable as text on the light and the dark base.
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0xb3, 0x9d, 0xdb) : QColor(0x5e, 0x35, 0xb1);
}

QRect ChatBubbleDelegate::bubbleRect(const QRect &itemRect, const QModelIndex &index) const
{
    return measure(index, itemRect.width()).bubble.translated(itemRect.topLeft());
}

void ChatBubbleDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const Geometry g = measure(index, option.rect.width());
    const QPalette &pal = option.palette;
    const QColor muted = mix(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.45);
    const QFont base = m_view->font();
    const QFont small = smallFont(base);
    QFont bold = small;
    bold.setBold(true);
    const QPoint origin = option.rect.topLeft();

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);

    const QString day = index.data(DayRole).toString();
    if (!day.isEmpty()) {
        painter->setFont(small);
        const QFontMetrics fm(small);
        const QRect band(origin.x(), origin.y() + 4, option.rect.width(), fm.height());
        const int textWidth = fm.horizontalAdvance(day) + 16;
        const int mid = band.center().y();
        painter->setPen(QPen(mix(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.8), 1));
        painter->drawLine(band.left() + kSide, mid, band.center().x() - textWidth / 2, mid);
        painter->drawLine(band.center().x() + textWidth / 2, mid, band.right() - kSide, mid);
        painter->setPen(muted);
        painter->drawText(band, Qt::AlignCenter, day);
    }

    const bool outgoing = index.data(OutgoingRole).toBool();
    const bool assistant = index.data(AssistantRole).toBool();
    const QRect bubble = g.bubble.translated(origin);
    const QColor fill = assistant  ? mix(pal.color(QPalette::Base), assistantColor(pal), 0.14)
                        : outgoing ? mix(pal.color(QPalette::Base), pal.color(QPalette::Highlight), 0.16)
                                   : mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.07);
    QPainterPath path;
    path.addRoundedRect(QRectF(bubble).adjusted(0.5, 0.5, -0.5, -0.5), kRadius, kRadius);
    painter->fillPath(path, fill);
    if (option.state & QStyle::State_Selected) {
        painter->setPen(QPen(pal.color(QPalette::Highlight), 1.5));
        painter->drawPath(path);
    }

    int y = bubble.top() + kPad;
    const int x = bubble.left() + kPad;
    const int innerWidth = bubble.width() - 2 * kPad;
    const QString sender = index.data(SenderRole).toString();
    if (!sender.isEmpty()) {
        int nameX = x;
        if (g.markSize > 0) {
            // The assistant's mark (its area's icon) before its name.
            const QColor color = assistantColor(pal);
            const QString key = color.name() + QString::number(g.markSize);
            if (!m_marks.contains(key)) // drawn once per colour and size, not at every paint
                m_marks.insert(key, UiKit::icon(QStringLiteral("assistant"), color, g.markSize));
            m_marks.value(key).paint(painter, QRect(x, y, g.markSize, g.markSize));
            nameX += g.markSize + 3;
        }
        painter->setFont(bold);
        painter->setPen(assistant ? assistantColor(pal) : outgoing ? muted : pal.color(QPalette::Link));
        const int nameWidth = innerWidth - (nameX - x);
        painter->drawText(QRect(nameX, y, nameWidth, g.senderHeight), Qt::AlignLeft | Qt::AlignTop,
                          QFontMetrics(bold).elidedText(sender, Qt::ElideRight, nameWidth));
        y += g.senderHeight;
    }

    const int maxText = qMax(kMinText, int(option.rect.width() * kMaxWidthShare) - 2 * kPad);
    painter->setPen(pal.color(QPalette::Text));
    QTextLayout text(forLayout(index.data(Qt::DisplayRole).toString()), base);
    layOut(text, maxText);
    text.draw(painter, QPointF(x, y));
    y += g.text.height();

    const QString note = index.data(NoteRole).toString();
    const QVariant tickColor = index.data(TickColorRole);
    if (!note.isEmpty()) {
        y += 2;
        painter->setPen(tickColor.canConvert<QColor>() ? tickColor.value<QColor>() : muted);
        QTextLayout noteLayout(forLayout(note), small);
        layOut(noteLayout, maxText);
        noteLayout.draw(painter, QPointF(x, y));
        y += g.note.height();
    }

    y += 2;
    painter->setFont(small);
    const QFontMetrics fm(small);
    const QString tick = index.data(TickRole).toString();
    int right = bubble.right() - kPad;
    if (!tick.isEmpty()) {
        const int w = fm.horizontalAdvance(tick);
        painter->setPen(tickColor.canConvert<QColor>() ? tickColor.value<QColor>() : muted);
        painter->drawText(QRect(right - w, y, w, g.metaHeight), Qt::AlignRight | Qt::AlignVCenter, tick);
        right -= w + fm.horizontalAdvance(QLatin1Char(' '));
    }
    painter->setPen(muted);
    painter->drawText(QRect(x, y, right - x, g.metaHeight), Qt::AlignRight | Qt::AlignVCenter,
                      index.data(TimeRole).toString());
    painter->restore();
}
