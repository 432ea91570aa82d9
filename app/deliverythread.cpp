#include "app/deliverythread.h"

#include "model/core/database.h"

DeliveryThread::DeliveryThread(QObject *parent)
    : QThread(parent)
{
    setObjectName(QStringLiteral("delivery"));
}

DeliveryThread::~DeliveryThread()
{
    stop();
}

void DeliveryThread::addService(Factory factory)
{
    Q_ASSERT(!isRunning());
    m_factories.push_back(std::move(factory));
}

void DeliveryThread::stop()
{
    if (isRunning()) {
        quit();
        wait();
    }
}

void DeliveryThread::run()
{
    {
        QObject services;
        Database::startSnapshotWatchdog(&services);
        for (const Factory &factory : m_factories)
            factory(&services);
        exec();
    }
    Database::closeThreadConnection();
}
