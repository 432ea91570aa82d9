#pragma once

#include "model/contacts/duplicatefinder.h"
#include "model/core/store.h"

#include <QDialog>
#include <QStringList>
#include <QThreadPool>
#include <QVector>

class QButtonGroup;
class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

// Contacts → Duplicates…: the groups of contacts that look like one person
// (DuplicateFinder), why each matches, the one to keep (the oldest unless chosen), which of the
// others to merge, what will move and which empty fields the kept contact will take (ContactMerge::
// preview), and Merge. Every merge made here can be undone from here (Undo, newest first) as long
// as the window is open; ContactMerge::undo puts the removed contacts and their rows back.
class DuplicatesDialog : public QDialog
{
    Q_OBJECT
public:
    // At most this many groups are listed (the newest first); the line above the list says how many
    // there are in all.
    static constexpr int kMaxGroupsShown = 200;

    explicit DuplicatesDialog(const Store &store, QWidget *parent = nullptr);
    ~DuplicatesDialog() override;

    QListWidget *groupList() const { return m_groups; }
    QTableWidget *contactTable() const { return m_contacts; }
    QLabel *reasonLabel() const { return m_why; }
    QLabel *planLabel() const { return m_plan; }
    QPushButton *mergeButton() const { return m_merge; }
    QPushButton *undoButton() const { return m_undo; }
    QLabel *undoLabel() const { return m_undoText; }
    QLabel *errorLabel() const { return m_error; }
    // The contact chosen to keep in the group shown, and the others ticked to merge into it.
    QString keptId() const;
    QStringList mergedIds() const;
    // Chooses the contact to keep in the group shown (as a click in its Keep cell does).
    void chooseKept(const QString &id);

    // The last merge made here and not undone (empty when none), and what it is called in the
    // window's undo bar once this window is closed.
    QString lastMergeId() const { return m_merges.isEmpty() ? QString() : m_merges.constLast(); }
    QString lastMergeText() const { return m_lastMergeText; }
    // True while the groups are being looked for.
    bool searching() const { return m_searching; }

public slots:
    // Finds the groups again (after a merge, an undo, or Refresh), in a worker thread of its own
    // connection: at 100,000 contacts that takes 0.3 s or more, and the window goes on meanwhile.
    void reload();
    void mergeSelected();
    void undoLast();

private:
    void showFound(qsizetype total, const QVector<DuplicateGroup> &found, const QString &error);
    void showGroup(int row);
    void updatePlan();
    QString describeMatch(const DuplicateMatch &m) const;

    Store m_store;
    QVector<DuplicateGroup> m_found;
    QLabel *m_summary = nullptr;
    QListWidget *m_groups = nullptr;
    QTableWidget *m_contacts = nullptr;
    QButtonGroup *m_keepGroup = nullptr;
    QLabel *m_why = nullptr;
    QLabel *m_plan = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_merge = nullptr;
    QPushButton *m_refresh = nullptr;
    QWidget *m_undoBar = nullptr;
    QLabel *m_undoText = nullptr;
    QPushButton *m_undo = nullptr;
    QStringList m_merges; // the merges made here, newest last: what Undo takes back
    QString m_lastMergeText;
    bool m_filling = false;
    bool m_searching = false;
    int m_ticket = 0;
    QThreadPool m_pool; // one thread, its own database connection, while the dialog lives
};
