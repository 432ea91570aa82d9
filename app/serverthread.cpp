#include "serverthread.h"

#include "apiserver.h"
#include "database.h"

#include <QSemaphore>

namespace {
QSemaphore *g_ready = nullptr;
}

ServerThread::ServerThread(ServerConfig config, EventBus *bus, QObject *parent)
    : QThread(parent)
    , m_config(std::move(config))
    , m_bus(bus)
{
    setObjectName(QStringLiteral("server"));
}

ServerThread::~ServerThread()
{
    stop();
}

bool ServerThread::startAndWait()
{
    QSemaphore ready;
    g_ready = &ready;
    start();
    ready.acquire();
    g_ready = nullptr;
    return m_ok;
}

void ServerThread::stop()
{
    if (isRunning()) {
        quit();
        wait();
    }
}

void ServerThread::run()
{
    {
        ApiServer server(m_config, m_bus);
        m_ok = server.start();
        m_error = server.errorString();
        m_baseUrl = m_ok ? server.baseUrl() : QString();
        g_ready->release();
        if (m_ok) {
            exec();
            server.stop(5000);
        }
    }
    Database::closeThreadConnection();
}
