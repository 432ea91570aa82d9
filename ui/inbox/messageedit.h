#pragma once

#include <QPlainTextEdit>

// A composer for chat messages: Enter submits, Shift+Enter starts a new line, and the field grows
// with its text from one line up to kMaxLines (then it scrolls).
class MessageEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    static constexpr int kMaxLines = 6;

    explicit MessageEdit(QWidget *parent = nullptr);

    QString text() const { return toPlainText(); }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // Enter (without Shift) was pressed.
    void submitted();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void fitHeight();
    int heightForLines(int lines) const;
};
