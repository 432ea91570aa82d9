#include "ui/shell/liveread.h"

#include <QWidget>

LiveRead::LiveRead(QWidget *view, int delayMs, std::function<void()> start)
    : m_view(view)
    , m_start(std::move(start))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(delayMs);
    QObject::connect(&m_timer, &QTimer::timeout, view, [this] {
        if (m_view->isVisible())
            read();
        else
            m_stale = true;
    });
}

void LiveRead::news()
{
    if (!m_timer.isActive())
        m_timer.start();
}

void LiveRead::markStale()
{
    m_stale = true;
    if (m_view->isVisible())
        read();
}

void LiveRead::showing()
{
    if (m_stale)
        read();
}

void LiveRead::read()
{
    m_stale = false;
    m_timer.stop();
    if (m_reading) {
        m_again = true;
        return;
    }
    m_reading = true;
    m_again = false;
    m_start();
}
