#pragma once

#include <QDateTime>
#include <QLocale>

#include "model/tasks/taskrepository.h"

#include <QAbstractTableModel>
#include <QHash>

// The tasks of one tab of the Tasks area, read from the repository page by page (fetchMore), by due
// date. The title column carries a check box: checking it completes the task (a recurring task's
// next occurrence is created at once), unchecking reopens it.
class TaskTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Mode
    {
        Today,    // due today, not cancelled (done ones stay, struck through)
        Overdue,  // open and past due
        Upcoming, // open and due after today
        All,
        Contact, // every task of one contact
    };
    enum Column
    {
        TitleColumn,
        DueColumn,
        ContactColumn,
        DealColumn,
        AssigneeColumn,
        PriorityColumn,
        TypeColumn,
        StatusColumn,
        ColumnCount
    };
    static constexpr int IdRole = Qt::UserRole + 1;
    static constexpr int PageSize = 200;
    // A due time as the window shows it: the locale's short date and its time without seconds.
    static QString dueText(const QDateTime &due, const QLocale &locale = QLocale());
    // A time as the window shows it: the locale's short format without seconds ("10:00").
    static QString timeText(const QTime &time, const QLocale &locale = QLocale());

    // The Tasks area's filter row, applied on top of the tab's own condition. Empty: any.
    struct Filter
    {
        QString status; // pending, in_progress, completed, cancelled
        QString priority;
        QString type;
        QString assignedTo; // a user id
        QString search;     // words of the title (TaskQuery::search)
        bool operator==(const Filter &o) const
        {
            return status == o.status && priority == o.priority && type == o.type && assignedTo == o.assignedTo &&
                   search == o.search;
        }
    };

    TaskTableModel(TaskRepository &tasks, Mode mode, QObject *parent = nullptr);

    void setContactId(const QString &contactId);
    // Sets the filter and reads the first page again.
    void setFilter(const Filter &filter);
    // Tasks left out of the list (deletes that can still be undone); reloads.
    void setHiddenIds(const QStringList &ids)
    {
        m_hidden = ids;
        reload();
    }
    const Filter &filter() const { return m_filter; }
    // What the list shows (its tab, contact and filter), every page: for Export….
    TaskQuery exportQuery() const { return query(1); }
    // Reads the first page again.
    void reload();
    // The open tasks of this mode (the tab's count); All counts every task.
    qint64 openCount() const;
    qint64 total() const { return m_total; }
    Task taskAt(int row) const { return m_items.value(row); }
    int rowOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    // After a check box completed a task; nextId is the new occurrence (empty when none).
    // A check box completed the task (it was `previousStatus`); nextId: the recurring task's next one.
    void taskCompleted(const QString &id, const QString &nextId, const QString &previousStatus);
    void errorOccurred(const QString &message);

private:
    TaskQuery query(int page) const;
    // The names of the contacts, deals and users the tasks name (looked up once per id).
    void resolveNames(const QVector<Task> &tasks);
    QString nameOf(const QHash<QString, QString> &names, const QString &id) const;

    TaskRepository &m_tasks;
    Mode m_mode;
    QString m_contactId;
    Filter m_filter;
    QVector<Task> m_items;
    QHash<QString, QString> m_contactNames, m_dealNames, m_userNames;
    qint64 m_total = 0;
    int m_pages = 0;
    QStringList m_hidden;
};
