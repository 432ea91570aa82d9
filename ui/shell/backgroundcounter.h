#pragma once

#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrules.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QVector>

#include <atomic>

// Counts the contacts that queries select, in a worker thread of its own, so that the window
// never waits for a count: a segment of 1,000,000 contacts takes 0.1-0.3 s to count. The worker
// reads through its own database connection (one per thread), open while the counter lives. Each request() supersedes
// every earlier one: counts still queued for an older request are skipped, and answers of an older request are dropped,
// so a slot only ever sees answers for the request it made last.
class BackgroundCounter : public QObject
{
    Q_OBJECT
public:
    struct Job
    {
        QString key;        // handed back with the answer (a segment id)
        ContactQuery query; // counted as ContactRepository::count() counts it
        // The contacts a condition selects (a segment's membership).
        static Job of(const QString &key, const SegmentRules::Sql &sql)
        {
            Job job{key, {}};
            job.query.extraWhere = sql.where;
            job.query.extraValues = sql.values;
            return job;
        }
    };

    explicit BackgroundCounter(const Store &store, QObject *parent = nullptr);
    ~BackgroundCounter() override;

    // Starts counting in order; returns the request's ticket (> 0).
    int request(const QVector<Job> &jobs);
    // Drops whatever is queued or running (no answer arrives after this).
    void cancel();
    // True while the last request has counts to come.
    bool busy() const { return m_pending > 0; }

signals:
    void counted(int ticket, const QString &key, qint64 count);
    // The count failed (a database error); message is for the user.
    void failed(int ticket, const QString &key, const QString &message);
    // Every job of the request has answered.
    void finished(int ticket);

private:
    const ContactRepository m_contacts; // counts on the pool's thread (its own connection)
    QThreadPool m_pool;
    std::atomic<int> m_latest{0}; // the ticket the worker still counts for
    int m_ticket = 0;
    int m_pending = 0;
};
