#pragma once

#include <QFrame>
#include <QTimer>

#include <functional>

class QLabel;
class QPushButton;

// "Task deleted. [Undo]" at the foot of the window for a few seconds after a delete or a status
// change. A delete offered here is only carried out (commit) when the time is up, when another
// action is offered, or when the program closes; Undo drops it (the views hide the record
// meanwhile). A status change is done at once and Undo reverses it. One offer at a time.
class UndoBar : public QFrame
{
    Q_OBJECT
public:
    static constexpr int kSeconds = 8;

    explicit UndoBar(QWidget *window);
    ~UndoBar() override;

    // The bar of the window `widget` is in; nullptr when it has none (a view shown on its own).
    static UndoBar *of(const QWidget *widget);

    // Shows `text` with Undo. `undo` runs when Undo is pressed; `commit` when the offer ends
    // otherwise. A pending offer is committed first.
    void offer(const QString &text, std::function<void()> undo, std::function<void()> commit = {});
    // Ends the pending offer, carrying out its commit (time up, window closing, program quitting).
    void commitPending();
    // Presses Undo (also what the button and Ctrl+Z do).
    void undo();
    bool hasOffer() const { return bool(m_undo) || bool(m_commit); }
    QPushButton *undoButton() const { return m_button; }
    QLabel *label() const { return m_label; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void place();

    QLabel *m_label = nullptr;
    QPushButton *m_button = nullptr;
    QTimer m_timer;
    std::function<void()> m_undo;
    std::function<void()> m_commit;
};
