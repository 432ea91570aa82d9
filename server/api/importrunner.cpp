#include "server/api/importrunner.h"

#include "model/core/database.h"

ImportRunner::ImportRunner()
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(30000);
}

ImportRunner::~ImportRunner()
{
    m_stopping = true;
    m_pool.waitForDone();
}

void ImportRunner::submit(std::function<void()> job)
{
    m_pool.start([job = std::move(job)] {
        job();
        // The pool may keep this thread for the next job or end it: either way the connection
        // belongs to this thread and is closed here.
        Database::closeThreadConnection();
    });
}

bool ImportRunner::waitForDone(int msecs)
{
    return m_pool.waitForDone(msecs);
}
