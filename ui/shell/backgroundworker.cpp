#include "ui/shell/backgroundworker.h"

#include "model/core/database.h"

BackgroundWorker::BackgroundWorker()
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

BackgroundWorker::~BackgroundWorker()
{
    // The connection is closed by a last job, not when the thread ends (see BackgroundCounter).
    m_pool.start([] { Database::closeThreadConnection(); });
    m_pool.waitForDone();
}

void BackgroundWorker::run(std::function<void()> job)
{
    m_pool.start([job = std::move(job)] {
        job();
        Database::releaseSnapshot();
    });
}

void BackgroundWorker::post(QObject *context, std::function<void()> done)
{
    QMetaObject::invokeMethod(context, std::move(done), Qt::QueuedConnection);
}
