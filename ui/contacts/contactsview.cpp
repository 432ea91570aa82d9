#include "ui/contacts/contactsview.h"

#include "model/contacts/contactexport.h"
#include "model/contacts/contactimporter.h"
#include "model/contacts/contactmerge.h"
#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/contacts/contactdialog.h"
#include "ui/contacts/contacttablemodel.h"
#include "ui/contacts/duplicatesdialog.h"
#include "ui/shell/backgroundworker.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/importdialog.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/rowanchor.h"
#include "ui/shell/uikit.h"
#include "ui/shell/undobar.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSignalBlocker>
#include <QStandardPaths>

#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <climits>

ContactsView::ContactsView(ContactRepository &contacts, const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_contacts(contacts)
    , m_store(store)
{
    setObjectName(QStringLiteral("contactsView"));
    m_model = new ContactTableModel(contacts, this);

    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("searchEdit"));
    m_search->setAccessibleName(tr("Search contacts"));
    m_search->setPlaceholderText(tr("Search name, e-mail, phone…"));
    m_search->setAccessibleName(tr("Search contacts"));
    m_search->installEventFilter(this);
    m_search->setClearButtonEnabled(true);

    m_tagFilter = new QComboBox(this);
    m_tagFilter->setObjectName(QStringLiteral("tagFilter"));
    m_tagFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_tagFilter->setMinimumContentsLength(12);

    m_new = new QPushButton(tr("New"), this);
    m_new->setObjectName(QStringLiteral("newButton"));
    m_new->setToolTip(tr("Create a contact"));
    m_edit = new QPushButton(tr("Edit"), this);
    m_edit->setObjectName(QStringLiteral("editButton"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteButton"));
    m_duplicates = new QPushButton(tr("Duplicates…"), this);
    m_duplicates->setObjectName(QStringLiteral("duplicatesButton"));
    m_duplicates->setToolTip(tr("Find contacts that look like one person and merge them"));
    m_import = new QPushButton(tr("Import…"), this);
    m_import->setObjectName(QStringLiteral("importButton"));
    m_import->setToolTip(tr("Import contacts from a CSV file"));
    m_export = new QPushButton(tr("Export…"), this);
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setToolTip(tr("Save the contacts the search and filters show as a CSV file"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_search, 1);
    bar->addWidget(m_tagFilter);
    bar->addSpacing(12);
    bar->addWidget(m_new);
    bar->addWidget(m_edit);
    bar->addWidget(m_delete);
    bar->addWidget(m_duplicates);
    bar->addSpacing(12);
    bar->addWidget(m_import);
    bar->addWidget(m_export);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("contactsTable"));
    m_table->setAccessibleName(tr("Contacts"));
    m_table->installEventFilter(this);
    m_emptyHint = installEmptyHint(m_table, {}); // says why the table is empty (applyFilter)
    m_table->setModel(m_model);
    // No current row until a contact is chosen: taking the focus with none (the window activated,
    // a Tab), the view would make the first row current, unselected, and the pane would open that
    // contact unasked. Setting "none" as the current row tells the view it was chosen.
    auto noCurrentRow = [this] { m_table->setCurrentIndex({}); };
    connect(m_model, &QAbstractItemModel::modelReset, this, noCurrentRow);
    noCurrentRow();
    new RowAnchor(m_table, ContactTableModel::IdRole); // live inserts do not move the row under the mouse
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setCornerButtonEnabled(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights and no ResizeToContents anywhere: either would make the view read every row.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    header->setHighlightSections(false);
    // A click on Name, Company or Created sorts by it (a second click turns the order round); the
    // other columns keep the order shown. The window remembers the order with the columns.
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
    connect(header, &QHeaderView::sortIndicatorChanged, this, [this, header](int column, Qt::SortOrder order) {
        if (!ContactTableModel::sortable(column)) {
            const QSignalBlocker blocker(header);
            header->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
            return;
        }
        const QString shown = m_pane->contactId();
        m_restoring = true; // the contact shown stays shown, selected where it now is among the first rows
        m_model->sort(column, order);
        if (shown.isEmpty() || !selectContact(shown, 0))
            m_table->scrollToTop();
        m_restoring = false;
    });
    // Right-click on the header: which columns show (the window remembers the choice).
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, [this, header](const QPoint &pos) {
        QMenu menu(this);
        int shown = 0;
        for (int c = 0; c < m_model->columnCount(); ++c)
            shown += !header->isSectionHidden(c);
        for (int c = 0; c < m_model->columnCount(); ++c) {
            QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!header->isSectionHidden(c));
            a->setEnabled(c != ContactTableModel::NameColumn && !(a->isChecked() && shown == 1)); // the name stays
            connect(a, &QAction::toggled, header, [header, c](bool on) { header->setSectionHidden(c, !on); });
        }
        menu.exec(header->mapToGlobal(pos));
    });
    // Widths from the text a column typically holds, so that the table fits beside the detail pane
    // on a 1,280-pixel screen; longer values are elided, and the user's widths are remembered.
    const QFontMetrics metrics = fontMetrics();
    const int padding = 2 * metrics.averageCharWidth() + 6;
    auto fit = [&](int column, const QString &sample) {
        m_table->setColumnWidth(column, metrics.horizontalAdvance(sample) + padding);
    };
    fit(ContactTableModel::NameColumn, QStringLiteral("Çağla Yılmazoğlu"));
    fit(ContactTableModel::EmailColumn, QStringLiteral("zeynep.ozdemir@ornek.com.tr"));
    fit(ContactTableModel::PhoneColumn, QStringLiteral("+90 532 123 45 67")); // as shown: grouped
    fit(ContactTableModel::CompanyColumn, QStringLiteral("Anadolu Tekstil A.Ş."));
    fit(ContactTableModel::TagsColumn, QStringLiteral("müşteri, vip"));

    m_pane = new ContactDetailPane(contacts, this);
    m_pane->setObjectName(QStringLiteral("contactDetailPane"));
    // No contact shown: the table gets the pane's room (its columns whole on a 1,366-pixel screen).
    m_pane->hide();
    connect(m_pane, &ContactDetailPane::contactShown, m_pane, &QWidget::setVisible);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("contactsSplitter"));
    splitter->addWidget(m_table);
    splitter->addWidget(m_pane);
    // The table takes what the window gives beyond the pane's width, so that on a 1,280-pixel
    // screen its columns show rather than an empty pane (until the user moves the handle, which
    // the window remembers).
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    m_pane->setMinimumWidth(340); // its tabs and the fields' labels
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({4 * 380, 380});

    // Where the search looks while a segment or a tag limits it, and one click to look everywhere.
    m_scopeBar = new QWidget(this);
    m_scopeBar->setObjectName(QStringLiteral("searchScope"));
    m_scopeLabel = new QLabel(m_scopeBar);
    m_scopeLabel->setObjectName(QStringLiteral("searchScopeLabel"));
    m_scopeLabel->setTextFormat(Qt::PlainText); // segment and tag names are the users' text
    m_scopeLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_searchAll = new QPushButton(tr("Search all contacts"), m_scopeBar);
    m_searchAll->setObjectName(QStringLiteral("searchAllButton"));
    auto *scopeLayout = new QHBoxLayout(m_scopeBar);
    scopeLayout->setContentsMargins(0, 0, 0, 0);
    scopeLayout->addWidget(m_scopeLabel, 1);
    scopeLayout->addWidget(m_searchAll);
    m_scopeBar->hide();
    connect(m_searchAll, &QPushButton::clicked, this, [this] {
        const bool hadSegment = !m_segmentWhere.isEmpty();
        {
            const QSignalBlocker tags(m_tagFilter);
            m_tagFilter->setCurrentIndex(0);
        }
        emit searchAllRequested(); // the segments beside the table go back to All contacts
        if (!m_segmentWhere.isEmpty())
            setSegmentFilter({}, {}, {}); // nothing beside the table answered
        else if (!hadSegment)
            applyFilter();
    });

    m_count = new QLabel(this);
    m_count->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_count->setObjectName(QStringLiteral("countLabel"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::XS, UiKit::Space::M, UiKit::Space::M, UiKit::Space::S);
    layout->setSpacing(UiKit::Space::S);
    layout->addLayout(bar);
    layout->addWidget(m_scopeBar);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_count);

    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(RefreshDelayMs);

    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        m_searchTimer.stop();
        applyFilter();
        focusTable();
    });
    connect(&m_searchTimer, &QTimer::timeout, this, &ContactsView::applyFilter);
    connect(m_tagFilter, &QComboBox::currentIndexChanged, this, [this] {
        m_searchTimer.stop();
        applyFilter();
    });
    connect(&m_refreshTimer, &QTimer::timeout, this, &ContactsView::refresh);
    // AutoConnection: queued when the change was made in another thread (the API server).
    connect(&store.bus(), &EventBus::changed, this, &ContactsView::onBusChanged);

    connect(m_new, &QPushButton::clicked, this, &ContactsView::newContact);
    connect(m_edit, &QPushButton::clicked, this, &ContactsView::editContact);
    connect(m_delete, &QPushButton::clicked, this, &ContactsView::deleteContact);
    connect(m_duplicates, &QPushButton::clicked, this, &ContactsView::findDuplicates);
    connect(m_table, &QTableView::doubleClicked, this, &ContactsView::editContact);
    connect(m_import, &QPushButton::clicked, this, &ContactsView::importContacts);
    connect(m_export, &QPushButton::clicked, this, &ContactsView::chooseExportFile);
    auto *deleteShortcut = new QShortcut(QKeySequence::Delete, m_table);
    deleteShortcut->setContext(Qt::WidgetShortcut);
    connect(deleteShortcut, &QShortcut::activated, this, &ContactsView::deleteContact);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { onCurrentRowChanged(current.isValid() ? current.row() : -1); });
    // A segment's table: its rows follow when the worker has counted them.
    connect(m_model, &ContactTableModel::countChanged, this, [this] {
        const QString shown = m_pane->contactId();
        const int row = currentRow();
        m_restoring = true;
        const bool found = !shown.isEmpty() && (m_model->idAt(row) == shown || selectContact(shown, qMax(0, row)));
        if (!found)
            m_table->selectionModel()->clearSelection();
        m_restoring = false;
        if (!found && m_filterPending)
            m_pane->showContact({}); // as applyFilter() does for a filter counted at once
        m_filterPending = false;
        updateActions();
        updateCount();
        if (m_enterTableWhenCounted) {
            m_enterTableWhenCounted = false;
            focusTable();
        }
    });
    connect(m_model, &ContactTableModel::loadFailed, this, [this](const QString &message) {
        m_filterPending = false; // a count from the worker that failed ends the wait too
        m_count->setText(tr("Could not read contacts: %1").arg(message));
    });

    reloadTags();
    applyFilter();
}

bool ContactsView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    const bool plain = (key->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
    if (watched == m_search && plain && key->key() == Qt::Key_Down) {
        if (m_searchTimer.isActive()) { // what was typed is searched before the table takes over
            m_searchTimer.stop();
            applyFilter();
        }
        focusTable();
        return true;
    }
    if (watched == m_table && plain) {
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            editContact();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            focusSearch();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ContactsView::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void ContactsView::focusTable()
{
    if (m_filterPending) {
        m_enterTableWhenCounted = true;
        return;
    }
    if (m_model->rowCount() == 0)
        return; // nothing to move to: the cursor stays in the search, to change it
    m_table->setFocus(Qt::OtherFocusReason);
    const QModelIndex index = m_model->index(0, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

QString ContactsView::currentContactId() const
{
    return m_pane->contactId();
}

int ContactsView::currentRow() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() && m_table->selectionModel()->isRowSelected(current.row()) ? current.row() : -1;
}

bool ContactsView::selectContact(const QString &id, int hintRow)
{
    const int row = m_model->rowOfId(id, hintRow);
    if (row < 0)
        return false;
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

void ContactsView::openContact(const QString &id)
{
    if (!selectContact(id)) {
        m_restoring = true;
        m_table->selectionModel()->clearSelection();
        m_restoring = false;
        m_pane->showContact(id);
    }
    updateActions();
}

void ContactsView::startOver()
{
    {
        const QSignalBlocker search(m_search);
        const QSignalBlocker tags(m_tagFilter);
        m_search->clear();
        m_tagFilter->setCurrentIndex(0);
    }
    m_searchTimer.stop();
    m_restoring = true;
    m_table->selectionModel()->clearSelection();
    m_restoring = false;
    m_pane->showContact({});
    applyFilter();
}

void ContactsView::applyFilter()
{
    ContactQuery query;
    query.search = m_search->text().trimmed();
    const QString tag = m_tagFilter->currentData().toString();
    if (!tag.isEmpty())
        query.tags = {tag};
    query.extraWhere = m_segmentWhere;
    query.extraValues = m_segmentValues;
    if (!m_hiddenIds.isEmpty()) {
        // Deleted, but the delete can still be undone: out of the list meanwhile.
        QStringList marks;
        for (const QString &id : std::as_const(m_hiddenIds)) {
            marks << QStringLiteral("?");
            query.extraValues << id;
        }
        const QString hide = QStringLiteral("c.id NOT IN (%1)").arg(marks.join(QLatin1Char(',')));
        query.extraWhere =
            query.extraWhere.isEmpty() ? hide : QStringLiteral("(%1) AND %2").arg(query.extraWhere, hide);
    }
    const QString shown = m_pane->contactId();
    // Searching inside a segment or a tag says so, with how many match among all contacts.
    const bool limited = !tag.isEmpty() || !m_segmentWhere.isEmpty();
    QString scope;
    if (!m_segmentWhere.isEmpty() && !tag.isEmpty())
        scope = tr("segment “%1”, tag “%2”").arg(m_segmentName, tag);
    else if (!m_segmentWhere.isEmpty())
        scope = tr("segment “%1”").arg(m_segmentName);
    else if (!tag.isEmpty())
        scope = tr("tag “%1”").arg(tag);
    qint64 everywhere = -1;
    if (limited && !query.search.isEmpty()) {
        ContactQuery all;
        all.search = query.search;
        try {
            everywhere = m_contacts.count(all);
        } catch (const std::exception &) {
            // Not counted: the line says where the search looks without the number.
        }
    }
    m_scopeBar->setVisible(limited && !query.search.isEmpty());
    if (m_scopeBar->isVisibleTo(this))
        m_scopeLabel->setText(everywhere < 0 ? tr("Searching in %1 only.").arg(scope)
                                             : tr("Searching in %1 only (%n in all contacts).", nullptr,
                                                  int(qMin<qint64>(everywhere, INT_MAX)))
                                                   .arg(scope));
    // An empty table says why: the search (and where it looked), the list chosen, or no contacts yet.
    m_emptyHint->setText(
        !query.search.isEmpty() && limited ? tr("No contact in %1 matches “%2”.").arg(scope, query.search)
        : !query.search.isEmpty() ? tr("No contact matches “%1”: change or clear the search.").arg(query.search)
        : limited                 ? tr("No contacts in this list. Choose All contacts or another tag to see more.")
                                  : tr("No contacts yet. Add the people you sell to; a first message on a channel, "
                                                       "or a tool using the API, adds contacts too."));
    // One action each: look everywhere, clear the search, or add the first contact.
    setEmptyHintIcon(m_emptyHint,
                     query.search.isEmpty() && !limited ? QStringLiteral("contacts") : QStringLiteral("search"));
    if (limited)
        setEmptyHintAction(m_emptyHint, query.search.isEmpty() ? tr("Show all contacts") : tr("Search all contacts"),
                           [this] { m_searchAll->click(); });
    else if (!query.search.isEmpty())
        setEmptyHintAction(m_emptyHint, tr("Clear the search"), [this] {
            m_search->clear();
            m_searchTimer.stop();
            applyFilter();
        });
    else
        setEmptyHintAction(m_emptyHint, tr("New contact…"), [this] { newContact(); });

    m_restoring = true;
    m_model->setQuery(query);
    m_filterPending = m_model->counting();
    const bool found = !m_filterPending && selectContact(shown, 0);
    m_restoring = false;
    if (!found && !m_filterPending)
        m_pane->showContact({});
    updateActions();
    updateCount();
}

void ContactsView::setSegmentFilter(const QString &where, const QVariantList &values, const QString &name)
{
    m_segmentWhere = where;
    m_segmentValues = values;
    m_segmentName = name;
    applyFilter();
}

void ContactsView::refresh()
{
    m_refreshTimer.stop();
    const QString shown = m_pane->contactId();
    const int oldRow = currentRow();

    m_restoring = true;
    m_model->refresh();
    reloadTags();
    if (!selectContact(shown, oldRow >= 0 ? oldRow : 0))
        m_table->selectionModel()->clearSelection();
    m_restoring = false;

    // Still shown when it moved out of reach of the table's look-up; gone when it was deleted.
    m_pane->reload();
    updateActions();
    updateCount();
}

void ContactsView::reloadTags()
{
    QVector<QPair<QString, qint64>> counts;
    try {
        counts = m_contacts.tagCounts();
    } catch (const std::exception &) {
        // The table reports database failures; the filter keeps its old items.
        return;
    }
    const QString current = m_tagFilter->currentData().toString();
    const QSignalBlocker blocker(m_tagFilter);
    m_tagFilter->clear();
    m_tagFilter->addItem(tr("All tags"), QString());
    for (const auto &entry : std::as_const(counts))
        m_tagFilter->addItem(tr("%1 (%2)").arg(entry.first, QLocale().toString(entry.second)), entry.first);
    int index = current.isEmpty() ? 0 : m_tagFilter->findData(current);
    if (index < 0) {
        // The chosen tag is no longer used: keep the filter (the table is empty) rather than
        // silently switching to every contact.
        m_tagFilter->addItem(tr("%1 (%2)").arg(current, QLocale().toString(0)), current);
        index = m_tagFilter->count() - 1;
    }
    m_tagFilter->setCurrentIndex(index);
}

void ContactsView::onBusChanged(EventBus::Entity entity, const QString &, EventBus::Change)
{
    if (entity == EventBus::Entity::Contact)
        m_refreshTimer.start();
    else if (entity == EventBus::Entity::Deal || entity == EventBus::Entity::Task ||
             entity == EventBus::Entity::Conversation || entity == EventBus::Entity::Message)
        m_pane->reloadSoon(); // what the shown contact's tabs list
}

void ContactsView::onCurrentRowChanged(int row)
{
    if (m_restoring)
        return;
    m_pane->showContact(row >= 0 ? m_model->idAt(row) : QString());
    updateActions();
}

ImportDialog *ContactsView::importContacts()
{
    ImportTarget target;
    target.objectName = QStringLiteral("contactImportDialog");
    target.title = tr("Import contacts");
    target.duplicateRule = tr("A contact with the same e-mail or phone exists:");
    target.fields = ContactImporter::fields();
    target.label = [](const QString &key) {
        return key == QLatin1String("name") ? tr("Full name (first and last)") : ErrorText::fieldLabel(key);
    };
    target.customFields = true;
    // Two contacts never share an e-mail or a phone: "create anyway" is not offered.
    target.duplicates = {CsvImport::Duplicates::Skip, CsvImport::Duplicates::Update};
    target.check = [](const QStringList &row, const CsvImport::Mapping &mapping) {
        ContactImporter::rowChanges(row, mapping);
    };
    target.run = [](const Store &store, const Csv::Table &table, const CsvImport::Mapping &mapping,
                    CsvImport::Duplicates duplicates, const QString &actor,
                    const std::function<bool(const CsvImport::Report &)> &progress) {
        return ContactImporter(store).run(table, mapping, duplicates, progress, {}, actor);
    };
    auto *dialog = new ImportDialog(std::move(target), m_store, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

void ContactsView::chooseExportFile()
{
    QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!QFileInfo(folder).isDir())
        folder = QDir::homePath();
    auto *dialog = new QFileDialog(this, tr("Export contacts to CSV"), folder);
    dialog->setObjectName(QStringLiteral("exportContactsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilter(tr("CSV files (*.csv)"));
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->selectFile(tr("contacts.csv"));
    connect(dialog, &QFileDialog::fileSelected, this, &ContactsView::exportTo);
    dialog->open();
}

bool ContactsView::exportTo(const QString &path)
{
    if (m_exporting)
        return false;
    m_exporting = true;
    m_export->setEnabled(false);
    const QString name = QFileInfo(path).fileName();
    m_count->setText(tr("Saving %1…").arg(name));
    ContactQuery q = m_model->query();
    q.sort = m_model->sort();
    if (!m_exportWorker)
        m_exportWorker = std::make_unique<BackgroundWorker>();
    const Store &store = m_contacts.store();
    m_exportWorker->run([this, path, name, q, store = Store(store.bus(), store.clock())] {
        QSaveFile file(path);
        qint64 count = 0;
        QString error;
        try {
            ContactExport exporter(store, q);
            count = exporter.total();
            if (file.open(QIODevice::WriteOnly)) {
                while (!exporter.atEnd() && file.write(exporter.next()) >= 0) {
                }
            }
            if (!file.commit())
                error = file.errorString();
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, path, name, count, error] {
            m_exporting = false;
            m_export->setEnabled(true);
            if (error.isEmpty())
                m_count->setText(
                    tr("%1 contacts saved to %2.").arg(QLocale().toString(count), QDir::toNativeSeparators(path)));
            else
                m_count->setText(tr("%1 was not saved: %2").arg(name, error));
            emit exportFinished(error.isEmpty());
        });
    });
    return true;
}

void ContactsView::updateActions()
{
    const bool has = !m_pane->contactId().isEmpty();
    m_edit->setEnabled(has);
    m_delete->setEnabled(has);
}

void ContactsView::updateCount()
{
    if (m_filterPending) {
        m_count->setText(tr("Counting…"));
        return;
    }
    const int n = m_model->rowCount();
    // Not the %n plural form: it needs a translator even in English, and the count wants digit grouping.
    m_count->setText(n == 1 ? tr("1 contact") : tr("%1 contacts").arg(QLocale().toString(n)));
}

void ContactsView::newContact()
{
    auto *dialog = new ContactDialog(m_contacts, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ContactDialog::contactSaved, this, [this](const QString &id) {
        refresh();
        // Selected in the table, or (outside the search or segment shown) in the pane alone, with no
        // other row still marked as the one Edit and Delete act on.
        openContact(id);
    });
    dialog->open();
}

std::optional<Contact> ContactsView::selectedContact(const QString &action)
{
    const QString id = currentContactId();
    if (id.isEmpty())
        return std::nullopt;
    std::optional<Contact> contact;
    try {
        contact = m_contacts.find(id);
    } catch (const std::exception &e) {
        MessageBoxes::warn(this, action, ErrorText::of(e));
        return std::nullopt;
    }
    if (!contact)
        refresh(); // deleted meanwhile
    return contact;
}

void ContactsView::editContact()
{
    const std::optional<Contact> contact = selectedContact(tr("Edit contact"));
    if (!contact)
        return;
    auto *dialog = new ContactDialog(m_contacts, *contact, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ContactDialog::contactSaved, this, &ContactsView::refresh);
    dialog->open();
}

void ContactsView::deleteContact()
{
    const std::optional<Contact> contact = selectedContact(tr("Delete contact"));
    if (!contact)
        return;
    MessageBoxes::confirm(this, tr("Delete contact"),
                          tr("Delete %1? Its notes and tags are deleted too.").arg(contact->displayName()),
                          tr("Delete"), [this, id = contact->id, name = contact->displayName()] {
                              // Carried out even when the window is closing (the view may be gone by then).
                              auto remove = [self = QPointer<ContactsView>(this), &contacts = m_contacts, id] {
                                  QString error;
                                  try {
                                      contacts.remove(id);
                                  } catch (const DomainError &e) {
                                      // Deleted meanwhile (over the API): nothing left to do.
                                      if (e.kind() != DomainError::NotFound)
                                          error = ErrorText::of(e);
                                  } catch (const std::exception &e) {
                                      error = ErrorText::of(e);
                                  }
                                  if (!self)
                                      return;
                                  if (!error.isEmpty())
                                      MessageBoxes::warn(self, tr("Delete contact"), error);
                                  self->m_hiddenIds.removeAll(id);
                                  self->applyFilter();
                              };
                              UndoBar *bar = UndoBar::of(this);
                              if (!bar) {
                                  remove();
                                  return;
                              }
                              // Out of the list now; deleted when the Undo offer ends (the window closing included).
                              m_hiddenIds << id;
                              applyFilter();
                              bar->offer(
                                  tr("%1 deleted.").arg(name),
                                  [this, id] {
                                      m_hiddenIds.removeAll(id);
                                      applyFilter();
                                      selectContact(id, 0);
                                  },
                                  remove);
                          });
}

DuplicatesDialog *ContactsView::findDuplicates()
{
    // A delete still waiting under the undo bar is carried out first: the groups are read from the
    // stored contacts, and a contact on its way out should not be offered for a merge.
    if (UndoBar *bar = UndoBar::of(this))
        bar->commitPending();
    auto *dialog = new DuplicatesDialog(m_contacts.store(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Closed with a merge made: the window's undo bar offers it for its few seconds more.
    connect(dialog, &QDialog::finished, this, [this, dialog] {
        const QString mergeId = dialog->lastMergeId();
        UndoBar *bar = UndoBar::of(this);
        if (mergeId.isEmpty() || !bar)
            return;
        bar->offer(dialog->lastMergeText(), [this, mergeId, store = m_contacts.store()] {
            try {
                ContactMerge(store).undo(mergeId);
            } catch (const std::exception &e) {
                MessageBoxes::warn(this, tr("Undo merge"), ErrorText::of(e));
            }
        });
    });
    dialog->open();
    return dialog;
}
