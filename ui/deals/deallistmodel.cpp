#include "ui/deals/deallistmodel.h"

#include "model/deals/dealrepository.h"
#include "ui/deals/dealdialogs.h"

#include <QDate>
#include <QDateTime>
#include <QLocale>

#include <cmath>

DealListModel::DealListModel(DealRepository &deals, QObject *parent)
    : QAbstractTableModel(parent)
    , m_deals(deals)
{
}

void DealListModel::setPipeline(const Pipeline &pipeline)
{
    m_pipeline = pipeline;
}

void DealListModel::setFilter(const QString &search, const QString &assignedTo)
{
    m_search = search;
    m_assignedTo = assignedTo;
}

void DealListModel::setStageFilter(const QString &stage, const QString &closedSince)
{
    m_stage = stage;
    m_closedSince = stage.isEmpty() ? QString() : closedSince;
}

void DealListModel::reload()
{
    QVector<Deal> rows;
    qint64 total = 0;
    if (!m_pipeline.id.isEmpty()) {
        DealQuery q;
        q.pipelineId = m_pipeline.id;
        q.search = m_search;
        q.assignedTo = m_assignedTo;
        if (!m_stage.isEmpty())
            q.stages = QStringList{m_stage};
        q.closedSince = m_closedSince;
        q.limit = kMaxRows;
        const DealPage page = m_deals.list(q);
        rows = page.items;
        total = page.total;
    }
    beginResetModel();
    m_rows = std::move(rows);
    m_total = total;
    endResetModel();
}

int DealListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DealListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DealListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Deal &d = m_rows.at(index.row());
    if (role == IdRole)
        return d.id;
    const QLocale locale;
    const QDate close = QDate::fromString(d.expectedCloseDate, Qt::ISODate);
    const QDateTime updated = QDateTime::fromString(d.updatedAt, Qt::ISODateWithMs);
    if (role == SortRole) {
        switch (index.column()) {
        case StageColumn: {
            for (int i = 0; i < m_pipeline.stages.size(); ++i) {
                if (m_pipeline.stages.at(i).key == d.stage)
                    return i;
            }
            return int(m_pipeline.stages.size());
        }
        case ValueColumn:
            return d.effectiveValue();
        case CloseColumn:
            return d.expectedCloseDate.isEmpty() ? QStringLiteral("9999-12-31") : d.expectedCloseDate;
        case UpdatedColumn:
            return d.updatedAt;
        default:
            return data(index, Qt::DisplayRole).toString().toLower();
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() == ValueColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return d.name;
    case StageColumn: {
        const PipelineStage *stage = m_pipeline.stage(d.stage);
        return stage ? DealText::stageName(*stage) : d.stage;
    }
    case ValueColumn: {
        const double v = d.effectiveValue();
        return QStringLiteral("%1 %2").arg(locale.toString(v, 'f', std::floor(v) == v ? 0 : 2), d.currency);
    }
    case ContactColumn:
        return d.contactName;
    case OwnerColumn:
        return d.assignedName;
    case CloseColumn:
        return close.isValid() ? locale.toString(close, QLocale::ShortFormat) : QString();
    case UpdatedColumn:
        return updated.isValid() ? locale.toString(updated.toLocalTime().date(), QLocale::ShortFormat) : QString();
    default:
        return {};
    }
}

QVariant DealListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Deal");
    case StageColumn:
        return tr("Stage");
    case ValueColumn:
        return tr("Value");
    case ContactColumn:
        return tr("Contact");
    case OwnerColumn:
        return tr("Owner");
    case CloseColumn:
        return tr("Expected close");
    case UpdatedColumn:
        return tr("Changed");
    default:
        return {};
    }
}
