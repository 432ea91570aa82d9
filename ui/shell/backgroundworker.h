#pragma once

#include <QObject>
#include <QThreadPool>

#include <functional>

// A thread of a view's own for work the window must not wait for (a CSV import of 10,000 rows,
// Home's figures, a question asked of a knowledge base that changed much), with its own database
// connection (one per thread): jobs run one after another, in the order given. A job hands its
// outcome back with post(), which runs in the window's thread. The destructor waits for the job
// that runs (the owner first tells it to stop) and closes the thread's connection.
class BackgroundWorker
{
public:
    BackgroundWorker();
    ~BackgroundWorker();
    BackgroundWorker(const BackgroundWorker &) = delete;
    BackgroundWorker &operator=(const BackgroundWorker &) = delete;

    // Runs job in the worker thread; whatever read snapshot it leaves is released after it.
    void run(std::function<void()> job);

    // Runs done in the thread of context (queued), unless context is gone by then.
    static void post(QObject *context, std::function<void()> done);

private:
    QThreadPool m_pool;
};
