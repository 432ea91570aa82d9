#pragma once

#include "model/contacts/contact.h"
#include "model/core/store.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>

class ContactDetailPane;
class ContactRepository;
class ContactTableModel;
class DuplicatesDialog;
class ImportDialog;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

// The Contacts area: search-as-you-type, a tag filter, the lazy table, New/Edit/Delete and the
// detail pane. It follows the event bus: a contact changed anywhere (another thread, the API)
// refreshes the table shortly after, keeping the selected contact selected.
class BackgroundWorker;

class ContactsView : public QWidget
{
    Q_OBJECT
public:
    // Search waits this long after the last keystroke; bursts of bus events are folded as long.
    static constexpr int SearchDelayMs = 200;
    static constexpr int RefreshDelayMs = 100;

    ContactsView(ContactRepository &contacts, const Store &store, QWidget *parent = nullptr);

    ContactTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    ContactDetailPane *detailPane() const { return m_pane; }
    QLineEdit *searchField() const { return m_search; }
    QComboBox *tagFilter() const { return m_tagFilter; }
    // The contact shown in the detail pane (the one Edit and Delete act on); empty when none.
    QString currentContactId() const;
    // Selects the row of this contact when it is in the table (looked for near hintRow).
    bool selectContact(const QString &id, int hintRow = -1);
    // Shows this contact's record: its row selected when the table has it loaded, else the detail
    // pane alone (the search and filters stay as the user left them).
    void openContact(const QString &id);
    // Back to every contact with none shown: no search, no tag filter (another user signs in and
    // does not see what the last one searched and opened).
    void startOver();
    // Limits the table to a segment's members: a condition over `contacts c` with its bound values
    // (SegmentRepository::membership); an empty where shows every contact again.
    // `name`: the segment's, said where the search looks ("in segment “VIP”").
    void setSegmentFilter(const QString &where, const QVariantList &values, const QString &name = {});
    // The line under the search that says where it looks while a segment or a tag limits it.
    QWidget *searchScope() const { return m_scopeBar; }
    // The keyboard's way through the area: Down or Enter in the search moves into the table (its
    // first row selected, searched first when the typing pause has not ended yet); Enter on a row
    // opens the contact as a double-click does; Escape in the table goes back to the search.
    bool eventFilter(QObject *watched, QEvent *event) override;

public slots:
    // Puts the cursor in the search field, its text selected (Ctrl+F).
    void focusSearch();
    // Moves into the table, its first row selected (nothing happens while the table is empty).
    void focusTable();
    void newContact();
    // The selected contact, read again (an error is shown under the action's title); nullopt when
    // none is selected or it is gone.
    std::optional<Contact> selectedContact(const QString &action);
    void editContact();
    void deleteContact();
    // Opens Find duplicates (window-modal; it deletes itself when closed).
    DuplicatesDialog *findDuplicates();
    // The import dialog of contacts (window-modal, deleted when closed); returned for tests.
    ImportDialog *importContacts();
    // Asks where to save the contacts the search, tag and segment show, as CSV.
    void chooseExportFile();
    // Writes them there in a worker thread (the window goes on meanwhile); the line under the table
    // says how many when done, or why not; exportFinished() tells. False when an export runs already.
    bool exportTo(const QString &path);
    // Reloads the table, the tag list and the detail pane now.
    void refresh();

signals:
    // "Search all contacts": the segment chosen beside the table goes back to All contacts (the
    // tag filter is cleared here); the search stays.
    void searchAllRequested();
    // An export of exportTo() has ended: ok when the file was written.
    void exportFinished(bool ok);

private:
    void applyFilter();
    void reloadTags();
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void onCurrentRowChanged(int row);
    void updateActions();
    void updateCount();
    int currentRow() const;

    ContactRepository &m_contacts;
    Store m_store;
    ContactTableModel *m_model = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_tagFilter = nullptr;
    QPushButton *m_new = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_duplicates = nullptr;
    QPushButton *m_import = nullptr;
    QPushButton *m_export = nullptr;
    QTableView *m_table = nullptr;
    ContactDetailPane *m_pane = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_emptyHint = nullptr;
    QWidget *m_scopeBar = nullptr;
    QLabel *m_scopeLabel = nullptr;
    QPushButton *m_searchAll = nullptr;
    QString m_segmentName;
    QTimer m_searchTimer;
    QTimer m_refreshTimer;
    bool m_restoring = false;
    // A new filter's rows are still being counted in the worker: the contact shown is looked for
    // (and the pane cleared when it is not among them) when they arrive.
    bool m_filterPending = false;
    // Enter or Down in the search while a segment's rows were still being counted: the table takes
    // the focus (first row) when they arrive.
    bool m_enterTableWhenCounted = false;
    QString m_segmentWhere;
    QVariantList m_segmentValues;
    QStringList m_hiddenIds; // deleted, but the delete can still be undone
    bool m_exporting = false;
    // The export's thread, made at the first export. Last: destroyed first, waiting for its job.
    std::unique_ptr<BackgroundWorker> m_exportWorker;
};
