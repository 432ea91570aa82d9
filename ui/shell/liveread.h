#pragma once

#include <QTimer>

#include <functional>

class QWidget;

// A view's figures read in its worker thread and kept live: news from the bus starts a read after
// a delay (a burst of news is read once) while the view is in sight, or leaves it stale to read when
// next shown; a read asked for while one is out runs once more after it (what the one out brings
// is older than the news). The view starts the read in `start` and, when its answer arrives, calls
// finish() and then reads again if again() says so.
class LiveRead
{
public:
    LiveRead(QWidget *view, int delayMs, std::function<void()> start);

    // News that changes what the view shows: a read after the delay, or when next shown.
    void news();
    // What the view reads from changed (a time zone, a user): read now if in sight, else when shown.
    void markStale();
    // From the view's showEvent: reads when news came while it was out of sight.
    void showing();
    // Reads now, or once more after the read that is out.
    void read();
    // The answer of the read that was out has arrived.
    void finish() { m_reading = false; }

    bool isReading() const { return m_reading; }
    bool isStale() const { return m_stale; }
    // A read was asked for while the one out ran: its answer is old.
    bool again() const { return m_again; }

private:
    QWidget *m_view;
    std::function<void()> m_start;
    QTimer m_timer;
    bool m_stale = true;
    bool m_reading = false;
    bool m_again = false;
};
