#pragma once

class QAbstractAxis;
class QBarSet;
class QChart;

// The window's scheme on a bar chart (the pipeline's funnel, a campaign's funnel): the base colour
// behind a rounded frame, the text colour and caption font for the title and the axes, the
// selection colour's bars.
namespace ChartTheme {
void applyToBars(QChart *chart, QBarSet *set, QAbstractAxis *x, QAbstractAxis *y);
} // namespace ChartTheme
