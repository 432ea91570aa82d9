#pragma once

#include "model/core/store.h"

#include <QObject>
#include <QString>

#include "model/core/eventbus.h"
class TaskRepository;

// Turns the scheduler's reminders into notifications: the delivery thread tells the bus ("task",
// id, "reminder"); this reads the task and emits its title and due time for the window's
// NotificationCenter (the one place that shows them: in-app list, badge, desktop notification).
class TaskReminderNotifier : public QObject
{
    Q_OBJECT
public:
    TaskReminderNotifier(TaskRepository &tasks, const Store &store, QObject *parent = nullptr);
    QString lastMessage() const { return m_lastMessage; }

signals:
    // For every reminder: the title and its due time, for the window's NotificationCenter.
    void reminded(const QString &taskId, const QString &message);

private:
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);

    TaskRepository &m_tasks;
    QString m_lastMessage;
};
