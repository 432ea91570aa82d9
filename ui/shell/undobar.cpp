#include "ui/shell/undobar.h"

#include <QAction>
#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

UndoBar::UndoBar(QWidget *window)
    : QFrame(window)
{
    setObjectName(QStringLiteral("undoBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setStyleSheet(QStringLiteral("#undoBar { background: #323232; border-radius: 6px; } "
                                 "#undoBar QLabel { color: white; } "
                                 "#undoBar QPushButton { color: #8ab4f8; font-weight: bold; border: none; "
                                 "padding: 4px 8px; background: transparent; }"));
    m_label = new QLabel(this);
    m_label->setTextFormat(Qt::PlainText); // names come from the data
    m_label->setObjectName(QStringLiteral("undoLabel"));
    m_button = new QPushButton(tr("Undo"), this);
    m_button->setObjectName(QStringLiteral("undoButton"));
    m_button->setCursor(Qt::PointingHandCursor);
    m_button->setToolTip(tr("Undo (Ctrl+Z)"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 4, 4, 4);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_button);
    connect(m_button, &QPushButton::clicked, this, &UndoBar::undo);
    auto *shortcut = new QAction(this);
    shortcut->setShortcut(QKeySequence::Undo);
    shortcut->setShortcutContext(Qt::WindowShortcut);
    connect(shortcut, &QAction::triggered, this, [this] {
        if (hasOffer())
            undo();
    });
    window->addAction(shortcut);
    m_timer.setSingleShot(true);
    m_timer.setInterval(kSeconds * 1000);
    connect(&m_timer, &QTimer::timeout, this, &UndoBar::commitPending);
    // A delete still waiting is carried out before the program ends.
    connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, &UndoBar::commitPending);
    window->installEventFilter(this);
    hide();
}

UndoBar::~UndoBar()
{
    commitPending();
}

UndoBar *UndoBar::of(const QWidget *widget)
{
    if (!widget)
        return nullptr;
    return widget->window()->findChild<UndoBar *>(QStringLiteral("undoBar"), Qt::FindDirectChildrenOnly);
}

void UndoBar::offer(const QString &text, std::function<void()> undo, std::function<void()> commit)
{
    commitPending();
    m_undo = std::move(undo);
    m_commit = std::move(commit);
    m_label->setText(text);
    m_timer.start();
    place();
    show();
    raise();
}

void UndoBar::commitPending()
{
    m_timer.stop();
    std::function<void()> commit = std::move(m_commit);
    m_commit = nullptr;
    m_undo = nullptr;
    hide();
    if (commit)
        commit();
}

void UndoBar::undo()
{
    m_timer.stop();
    std::function<void()> undo = std::move(m_undo);
    m_undo = nullptr;
    m_commit = nullptr; // an undone delete is never carried out
    hide();
    if (undo)
        undo();
}

void UndoBar::place()
{
    QWidget *w = parentWidget();
    if (!w)
        return;
    adjustSize();
    const int width = qMin(qMax(sizeHint().width(), 320), w->width() - 40);
    resize(width, sizeHint().height());
    move((w->width() - width) / 2, w->height() - height() - 48);
}

bool UndoBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible())
        place();
    if (watched == parentWidget() && event->type() == QEvent::Close)
        commitPending();
    return QFrame::eventFilter(watched, event);
}
