#include "ui/shell/navigationdelegate.h"

#include "ui/shell/uikit.h"

#include <QPainter>
#include <QPainterPath>

namespace {
constexpr int kIconSize = 20;
}

QString NavigationDelegate::countText(int count)
{
    return count > 99 ? QStringLiteral("99+") : QString::number(count);
}

void NavigationDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    using namespace UiKit;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = option.palette;
    const bool selected = option.state & QStyle::State_Selected;
    const bool hovered = option.state & QStyle::State_MouseOver;
    const bool dark = scheme() == Scheme::Dark;
    const QRect r = option.rect.adjusted(Space::S, Space::XS / 2, -Space::S, -Space::XS / 2);
    if (selected || hovered) {
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlphaF(selected ? (dark ? 0.30 : 0.13) : (dark ? 0.14 : 0.07));
        QPainterPath path;
        path.addRoundedRect(r, 6, 6);
        painter->fillPath(path, fill);
    }
    if (option.state & QStyle::State_HasFocus) {
        QPainterPath path;
        path.addRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        painter->setPen(QPen(pal.color(QPalette::Highlight), 1.5));
        painter->drawPath(path);
    }
    const QColor ink = selected ? color(Tone::Accent) : pal.color(QPalette::Text);
    const QRect content = r.adjusted(Space::M - Space::S / 2, 0, -Space::S, 0);
    const QString iconName = index.data(IconRole).toString();
    int x = content.left();
    if (!iconName.isEmpty()) {
        const QIcon icon = UiKit::icon(iconName, selected ? ink : color(Tone::Muted), kIconSize);
        icon.paint(painter, QRect(x, content.center().y() - kIconSize / 2 + 1, kIconSize, kIconSize));
        x += kIconSize + Space::M - Space::XS;
    }
    int right = content.right();
    const int count = index.data(CountRole).toInt();
    if (count > 0) {
        QFont badgeFont = UiKit::font(Type::Caption);
        badgeFont.setBold(true);
        const QFontMetrics bm(badgeFont);
        const QString text = countText(count);
        const int h = bm.height() + 2;
        const int w = qMax(h, bm.horizontalAdvance(text) + Space::S + Space::XS);
        const QRect badge(right - w + 1, content.center().y() - h / 2 + 1, w, h);
        const auto tone = Tone(index.data(CountToneRole).toInt());
        // White on the red / the selection blue: 4.5:1 or more in both schemes.
        const QColor fill = tone == Tone::Danger ? (dark ? QColor(0xd9, 0x3c, 0x2f) : QColor(0xc0, 0x39, 0x2b))
                                                 : pal.color(QPalette::Highlight);
        QPainterPath pill;
        pill.addRoundedRect(badge, h / 2.0, h / 2.0);
        painter->fillPath(pill, fill);
        painter->setFont(badgeFont);
        painter->setPen(Qt::white);
        painter->drawText(badge, Qt::AlignCenter, text);
        right = badge.left() - Space::S;
    }
    QFont textFont = option.font;
    if (selected)
        textFont.setWeight(QFont::DemiBold);
    painter->setFont(textFont);
    painter->setPen(ink);
    const QFontMetrics fm(textFont);
    const QRect textRect(x, content.top(), right - x, content.height());
    painter->drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                      fm.elidedText(index.data(Qt::DisplayRole).toString(), Qt::ElideRight, textRect.width()));
    painter->restore();
}

QSize NavigationDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QFontMetrics fm(option.font);
    const int h = qMax(kIconSize, fm.height()) + 2 * UiKit::Space::S + UiKit::Space::XS;
    return {fm.horizontalAdvance(index.data(Qt::DisplayRole).toString()) + kIconSize + 2 * UiKit::Space::L, h};
}
