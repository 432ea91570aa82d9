#pragma once

#include <QObject>
#include <QPointer>
#include <QVariant>

class QAbstractItemView;
class QAbstractItemModel;

// Keeps the rows where the user is looking when the model is read again (a message, a task or a
// contact arriving live, a refresh): the row under the mouse, else the first visible row once the
// list is scrolled, stays at the same place on screen, so that a click lands on the row it was
// aimed at (a live insert once moved the rows under the mouse and a click completed the wrong
// task). Rows are told apart by `idRole`; the view must scroll by items or have rows of one height.
class RowAnchor : public QObject
{
    Q_OBJECT
public:
    RowAnchor(QAbstractItemView *view, int idRole);

    // How many rows away from its old place the anchor is looked for (the model may read lazily).
    static constexpr int kSearch = 300;

private:
    void watch(QAbstractItemModel *model);
    void capture();
    void restore();

    QAbstractItemView *m_view;
    QPointer<QAbstractItemModel> m_model;
    int m_role;
    QVariant m_id;
    int m_row = -1;
    bool m_captured = false;
    bool m_retrying = false; // a list filled row by row after a clear: looked for once more later
};
