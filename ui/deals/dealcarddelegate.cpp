#include "ui/deals/dealcarddelegate.h"

#include "ui/deals/dealcolumnmodel.h"

#include <QApplication>
#include <QDate>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

void DealCardDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect r = option.rect.adjusted(2, 1, -2, -1);
    const QPalette &pal = option.palette;
    const bool selected = option.state & QStyle::State_Selected;
    QPainterPath card;
    card.addRoundedRect(r, 5, 5);
    painter->fillPath(card, selected ? pal.color(QPalette::Highlight).lighter(170) : pal.color(QPalette::Base));
    painter->setPen(QPen(pal.color(QPalette::Mid), 1));
    painter->drawPath(card);
    if (index.data(DealColumnModel::RottenRole).toBool())
        painter->fillRect(QRect(r.left(), r.top() + 3, 4, r.height() - 6), QColor(0xc0, 0x39, 0x2b));

    const QRect text = r.adjusted(10, 5, -8, -5);
    const QFontMetrics fm(option.font);
    const int line = fm.height();
    QFont bold = option.font;
    bold.setBold(true);
    painter->setPen(pal.color(QPalette::Text));
    painter->setFont(bold);
    // The deal's name has the first line to itself (a value beside it cut names short); the value
    // and the expected close (red once passed) share the second; the contact and the owner the third,
    // the contact first.
    const QFontMetrics boldMetrics(bold);
    const auto row = [&](int n) { return QRect(text.left(), text.top() + n * (line + 2), text.width(), line); };
    painter->drawText(row(0), Qt::AlignLeft,
                      boldMetrics.elidedText(index.data(Qt::DisplayRole).toString(), Qt::ElideRight, text.width()));
    const QString value = index.data(DealColumnModel::ValueRole).toString();
    painter->drawText(row(1), Qt::AlignLeft, value);

    painter->setFont(option.font);
    const QDate closeDate = QDate::fromString(index.data(DealColumnModel::CloseDateRole).toString(), Qt::ISODate);
    if (closeDate.isValid()) {
        const bool overdue = closeDate < QDate::currentDate();
        const int room = text.width() - boldMetrics.horizontalAdvance(value) - 6;
        painter->setPen(overdue ? QColor(0xc0, 0x39, 0x2b) : pal.color(QPalette::PlaceholderText));
        painter->drawText(row(1), Qt::AlignRight,
                          fm.elidedText(tr("closes %1").arg(QLocale().toString(closeDate, QLocale::ShortFormat)),
                                        Qt::ElideLeft, room));
    }
    painter->setPen(pal.color(QPalette::PlaceholderText));
    const QString contact = index.data(DealColumnModel::ContactRole).toString();
    const QString owner = index.data(DealColumnModel::OwnerRole).toString();
    const QString contactText = contact.isEmpty() ? tr("No contact") : contact;
    // The contact first; the owner (when there is one) in what it leaves, at most two fifths.
    const int contactWidth = qMin(fm.horizontalAdvance(contactText), text.width());
    const int ownerWidth = owner.isEmpty() ? 0
                                           : qMin(fm.horizontalAdvance(owner),
                                                  qMin(text.width() * 2 / 5, text.width() - contactWidth - 8));
    const bool showOwner = ownerWidth > fm.averageCharWidth() * 4;
    painter->drawText(
        row(2), Qt::AlignLeft,
        fm.elidedText(contactText, Qt::ElideRight, showOwner ? text.width() - ownerWidth - 8 : text.width()));
    if (showOwner)
        painter->drawText(row(2), Qt::AlignRight, fm.elidedText(owner, Qt::ElideRight, ownerWidth));
    painter->restore();
}

QSize DealCardDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const int line = QFontMetrics(option.font).height();
    // Narrower than any column: the list view stretches each card to its width (no sideways scrolling).
    return {140, 3 * line + 2 * 2 + 14};
}
