#pragma once

#include "model/core/store.h"
#include "server/serverconfig.h"

#include <QString>

#include <memory>
#include <vector>

class ServerWorker;

// The server threads (docs/architecture.md, "Threads": the HTTP server and its handlers). The first
// thread listens and hands each accepted connection to one of the threads in turn, so that the API
// uses every core (`server/threads`, default the number of cores, at most 8). Each thread creates its
// own ApiServer inside itself (a server must be created in the thread that serves: docs/architecture.md,
// Qt 6.4 traps) and has its own database connection; rate-limit windows and the API-key cache are
// shared. stop() answers in-flight requests, closes every connection and the threads' database
// connections.
class ServerThread
{
public:
    // store: what each server thread reaches the data with (its own connection, the shared bus and clock).
    ServerThread(ServerConfig config, const Store &store);
    ~ServerThread();

    // Starts the threads and waits until the server listens or failed. False with errorString().
    bool startAndWait();
    void stop();
    QString errorString() const { return m_error; }
    QString baseUrl() const { return m_baseUrl; }
    int threadCount() const { return int(m_workers.size()); }

private:
    ServerConfig m_config;
    Store m_store;
    std::vector<std::unique_ptr<ServerWorker>> m_workers;
    QString m_error;
    QString m_baseUrl;
};
