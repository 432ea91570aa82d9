#pragma once

#include <QLabel>

// A one-line label that, narrower than its text, shows as much as fits and "…" rather than a text
// cut in the middle of a letter. text() and what a screen reader reads stay the whole text, and the
// whole text is the tooltip while it is cut. Asks for no more width than a few characters, so that
// a long name never widens its row; plain text only.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    explicit ElidedLabel(const QString &text, QWidget *parent = nullptr);

    // Whether the text shows cut (with "…") at the label's width.
    bool isElided() const;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
};
