#pragma once

#include "model/assistant/assistant.h"
#include "model/assistant/knowledgesuggestions.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "ui/shell/backgroundworker.h"
#include "ui/shell/liveread.h"

#include <QPointer>
#include <QSet>
#include <QWidget>

#include <memory>

class KnowledgeEditor;
class KnowledgeIndex;
class PagerBar;
class QLabel;
class QPushButton;
class QTableWidget;

// What the knowledge base could learn next: the questions the assistant handed to a person for want
// of knowledge, grouped when customers asked the same in other words (KnowledgeSuggestions: the
// question asked most, its other wordings, how many times and when it was last asked, its language),
// most asked first, a page at a time. "Accept…" (Enter, a double-click) opens the knowledge editor
// on the question, editable, in its language, for the answer to be written: saving makes the entry
// and the group leaves the list. "Dismiss" (Delete) takes the group off the list for good: with
// Undo at the window's foot for a few seconds (after a question when the view has no undo bar).
//
// Grouping reads every open question and asks the assistant about each group (about 0.4 s for
// 10,000 questions in 75 groups, 2.3 s in 624, on the 2-core machine): the list is read, and a
// suggestion accepted or dismissed, in a thread of the panel's own with its own connection, the
// table showing the last list meanwhile. Follows the event bus (a question recorded or answered,
// an entry changed), at most every RefreshDelayMs while in sight; out of sight it reads when shown.
class SuggestionsPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int PageSize = 50;
    static constexpr int RefreshDelayMs = 500;
    enum Column
    {
        QuestionColumn,
        CountColumn,
        LastSeenColumn,
        LanguageColumn,
        ColumnCount
    };

    SuggestionsPanel(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent = nullptr);
    ~SuggestionsPanel() override;

    // The assistant's thresholds (ai/answerThreshold, ai/marginThreshold): a group the assistant
    // now answers leaves the list.
    void setThresholds(AssistantThresholds thresholds) { m_thresholds = thresholds; }

    QTableWidget *table() const { return m_table; }
    PagerBar *pager() const { return m_pager; }
    QPushButton *acceptButton() const { return m_accept; }
    QPushButton *dismissButton() const { return m_dismiss; }
    QLabel *detailsLabel() const { return m_details; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *emptyHint() const { return m_emptyHint; }
    KnowledgeEditor *openEditor() const { return m_editor; }
    bool isReading() const { return m_live.isReading(); }
    // Every open suggestion as last read, those dismissed under Undo left out.
    QVector<KnowledgeSuggestion> shown() const;
    QString currentSuggestionId() const;
    bool selectSuggestion(const QString &id);

public slots:
    void focusList();
    // Reads the suggestions again (in the worker).
    void refresh();
    void acceptSuggestion();
    void dismissSuggestion();

signals:
    // A read came back and the table shows it.
    void listed();
    // A suggestion's entry was saved.
    void accepted(const QString &entryId);
    // A suggestion was dismissed in the database (after its Undo ran out).
    void dismissed(const QString &suggestionId);

protected:
    void showEvent(QShowEvent *event) override;

private:
    // Starts a read of the suggestions in the worker (m_live decides when).
    void startRead();
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void onListed(const QVector<KnowledgeSuggestion> &list, const QString &error);
    void showPage();
    void showDetails();
    void updateActions();
    void showMessage(const QString &text, bool error = false);
    void dismissNow(const QString &id);
    const KnowledgeSuggestion *current() const;

    Store m_store;
    std::shared_ptr<KnowledgeIndex> m_index;
    AssistantThresholds m_thresholds;
    QVector<KnowledgeSuggestion> m_all;
    QSet<QString> m_hidden; // dismissed, Undo still offered
    QTableWidget *m_table = nullptr;
    PagerBar *m_pager = nullptr;
    QPushButton *m_accept = nullptr;
    QPushButton *m_dismiss = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_emptyHint = nullptr;
    QPointer<KnowledgeEditor> m_editor;
    QString m_selectAfterRefresh;
    bool m_read = false; // a list came back at least once
    bool m_readFailed = false;
    LiveRead m_live{this, RefreshDelayMs, [this] { startRead(); }};
    BackgroundWorker m_worker; // last: destroyed first, waiting for its job while the rest is here
};
