#include "ui/shell/backgroundcounter.h"

#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "ui/shell/errortext.h"

#include <exception>

BackgroundCounter::BackgroundCounter(const Store &store, QObject *parent)
    : QObject(parent)
    , m_contacts(store)
{
    // One thread, kept while the counter lives: counts run one after another, in the order asked,
    // on that thread's own database connection.
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

BackgroundCounter::~BackgroundCounter()
{
    cancel();
    // The connection is closed by a last job, not when the thread ends: a thread's own clean-up
    // runs after QThreadPool has stopped waiting for it (and a test may remove the database then).
    m_pool.start([] { Database::closeThreadConnection(); });
    m_pool.waitForDone();
}

int BackgroundCounter::request(const QVector<Job> &jobs)
{
    const int ticket = ++m_ticket;
    m_latest.store(ticket);
    m_pending = int(jobs.size());
    if (jobs.isEmpty()) {
        QMetaObject::invokeMethod(
            this, [this, ticket] { emit finished(ticket); }, Qt::QueuedConnection);
        return ticket;
    }
    m_pool.start([this, ticket, jobs] {
        for (const Job &job : jobs) {
            if (m_latest.load() != ticket)
                return; // superseded: the newer request counts again
            qint64 n = -1;
            QString error;
            try {
                n = m_contacts.count(job.query);
            } catch (const std::exception &e) {
                error = ErrorText::of(e);
            }
            // Delivered in the window's thread; dropped there when a newer request came meanwhile.
            // The destructor waits for this loop, so `this` outlives it.
            QMetaObject::invokeMethod(
                this,
                [this, ticket, key = job.key, n, error] {
                    if (ticket != m_ticket)
                        return;
                    --m_pending;
                    if (error.isEmpty())
                        emit counted(ticket, key, n);
                    else
                        emit failed(ticket, key, error);
                    if (m_pending == 0)
                        emit finished(ticket);
                },
                Qt::QueuedConnection);
        }
    });
    return ticket;
}

void BackgroundCounter::cancel()
{
    m_latest.store(++m_ticket);
    m_pending = 0;
}
