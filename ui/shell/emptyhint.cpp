#include "ui/shell/emptyhint.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QEvent>
#include <QLabel>

namespace {
class EmptyHint : public QLabel
{
public:
    EmptyHint(QAbstractItemView *view, const QString &text)
        : QLabel(text, view->viewport())
        , m_view(view)
    {
        setObjectName(QStringLiteral("emptyHint"));
        setTextFormat(Qt::PlainText);
        setWordWrap(true);
        setAlignment(Qt::AlignCenter);
        setEnabled(false); // the palette's disabled text: grey
        setAttribute(Qt::WA_TransparentForMouseEvents);
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
        setVisible(empty);
        if (empty)
            place();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_view->viewport() && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
            update();
        return QLabel::eventFilter(watched, event);
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

    void place()
    {
        const QRect area = m_view->viewport()->rect().adjusted(24, 24, -24, -24);
        setGeometry(area.left(), area.top(), area.width(), qMin(area.height(), 120));
    }

    QAbstractItemView *m_view;
    QAbstractItemModel *m_model = nullptr;
};
} // namespace

QLabel *installEmptyHint(QAbstractItemView *view, const QString &text)
{
    return new EmptyHint(view, text);
}
