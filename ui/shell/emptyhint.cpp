#include "ui/shell/emptyhint.h"

#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace {
// The sentence, the button and the icon, in a column.
class EmptyState : public QWidget
{
public:
    EmptyState(QWidget *parent, const QString &text)
        : QWidget(parent)
    {
        setObjectName(QStringLiteral("emptyState"));
        m_icon = new QLabel(this);
        m_icon->setObjectName(QStringLiteral("emptyStateIcon"));
        m_icon->setAlignment(Qt::AlignCenter);
        m_icon->hide();
        m_label = new QLabel(text, this);
        m_label->setObjectName(QStringLiteral("emptyHint"));
        m_label->setTextFormat(Qt::PlainText);
        m_label->setWordWrap(true);
        m_label->setAlignment(Qt::AlignCenter);
        UiKit::setType(m_label, UiKit::Type::Emphasis);
        UiKit::setTone(m_label, UiKit::Tone::Muted);
        m_button = new QPushButton(this);
        m_button->setObjectName(QStringLiteral("emptyStateAction"));
        m_button->hide();
        connect(m_button, &QPushButton::clicked, this, [this] {
            if (m_action)
                m_action();
        });
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(UiKit::Space::L, UiKit::Space::L, UiKit::Space::L, UiKit::Space::L);
        layout->setSpacing(UiKit::Space::M);
        layout->addWidget(m_icon, 0, Qt::AlignHCenter);
        layout->addWidget(m_label);
        layout->addWidget(m_button, 0, Qt::AlignHCenter);
        paintButton();
        connect(&Theme::instance(), &Theme::schemeChanged, this, [this] {
            paintIcon();
            paintButton();
        });
    }

    void setAction(const QString &text, std::function<void()> action)
    {
        m_button->setText(text);
        m_button->setAccessibleName(QString(text).remove(QLatin1Char('&')));
        m_action = std::move(action);
        m_button->setVisible(!text.isEmpty());
        if (m_view)
            place();
    }

    void setIcon(const QString &name)
    {
        m_iconName = name;
        paintIcon();
        m_icon->setVisible(!name.isEmpty());
    }

    // The one action stands out: the selection colour, white text (4.5:1 or more in both schemes).
    void paintButton()
    {
        const QPalette p = UiKit::palette(UiKit::scheme());
        const QColor fill = p.color(QPalette::Highlight);
        m_button->setStyleSheet(QStringLiteral("QPushButton { background: %1; color: %2; border: 1px solid %1; "
                                               "border-radius: 6px; padding: %3px %4px; font-weight: 600; }"
                                               "QPushButton:hover { background: %5; border-color: %5; }"
                                               "QPushButton:focus { border: 2px solid %6; }")
                                    .arg(fill.name(), p.color(QPalette::HighlightedText).name())
                                    .arg(UiKit::Space::XS + 2)
                                    .arg(UiKit::Space::L)
                                    .arg(fill.darker(115).name(), p.color(QPalette::Text).name()));
    }

    void paintIcon()
    {
        if (!m_iconName.isEmpty())
            m_icon->setPixmap(UiKit::icon(m_iconName, UiKit::color(UiKit::Tone::Muted), 40).pixmap(40, 40));
    }

    // Over the middle of the area, as wide as reads well.
    void place()
    {
        QWidget *area = parentWidget();
        const QRect inside = area->rect().adjusted(UiKit::Space::XL, UiKit::Space::M, -UiKit::Space::XL, 0);
        const int width = qMin(inside.width(), fontMetrics().averageCharWidth() * 70);
        const int height = qMin(inside.height(), layout()->heightForWidth(width) > 0 ? layout()->heightForWidth(width)
                                                                                     : sizeHint().height());
        setGeometry(inside.left() + (inside.width() - width) / 2,
                    inside.top() + qMax(0, (inside.height() - height) / 3), width, height);
    }

    QLabel *m_label = nullptr;
    QLabel *m_icon = nullptr;
    QPushButton *m_button = nullptr;
    QString m_iconName;
    std::function<void()> m_action;
    QAbstractItemView *m_view = nullptr;
};

// Keeps an empty state over a view's viewport while its model has no rows.
class ViewWatcher : public QObject
{
public:
    ViewWatcher(QAbstractItemView *view, EmptyState *state)
        : QObject(state)
        , m_view(view)
        , m_state(state)
    {
        state->m_view = view;
        view->viewport()->installEventFilter(this);
        watch(view->model());
        update();
    }

    void update()
    {
        QAbstractItemModel *model = m_view->model();
        if (model != m_model)
            watch(model);
        const bool empty = !model || model->rowCount() == 0;
        m_state->setVisible(empty);
        if (empty)
            m_state->place();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_view->viewport() && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
            update();
        return QObject::eventFilter(watched, event);
    }

private:
    void watch(QAbstractItemModel *model)
    {
        if (m_model)
            disconnect(m_model, nullptr, this, nullptr);
        m_model = model;
        if (!model)
            return;
        connect(model, &QAbstractItemModel::modelReset, this, [this] { update(); });
        connect(model, &QAbstractItemModel::rowsInserted, this, [this] { update(); });
        connect(model, &QAbstractItemModel::rowsRemoved, this, [this] { update(); });
        connect(model, &QAbstractItemModel::layoutChanged, this, [this] { update(); });
    }

    QAbstractItemView *m_view;
    EmptyState *m_state;
    QAbstractItemModel *m_model = nullptr;
};

EmptyState *stateOf(const QLabel *hint)
{
    return hint ? dynamic_cast<EmptyState *>(hint->parentWidget()) : nullptr;
}
} // namespace

QLabel *installEmptyHint(QAbstractItemView *view, const QString &text)
{
    auto *state = new EmptyState(view->viewport(), text);
    new ViewWatcher(view, state);
    return state->m_label;
}

void setEmptyHintAction(QLabel *hint, const QString &text, std::function<void()> action)
{
    if (EmptyState *state = stateOf(hint))
        state->setAction(text, std::move(action));
}

void setEmptyHintIcon(QLabel *hint, const QString &iconName)
{
    if (EmptyState *state = stateOf(hint))
        state->setIcon(iconName);
}

QPushButton *emptyHintAction(const QLabel *hint)
{
    EmptyState *state = stateOf(hint);
    return state ? state->m_button : nullptr;
}

QWidget *emptyStatePanel(QWidget *parent, const QString &text, QLabel **label)
{
    auto *state = new EmptyState(parent, text);
    state->setAttribute(Qt::WA_StyledBackground);
    auto paintCard = [state] {
        const QPalette p = UiKit::palette(UiKit::scheme());
        state->setStyleSheet(QStringLiteral("#emptyState { background: %1; border: 1px solid %2; border-radius: 8px; }")
                                 .arg(p.color(QPalette::Base).name(), p.color(QPalette::Mid).name()));
    };
    paintCard();
    QObject::connect(&Theme::instance(), &Theme::schemeChanged, state, paintCard);
    *label = state->m_label;
    return state;
}

void placeEmptyState(QWidget *panel)
{
    if (auto *state = dynamic_cast<EmptyState *>(panel))
        state->place();
}
