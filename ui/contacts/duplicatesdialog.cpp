#include "ui/contacts/duplicatesdialog.h"

#include "model/contacts/contactmerge.h"
#include "model/core/database.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
enum DuplicatesColumn
{
    DuplicatesKeepColumn,
    DuplicatesMergeColumn,
    DuplicatesNameColumn,
    DuplicatesEmailColumn,
    DuplicatesPhoneColumn,
    DuplicatesCompanyColumn,
    DuplicatesCreatedColumn,
    DuplicatesColumnCount
};
} // namespace

DuplicatesDialog::DuplicatesDialog(const Store &store, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
{
    setObjectName(QStringLiteral("duplicatesDialog"));
    setWindowTitle(tr("Find duplicates"));

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("duplicatesSummary"));
    m_summary->setWordWrap(true);
    m_refresh = new QPushButton(tr("Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("refreshButton"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_refresh);

    m_groups = new QListWidget(this);
    m_groups->setObjectName(QStringLiteral("duplicateGroups"));
    m_groups->setAccessibleName(tr("Groups of duplicates"));
    m_groups->setWordWrap(false); // two lines an item: the names (cut at the width, whole in the tooltip), why
    m_groups->setTextElideMode(Qt::ElideRight);
    m_groups->setUniformItemSizes(false);
    m_groups->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_groups->setSpacing(UiKit::Space::XS);

    auto *right = new QWidget(this);
    m_why = new QLabel(right);
    m_why->setObjectName(QStringLiteral("duplicateReasons"));
    m_why->setWordWrap(true);
    m_why->setTextFormat(Qt::PlainText);
    m_contacts = UiKit::recordTable(
        DuplicatesColumnCount,
        {tr("Keep"), tr("Merge"), tr("Name"), tr("E-mail"), tr("Phone"), tr("Company"), tr("Created")},
        QStringLiteral("duplicateContacts"), right);
    m_contacts->setAccessibleName(tr("Contacts of the group"));
    m_contacts->setSelectionMode(QAbstractItemView::NoSelection);
    UiKit::oneLineRows(m_contacts);
    const QFontMetrics fm(m_contacts->font());
    m_keepGroup = new QButtonGroup(this);
    m_keepGroup->setExclusive(true);
    m_plan = new QLabel(right);
    m_plan->setObjectName(QStringLiteral("mergePlan"));
    m_plan->setWordWrap(true);
    m_plan->setTextFormat(Qt::PlainText);
    m_error = UiKit::errorLabel(right);
    m_merge = new QPushButton(tr("Merge into the kept contact"), right);
    m_merge->setObjectName(QStringLiteral("mergeButton"));
    auto *mergeRow = new QHBoxLayout;
    mergeRow->addStretch(1);
    mergeRow->addWidget(m_merge);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(UiKit::Space::S, 0, 0, 0);
    rightLayout->setSpacing(UiKit::Space::S);
    rightLayout->addWidget(m_why);
    rightLayout->addWidget(m_contacts, 1);
    rightLayout->addWidget(m_plan);
    rightLayout->addWidget(m_error);
    rightLayout->addLayout(mergeRow);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_groups);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    m_undoBar = new QWidget(this);
    m_undoBar->setObjectName(QStringLiteral("mergeUndoBar"));
    m_undoText = new QLabel(m_undoBar);
    m_undoText->setObjectName(QStringLiteral("mergeUndoText"));
    m_undoText->setWordWrap(true);
    m_undo = new QPushButton(tr("Undo"), m_undoBar);
    m_undo->setObjectName(QStringLiteral("undoMergeButton"));
    auto *undoLayout = new QHBoxLayout(m_undoBar);
    undoLayout->setContentsMargins(0, 0, 0, 0);
    undoLayout->addWidget(m_undoText, 1);
    undoLayout->addWidget(m_undo);
    m_undoBar->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::M, UiKit::Space::M);
    layout->setSpacing(UiKit::Space::S);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_undoBar);
    layout->addWidget(buttons);

    connect(m_refresh, &QPushButton::clicked, this, &DuplicatesDialog::reload);
    connect(m_groups, &QListWidget::currentRowChanged, this, &DuplicatesDialog::showGroup);
    connect(m_merge, &QPushButton::clicked, this, &DuplicatesDialog::mergeSelected);
    connect(m_undo, &QPushButton::clicked, this, &DuplicatesDialog::undoLast);
    connect(m_contacts, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (!m_filling && item->column() == DuplicatesMergeColumn)
            updatePlan();
    });

    resize(1120, 620);
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
    reload();
}

DuplicatesDialog::~DuplicatesDialog()
{
    ++m_ticket;
    // The worker's connection is closed by a last job, as BackgroundCounter closes its own.
    m_pool.start([] { Database::closeThreadConnection(); });
    m_pool.waitForDone();
}

QString DuplicatesDialog::describeMatch(const DuplicateMatch &m) const
{
    if (m.rule == QLatin1String("email"))
        return tr("Same e-mail: %1").arg(m.value);
    if (m.rule == QLatin1String("phone"))
        return tr("Same phone: %1").arg(m.value);
    return tr("Same name and company: %1").arg(m.value);
}

void DuplicatesDialog::reload()
{
    const int ticket = ++m_ticket;
    m_searching = true;
    m_summary->setText(tr("Looking for duplicates…"));
    m_refresh->setEnabled(false);
    m_merge->setEnabled(false);
    m_undo->setEnabled(false);
    const Store store = m_store;
    m_pool.start([this, ticket, store] {
        QVector<DuplicateGroup> found;
        qsizetype total = 0;
        QString error;
        try {
            const DuplicateFinder finder(store);
            found = finder.groups();
            total = found.size();
            found = found.mid(0, kMaxGroupsShown);
            finder.load(found);
        } catch (const std::exception &e) {
            found.clear();
            error = ErrorText::of(e);
        }
        Database::releaseSnapshot();
        // Delivered in the window's thread; the destructor waits for this job, so `this` outlives it.
        QMetaObject::invokeMethod(
            this,
            [this, ticket, total, found, error] {
                if (ticket == m_ticket)
                    showFound(total, found, error);
            },
            Qt::QueuedConnection);
    });
}

void DuplicatesDialog::showFound(qsizetype total, const QVector<DuplicateGroup> &found, const QString &error)
{
    const QString shownKept = keptId();
    m_searching = false;
    m_refresh->setEnabled(true);
    m_undo->setEnabled(!m_merges.isEmpty());
    m_found = found;
    UiKit::showError(m_error, error);
    if (total == 0)
        m_summary->setText(error.isEmpty() ? tr("No duplicates found.") : QString());
    else if (total > m_found.size())
        m_summary->setText(tr("Groups of contacts that look like one person: %1 (the newest %2 are listed).")
                               .arg(total)
                               .arg(m_found.size()));
    else
        m_summary->setText(tr("Groups of contacts that look like one person: %1.").arg(total));

    const QSignalBlocker block(m_groups);
    m_groups->clear();
    int again = -1;
    for (int i = 0; i < m_found.size(); ++i) {
        const DuplicateGroup &g = m_found.at(i);
        QStringList names;
        for (const Contact &c : g.contacts)
            names << c.displayName();
        QStringList why;
        for (const DuplicateMatch &m : g.matches) {
            const QString rule = m.rule == QLatin1String("email")   ? tr("e-mail")
                                 : m.rule == QLatin1String("phone") ? tr("phone")
                                                                    : tr("name and company");
            if (!why.contains(rule))
                why << rule;
        }
        auto *item = new QListWidgetItem(names.join(QStringLiteral(", ")) + QLatin1Char('\n') +
                                         tr("Same %1").arg(why.join(QStringLiteral(", "))));
        item->setToolTip(item->text());
        m_groups->addItem(item);
        if (!shownKept.isEmpty() && g.contactIds.contains(shownKept))
            again = i;
    }
    const int row = again >= 0 ? again : (m_found.isEmpty() ? -1 : 0);
    m_groups->setCurrentRow(row);
    showGroup(row);
}

void DuplicatesDialog::showGroup(int row)
{
    const QSignalBlocker block(m_contacts);
    m_filling = true;
    for (QAbstractButton *b : m_keepGroup->buttons())
        m_keepGroup->removeButton(b);
    m_contacts->setRowCount(0);
    if (row < 0 || row >= m_found.size()) {
        m_why->clear();
        m_plan->clear();
        m_merge->setEnabled(false);
        m_filling = false;
        return;
    }
    const DuplicateGroup &g = m_found.at(row);
    QStringList why{tr("Why they match:")};
    for (const DuplicateMatch &m : g.matches)
        why << QStringLiteral("• ") + describeMatch(m);
    m_why->setText(why.join(QLatin1Char('\n')));
    m_contacts->setRowCount(int(g.contacts.size()));
    for (int i = 0; i < g.contacts.size(); ++i) {
        const Contact &c = g.contacts.at(i);
        // Keep: one of the group, a radio button (one choice); Merge: a tick per other contact.
        auto *cell = new QWidget(m_contacts);
        auto *radio = new QRadioButton(cell);
        radio->setProperty("contactId", c.id);
        radio->setToolTip(tr("Keep this contact"));
        radio->setAccessibleName(tr("Keep %1").arg(c.displayName()));
        auto *cellLayout = new QHBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        cellLayout->addWidget(radio, 0, Qt::AlignCenter);
        m_keepGroup->addButton(radio);
        connect(radio, &QRadioButton::toggled, this, [this, id = c.id](bool on) {
            if (on && !m_filling)
                chooseKept(id);
        });
        m_contacts->setCellWidget(i, DuplicatesKeepColumn, cell);
        auto *merge = new QTableWidgetItem;
        merge->setData(UiKit::IdRole, c.id);
        merge->setToolTip(tr("Merge this contact into the kept one"));
        m_contacts->setItem(i, DuplicatesMergeColumn, merge);
        m_contacts->setItem(i, DuplicatesNameColumn, UiKit::tableItem(c.displayName(), c.id));
        m_contacts->setItem(i, DuplicatesEmailColumn, UiKit::tableItem(c.email));
        m_contacts->setItem(i, DuplicatesPhoneColumn, UiKit::tableItem(c.phone));
        m_contacts->setItem(i, DuplicatesCompanyColumn, UiKit::tableItem(c.company));
        m_contacts->setItem(i, DuplicatesCreatedColumn, UiKit::tableItem(UiKit::localTime(c.createdAt)));
    }
    // The texts whole where they fit: each column as wide as its widest text, at most about 28
    // characters (a long e-mail is cut, whole in its tooltip), at least as wide as its title.
    m_contacts->resizeColumnsToContents();
    QHeaderView *header = m_contacts->horizontalHeader();
    const int widest = fontMetrics().averageCharWidth() * 28;
    QStringList created;
    for (int i = 0; i < m_contacts->rowCount(); ++i)
        created << m_contacts->item(i, DuplicatesCreatedColumn)->text();
    const int createdWidth = UiKit::columnWidthFor(m_contacts->fontMetrics(), created);
    int total = 0;
    for (int column = 0; column < DuplicatesColumnCount; ++column) {
        if (column >= DuplicatesNameColumn && column != DuplicatesCreatedColumn)
            header->resizeSection(column,
                                  qMin(widest, qMax(header->sectionSize(column), header->sectionSizeHint(column))));
        // The last column stretches to the table's edge: what it needs is its texts' width.
        total += column == DuplicatesCreatedColumn ? qMax(createdWidth, header->sectionSizeHint(column))
                                                   : header->sectionSize(column);
    }
    // Wider than the table: the e-mail, then the company, then the name give way (to their titles'
    // width at least), so that the creation date stays whole.
    int excess = total - m_contacts->viewport()->width();
    for (int column : {int(DuplicatesEmailColumn), int(DuplicatesCompanyColumn), int(DuplicatesNameColumn)}) {
        if (excess <= 0)
            break;
        const int give = qMin(excess, header->sectionSize(column) - header->sectionSizeHint(column));
        if (give > 0) {
            header->resizeSection(column, header->sectionSize(column) - give);
            excess -= give;
        }
    }
    m_filling = false;
    chooseKept(g.suggestedKeepId());
}

void DuplicatesDialog::chooseKept(const QString &id)
{
    {
        const QSignalBlocker block(m_contacts);
        const bool filling = m_filling;
        m_filling = true;
        for (QAbstractButton *b : m_keepGroup->buttons())
            b->setChecked(b->property("contactId").toString() == id);
        m_filling = filling;
        for (int i = 0; i < m_contacts->rowCount(); ++i) {
            QTableWidgetItem *merge = m_contacts->item(i, DuplicatesMergeColumn);
            const bool kept = merge->data(UiKit::IdRole).toString() == id;
            if (kept) {
                merge->setFlags(Qt::NoItemFlags);
                merge->setData(Qt::CheckStateRole, QVariant());
            } else {
                merge->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
                if (!merge->data(Qt::CheckStateRole).isValid())
                    merge->setCheckState(Qt::Checked);
            }
        }
    }
    updatePlan();
}

QString DuplicatesDialog::keptId() const
{
    const QAbstractButton *checked = m_keepGroup->checkedButton();
    return checked ? checked->property("contactId").toString() : QString();
}

QStringList DuplicatesDialog::mergedIds() const
{
    QStringList ids;
    const QString kept = keptId();
    for (int i = 0; i < m_contacts->rowCount(); ++i) {
        const QTableWidgetItem *merge = m_contacts->item(i, DuplicatesMergeColumn);
        const QString id = merge ? merge->data(UiKit::IdRole).toString() : QString();
        if (merge && id != kept && merge->checkState() == Qt::Checked)
            ids << id;
    }
    return ids;
}

void DuplicatesDialog::updatePlan()
{
    const QString kept = keptId();
    const QStringList others = mergedIds();
    UiKit::showError(m_error, {});
    if (kept.isEmpty() || others.isEmpty()) {
        m_plan->setText(kept.isEmpty() ? QString() : tr("Tick at least one contact to merge."));
        m_merge->setEnabled(false);
        return;
    }
    try {
        const MergePreview p = ContactMerge(m_store).preview(kept, others);
        QStringList moves;
        const auto add = [&moves](int n, const QString &text) {
            if (n > 0)
                moves << text.arg(n);
        };
        add(p.moves.notes, tr("notes: %1"));
        add(p.moves.deals, tr("deals: %1"));
        add(p.moves.tasks, tr("tasks: %1"));
        add(p.moves.conversations, tr("conversations: %1"));
        add(p.moves.segments, tr("segment memberships: %1"));
        add(p.moves.campaigns, tr("campaign records: %1"));
        QStringList lines;
        lines << tr("%1 is kept; %2 other contact(s) are merged into it and removed.")
                     .arg(p.kept.displayName())
                     .arg(p.others.size());
        lines << (moves.isEmpty() ? tr("Nothing else moves.")
                                  : tr("Moves to the kept contact: %1.").arg(moves.join(QStringLiteral(", "))));
        if (!p.filledFields.isEmpty()) {
            QStringList labels;
            for (const QString &f : p.filledFields)
                labels << ErrorText::fieldLabel(f);
            lines << tr("Fields it takes from the others: %1.").arg(labels.join(QStringLiteral(", ")));
        }
        if (!p.notKept.isEmpty())
            lines << tr("Not kept (it has its own): %1.").arg(p.notKept.join(QStringLiteral(", ")));
        m_plan->setText(lines.join(QLatin1Char('\n')));
        m_merge->setEnabled(true);
    } catch (const std::exception &e) {
        m_plan->clear();
        m_merge->setEnabled(false);
        UiKit::showError(m_error, ErrorText::of(e));
    }
}

void DuplicatesDialog::mergeSelected()
{
    const QString kept = keptId();
    const QStringList others = mergedIds();
    if (kept.isEmpty() || others.isEmpty())
        return;
    try {
        const MergeResult r = ContactMerge(m_store).merge(kept, others);
        m_merges << r.mergeId;
        m_lastMergeText = tr("Contacts merged into %1.").arg(r.kept.displayName());
        m_undoText->setText(tr("Merged into %1: %2 contact(s).").arg(r.kept.displayName()).arg(r.removedIds.size()));
        m_undoBar->show();
        m_undo->setEnabled(true);
    } catch (const std::exception &e) {
        UiKit::showError(m_error, ErrorText::of(e));
        return;
    }
    reload();
}

void DuplicatesDialog::undoLast()
{
    if (m_merges.isEmpty())
        return;
    try {
        const MergeUndone u = ContactMerge(m_store).undo(m_merges.constLast());
        m_merges.removeLast();
        m_undoText->setText(tr("Merge undone: %1 contact(s) are back.").arg(u.restored.size()));
        m_undo->setEnabled(!m_merges.isEmpty());
    } catch (const std::exception &e) {
        UiKit::showError(m_error, ErrorText::of(e));
        return;
    }
    reload();
}
