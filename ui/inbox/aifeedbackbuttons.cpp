#include "ui/inbox/aifeedbackbuttons.h"

#include "model/assistant/aianswerrepository.h"
#include "ui/shell/uikit.h"

#include <QActionGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QMenu>
#include <QToolButton>

namespace {
constexpr int kIconSize = 16;

// The line icon in the muted colour, and in the accent colour while checked.
QIcon thumbIcon(const QString &name)
{
    const QIcon off = UiKit::icon(name, UiKit::color(UiKit::Tone::Muted), kIconSize);
    const QIcon on = UiKit::icon(name, UiKit::color(UiKit::Tone::Accent), kIconSize);
    QIcon icon;
    for (const int size : {kIconSize, kIconSize * 2}) {
        icon.addPixmap(off.pixmap(size), QIcon::Normal, QIcon::Off);
        icon.addPixmap(on.pixmap(size), QIcon::Normal, QIcon::On);
    }
    return icon;
}
} // namespace

AiFeedbackButtons::AiFeedbackButtons(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("aiFeedback"));
    m_up = new QToolButton(this);
    m_up->setObjectName(QStringLiteral("thumbsUpButton"));
    m_up->setAccessibleName(tr("Helpful"));
    m_down = new QToolButton(this);
    m_down->setObjectName(QStringLiteral("thumbsDownButton"));
    m_down->setAccessibleName(tr("Not helpful"));
    m_reasons = new QMenu(m_down);
    m_reasons->setObjectName(QStringLiteral("thumbsDownReasons"));
    m_reasons->setTitle(tr("Why was it not helpful?"));
    // A popup shows no title: the question heads the reasons (a disabled item: Fusion cuts a
    // section's text to the width of the items).
    m_reasons->addAction(m_reasons->title())->setEnabled(false);
    m_reasons->addSeparator();
    auto *group = new QActionGroup(m_reasons);
    for (const QString &reason : AiFeedbackRules::reasons()) {
        QAction *a = m_reasons->addAction(reasonName(reason));
        a->setObjectName(reason);
        a->setData(reason);
        a->setCheckable(true);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, reason] { emit rated(-1, reason); });
    }
    m_down->setMenu(m_reasons);
    m_down->setPopupMode(QToolButton::MenuButtonPopup);
    m_down->installEventFilter(this);
    for (QToolButton *b : {m_up, m_down}) {
        b->setCheckable(true);
        b->setAutoRaise(true);
        b->setIconSize(QSize(kIconSize, kIconSize));
        b->setFocusPolicy(Qt::StrongFocus);
    }
    // A click never unchecks: the feedback given stays until the other thumb replaces it.
    connect(m_up, &QToolButton::clicked, this, [this] {
        showState();
        if (m_rating != 1)
            emit rated(1, QString());
    });
    connect(m_down, &QToolButton::clicked, this, [this] {
        showState();
        if (m_rating != -1)
            emit rated(-1, QString());
    });
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_up);
    layout->addWidget(m_down);
    restyle();
    showState();
}

QString AiFeedbackButtons::reasonName(const QString &reason)
{
    if (reason == QLatin1String("incorrect"))
        return tr("Wrong");
    if (reason == QLatin1String("incomplete"))
        return tr("Incomplete");
    if (reason == QLatin1String("outdated"))
        return tr("Out of date");
    if (reason == QLatin1String("inappropriate"))
        return tr("Inappropriate");
    if (reason == QLatin1String("other"))
        return tr("Other");
    return reason;
}

QString AiFeedbackButtons::reasonWords(const QString &reason)
{
    if (reason == QLatin1String("incorrect"))
        return tr("wrong");
    if (reason == QLatin1String("incomplete"))
        return tr("incomplete");
    if (reason == QLatin1String("outdated"))
        return tr("out of date");
    if (reason == QLatin1String("inappropriate"))
        return tr("inappropriate");
    if (reason == QLatin1String("other"))
        return tr("other");
    return reason;
}

QString AiFeedbackButtons::stateText(int rating, const QString &reason)
{
    if (rating > 0)
        return tr("You marked it helpful");
    if (rating < 0)
        return reason.isEmpty() ? tr("You marked it not helpful")
                                : tr("You marked it not helpful: %1").arg(reasonWords(reason));
    return tr("No feedback given yet");
}

void AiFeedbackButtons::setRating(int rating, const QString &reason)
{
    m_rating = rating > 0 ? 1 : (rating < 0 ? -1 : 0);
    m_reason = m_rating < 0 ? reason : QString();
    showState();
}

void AiFeedbackButtons::setUnavailable(const QString &why)
{
    m_unavailable = why;
    showState();
}

void AiFeedbackButtons::showState()
{
    const bool available = m_unavailable.isEmpty();
    m_up->setEnabled(available);
    m_down->setEnabled(available);
    m_up->setChecked(m_rating > 0);
    m_down->setChecked(m_rating < 0);
    for (QAction *a : m_reasons->actions())
        a->setChecked(m_rating < 0 && a->data().toString() == m_reason);
    const QString state = stateText(m_rating, m_reason);
    m_up->setToolTip(available ? tr("The answer was helpful") + QStringLiteral("\n") + state : m_unavailable);
    m_down->setToolTip(available ? tr("The answer was not helpful (the arrow: why)") + QStringLiteral("\n") + state
                                 : m_unavailable);
    m_up->setAccessibleDescription(state);
    m_down->setAccessibleDescription(state);
}

void AiFeedbackButtons::restyle()
{
    m_up->setIcon(thumbIcon(QStringLiteral("thumb-up")));
    m_down->setIcon(thumbIcon(QStringLiteral("thumb-down")));
}

bool AiFeedbackButtons::eventFilter(QObject *watched, QEvent *event)
{
    // The reasons from the keyboard too: Alt+Down or F4, as a combo box opens.
    if (watched == m_down && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Down && (key->modifiers() & Qt::AltModifier)) || key->key() == Qt::Key_F4) {
            m_down->showMenu();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AiFeedbackButtons::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        restyle();
    QWidget::changeEvent(event);
}
