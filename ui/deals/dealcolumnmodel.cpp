#include "ui/deals/dealcolumnmodel.h"

#include "model/deals/dealrepository.h"

#include <QDate>
#include <QDragEnterEvent>
#include <QLocale>
#include <QMimeData>

#include <cmath>

DealColumnModel::DealColumnModel(DealRepository &deals, QString pipelineId, QString stage, QObject *parent)
    : QAbstractListModel(parent)
    , m_deals(deals)
    , m_pipelineId(std::move(pipelineId))
    , m_stage(std::move(stage))
{
    reload();
}

DealQuery DealColumnModel::query() const
{
    DealQuery q;
    q.pipelineId = m_pipelineId;
    q.stages = {m_stage};
    q.boardOrder = true;
    q.search = m_search;
    q.assignedTo = m_assignedTo;
    return q;
}

void DealColumnModel::setFilter(const QString &search, const QString &assignedTo)
{
    if (search == m_search && assignedTo == m_assignedTo)
        return;
    m_search = search;
    m_assignedTo = assignedTo;
    m_rows.clear(); // the first page of the new filter
    reload();
}

void DealColumnModel::reload()
{
    const int want = int(qMax<qsizetype>(kPage, m_rows.size()));
    DealQuery q = query();
    q.limit = qMin(want, 1000);
    QVector<Deal> rows;
    qint64 total = 0;
    for (q.page = 1; rows.size() < want; ++q.page) {
        const DealPage page = m_deals.list(q);
        total = page.total;
        rows += page.items;
        if (page.items.size() < q.limit)
            break;
    }
    beginResetModel();
    m_rows = std::move(rows);
    m_total = total;
    endResetModel();
}

int DealColumnModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant DealColumnModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Deal &d = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return d.name;
    case Qt::ToolTipRole: {
        // The whole card, as its narrow column may cut it short.
        QString tip =
            tr("%1\n%2 %3 · %4%").arg(d.name, QLocale().toString(d.value, 'f', 2), d.currency).arg(d.probability);
        if (!d.contactName.isEmpty())
            tip += QLatin1Char('\n') + tr("Contact: %1").arg(d.contactName);
        tip += QLatin1Char('\n') + (d.assignedName.isEmpty() ? tr("Unassigned") : tr("Owner: %1").arg(d.assignedName));
        if (const QDate close = QDate::fromString(d.expectedCloseDate, Qt::ISODate); close.isValid())
            tip += QLatin1Char('\n') + tr("Expected close: %1").arg(QLocale().toString(close, QLocale::ShortFormat));
        return tip;
    }
    case IdRole:
        return d.id;
    case ContactRole:
        return d.contactName;
    case ValueRole: {
        // Kuruş and cents when the value has them (12.500,50 TRY), none for a round one.
        const double v = d.effectiveValue();
        return QStringLiteral("%1 %2").arg(QLocale().toString(v, 'f', std::floor(v) == v ? 0 : 2), d.currency);
    }
    case OwnerRole:
        return d.assignedName;
    case CloseDateRole:
        return d.expectedCloseDate;
    case RottenRole:
        return d.isRotten;
    case StageRole:
        return d.stage;
    default:
        return {};
    }
}

Qt::ItemFlags DealColumnModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::ItemIsDropEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled;
}

bool DealColumnModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_rows.size() < m_total;
}

void DealColumnModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid())
        return;
    DealQuery q = query();
    q.limit = kPage;
    // Pages are whole: the rows loaded so far are always a multiple of kPage until the last one.
    q.page = int(m_rows.size() / kPage) + 1;
    const DealPage page = m_deals.list(q);
    const int skip = int(m_rows.size() % kPage);
    if (page.items.size() <= skip)
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page.items.size() - skip - 1));
    m_rows += page.items.mid(skip);
    m_total = page.total;
    endInsertRows();
}

QStringList DealColumnModel::mimeTypes() const
{
    return {QString::fromLatin1(kMimeType)};
}

QMimeData *DealColumnModel::mimeData(const QModelIndexList &indexes) const
{
    if (indexes.isEmpty())
        return nullptr;
    auto *mime = new QMimeData;
    mime->setData(QString::fromLatin1(kMimeType), data(indexes.first(), IdRole).toString().toUtf8());
    return mime;
}

StageListView::StageListView(QString stage, QWidget *parent)
    : QListView(parent)
    , m_stage(std::move(stage))
{
    setObjectName(QStringLiteral("stageView_") + m_stage);
    setDragEnabled(true);
    setAcceptDrops(true);
    setDropIndicatorShown(false);
    setDragDropMode(QAbstractItemView::DragDrop);
    setDefaultDropAction(Qt::MoveAction);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setUniformItemSizes(true);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // cards take the column's width
    setSpacing(3);
    connect(this, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { emit dealActivated(index.data(DealColumnModel::IdRole).toString()); });
}

void StageListView::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasFormat(QString::fromLatin1(DealColumnModel::kMimeType)))
        event->acceptProposedAction();
    else
        event->ignore();
}

void StageListView::dragMoveEvent(QDragMoveEvent *event)
{
    if (event->mimeData()->hasFormat(QString::fromLatin1(DealColumnModel::kMimeType))) {
        event->setDropAction(Qt::MoveAction);
        event->accept();
    } else {
        event->ignore();
    }
}

void StageListView::dropEvent(QDropEvent *event)
{
    const QByteArray id = event->mimeData()->data(QString::fromLatin1(DealColumnModel::kMimeType));
    if (id.isEmpty()) {
        event->ignore();
        return;
    }
    // The model is re-read after the move; Qt must not remove the dragged row itself.
    event->setDropAction(Qt::CopyAction);
    event->accept();
    emit dealDropped(QString::fromUtf8(id), m_stage);
}
