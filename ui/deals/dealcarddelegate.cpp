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
    const QString name = index.data(Qt::DisplayRole).toString();
    const QString value = index.data(DealColumnModel::ValueRole).toString();
    const int valueWidth = QFontMetrics(bold).horizontalAdvance(value);
    painter->drawText(QRect(text.left(), text.top(), text.width() - valueWidth - 6, line), Qt::AlignLeft,
                      QFontMetrics(bold).elidedText(name, Qt::ElideRight, text.width() - valueWidth - 6));
    painter->drawText(QRect(text.left(), text.top(), text.width(), line), Qt::AlignRight, value);

    painter->setFont(option.font);
    painter->setPen(pal.color(QPalette::PlaceholderText));
    const QString contact = index.data(DealColumnModel::ContactRole).toString();
    painter->drawText(QRect(text.left(), text.top() + line + 2, text.width(), line), Qt::AlignLeft,
                      fm.elidedText(contact.isEmpty() ? tr("No contact") : contact, Qt::ElideRight, text.width()));
    const QString owner = index.data(DealColumnModel::OwnerRole).toString();
    // The expected close in the locale's short date; red once it has passed.
    const QDate closeDate = QDate::fromString(index.data(DealColumnModel::CloseDateRole).toString(), Qt::ISODate);
    const QString closes =
        closeDate.isValid() ? tr("closes %1").arg(QLocale().toString(closeDate, QLocale::ShortFormat)) : QString();
    const bool overdue = closeDate.isValid() && closeDate < QDate::currentDate();
    const int dateWidth = fm.horizontalAdvance(closes);
    painter->drawText(
        QRect(text.left(), text.top() + 2 * (line + 2), text.width() - dateWidth - 6, line), Qt::AlignLeft,
        fm.elidedText(owner.isEmpty() ? tr("Unassigned") : owner, Qt::ElideRight, text.width() - dateWidth - 6));
    if (overdue)
        painter->setPen(QColor(0xc0, 0x39, 0x2b));
    painter->drawText(QRect(text.left(), text.top() + 2 * (line + 2), text.width(), line), Qt::AlignRight, closes);
    painter->restore();
}

QSize DealCardDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const int line = QFontMetrics(option.font).height();
    // Narrower than any column: the list view stretches each card to its width (no sideways scrolling).
    return {140, 3 * line + 2 * 2 + 14};
}
