#include "ui/assistant/assistantworker.h"

#include "model/core/database.h"

AssistantWorker::AssistantWorker()
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

AssistantWorker::~AssistantWorker()
{
    // The connection is closed by a last job, not when the thread ends (see BackgroundCounter).
    m_pool.start([] { Database::closeThreadConnection(); });
    m_pool.waitForDone();
}

void AssistantWorker::run(std::function<void()> job)
{
    m_pool.start([job = std::move(job)] {
        job();
        Database::releaseSnapshot();
    });
}

void AssistantWorker::post(QObject *context, std::function<void()> done)
{
    QMetaObject::invokeMethod(context, std::move(done), Qt::QueuedConnection);
}
