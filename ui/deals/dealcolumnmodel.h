#pragma once

#include "model/deals/deal.h"

#include <QAbstractListModel>
#include <QListView>

class DealRepository;
struct DealQuery;

// The deals of one stage of one pipeline, read lazily in pages (fetchMore), so that a column of
// 10,000 deals costs one page of rows until the user scrolls. Cards are dragged out as the MIME
// type kMimeType holding the deal id.
class DealColumnModel : public QAbstractListModel
{
    Q_OBJECT
public:
    static constexpr const char *kMimeType = "application/x-liaison-deal-id";
    enum Roles
    {
        IdRole = Qt::UserRole + 1,
        ContactRole,
        ValueRole,
        OwnerRole,
        CloseDateRole,
        RottenRole,
        StageRole
    };

    DealColumnModel(DealRepository &deals, QString pipelineId, QString stage, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }

    const QString &stage() const { return m_stage; }
    qint64 total() const { return m_total; }
    // Reads again as many rows as were loaded (at least one page).
    void reload();
    // Only the deals whose name has every word of `search` (DealQuery::search) and, when
    // assignedTo is not empty, that user's; reads the first page again.
    void setFilter(const QString &search, const QString &assignedTo);
    bool filtered() const { return !m_search.isEmpty() || !m_assignedTo.isEmpty(); }
    const Deal &dealAt(int row) const { return m_rows.at(row); }

    static constexpr int kPage = 100;

private:
    DealRepository &m_deals;
    QString m_pipelineId;
    QString m_stage;
    DealQuery query() const;

    QString m_search;
    QString m_assignedTo;
    QVector<Deal> m_rows;
    qint64 m_total = 0;
};

// A column's list: accepts dropped cards and reports them; the board decides what a drop means.
class StageListView : public QListView
{
    Q_OBJECT
public:
    StageListView(QString stage, QWidget *parent = nullptr);
    const QString &stage() const { return m_stage; }

signals:
    void dealDropped(const QString &dealId, const QString &stage);
    void dealActivated(const QString &dealId);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    QString m_stage;
};
