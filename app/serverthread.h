#pragma once

#include "serverconfig.h"

#include <QThread>

class ApiServer;
class EventBus;

// The server thread: creates the ApiServer inside itself (QT64-NOTES: a server must be created in
// the thread that listens), runs its event loop, and on stop answers in-flight requests, closes every
// connection and its own database connection.
class ServerThread : public QThread
{
    Q_OBJECT
public:
    ServerThread(ServerConfig config, EventBus *bus, QObject *parent = nullptr);
    ~ServerThread() override;

    // Starts the thread and waits until the server listens or failed. Returns false with errorString().
    bool startAndWait();
    void stop();
    QString errorString() const { return m_error; }
    QString baseUrl() const { return m_baseUrl; }

protected:
    void run() override;

private:
    ServerConfig m_config;
    EventBus *m_bus;
    QString m_error;
    QString m_baseUrl;
    bool m_ok = false;
};
