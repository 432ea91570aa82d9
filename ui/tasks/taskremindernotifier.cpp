#include "ui/tasks/taskremindernotifier.h"

#include "model/core/eventbus.h"
#include "ui/shell/phonetext.h"
#include "ui/tasks/tasktablemodel.h"

#include <QLocale>

TaskReminderNotifier::TaskReminderNotifier(TaskRepository &tasks, const Store &store, QObject *parent)
    : QObject(parent)
    , m_tasks(tasks)
{
    connect(&store.bus(), &EventBus::changed, this, &TaskReminderNotifier::onBusChanged);
}

void TaskReminderNotifier::onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    if (entity != EventBus::Entity::Task || change != EventBus::Change::Reminder)
        return;
    std::optional<Task> t;
    try {
        t = m_tasks.find(id);
    } catch (const std::exception &) {
        return;
    }
    if (!t)
        return;
    QString due;
    if (t->isAllDay())
        due = QLocale().toString(t->dueDay(m_tasks.timeZone()), QLocale::ShortFormat);
    else if (!t->dueDate.isEmpty())
        due = TaskTableModel::dueText(t->dueInstant(m_tasks.timeZone()).toTimeZone(m_tasks.timeZone()));
    m_lastMessage = due.isEmpty() ? t->title : tr("%1 — due %2").arg(t->title, due);
    // Who it is about and how to reach them, so that the call can be made from the reminder.
    try {
        if (const std::optional<TaskLinks::Contact> c = m_tasks.links(*t).contact) {
            const QString phone = c->phone ? PhoneText::display(*c->phone) : QString();
            m_lastMessage +=
                QLatin1Char('\n') + (phone.isEmpty() ? c->displayName() : tr("%1 · %2").arg(c->displayName(), phone));
        }
    } catch (const std::exception &) {
        // The contact could not be read now: the reminder still says what to do.
    }
    emit reminded(id, m_lastMessage); // the window's NotificationCenter shows it
}
