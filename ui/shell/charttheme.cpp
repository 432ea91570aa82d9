#include "ui/shell/charttheme.h"

#include "ui/shell/uikit.h"

#include <QAbstractAxis>
#include <QBarSet>
#include <QChart>
#include <QPen>

void ChartTheme::applyToBars(QChart *chart, QBarSet *set, QAbstractAxis *x, QAbstractAxis *y)
{
    const QPalette pal = UiKit::palette(UiKit::scheme());
    chart->setBackgroundBrush(pal.color(QPalette::Base));
    chart->setBackgroundPen(QPen(pal.color(QPalette::Mid)));
    chart->setBackgroundRoundness(6);
    chart->setTitleBrush(pal.color(QPalette::Text));
    QFont titleFont = UiKit::font(UiKit::Type::Caption);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    set->setColor(pal.color(QPalette::Highlight));
    set->setBorderColor(pal.color(QPalette::Highlight));
    for (QAbstractAxis *axis : {x, y}) {
        axis->setLabelsBrush(pal.color(QPalette::Text));
        axis->setLabelsFont(UiKit::font(UiKit::Type::Caption));
        axis->setLinePenColor(pal.color(QPalette::Mid));
        axis->setGridLineColor(pal.color(QPalette::Mid));
    }
}
