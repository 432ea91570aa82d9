#include "ui/deals/dealcarddelegate.h"

#include "ui/deals/dealcolumnmodel.h"
#include "ui/shell/uikit.h"

#include <QApplication>
#include <QDate>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QTextLayout>

void DealCardDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect r = option.rect.adjusted(2, 1, -2, -1);
    // The theme's palette: the column's style sheet makes the view's own base colour transparent.
    const QPalette pal = UiKit::palette(UiKit::scheme());
    const bool selected = option.state & QStyle::State_Selected;
    QPainterPath card;
    card.addRoundedRect(r, 5, 5);
    // Selected: the selection colour over the card, light enough that its text stays readable in
    // both schemes (QColor::lighter made it near-white under the dark scheme's light text).
    QColor fill = pal.color(QPalette::Base);
    if (selected) {
        const QColor h = pal.color(QPalette::Highlight);
        const qreal t = UiKit::scheme() == UiKit::Scheme::Dark ? 0.35 : 0.18;
        fill = QColor::fromRgbF(fill.redF() + (h.redF() - fill.redF()) * t,
                                fill.greenF() + (h.greenF() - fill.greenF()) * t,
                                fill.blueF() + (h.blueF() - fill.blueF()) * t);
    }
    painter->fillPath(card, fill);
    painter->setPen(QPen(selected ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid), 1));
    painter->drawPath(card);
    if (index.data(DealColumnModel::RottenRole).toBool())
        painter->fillRect(QRect(r.left(), r.top() + 3, 4, r.height() - 6), UiKit::color(UiKit::Tone::Danger));

    const QRect text = r.adjusted(10, 5, -8, -5);
    const QFontMetrics fm(option.font);
    const int line = fm.height();
    QFont bold = option.font;
    bold.setBold(true);
    painter->setPen(pal.color(QPalette::Text));
    painter->setFont(bold);
    // Lines, each whole: the name (on two lines where one does not hold it: a column of a six-stage
    // board on a 1,366-pixel screen cut most names to a word and a half); the value, and the owner
    // where room is left; the contact; the expected close (red once passed while the deal is open).
    const QFontMetrics boldMetrics(bold);
    const QStringList name = nameLines(index.data(Qt::DisplayRole).toString(), bold, text.width());
    const auto row = [&](int n) {
        return QRect(text.left(), text.top() + (n + name.size() - 1) * (line + 2), text.width(), line);
    };
    for (int i = 0; i < name.size(); ++i)
        painter->drawText(row(i - name.size() + 1), Qt::AlignLeft, name.at(i));
    const QString value = index.data(DealColumnModel::ValueRole).toString();
    painter->drawText(row(1), Qt::AlignLeft, boldMetrics.elidedText(value, Qt::ElideRight, text.width()));

    painter->setFont(option.font);
    painter->setPen(pal.color(QPalette::PlaceholderText));
    const QString owner = index.data(DealColumnModel::OwnerRole).toString();
    const int ownerRoom = text.width() - boldMetrics.horizontalAdvance(value) - 8;
    if (!owner.isEmpty() && ownerRoom > fm.averageCharWidth() * 4)
        painter->drawText(row(1), Qt::AlignRight, fm.elidedText(owner, Qt::ElideRight, ownerRoom));
    const QString contact = index.data(DealColumnModel::ContactRole).toString();
    painter->drawText(row(2), Qt::AlignLeft,
                      fm.elidedText(contact.isEmpty() ? tr("No contact") : contact, Qt::ElideRight, text.width()));
    const QDate closeDate = QDate::fromString(index.data(DealColumnModel::CloseDateRole).toString(), Qt::ISODate);
    // A won or lost deal is closed: its expected date passing is no longer a warning.
    const QString stage = index.data(DealColumnModel::StageRole).toString();
    const bool closed = stage == QLatin1String("won") || stage == QLatin1String("lost");
    if (closeDate.isValid()) {
        if (!closed && closeDate < m_store.today())
            painter->setPen(UiKit::color(UiKit::Tone::Danger));
        painter->drawText(row(3), Qt::AlignLeft,
                          fm.elidedText(tr("closes %1").arg(QLocale().toString(closeDate, QLocale::ShortFormat)),
                                        Qt::ElideRight, text.width()));
    }
    painter->restore();
}

QSize DealCardDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const int line = QFontMetrics(option.font).height();
    // Narrower than any column: the list view stretches each card to its width (no sideways
    // scrolling). One height for every card (the columns lay out uniform items): room for a name on
    // two lines.
    return {140, 5 * line + 4 * 2 + 14};
}

QStringList DealCardDelegate::nameLines(const QString &name, const QFont &font, int width)
{
    const QFontMetrics metrics(font);
    if (metrics.horizontalAdvance(name) <= width)
        return {name};
    // The first line broken between words (within a word only when one does not fit), the rest on
    // the second, elided at its end.
    QTextLayout layout(name, font);
    QTextOption wrap;
    wrap.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(wrap);
    layout.beginLayout();
    QTextLine first = layout.createLine();
    first.setLineWidth(width);
    layout.endLayout();
    const int cut = qMax(1, first.textLength());
    return {name.left(cut).trimmed(), metrics.elidedText(name.mid(cut).trimmed(), Qt::ElideRight, width)};
}
