#pragma once

#include "model/deals/deal.h"
#include "model/deals/pipeline.h"

#include <QAbstractTableModel>
#include <QVector>

class DealRepository;

// The deals of one pipeline as rows (the list beside the board): name, stage, value, contact, owner,
// expected close and last change, with the board's search and "Mine". At most kMaxRows are read
// (newest first); total() says how many the filter selects. Sorting is the view's (SortRole holds
// what a column sorts by: numbers for the value, ISO dates, the stage's place in the pipeline).
class DealListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        StageColumn,
        ValueColumn,
        ContactColumn,
        OwnerColumn,
        CloseColumn,
        UpdatedColumn,
        ColumnCount
    };
    static constexpr int IdRole = Qt::UserRole + 1;
    static constexpr int SortRole = Qt::UserRole + 2;
    static constexpr int kMaxRows = 1000;

    explicit DealListModel(DealRepository &deals, QObject *parent = nullptr);

    // The pipeline shown and the board's filter (reload() reads the rows with them).
    void setPipeline(const Pipeline &pipeline);
    void setFilter(const QString &search, const QString &assignedTo);
    // One stage only, closed since a moment when closedSince (ISO UTC) is set (Home's figures);
    // an empty stage: every stage.
    void setStageFilter(const QString &stage, const QString &closedSince = {});
    void reload();
    qint64 total() const { return m_total; }
    const Deal &dealAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    DealRepository &m_deals;
    Pipeline m_pipeline;
    QString m_search;
    QString m_assignedTo;
    QString m_stage;
    QString m_closedSince;
    QVector<Deal> m_rows;
    qint64 m_total = 0;
};
