#pragma once

#include "model/assistant/assistant.h"
#include "model/core/store.h"
#include "ui/shell/backgroundworker.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <optional>

class KnowledgeIndex;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

// Asks the assistant a question as a customer would, and shows what it makes of it: whether it
// answers or hands the question to a person (and why), the reply the customer would get, its
// confidence and margin against the thresholds, and the ranked candidates (each entry's question,
// BM25F score, coverage, confidence and the words it matched). A double-click on a candidate opens
// that entry. It stores nothing. The question is asked in the worker thread, of the process's
// KnowledgeIndex brought up to the stored entries first (KnowledgeIndex::refresh).
class AssistantTestConsole : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        QuestionColumn,
        ScoreColumn,
        CoverageColumn,
        ConfidenceColumn,
        MatchedColumn,
        ColumnCount
    };

    AssistantTestConsole(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent = nullptr);

    QLineEdit *questionField() const { return m_question; }
    // Automatic (detected), Türkçe, English: the language code in the item's data ("" automatic).
    QComboBox *languageChoice() const { return m_language; }
    QPushButton *askButton() const { return m_ask; }
    QLabel *decisionLabel() const { return m_decision; }
    QLabel *measuresLabel() const { return m_measures; }
    QPlainTextEdit *replyText() const { return m_reply; }
    QLabel *notesLabel() const { return m_notes; }
    QTableWidget *candidatesTable() const { return m_candidates; }
    bool isAsking() const { return m_asking; }
    // The last reply shown (none before the first question).
    const std::optional<AssistantReply> &lastReply() const { return m_last; }
    AssistantThresholds thresholds() const { return m_thresholds; }
    void setThresholds(AssistantThresholds thresholds) { m_thresholds = thresholds; }

public slots:
    void focusQuestion();
    // Asks the question in the field (again, when it was asked before).
    void ask();

signals:
    // A candidate's entry to open (a double-click or Enter on its row).
    void entryRequested(const QString &id);
    // The reply to the question asked is shown (or why it could not be asked).
    void answered();

private:
    void showReply(const AssistantReply &reply, const QHash<QString, QString> &questions, const QString &error);

    Store m_store;
    std::shared_ptr<KnowledgeIndex> m_index;
    AssistantThresholds m_thresholds;
    QLineEdit *m_question = nullptr;
    QComboBox *m_language = nullptr;
    QPushButton *m_ask = nullptr;
    QLabel *m_decision = nullptr;
    QLabel *m_measures = nullptr;
    QPlainTextEdit *m_reply = nullptr;
    QLabel *m_replyLabel = nullptr;
    QLabel *m_notes = nullptr;
    QLabel *m_emptyHint = nullptr;
    QTableWidget *m_candidates = nullptr;
    std::optional<AssistantReply> m_last;
    bool m_asking = false;
    bool m_askAgain = false;   // asked while a question was out: ask once more when it is back
    BackgroundWorker m_worker; // last: destroyed first, waiting for its job while the rest is here
};
