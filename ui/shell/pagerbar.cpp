#include "ui/shell/pagerbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

PagerBar::PagerBar(const QString &name, int pageSize, QWidget *parent)
    : QWidget(parent)
    , m_pageSize(qMax(1, pageSize))
{
    setObjectName(name + QStringLiteral("Pager"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel(this);
    m_label->setObjectName(name + QStringLiteral("Page"));
    m_previous = new QPushButton(tr("Previous"), this);
    m_previous->setObjectName(name + QStringLiteral("Previous"));
    m_next = new QPushButton(tr("Next"), this);
    m_next->setObjectName(name + QStringLiteral("Next"));
    layout->addWidget(m_label);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
    connect(m_previous, &QPushButton::clicked, this, [this] {
        if (m_page <= 1)
            return;
        --m_page;
        emit pageChanged(m_page);
    });
    connect(m_next, &QPushButton::clicked, this, [this] {
        ++m_page;
        emit pageChanged(m_page);
    });
}

bool PagerBar::clampTo(qint64 total)
{
    const qint64 pages = qMax<qint64>(1, (total + m_pageSize - 1) / m_pageSize);
    if (m_page <= pages)
        return false;
    m_page = int(qMin<qint64>(pages, INT_MAX));
    return true;
}

void PagerBar::showRange(qint64 shown, qint64 total)
{
    const QLocale locale;
    const qint64 first = total == 0 ? 0 : qint64(m_page - 1) * m_pageSize + 1;
    const qint64 last = qint64(m_page - 1) * m_pageSize + shown;
    m_label->setText(
        total == 0 ? QString()
                   : tr("%1–%2 of %3").arg(locale.toString(first), locale.toString(last), locale.toString(total)));
    m_previous->setEnabled(m_page > 1);
    m_next->setEnabled(last < total);
}
