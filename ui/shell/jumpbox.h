#pragma once

#include "model/core/store.h"

#include <QDialog>
#include <QThreadPool>
#include <QVector>

#include <atomic>

class QLabel;
class QLineEdit;
class QListWidget;
class QTimer;

// "Jump to" (Ctrl+K): a small box with a field and a list that finds any contact, deal,
// conversation or task by name as the user types, at most kPerKind of each. Contacts are found
// through the contacts' full-text search; deals by their name, their contact's name or company;
// conversations by their contact's name; tasks by their title, every word folded as search folds
// text (TextFold). The searches run in a worker thread of the box's own (its own database
// connection), after a short pause in the typing, and a newer search supersedes an older one, so
// that typing never waits for the database. Up and Down move through the list, Enter (or a click)
// opens the chosen record through chosen(); Escape closes the box.
class JumpBox : public QDialog
{
    Q_OBJECT
public:
    enum Kind
    {
        Contact,
        Deal,
        Conversation,
        Task
    };
    struct Hit
    {
        Kind kind;
        QString id;
        QString title;
        QString detail; // what tells namesakes apart
    };
    static constexpr int kPerKind = 8;
    static constexpr int kDelayMs = 120;
    static constexpr int KindRole = Qt::UserRole + 1;
    static constexpr int IdRole = Qt::UserRole + 2;

    explicit JumpBox(const Store &store, QWidget *parent = nullptr);
    ~JumpBox() override;

    QLineEdit *field() const { return m_field; }
    QListWidget *results() const { return m_list; }
    // Searches now instead of after the typing pause (tests).
    void searchNow();
    // True while a search is still to answer.
    bool busy() const { return m_pending; }
    // Empties the field and the list (the box opens that way each time).
    void reset();

    // The records whose names match `text` (run in the worker; any thread with a connection).
    static QVector<Hit> find(const Store &store, const QString &text, int perKind = kPerKind);

signals:
    void chosen(JumpBox::Kind kind, const QString &id);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showHits(const QVector<Hit> &hits, const QString &error);
    void step(int delta);
    void choose();

    Store m_store;
    QLineEdit *m_field;
    QListWidget *m_list;
    QLabel *m_status;
    QTimer *m_delay;
    QThreadPool m_pool;
    std::atomic<int> m_latest{0};
    int m_ticket = 0;
    bool m_pending = false;
    bool m_openWhenFound = false; // Enter came before the matches: the first one opens
};
