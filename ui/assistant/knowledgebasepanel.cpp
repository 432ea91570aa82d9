#include "ui/assistant/knowledgebasepanel.h"

#include "model/core/errors.h"
#include "ui/assistant/assistanttext.h"
#include "ui/assistant/knowledgeeditor.h"
#include "ui/assistant/knowledgeimportreport.h"
#include "ui/shell/elidedlabel.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/pagerbar.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QShortcut>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace {
// The first lines of an answer, for a row's tooltip.
QString knowledgeTooltip(const KnowledgeEntry &e)
{
    QString answer = e.answer.left(400);
    if (answer.size() < e.answer.size())
        answer += QStringLiteral("…");
    return e.question + QStringLiteral("\n\n") + answer;
}
} // namespace

KnowledgeBasePanel::KnowledgeBasePanel(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_knowledge(store)
{
    setObjectName(QStringLiteral("knowledgeBasePanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, 0);
    layout->setSpacing(UiKit::Space::S);

    auto *actions = new QHBoxLayout;
    auto addButton = [this, actions](const QString &key, const QString &text, const QString &tip) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(key + QStringLiteral("KnowledgeButton"));
        b->setToolTip(tip);
        actions->addWidget(b);
        m_buttons.insert(key, b);
        return b;
    };
    addButton(QStringLiteral("new"), tr("New…"), tr("Write a new entry (Ctrl+N)"));
    addButton(QStringLiteral("edit"), tr("Edit…"), tr("Change the chosen entry (Enter, or a double-click)"));
    addButton(QStringLiteral("delete"), tr("Delete"), tr("Delete the chosen entry (Delete)"));
    actions->addSpacing(UiKit::Space::M);
    addButton(QStringLiteral("import"), tr("Import CSV…"),
              tr("Add or change entries from a CSV file: columns question, answer, language, and type, tags, id "
                 "when you have them"));
    addButton(QStringLiteral("export"), tr("Export CSV…"), tr("Save the entries the search and filters show"));
    actions->addStretch(1);
    layout->addLayout(actions);

    auto *filters = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("knowledgeSearch"));
    m_search->setPlaceholderText(tr("Search questions, answers and tags…"));
    m_search->setAccessibleName(tr("Search the knowledge base"));
    m_search->setClearButtonEnabled(true);
    m_languageFilter = new QComboBox(this);
    m_languageFilter->setObjectName(QStringLiteral("knowledgeLanguageFilter"));
    m_languageFilter->setAccessibleName(tr("Language"));
    m_typeFilter = new QComboBox(this);
    m_typeFilter->setObjectName(QStringLiteral("knowledgeTypeFilter"));
    m_typeFilter->setAccessibleName(tr("Type"));
    m_typeFilter->addItem(tr("Every type"), QString());
    for (const QString &t : KnowledgeRules::types())
        m_typeFilter->addItem(AssistantText::type(t), t);
    m_tagFilter = new QComboBox(this);
    m_tagFilter->setObjectName(QStringLiteral("knowledgeTagFilter"));
    m_tagFilter->setAccessibleName(tr("Tag"));
    // As wide as "Every tag" and a little more, whatever tags come: a long one does not push the
    // search aside (the list that opens shows it whole).
    m_tagFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_tagFilter->setMinimumContentsLength(16);
    // Hundreds of tags scroll in a list of 20 rows: Fusion's menu-like popup ignores the limit and
    // covered the screen.
    m_tagFilter->setStyleSheet(QStringLiteral("QComboBox { combobox-popup: 0; }"));
    m_tagFilter->setMaxVisibleItems(20);
    filters->addWidget(m_search, 1);
    auto *show = new QLabel(tr("Show:"), this);
    show->setBuddy(m_languageFilter);
    filters->addWidget(show);
    filters->addWidget(m_languageFilter);
    filters->addWidget(m_typeFilter);
    filters->addWidget(m_tagFilter);
    layout->addLayout(filters);

    m_table = UiKit::recordTable(ColumnCount, {tr("Question"), tr("Type"), tr("Language"), tr("Tags"), tr("Updated")},
                                 QStringLiteral("knowledgeTable"), this);
    m_table->setAccessibleName(tr("Knowledge base"));
    m_table->setAlternatingRowColors(true);
    // One line a row, as the contacts' table: a page of 50 entries reads at a glance.
    UiKit::oneLineRows(m_table);
    QHeaderView *header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QuestionColumn, QHeaderView::Stretch);
    {
        // The short columns as wide as their longest value in the window's language, the question
        // the rest; the user's widths (WindowState) then win.
        const QFontMetrics fm(m_table->font());
        auto widest = [&fm](const QStringList &texts) { return UiKit::columnWidthFor(fm, texts); };
        QStringList types;
        for (const QString &t : KnowledgeRules::types())
            types << AssistantText::type(t);
        for (auto [column, width] :
             {std::pair{int(TypeColumn), widest(types)},
              {int(LanguageColumn),
               widest({AssistantText::language(QStringLiteral("tr")), AssistantText::language(QStringLiteral("en")),
                       AssistantText::language(QStringLiteral("de")), AssistantText::language(QStringLiteral("fr"))})},
              {int(TagsColumn), 22 * fm.averageCharWidth()},
              {int(UpdatedColumn), widest({UiKit::localTime(QStringLiteral("2026-12-31T23:59:00.000Z"))})}})
            header->resizeSection(column, qMax(width, header->sectionSizeHint(column)));
    }
    m_emptyHint = installEmptyHint(
        m_table, tr("The knowledge base is empty. Write the questions customers ask and their answers, or import them "
                    "from a CSV file."));
    setEmptyHintIcon(m_emptyHint, QStringLiteral("assistant"));
    layout->addWidget(m_table, 1);

    m_importRow = new QWidget(this);
    m_importRow->setObjectName(QStringLiteral("knowledgeImportRow"));
    auto *importLayout = new QHBoxLayout(m_importRow);
    importLayout->setContentsMargins(0, 0, 0, 0);
    importLayout->setSpacing(UiKit::Space::S);
    // The file's name and the rows done, cut with "…" rather than widening the row past the pane.
    m_importLabel = new ElidedLabel(m_importRow);
    m_importLabel->setObjectName(QStringLiteral("knowledgeImportLabel"));
    m_importLabel->setTextFormat(Qt::PlainText);
    m_progress = new QProgressBar(m_importRow);
    m_progress->setObjectName(QStringLiteral("knowledgeImportProgress"));
    m_progress->setAccessibleName(tr("Import progress"));
    m_cancelImport = new QPushButton(tr("Cancel import"), m_importRow);
    m_cancelImport->setObjectName(QStringLiteral("cancelImportButton"));
    m_cancelImport->setToolTip(tr("Stop after the rows being written: those saved until then stay"));
    importLayout->addWidget(m_importLabel, 2);
    importLayout->addWidget(m_progress, 3);
    importLayout->addWidget(m_cancelImport);
    m_importRow->hide();
    layout->addWidget(m_importRow);

    auto *foot = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("knowledgeStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_pager = new PagerBar(QStringLiteral("knowledge"), PageSize, this);
    foot->addWidget(m_status, 1);
    foot->addWidget(m_pager);
    layout->addLayout(foot);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(RefreshDelayMs);
    // Out of sight the news only marks the list stale: an import of 10,000 rows does not keep a
    // hidden list reading.
    connect(&m_refreshTimer, &QTimer::timeout, this, [this] {
        if (isVisible()) {
            // News, not the user's doing: the list stays where it is scrolled to.
            m_liveRefresh = true;
            refresh();
        } else {
            m_stale = true;
        }
    });
    connect(&store.bus(), &EventBus::changed, this, &KnowledgeBasePanel::onBusChanged);
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(&m_searchTimer, &QTimer::timeout, m_pager, &PagerBar::restart);
    for (QComboBox *filter : {m_languageFilter, m_typeFilter, m_tagFilter})
        connect(filter, &QComboBox::currentIndexChanged, m_pager, &PagerBar::restart);
    connect(m_pager, &PagerBar::pageChanged, this, &KnowledgeBasePanel::refresh);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &KnowledgeBasePanel::updateActions);
    connect(m_table, &QTableWidget::doubleClicked, this, &KnowledgeBasePanel::editEntry);
    for (const QKeySequence &key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto *open = new QShortcut(key, m_table);
        open->setContext(Qt::WidgetShortcut);
        connect(open, &QShortcut::activated, this, &KnowledgeBasePanel::editEntry);
    }
    auto *deleteKey = new QShortcut(QKeySequence::Delete, m_table);
    deleteKey->setContext(Qt::WidgetShortcut);
    connect(deleteKey, &QShortcut::activated, this, &KnowledgeBasePanel::deleteEntry);
    connect(m_buttons.value(QStringLiteral("new")), &QPushButton::clicked, this, &KnowledgeBasePanel::newEntry);
    connect(m_buttons.value(QStringLiteral("edit")), &QPushButton::clicked, this, &KnowledgeBasePanel::editEntry);
    connect(m_buttons.value(QStringLiteral("delete")), &QPushButton::clicked, this, &KnowledgeBasePanel::deleteEntry);
    connect(m_buttons.value(QStringLiteral("import")), &QPushButton::clicked, this,
            &KnowledgeBasePanel::chooseImportFile);
    connect(m_buttons.value(QStringLiteral("export")), &QPushButton::clicked, this,
            &KnowledgeBasePanel::chooseExportFile);
    connect(m_cancelImport, &QPushButton::clicked, this, &KnowledgeBasePanel::cancelImport);
    refresh();
}

KnowledgeBasePanel::~KnowledgeBasePanel()
{
    // An import still running stops after its batch; the worker waits for it.
    m_cancel.store(true);
}

void KnowledgeBasePanel::onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    Q_UNUSED(id);
    Q_UNUSED(change);
    // An import tells a change per batch: the list follows at most every RefreshDelayMs.
    if (entity == EventBus::Entity::Knowledge && !m_refreshTimer.isActive())
        m_refreshTimer.start();
}

void KnowledgeBasePanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

KnowledgeQuery KnowledgeBasePanel::query() const
{
    KnowledgeQuery q;
    q.search = m_search->text().trimmed().left(200);
    q.language = m_languageFilter->currentData().toString();
    q.type = m_typeFilter->currentData().toString();
    if (const QString tag = m_tagFilter->currentData().toString(); !tag.isEmpty())
        q.tags = {tag};
    q.page = m_pager->page();
    q.limit = PageSize;
    return q;
}

void KnowledgeBasePanel::reloadChoices()
{
    // The languages and tags the knowledge base holds, the chosen one kept (also when no entry
    // has it any more, so that the list does not jump to everything under the user).
    QStringList languages, tags;
    try {
        languages = m_knowledge.languages();
        tags = m_knowledge.tags();
    } catch (const std::exception &) {
        return; // the list's read says why
    }
    m_languages = languages;
    auto fill = [](QComboBox *combo, const QString &any, QStringList values, auto nameOf) {
        const QString chosen = combo->currentData().toString();
        if (!chosen.isEmpty() && !values.contains(chosen))
            values << chosen;
        QStringList current;
        for (int i = 1; i < combo->count(); ++i)
            current << combo->itemData(i).toString();
        if (combo->count() > 0 && current == values)
            return;
        const QSignalBlocker block(combo);
        combo->clear();
        combo->addItem(any, QString());
        for (const QString &v : std::as_const(values))
            combo->addItem(nameOf(v), v);
        combo->setCurrentIndex(qMax(0, combo->findData(chosen)));
    };
    QStringList offered{QStringLiteral("tr"), QStringLiteral("en")};
    for (const QString &l : std::as_const(languages)) {
        if (!offered.contains(l))
            offered << l;
    }
    fill(m_languageFilter, tr("Every language"), offered,
         [](const QString &code) { return AssistantText::language(code); });
    fill(m_tagFilter, tr("Every tag"), tags, [](const QString &tag) { return tag; });
}

void KnowledgeBasePanel::refresh()
{
    m_stale = false;
    m_refreshTimer.stop();
    m_searchTimer.stop();
    const QString keep = m_selectAfterRefresh.isEmpty() ? currentEntryId() : m_selectAfterRefresh;
    m_selectAfterRefresh.clear();
    const bool live = m_liveRefresh;
    m_liveRefresh = false;
    const int scrolled = m_table->verticalScrollBar()->value();
    reloadChoices();
    KnowledgeQuery q = query();
    KnowledgePage page;
    try {
        page = m_knowledge.list(q);
        if (m_pager->clampTo(page.total)) { // fewer pages than when this one was chosen
            q.page = m_pager->page();
            page = m_knowledge.list(q);
        }
        if (m_readFailed)
            showMessage(QString());
        m_readFailed = false;
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
        m_readFailed = true;
    }
    {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->setRowCount(0);
        m_table->setRowCount(int(page.items.size()));
        for (int row = 0; row < page.items.size(); ++row) {
            const KnowledgeEntry &e = page.items.at(row);
            auto *question = UiKit::tableItem(QString(e.question).replace(QLatin1Char('\n'), QLatin1Char(' ')), e.id);
            question->setToolTip(knowledgeTooltip(e));
            m_table->setItem(row, QuestionColumn, question);
            m_table->setItem(row, TypeColumn, UiKit::tableItem(AssistantText::type(e.type)));
            m_table->setItem(row, LanguageColumn, UiKit::tableItem(AssistantText::language(e.language)));
            m_table->setItem(row, TagsColumn, UiKit::tableItem(e.tags.join(QStringLiteral(", "))));
            m_table->setItem(row, UpdatedColumn, UiKit::tableItem(UiKit::localTime(e.updatedAt)));
        }
    }
    m_pager->showRange(page.items.size(), page.total);
    if (!keep.isEmpty())
        selectEntry(keep, !live);
    if (live)
        m_table->verticalScrollBar()->setValue(scrolled);
    const bool filtered = !q.search.isEmpty() || !q.language.isEmpty() || !q.type.isEmpty() || !q.tags.isEmpty();
    if (filtered) {
        m_emptyHint->setText(tr("No entry matches the search or the filters."));
        setEmptyHintIcon(m_emptyHint, QStringLiteral("search"));
        setEmptyHintAction(m_emptyHint, tr("Clear the search and filters"), [this] { clearFilters(); });
    } else {
        m_emptyHint->setText(tr("The knowledge base is empty. Write the questions customers ask and their answers, "
                                "or import them from a CSV file."));
        setEmptyHintIcon(m_emptyHint, QStringLiteral("assistant"));
        setEmptyHintAction(m_emptyHint, tr("New entry…"), [this] { newEntry(); });
    }
    updateActions();
}

void KnowledgeBasePanel::clearFilters()
{
    {
        const QSignalBlocker b1(m_languageFilter), b2(m_typeFilter), b3(m_tagFilter), b4(m_search);
        m_languageFilter->setCurrentIndex(0);
        m_typeFilter->setCurrentIndex(0);
        m_tagFilter->setCurrentIndex(0);
        m_search->clear();
    }
    m_pager->restart();
}

void KnowledgeBasePanel::updateActions()
{
    const bool chosen = !currentEntryId().isEmpty();
    m_buttons.value(QStringLiteral("edit"))->setEnabled(chosen);
    m_buttons.value(QStringLiteral("delete"))->setEnabled(chosen);
    m_buttons.value(QStringLiteral("import"))->setEnabled(!m_importing);
}

void KnowledgeBasePanel::showMessage(const QString &text, bool error)
{
    m_status->setText(text);
    UiKit::setTone(m_status, error ? UiKit::Tone::Danger : UiKit::Tone::Normal);
}

QString KnowledgeBasePanel::currentEntryId() const
{
    return UiKit::selectedId(m_table);
}

bool KnowledgeBasePanel::selectEntry(const QString &id, bool scroll)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (m_table->item(row, QuestionColumn)->data(UiKit::IdRole).toString() == id) {
            m_table->selectRow(row);
            if (scroll)
                m_table->scrollToItem(m_table->item(row, QuestionColumn));
            return true;
        }
    }
    return false;
}

void KnowledgeBasePanel::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void KnowledgeBasePanel::openEditorFor(KnowledgeEditor *editor)
{
    if (m_editor)
        m_editor->close();
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor, &KnowledgeEditor::saved, this, [this](const QString &id) {
        m_selectAfterRefresh = id;
        refresh();
        showMessage(tr("Entry saved."));
        emit entrySaved(id);
    });
    m_editor = editor;
    editor->open();
}

void KnowledgeBasePanel::newEntry()
{
    openEditorFor(
        new KnowledgeEditor(m_store, std::nullopt, m_languages, m_languageFilter->currentData().toString(), this));
}

void KnowledgeBasePanel::editEntry()
{
    openEntry(currentEntryId());
}

void KnowledgeBasePanel::openEntry(const QString &id)
{
    if (id.isEmpty())
        return;
    try {
        const KnowledgeEntry e = m_knowledge.get(id);
        selectEntry(id);
        openEditorFor(new KnowledgeEditor(m_store, e, m_languages, {}, this));
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
        refresh();
    }
}

void KnowledgeBasePanel::deleteEntry()
{
    const QString id = currentEntryId();
    if (id.isEmpty())
        return;
    const QString question = m_table->item(m_table->currentRow(), QuestionColumn)->text();
    MessageBoxes::confirm(this, tr("Delete entry"),
                          tr("Delete “%1”? The assistant stops answering with it.").arg(question.left(200)),
                          tr("Delete"), [self = QPointer<KnowledgeBasePanel>(this), id] {
                              if (!self)
                                  return;
                              try {
                                  self->m_knowledge.remove(id);
                                  self->refresh();
                                  self->showMessage(tr("Entry deleted."));
                              } catch (const std::exception &e) {
                                  self->refresh();
                                  self->showMessage(ErrorText::of(e), true);
                              }
                          });
}

QFileDialog *KnowledgeBasePanel::fileDialog(const QString &title, const QString &name)
{
    // Where the user was last, else their documents (the program's own folder is nobody's).
    if (m_folder.isEmpty() || !QFileInfo(m_folder).isDir()) {
        m_folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        if (!QFileInfo(m_folder).isDir())
            m_folder = QDir::homePath();
    }
    auto *dialog = new QFileDialog(this, title, m_folder);
    dialog->setObjectName(name);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &file) { m_folder = QFileInfo(file).absolutePath(); });
    return dialog;
}

void KnowledgeBasePanel::chooseImportFile()
{
    if (m_importing)
        return;
    QFileDialog *dialog = fileDialog(tr("Import knowledge from CSV"), QStringLiteral("importKnowledgeDialog"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setNameFilters({tr("CSV files (*.csv *.txt)"), tr("All files (*)")});
    connect(dialog, &QFileDialog::fileSelected, this, &KnowledgeBasePanel::importFile);
    dialog->open();
}

bool KnowledgeBasePanel::importFile(const QString &path)
{
    if (m_importing)
        return false;
    const QFileInfo info(path);
    QFile file(path);
    if (info.size() > MaxImportBytes) {
        showMessage(tr("%1 is too large to import (at most %2 MB).").arg(info.fileName()).arg(MaxImportBytes >> 20),
                    true);
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot read %1: %2").arg(info.fileName(), file.errorString()), true);
        return false;
    }
    const QByteArray bytes = file.readAll();
    m_importing = true;
    m_cancel.store(false);
    m_importName = info.fileName();
    m_importPath = info.absoluteFilePath();
    m_importLabel->setText(tr("Importing %1…").arg(m_importName));
    m_progress->setRange(0, 0); // busy until the first batch is written
    m_progress->setValue(0);
    m_cancelImport->setEnabled(true);
    m_importRow->show();
    showMessage(QString());
    updateActions();
    // Named here, in the window's thread: the worker's store has no acting user, whom a sign-in
    // could change while it writes.
    const QString actor = m_store.actorOr({});
    m_worker.run([this, bytes, actor, store = Store(m_store.bus(), m_store.clock())] {
        KnowledgeImportReport report;
        QString error;
        try {
            report = KnowledgeRepository(store).importCsv(bytes, actor, [this](int done, int total) {
                BackgroundWorker::post(this, [this, done, total] { onImportProgress(done, total); });
                return !m_cancel.load();
            });
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, report, error] { onImportDone(report, error); });
    });
    return true;
}

void KnowledgeBasePanel::cancelImport()
{
    if (!m_importing)
        return;
    m_cancel.store(true);
    m_cancelImport->setEnabled(false);
    m_importLabel->setText(tr("Stopping after the rows being written…"));
}

void KnowledgeBasePanel::onImportProgress(int done, int total)
{
    if (!m_importing)
        return;
    const QLocale locale;
    m_progress->setRange(0, qMax(1, total));
    m_progress->setValue(done);
    if (!m_cancel.load())
        m_importLabel->setText(
            tr("Importing %1: %2 of %3 rows…").arg(m_importName, locale.toString(done), locale.toString(total)));
    emit importProgressed(done, total);
}

void KnowledgeBasePanel::onImportDone(const KnowledgeImportReport &report, const QString &error)
{
    m_importing = false;
    m_importRow->hide();
    m_lastImport = report;
    refresh();
    if (!error.isEmpty()) {
        showMessage(tr("%1 was not imported: %2").arg(m_importName, error), true);
        MessageBoxes::warn(this, tr("Import CSV"), tr("%1 was not imported: %2").arg(m_importName, error));
    } else {
        const QLocale locale;
        // A row the same as its entry is no row left out.
        const auto unchanged = std::count_if(report.problems.cbegin(), report.problems.cend(),
                                             [](const auto &p) { return p.code == QLatin1String("UNCHANGED"); });
        showMessage(report.cancelled
                        ? tr("Import of %1 stopped: %2 new, %3 changed.")
                              .arg(m_importName, locale.toString(report.created), locale.toString(report.updated))
                        : tr("%1 imported: %2 new, %3 changed, %4 left out.")
                              .arg(m_importName, locale.toString(report.created), locale.toString(report.updated),
                                   locale.toString(report.skipped - unchanged)));
        if (m_report)
            m_report->close();
        m_report = new KnowledgeImportReportDialog(report, m_importPath, this);
        m_report->setAttribute(Qt::WA_DeleteOnClose);
        m_report->open();
    }
    emit importFinished();
}

void KnowledgeBasePanel::chooseExportFile()
{
    QFileDialog *dialog = fileDialog(tr("Export knowledge to CSV"), QStringLiteral("exportKnowledgeDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilter(tr("CSV files (*.csv)"));
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->selectFile(QDir(m_folder).filePath(tr("knowledge-base.csv")));
    connect(dialog, &QFileDialog::fileSelected, this, &KnowledgeBasePanel::exportTo);
    dialog->open();
}

bool KnowledgeBasePanel::exportTo(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    KnowledgeQuery q = query();
    q.page = 1;
    q.limit = 1;
    QByteArray bytes;
    int count = 0;
    try {
        count = m_knowledge.list(q).total;
        bytes = m_knowledge.exportCsv(q);
    } catch (const std::exception &e) {
        showMessage(tr("%1 was not saved: %2").arg(name, ErrorText::of(e)), true);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) < 0 || !file.commit()) {
        showMessage(tr("%1 was not saved: %2").arg(name, file.errorString()), true);
        return false;
    }
    showMessage(tr("%Ln entries saved to %1.", nullptr, count).arg(QDir::toNativeSeparators(path)));
    return true;
}
