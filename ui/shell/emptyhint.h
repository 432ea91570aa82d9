#pragma once

#include <QString>

#include <functional>

class QAbstractItemView;
class QLabel;
class QPushButton;
class QWidget;

// What a list or table says while it has no rows, over its middle: an icon (optional), a short
// sentence ("No tasks here…") and one button that does the obvious next thing ("New contact",
// "Clear the search"), so that an empty view says what it is for and how to fill it. Follows the
// view's model (also a model set later). Returns the sentence's label (objectName "emptyHint"; its
// text may change); the state around it is "emptyState", its button "emptyStateAction".
QLabel *installEmptyHint(QAbstractItemView *view, const QString &text);

// The one action of an empty state (an empty text: none). Calling it again replaces the action.
// The button's accessible name is its text.
void setEmptyHintAction(QLabel *hint, const QString &text, std::function<void()> action);
// The line icon over the sentence (resources/icons/ui/<name>.svg; empty: none).
void setEmptyHintIcon(QLabel *hint, const QString &iconName);
// The button of an empty state (nullptr for a label that is no empty state's).
QPushButton *emptyHintAction(const QLabel *hint);

// An empty state placed by its owner (over a widget that is no item view, as the deals board):
// the same look on a card of the base colour, shown and hidden by the caller, who calls
// placeEmptyState() when its parent's size changes. setEmptyHintAction/Icon take its label.
QWidget *emptyStatePanel(QWidget *parent, const QString &text, QLabel **label);
void placeEmptyState(QWidget *panel);
