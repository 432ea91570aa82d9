#pragma once

#include <QString>
#include <QWidget>

class QMenu;
class QToolButton;

// The thumbs of one of the assistant's answers (a message of the Inbox's thread, the composer's
// suggestion): thumbs up and thumbs down, the one the signed-in user gave checked; the arrow of
// thumbs down (or Alt+Down, F4 on it) gives a reason. A click asks for the rating through rated();
// the owner records it (AiAnswerRepository::giveFeedback, which replaces an earlier one) and shows
// what was stored with setRating(). There is no "no feedback" to go back to, as in the model.
class AiFeedbackButtons : public QWidget
{
    Q_OBJECT
public:
    explicit AiFeedbackButtons(QWidget *parent = nullptr);

    // What is shown as given: 1 up, -1 down, 0 none; reason: of thumbs down (empty: none).
    void setRating(int rating, const QString &reason = {});
    int rating() const { return m_rating; }
    QString reason() const { return m_reason; }
    // Nobody to give it (no user signed in): both disabled, why as their tooltip. Empty: enabled.
    void setUnavailable(const QString &why);

    QToolButton *upButton() const { return m_up; }
    QToolButton *downButton() const { return m_down; }
    QMenu *reasonMenu() const { return m_reasons; }

    // incorrect, incomplete, outdated, inappropriate, other in the window's language, as a menu
    // item ("Wrong") or inside a sentence ("wrong").
    static QString reasonName(const QString &reason);
    static QString reasonWords(const QString &reason);
    // A sentence for screen readers and tooltips: what was given ("You marked it not helpful: out of date").
    static QString stateText(int rating, const QString &reason);

signals:
    void rated(int rating, const QString &reason);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void showState();
    void restyle();

    QToolButton *m_up = nullptr;
    QToolButton *m_down = nullptr;
    QMenu *m_reasons = nullptr;
    int m_rating = 0;
    QString m_reason;
    QString m_unavailable;
};
