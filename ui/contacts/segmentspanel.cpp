#include "ui/contacts/segmentspanel.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/contacts/contactsview.h"
#include "ui/contacts/contacttablemodel.h"
#include "ui/contacts/segmentdialog.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace {
constexpr int IdRole = Qt::UserRole;
constexpr int DynamicRole = Qt::UserRole + 1;
constexpr int NameRole = Qt::UserRole + 2;
} // namespace

SegmentsPanel::SegmentsPanel(ContactsView &view, const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_view(view)
    , m_segments(store)
    , m_counter(store)
{
    setObjectName(QStringLiteral("segmentsPanel"));
    auto *title = new QLabel(tr("Segments"), this);
    title->setTextFormat(Qt::PlainText); // data from outside is never markup
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("segmentsList"));
    m_list->setAccessibleName(tr("Segments"));
    auto *add = new QPushButton(tr("New…"), this);
    add->setObjectName(QStringLiteral("newSegmentButton"));
    add->setToolTip(tr("Create a segment from rules"));
    m_edit = new QPushButton(tr("Edit…"), this);
    m_edit->setObjectName(QStringLiteral("editSegmentButton"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteSegmentButton"));
    m_snapshot = new QPushButton(tr("Snapshot"), this);
    m_snapshot->setObjectName(QStringLiteral("snapshotSegmentButton"));
    m_snapshot->setToolTip(tr("Save the current members as a new static segment"));
    auto *addTo = new QPushButton(tr("Add to segment…"), this);
    addTo->setObjectName(QStringLiteral("addToSegmentButton"));

    m_addTo = new QAction(tr("Add to segment…"), this);
    m_addTo->setObjectName(QStringLiteral("addToSegmentAction"));
    m_addTo->setToolTip(tr("Add the selected contacts to a static segment"));
    addTo->setToolTip(m_addTo->toolTip());

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_edit);
    auto *buttons2 = new QHBoxLayout;
    buttons2->addWidget(m_delete);
    buttons2->addWidget(m_snapshot);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::XS, UiKit::Space::S);
    layout->setSpacing(UiKit::Space::S);
    layout->addWidget(title);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    layout->addLayout(buttons2);
    layout->addWidget(addTo);

    // Several contacts at once for "Add to segment…"; Edit/Delete still act on the current one.
    QTableView *table = m_view.table();
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
    table->addAction(m_addTo);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(RefreshDelayMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &SegmentsPanel::reload);
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity, const QString &, EventBus::Change) {
        if (entity == EventBus::Entity::Segment)
            m_segmentChanged = true;
        if (entity == EventBus::Entity::Segment || entity == EventBus::Entity::Contact)
            m_refreshTimer.start();
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this] {
        if (!m_reloading)
            applySelection();
        updateActions();
    });
    connect(&m_view, &ContactsView::searchAllRequested, this, [this] {
        if (m_list->count() > 0)
            m_list->setCurrentRow(0); // All contacts
    });
    connect(&m_counter, &BackgroundCounter::counted, this,
            [this](int, const QString &id, qint64 count) { showCount(id, count); });
    connect(m_list, &QListWidget::itemDoubleClicked, this, &SegmentsPanel::editSegment);
    connect(add, &QPushButton::clicked, this, &SegmentsPanel::newSegment);
    connect(m_edit, &QPushButton::clicked, this, &SegmentsPanel::editSegment);
    connect(m_delete, &QPushButton::clicked, this, &SegmentsPanel::deleteSegment);
    connect(m_snapshot, &QPushButton::clicked, this, &SegmentsPanel::snapshotSegment);
    connect(addTo, &QPushButton::clicked, this, &SegmentsPanel::addSelectionToSegment);
    connect(m_addTo, &QAction::triggered, this, &SegmentsPanel::addSelectionToSegment);
    reload();
}

QWidget *SegmentsPanel::besideContacts(ContactsView *view, const Store &store, QWidget *parent)
{
    auto *splitter = new QSplitter(Qt::Horizontal, parent);
    splitter->setObjectName(QStringLiteral("segmentsSplitter"));
    auto *panel = new SegmentsPanel(*view, store, splitter);
    splitter->addWidget(panel);
    splitter->addWidget(view);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    // As narrow as its buttons allow: the contacts' table beside it needs the room on a laptop.
    splitter->setSizes({qMax(150, panel->minimumSizeHint().width()), 1000});
    splitter->setChildrenCollapsible(false);
    return splitter;
}

QString SegmentsPanel::currentSegmentId() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(IdRole).toString() : QString();
}

bool SegmentsPanel::selectSegment(const QString &id)
{
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(IdRole).toString() == id) {
            m_list->setCurrentRow(i);
            return true;
        }
    }
    return false;
}

void SegmentsPanel::reload()
{
    m_refreshTimer.stop();
    const QString current = currentSegmentId();
    QVector<Segment> segments;
    try {
        segments = m_segments.list(false);
    } catch (const std::exception &) {
        return; // the contacts table reports database failures
    }
    m_reloading = true;
    m_list->clear();
    auto *all = new QListWidgetItem(tr("All contacts"), m_list);
    all->setData(IdRole, QString());
    bool found = current.isEmpty();
    QVector<BackgroundCounter::Job> jobs;
    QHash<QString, qint64> known;
    for (const Segment &s : std::as_const(segments)) {
        const qint64 count = m_counts.value(s.id, -1);
        known.insert(s.id, count);
        auto *item = new QListWidgetItem(itemText(s.name, s.isDynamic, count), m_list);
        item->setData(IdRole, s.id);
        item->setData(NameRole, s.name);
        item->setData(DynamicRole, s.isDynamic);
        item->setToolTip(s.description.isEmpty() ? s.name : s.description);
        if (s.id == current)
            found = true;
        try {
            jobs.append(BackgroundCounter::Job::of(s.id, m_segments.membership(s)));
        } catch (const std::exception &) {
            // Stored rules that no longer compile: the segment shows without a count.
        }
    }
    m_counts = known; // forget deleted segments
    m_counter.request(jobs);
    if (found) {
        selectSegment(current);
        m_reloading = false;
        // The rules or members of the shown segment may have changed (a changed contact the
        // contacts view follows itself).
        if (!current.isEmpty() && m_segmentChanged)
            applySelection();
    } else {
        m_list->setCurrentRow(0);
        m_reloading = false;
        applySelection(); // the shown segment was deleted: every contact again
    }
    m_segmentChanged = false;
    updateActions();
}

QString SegmentsPanel::itemText(const QString &name, bool dynamic, qint64 count) const
{
    if (count < 0) // not counted yet
        return dynamic ? name : tr("%1 (static)").arg(name);
    const QString n = QLocale().toString(count);
    return dynamic ? tr("%1 (%2)").arg(name, n) : tr("%1 (%2, static)").arg(name, n);
}

void SegmentsPanel::showCount(const QString &id, qint64 count)
{
    m_counts.insert(id, count);
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        if (item->data(IdRole).toString() == id) {
            item->setText(itemText(item->data(NameRole).toString(), item->data(DynamicRole).toBool(), count));
            return;
        }
    }
}

void SegmentsPanel::applySelection()
{
    SegmentRules::Sql sql;
    const QString id = currentSegmentId();
    if (!id.isEmpty()) {
        try {
            sql = m_segments.membership(id);
        } catch (const std::exception &) {
            m_refreshTimer.start(); // deleted meanwhile
            return;
        }
    }
    if (sql.where == m_appliedWhere && sql.values == m_appliedValues) {
        m_view.refresh(); // same condition, other members (a static segment): keep the scroll position
        return;
    }
    m_appliedWhere = sql.where;
    m_appliedValues = sql.values;
    const QListWidgetItem *item = m_list->currentItem();
    m_view.setSegmentFilter(sql.where, sql.values, item ? item->data(NameRole).toString() : QString());
}

void SegmentsPanel::updateActions()
{
    const QListWidgetItem *item = m_list->currentItem();
    const bool segment = item && !item->data(IdRole).toString().isEmpty();
    m_edit->setEnabled(segment);
    m_delete->setEnabled(segment);
    m_snapshot->setEnabled(segment);
}

QStringList SegmentsPanel::selectedContactIds() const
{
    QStringList ids;
    const QModelIndexList rows = m_view.table()->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) {
        const QString id = m_view.model()->idAt(index.row());
        if (!id.isEmpty())
            ids << id;
    }
    return ids;
}

void SegmentsPanel::newSegment()
{
    auto *dialog = new SegmentDialog(m_segments, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SegmentDialog::segmentSaved, this, [this](const QString &id) {
        reload();
        selectSegment(id);
    });
    dialog->open();
}

void SegmentsPanel::editSegment()
{
    const QString id = currentSegmentId();
    if (id.isEmpty())
        return;
    std::optional<Segment> segment;
    try {
        segment = m_segments.find(id);
    } catch (const std::exception &e) {
        MessageBoxes::warn(this, tr("Edit segment"), ErrorText::of(e));
        return;
    }
    if (!segment) {
        reload();
        return;
    }
    auto *dialog = new SegmentDialog(m_segments, *segment, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SegmentDialog::segmentSaved, this, &SegmentsPanel::reload);
    dialog->open();
}

void SegmentsPanel::deleteSegment()
{
    const QString id = currentSegmentId();
    if (id.isEmpty())
        return;
    const QString name = m_list->currentItem()->data(NameRole).toString();
    MessageBoxes::confirm(this, tr("Delete segment"), tr("Delete the segment %1? Its contacts are kept.").arg(name),
                          tr("Delete"), [this, id] {
                              try {
                                  m_segments.remove(id);
                              } catch (const DomainError &e) {
                                  if (e.kind() != DomainError::NotFound)
                                      MessageBoxes::warn(this, tr("Delete segment"), ErrorText::of(e));
                              } catch (const std::exception &e) {
                                  MessageBoxes::warn(this, tr("Delete segment"), ErrorText::of(e));
                              }
                              reload();
                          });
}

void SegmentsPanel::snapshotSegment()
{
    const QString id = currentSegmentId();
    if (id.isEmpty())
        return;
    try {
        // Named in the window's language and time: "Sadık müşteriler (anlık görüntü 27.11.2026 15:30)",
        // numbered when that name is taken.
        const std::optional<Segment> source = m_segments.find(id);
        if (!source)
            return;
        const QString base = tr("%1 (snapshot %2)")
                                 .arg(source->name.left(SegmentRules::MaxNameLength - 40),
                                      QLocale().toString(m_segments.store().now().toLocalTime(), QLocale::ShortFormat));
        SegmentChanges changes;
        changes.name = base;
        for (int n = 2;; ++n) {
            try {
                const Segment s = m_segments.snapshot(id, changes);
                reload();
                selectSegment(s.id);
                return;
            } catch (const DomainError &e) {
                if (e.kind() != DomainError::Conflict || n > 50)
                    throw;
                changes.name = QStringLiteral("%1 %2").arg(base).arg(n);
            }
        }
    } catch (const std::exception &e) {
        MessageBoxes::warn(this, tr("Snapshot"), ErrorText::of(e));
    }
}

void SegmentsPanel::addSelectionToSegment()
{
    const QStringList ids = selectedContactIds();
    if (ids.isEmpty()) {
        MessageBoxes::warn(this, tr("Add to segment"), tr("Select one or more contacts in the table first."));
        return;
    }
    QVector<Segment> statics;
    try {
        for (const Segment &s : m_segments.list(false)) {
            if (!s.isDynamic)
                statics << s;
        }
    } catch (const std::exception &e) {
        MessageBoxes::warn(this, tr("Add to segment"), ErrorText::of(e));
        return;
    }
    if (statics.isEmpty()) {
        MessageBoxes::warn(this, tr("Add to segment"),
                           tr("Contacts are added to static segments only, and there is none yet. Create one with "
                              "New… and clear \"Dynamic\"."));
        return;
    }
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("addToSegmentDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Add to segment"));
    auto *label =
        new QLabel(ids.size() == 1 ? tr("Add 1 contact to:") : tr("Add %1 contacts to:").arg(ids.size()), dialog);
    auto *choice = new QComboBox(dialog);
    choice->setObjectName(QStringLiteral("segmentChoice"));
    for (const Segment &s : std::as_const(statics))
        choice->addItem(s.name, s.id);
    choice->setCurrentIndex(qMax(0, choice->findData(currentSegmentId())));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(label);
    layout->addWidget(choice);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, choice, ids] {
        try {
            m_segments.addContacts(choice->currentData().toString(), ids);
        } catch (const std::exception &e) {
            MessageBoxes::warn(this, tr("Add to segment"), ErrorText::of(e));
        }
        dialog->accept();
        reload();
    });
    dialog->open();
}
