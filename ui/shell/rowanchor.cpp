#include "ui/shell/rowanchor.h"

#include <QAbstractItemView>
#include <QCursor>
#include <QScrollBar>
#include <QTimer>

RowAnchor::RowAnchor(QAbstractItemView *view, int idRole)
    : QObject(view)
    , m_view(view)
    , m_role(idRole)
{
    watch(view->model());
}

void RowAnchor::watch(QAbstractItemModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (!model)
        return;
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, &RowAnchor::capture);
    connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this, &RowAnchor::capture);
    connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this, &RowAnchor::capture);
    connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this, &RowAnchor::capture);
    // After the view's own slots (connected when the model was set): the view knows the new rows.
    connect(model, &QAbstractItemModel::modelReset, this, &RowAnchor::restore);
    connect(model, &QAbstractItemModel::layoutChanged, this, &RowAnchor::restore);
    connect(model, &QAbstractItemModel::rowsInserted, this, &RowAnchor::restore);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &RowAnchor::restore);
}

void RowAnchor::capture()
{
    if (m_captured || m_retrying || !m_view->isVisible())
        return;
    QWidget *viewport = m_view->viewport();
    const QPoint mouse = viewport->mapFromGlobal(QCursor::pos());
    QModelIndex index;
    if (viewport->underMouse() || viewport->rect().contains(mouse))
        index = m_view->indexAt(mouse);
    if (!index.isValid() && m_view->verticalScrollBar()->value() > 0)
        index = m_view->indexAt(QPoint(1, 1)); // scrolled: the first row in sight stays first
    if (!index.isValid())
        return;
    m_id = index.siblingAtColumn(0).data(m_role);
    m_row = index.row();
    m_captured = m_id.isValid();
}

void RowAnchor::restore()
{
    if (!m_captured || m_retrying)
        return;
    QAbstractItemModel *model = m_view->model();
    if (!model) {
        m_captured = false;
        return;
    }
    const int rows = model->rowCount();
    int found = -1;
    for (int d = 0; d <= kSearch && found < 0; ++d) {
        for (const int r : {m_row + d, m_row - d}) {
            if (r >= 0 && r < rows && model->index(r, 0).data(m_role) == m_id) {
                found = r;
                break;
            }
        }
    }
    if (found < 0) {
        // A list that is cleared and then filled item by item: the anchor may come back with a
        // later insert; look once more when the filling is over, then let go.
        m_retrying = true;
        QTimer::singleShot(0, this, [this] {
            m_retrying = false;
            m_view->doItemsLayout(); // the rows are all there now
            restore();
            m_captured = false;
        });
        return;
    }
    m_captured = false;
    if (found == m_row)
        return;
    QScrollBar *bar = m_view->verticalScrollBar();
    const int shift = found - m_row;
    if (m_view->verticalScrollMode() == QAbstractItemView::ScrollPerItem) {
        bar->setMaximum(qMax(bar->maximum(), bar->value() + shift)); // the range grows a moment later
        bar->setValue(bar->value() + shift);
    } else {
        const int height = m_view->sizeHintForRow(found);
        bar->setMaximum(qMax(bar->maximum(), bar->value() + shift * height));
        bar->setValue(bar->value() + shift * height);
    }
}
