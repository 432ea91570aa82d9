#include "app/serverthread.h"

#include "model/core/database.h"
#include "server/apiserver.h"
#include "server/http/httpengine.h"

#include <QEventLoop>
#include <QPointer>
#include <QSemaphore>
#include <QThread>

#include <atomic>

// One server thread. It runs a local QEventLoop rather than QThread::exec(): after QThread::quit()
// every nested event loop of the thread returns at once, and HttpEngine::shutdown() needs one to
// answer the requests still in flight.
class ServerWorker : public QThread
{
public:
    ServerWorker(const ServerConfig &config, const Store &store, std::shared_ptr<ApiShared> shared, bool listens)
        : m_config(config)
        , m_store(store)
        , m_shared(std::move(shared))
        , m_listens(listens)
    {
        setObjectName(QStringLiteral("server"));
    }

    // Before start(): the engines the listening thread hands connections to (itself included).
    void setPeers(std::vector<HttpEngine *> peers) { m_peers = std::move(peers); }

    bool startAndWait()
    {
        start();
        m_ready.acquire();
        return m_ok;
    }

    void stopAndWait()
    {
        if (!isRunning())
            return;
        if (m_loop)
            QMetaObject::invokeMethod(m_loop, &QEventLoop::quit, Qt::QueuedConnection);
        wait();
    }

    HttpEngine *engine() const { return m_engine; }
    QString errorString() const { return m_error; }
    QString baseUrl() const { return m_baseUrl; }

protected:
    void run() override
    {
        {
            ApiServer server(m_config, m_store, m_shared);
            m_engine = &server.engine();
            for (HttpEngine *&peer : m_peers) {
                if (!peer)
                    peer = &server.engine(); // the listener's own slot
            }
            if (m_listens && m_peers.size() > 1) {
                server.engine().setDistributor([this](qintptr handle) {
                    HttpEngine *target = m_peers.at(m_next++ % m_peers.size());
                    if (target == m_engine.load())
                        target->adopt(handle);
                    else
                        QMetaObject::invokeMethod(
                            target, [target, handle]() { target->adopt(handle); }, Qt::QueuedConnection);
                });
            }
            m_ok = m_listens ? server.start() : server.startWorker();
            m_error = server.errorString();
            m_baseUrl = m_ok ? server.baseUrl() : QString();
            QEventLoop loop;
            m_loop = &loop;
            m_ready.release();
            if (m_ok) {
                loop.exec();
                server.stop(5000);
            }
            m_loop = nullptr;
            m_engine = nullptr;
        }
        Database::closeThreadConnection();
    }

private:
    ServerConfig m_config;
    Store m_store;
    std::shared_ptr<ApiShared> m_shared;
    bool m_listens;
    std::vector<HttpEngine *> m_peers;
    std::atomic<HttpEngine *> m_engine{nullptr};
    std::atomic<QEventLoop *> m_loop{nullptr};
    size_t m_next = 0;
    QSemaphore m_ready;
    bool m_ok = false;
    QString m_error;
    QString m_baseUrl;
};

ServerThread::ServerThread(ServerConfig config, const Store &store)
    : m_config(std::move(config))
    , m_store(store)
{
}

ServerThread::~ServerThread()
{
    stop();
}

bool ServerThread::startAndWait()
{
    auto shared = std::make_shared<ApiShared>(m_config);
    // The workers first (they serve but do not listen), then the listening thread that feeds them.
    std::vector<HttpEngine *> engines;
    const int threads = m_config.threadCount();
    for (int i = 1; i < threads; ++i) {
        auto worker = std::make_unique<ServerWorker>(m_config, m_store, shared, false);
        if (!worker->startAndWait()) {
            m_error = worker->errorString();
            stop();
            return false;
        }
        engines.push_back(worker->engine());
        m_workers.push_back(std::move(worker));
    }
    auto listener = std::make_unique<ServerWorker>(m_config, m_store, shared, true);
    engines.push_back(nullptr); // the listener's own engine: it exists only once its thread runs
    ServerWorker *l = listener.get();
    listener->setPeers(engines);
    m_workers.insert(m_workers.begin(), std::move(listener));
    const bool ok = l->startAndWait();
    if (!ok) {
        m_error = l->errorString();
        stop();
        return false;
    }
    m_baseUrl = l->baseUrl();
    return true;
}

void ServerThread::stop()
{
    // The listener first, so that no connection is handed to a thread that is already stopping.
    for (auto &worker : m_workers)
        worker->stopAndWait();
    m_workers.clear();
}
