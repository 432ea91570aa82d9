#pragma once

#include "messaging/channels/channelconfig.h"

#include <QHash>
#include <QMutex>
#include <QString>

#include <deque>
#include <memory>

// What every thread knows of the channels: which are configured, which provider is down, and the
// one-second send windows of direct sends (429 "Rate limited" above sendPerSecond). Thread-safe:
// one instance per process, shared by the server threads, the window and the delivery thread.
class ChannelRegistry
{
public:
    explicit ChannelRegistry(ChannelsConfig config = {})
        : m_config(std::move(config))
    {
    }

    const ChannelsConfig &config() const { return m_config; }
    bool isConfigured(const QString &channel) const { return m_config.configured(channel); }
    // Configured and its provider not known to be down.
    bool isAvailable(const QString &channel) const
    {
        if (!isConfigured(channel))
            return false;
        QMutexLocker lock(&m_mutex);
        return !m_down.contains(channel);
    }
    // Set by the dispatcher when the provider cannot be reached, cleared by a success or a probe.
    void setDown(const QString &channel, const QString &reason)
    {
        QMutexLocker lock(&m_mutex);
        m_down.insert(channel, reason);
    }
    void setUp(const QString &channel)
    {
        QMutexLocker lock(&m_mutex);
        m_down.remove(channel);
    }
    QString downReason(const QString &channel) const
    {
        QMutexLocker lock(&m_mutex);
        return m_down.value(channel);
    }

    // Takes one send from the channel's sliding one-second window. False (and nothing taken) when
    // it is full; retryAfterMs then says when the oldest send leaves the window.
    bool tryAcquireSend(const QString &channel, qint64 nowMs, qint64 *retryAfterMs = nullptr)
    {
        const int limit = m_config.sendPerSecond(channel);
        if (limit <= 0)
            return true;
        QMutexLocker lock(&m_mutex);
        std::deque<qint64> &window = m_windows[channel];
        while (!window.empty() && window.front() <= nowMs - 1000)
            window.pop_front();
        if (int(window.size()) >= limit) {
            if (retryAfterMs)
                *retryAfterMs = window.front() + 1000 - nowMs;
            return false;
        }
        window.push_back(nowMs);
        return true;
    }

    // No provider configured: the widget only.
    static std::shared_ptr<ChannelRegistry> defaults() { return std::make_shared<ChannelRegistry>(); }

private:
    const ChannelsConfig m_config;
    mutable QMutex m_mutex;
    QHash<QString, QString> m_down;
    QHash<QString, std::deque<qint64>> m_windows;
};
