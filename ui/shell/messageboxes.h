#pragma once

#include <QString>

#include <functional>

class QWidget;

// Questions and notices shown with QDialog::open() instead of exec(): no nested event loop (an
// EventBus signal or a server reply is handled while the box is up) and tests answer the box by
// finding it (QApplication::activeModalWidget()) and clicking its buttons, never blocking on it.
namespace MessageBoxes {
// A window-modal Yes/No question; onYes runs when the user confirms. The Yes button says acceptText.
void confirm(QWidget *parent, const QString &title, const QString &text, const QString &acceptText,
             std::function<void()> onYes);
// A window-modal warning with an OK button.
void warn(QWidget *parent, const QString &title, const QString &text);
} // namespace MessageBoxes
