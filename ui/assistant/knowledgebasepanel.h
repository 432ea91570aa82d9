#pragma once

#include "model/assistant/knowledgerepository.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "ui/assistant/knowledgeeditor.h"
#include "ui/assistant/knowledgeimportreport.h"
#include "ui/shell/backgroundworker.h"

#include <QHash>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <atomic>

class PagerBar;
class QFileDialog;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

// The assistant's knowledge base: its entries (question, type, language, tags, last change), a page
// at a time, searched as the user types (every word begins a word of the question, answer or tags,
// without case or accents, as KnowledgeRepository::list searches) and filtered by language, type and
// tag; New, Edit (also a double-click or Enter on a row) and Delete (after a question, also the
// Delete key). CSV import runs KnowledgeRepository::importCsv in a thread of its own with its own
// database connection, under a progress bar with Cancel (which stops after the batch being
// written), and ends in a report of what was made, changed and left out; CSV export writes what the
// filters show. Follows the event bus (an entry changed over the API, an import's batches).
class KnowledgeBasePanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int PageSize = 50;
    static constexpr int SearchDelayMs = 250;
    static constexpr int RefreshDelayMs = 300;
    static constexpr qint64 MaxImportBytes = 64 * 1024 * 1024;
    enum Column
    {
        QuestionColumn,
        TypeColumn,
        LanguageColumn,
        TagsColumn,
        UpdatedColumn,
        ColumnCount
    };

    explicit KnowledgeBasePanel(const Store &store, QWidget *parent = nullptr);
    ~KnowledgeBasePanel() override;

    QTableWidget *table() const { return m_table; }
    QLineEdit *searchField() const { return m_search; }
    QComboBox *languageFilter() const { return m_languageFilter; }
    QComboBox *typeFilter() const { return m_typeFilter; }
    QComboBox *tagFilter() const { return m_tagFilter; }
    PagerBar *pager() const { return m_pager; }
    // "new", "edit", "delete", "import", "export".
    QPushButton *button(const QString &action) const { return m_buttons.value(action); }
    QLabel *statusLabel() const { return m_status; }
    QLabel *emptyHint() const { return m_emptyHint; }
    QWidget *importRow() const { return m_importRow; }
    QProgressBar *importProgress() const { return m_progress; }
    QPushButton *cancelImportButton() const { return m_cancelImport; }
    KnowledgeEditor *openEditor() const { return m_editor; }
    KnowledgeImportReportDialog *importReport() const { return m_report; }
    bool isImporting() const { return m_importing; }
    const KnowledgeImportReport &lastImport() const { return m_lastImport; }
    bool isStale() const { return m_stale; }

    // What the search and filters select (every page).
    KnowledgeQuery query() const;
    QString currentEntryId() const;
    // Selects the entry's row when the page shows it (scrolled into sight unless scroll is false).
    bool selectEntry(const QString &id, bool scroll = true);

public slots:
    void focusSearch();
    void newEntry();
    void editEntry();
    // Opens the entry in the editor (an entry the filters hide too).
    void openEntry(const QString &id);
    void deleteEntry();
    void clearFilters();
    void chooseImportFile();
    void chooseExportFile();
    // Starts importing the file in the worker; false (and why, in the status line) when it cannot.
    bool importFile(const QString &path);
    void cancelImport();
    // Writes what the filters show to path as CSV; false (and why) when it cannot.
    bool exportTo(const QString &path);
    void refresh();

signals:
    void entrySaved(const QString &id);
    void importProgressed(int done, int total);
    // The import ended (done, cancelled or refused): lastImport() says what it did.
    void importFinished();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void reloadChoices();
    void updateActions();
    void showMessage(const QString &text, bool error = false);
    void openEditorFor(KnowledgeEditor *editor);
    QFileDialog *fileDialog(const QString &title, const QString &name);
    void onImportProgress(int done, int total);
    void onImportDone(const KnowledgeImportReport &report, const QString &error);

    Store m_store;
    KnowledgeRepository m_knowledge;
    QStringList m_languages; // those of the knowledge base
    QTableWidget *m_table = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_languageFilter = nullptr;
    QComboBox *m_typeFilter = nullptr;
    QComboBox *m_tagFilter = nullptr;
    PagerBar *m_pager = nullptr;
    QHash<QString, QPushButton *> m_buttons;
    QLabel *m_status = nullptr;
    QLabel *m_emptyHint = nullptr;
    QWidget *m_importRow = nullptr;
    QLabel *m_importLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelImport = nullptr;
    QPointer<KnowledgeEditor> m_editor;
    QPointer<KnowledgeImportReportDialog> m_report;
    QTimer m_refreshTimer;
    QTimer m_searchTimer;
    QString m_selectAfterRefresh;
    QString m_importName;
    QString m_importPath;
    QString m_folder; // where the file dialogs open: the last folder chosen, else Documents
    KnowledgeImportReport m_lastImport;
    bool m_stale = false;
    bool m_readFailed = false;  // the status line says the list could not be read
    bool m_liveRefresh = false; // the refresh follows the bus: the list keeps its scroll
    bool m_importing = false;
    std::atomic<bool> m_cancel{false};
    BackgroundWorker m_worker; // last: destroyed first, waiting for its job while the rest is here
};
