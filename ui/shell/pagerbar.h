#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

// The paging line under a record table (the Campaigns area's recipients, a drip's contacts and the
// unsubscribe list; the Assistant's knowledge base): "51–100 of 230", Previous and Next. It holds the page; its table reads
// page() and pageSize(), and after reading says what it got with showRange(). Previous and Next
// move the page and emit pageChanged(); reset() goes back to the first page without a signal, and
// restart() (a new filter or search) goes back to it and emits pageChanged(), so the table reads again. Its parts are
// named `<name>Page`, `<name>Previous` and `<name>Next`.
class PagerBar : public QWidget
{
    Q_OBJECT
public:
    PagerBar(const QString &name, int pageSize, QWidget *parent = nullptr);

    int page() const { return m_page; }
    int pageSize() const { return m_pageSize; }
    void reset() { m_page = 1; }
    void restart()
    {
        m_page = 1;
        emit pageChanged(m_page);
    }
    // After a read that found `total`: when the page is past the last one (fewer now than when it
    // was chosen) it becomes the last one and true says to read again.
    bool clampTo(qint64 total);
    // Shows the range of the `shown` rows of the page read out of `total`.
    void showRange(qint64 shown, qint64 total);

    QLabel *pageLabel() const { return m_label; }
    QPushButton *previousButton() const { return m_previous; }
    QPushButton *nextButton() const { return m_next; }

signals:
    void pageChanged(int page);

private:
    int m_page = 1;
    int m_pageSize;
    QLabel *m_label = nullptr;
    QPushButton *m_previous = nullptr;
    QPushButton *m_next = nullptr;
};
