#pragma once

#include <QString>

class QAbstractItemView;
class QLabel;

// A grey sentence in the middle of a list or table while it has no rows ("No tasks here…"), so that
// an empty view says what it is for and how to fill it. Follows the view's model (also a model set
// later). Returns the label (objectName "emptyHint").
QLabel *installEmptyHint(QAbstractItemView *view, const QString &text);
