#pragma once

#include "model/inbox/bulksend.h"

#include <QObject>
#include <QTimer>

#include <functional>

// The delivery-thread step of bulk sends: turns waiting recipients into pending messages, a batch
// per event-loop turn (so that sends and other services keep going), which the ChannelDispatcher
// then sends at the channel's pace. Wakes on a new bulk send and polls every few seconds (a bulk
// left half-expanded by a stopped process resumes at the next start).
class BulkExpander : public QObject
{
    Q_OBJECT
public:
    static constexpr int kBatch = 500;

    explicit BulkExpander(const Store &store, QObject *parent = nullptr);
    static std::function<QObject *(QObject *)> factory(const Store &store);

public Q_SLOTS:
    void wake();

Q_SIGNALS:
    // After each batch, with the number of recipients handled.
    void expanded(int count);

private:
    void tick();

    BulkSendRepository m_bulk;
    QTimer m_soon;
    QTimer m_poll;
};
