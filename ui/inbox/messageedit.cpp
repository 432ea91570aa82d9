#include "ui/inbox/messageedit.h"

#include <QAbstractTextDocumentLayout>
#include <QKeyEvent>
#include <QTextBlock>
#include <QTextLayout>

MessageEdit::MessageEdit(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setTabChangesFocus(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &MessageEdit::fitHeight);
    fitHeight();
}

int MessageEdit::heightForLines(int lines) const
{
    const QMargins m = contentsMargins();
    return lines * fontMetrics().lineSpacing() + 2 * int(document()->documentMargin()) + m.top() + m.bottom();
}

void MessageEdit::fitHeight()
{
    // The plain text layout's document height is its number of visual lines.
    const int lines = qBound(1, int(document()->documentLayout()->documentSize().height()), kMaxLines);
    const int h = heightForLines(lines);
    // A scroll bar only once the field stops growing (at one line its arrows would cover the text).
    setVerticalScrollBarPolicy(lines < kMaxLines ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    if (h != height()) {
        setFixedHeight(h);
        updateGeometry();
    }
}

QSize MessageEdit::sizeHint() const
{
    return {QPlainTextEdit::sizeHint().width(), heightForLines(1)};
}

QSize MessageEdit::minimumSizeHint() const
{
    return {fontMetrics().averageCharWidth() * 10, heightForLines(1)};
}

void MessageEdit::keyPressEvent(QKeyEvent *event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && (event->modifiers() & Qt::ShiftModifier)) {
        insertPlainText(QStringLiteral("\n"));
        event->accept();
        return;
    }
    if (enter && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
        event->accept();
        emit submitted();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}
