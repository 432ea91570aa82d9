#pragma once

#include <QThread>

#include <functional>
#include <vector>

// The delivery thread: webhook dispatch, channel sends, campaign and reminder schedulers (QTimer
// driven). Each service is a QObject created inside the thread by its factory (so that its timers
// and sockets belong to it), destroyed there on stop, after which the thread closes its database
// connection.
class DeliveryThread : public QThread
{
    Q_OBJECT
public:
    using Factory = std::function<QObject *(QObject *parent)>;

    explicit DeliveryThread(QObject *parent = nullptr);
    ~DeliveryThread() override;

    // Before start().
    void addService(Factory factory);
    void stop();

protected:
    void run() override;

private:
    std::vector<Factory> m_factories;
};
