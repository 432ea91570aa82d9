#include "backgroundcounter.h"

#include "contactrepository.h"
#include "database.h"

#include <QScopeGuard>

#include <exception>

BackgroundCounter::BackgroundCounter(QObject *parent)
    : QObject(parent)
{
    // One thread: counts run one after another, in the order asked; it ends after a minute without work.
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(60000);
}

BackgroundCounter::~BackgroundCounter()
{
    cancel();
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
        // The connection is closed when the request is done, not when the thread ends: a thread's
        // own clean-up runs after QThreadPool stopped waiting for it.
        const auto close = qScopeGuard([] { Database::closeThreadConnection(); });
        for (const Job &job : jobs) {
            if (m_latest.load() != ticket)
                return; // superseded: the newer request counts again
            qint64 n = -1;
            QString error;
            try {
                n = ContactRepository().count(job.query);
            } catch (const std::exception &e) {
                error = QString::fromUtf8(e.what());
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
