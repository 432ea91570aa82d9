#pragma once

#include "model/contacts/segmentrepository.h"
#include "model/core/store.h"
#include "ui/shell/backgroundcounter.h"

#include <QHash>
#include <QTimer>
#include <QWidget>

class ContactsView;
class QAction;
class QListWidget;
class QPushButton;

// The segments list beside the contacts table: "All contacts" and every segment with its count.
// Selecting a segment limits the table to its members (ContactsView::setSegmentFilter); New, Edit,
// Delete and Snapshot act on segments; "Add to segment…" (a button here and the table's context
// menu) adds the contacts selected in the table (several at once) to a static segment. It follows
// the event bus: segments and counts are reloaded shortly after any segment or contact change. The
// counts come from a BackgroundCounter: the list shows at once (with the last count known) and each
// count replaces it when it arrives, so that a large segment never holds up the window.
class SegmentsPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshDelayMs = 150;

    SegmentsPanel(ContactsView &view, const Store &store, QWidget *parent = nullptr);
    // The Contacts area: this panel on the left of the view, in a splitter. Returns the splitter.
    static QWidget *besideContacts(ContactsView *view, const Store &store, QWidget *parent = nullptr);

    QListWidget *list() const { return m_list; }
    QAction *addToSegmentAction() const { return m_addTo; }
    // The chosen segment; empty for "All contacts".
    QString currentSegmentId() const;
    bool selectSegment(const QString &id);
    // True while counts of the last reload are still to come.
    bool counting() const { return m_counter.busy(); }

public slots:
    void reload();
    void newSegment();
    void editSegment();
    void deleteSegment();
    void snapshotSegment();
    void addSelectionToSegment();

private:
    void applySelection();
    void showCount(const QString &id, qint64 count);
    QString itemText(const QString &name, bool dynamic, qint64 count) const;
    void updateActions();
    QStringList selectedContactIds() const;

    ContactsView &m_view;
    SegmentRepository m_segments;
    QListWidget *m_list = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_snapshot = nullptr;
    QAction *m_addTo = nullptr;
    QTimer m_refreshTimer;
    BackgroundCounter m_counter;
    QHash<QString, qint64> m_counts; // by segment id: the last count known
    bool m_reloading = false;
    bool m_segmentChanged = false;
    QString m_appliedWhere;
    QVariantList m_appliedValues;
};
