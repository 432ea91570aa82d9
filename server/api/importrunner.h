#pragma once

#include <QThreadPool>

#include <atomic>
#include <functional>

// Runs the API's import jobs off the HTTP threads: one thread for the process, so that two imports
// sent at once run one after the other (each job stays "queued" until its turn) and never hold two
// write transactions against each other; every batch is short, so the server threads' own writes
// go on between them. A job opens its own database connection and closes it when done. Stopping
// (the destructor) lets the running job end after its batch (stopping() answers true: the job ends
// as cancelled) and the queued ones end at once as failed; their rows written so far stay.
class ImportRunner
{
public:
    ImportRunner();
    ~ImportRunner();
    ImportRunner(const ImportRunner &) = delete;
    ImportRunner &operator=(const ImportRunner &) = delete;

    void submit(std::function<void()> job);
    bool stopping() const { return m_stopping.load(); }
    // For tests: waits until no job runs or waits (false after msecs).
    bool waitForDone(int msecs);

private:
    QThreadPool m_pool;
    std::atomic<bool> m_stopping{false};
};
