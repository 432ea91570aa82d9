#include "ui/assistant/suggestionspanel.h"

#include "model/assistant/knowledgeindex.h"
#include "model/assistant/knowledgerepository.h"
#include "model/core/errors.h"
#include "ui/assistant/assistanttext.h"
#include "ui/assistant/knowledgeeditor.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/pagerbar.h"
#include "ui/shell/uikit.h"
#include "ui/shell/undobar.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
// "Kargom nerede?" as a line of the table: one line, however it was typed.
QString oneLine(const QString &text)
{
    return QString(text).replace(QLatin1Char('\n'), QLatin1Char(' ')).simplified();
}
} // namespace

SuggestionsPanel::SuggestionsPanel(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_index(std::move(index))
{
    setObjectName(QStringLiteral("suggestionsPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, 0);
    layout->setSpacing(UiKit::Space::S);

    auto *intro = new QLabel(tr("Questions the assistant handed to a person because no entry answered them, grouped "
                                "when customers asked the same in other words. Answer one to teach it to the "
                                "assistant."),
                             this);
    intro->setObjectName(QStringLiteral("suggestionsIntro"));
    intro->setWordWrap(true);
    UiKit::setTone(intro, UiKit::Tone::Muted);
    layout->addWidget(intro);

    auto *actions = new QHBoxLayout;
    m_accept = new QPushButton(tr("Accept…"), this);
    m_accept->setObjectName(QStringLiteral("acceptSuggestionButton"));
    m_accept->setToolTip(tr("Write the answer: the question becomes an entry of the knowledge base (Enter, or a "
                            "double-click)"));
    m_dismiss = new QPushButton(tr("Dismiss"), this);
    m_dismiss->setObjectName(QStringLiteral("dismissSuggestionButton"));
    m_dismiss->setToolTip(tr("Take it off the list: the same question asked again does not bring it back (Delete)"));
    actions->addWidget(m_accept);
    actions->addWidget(m_dismiss);
    actions->addStretch(1);
    layout->addLayout(actions);

    m_table = UiKit::recordTable(ColumnCount, {tr("Question"), tr("Asked"), tr("Last asked"), tr("Language")},
                                 QStringLiteral("suggestionsTable"), this);
    m_table->setAccessibleName(tr("Suggestions"));
    m_table->setAlternatingRowColors(true);
    UiKit::oneLineRows(m_table);
    QHeaderView *header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QuestionColumn, QHeaderView::Stretch);
    {
        // The short columns as wide as their longest value in the window's language.
        const QFontMetrics fm(m_table->font());
        auto widest = [&fm](const QStringList &texts) { return UiKit::columnWidthFor(fm, texts); };
        for (auto [column, width] :
             {std::pair{int(CountColumn), widest({QLocale().toString(10000)})},
              {int(LastSeenColumn), widest({UiKit::localTime(QStringLiteral("2026-12-31T23:59:00.000Z"))})},
              {int(LanguageColumn),
               widest({AssistantText::language(QStringLiteral("tr")), AssistantText::language(QStringLiteral("en")),
                       AssistantText::language(QStringLiteral("de")), AssistantText::language(QStringLiteral("fr"))})}})
            header->resizeSection(column, qMax(width, header->sectionSizeHint(column)));
    }
    m_table->horizontalHeaderItem(CountColumn)->setToolTip(tr("How many times customers asked it"));
    m_emptyHint = installEmptyHint(m_table, tr("No suggestions: the assistant answered every question customers "
                                               "asked, or they were dealt with."));
    setEmptyHintIcon(m_emptyHint, QStringLiteral("assistant"));
    layout->addWidget(m_table, 1);

    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("suggestionDetails"));
    m_details->setTextFormat(Qt::PlainText); // customers' words are never markup
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_details);

    auto *foot = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("suggestionsStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_pager = new PagerBar(QStringLiteral("suggestions"), PageSize, this);
    foot->addWidget(m_status, 1);
    foot->addWidget(m_pager);
    layout->addLayout(foot);

    connect(&store.bus(), &EventBus::changed, this, &SuggestionsPanel::onBusChanged);
    connect(m_pager, &PagerBar::pageChanged, this, &SuggestionsPanel::showPage);
    connect(m_accept, &QPushButton::clicked, this, &SuggestionsPanel::acceptSuggestion);
    connect(m_dismiss, &QPushButton::clicked, this, &SuggestionsPanel::dismissSuggestion);
    connect(m_table, &QTableWidget::doubleClicked, this, &SuggestionsPanel::acceptSuggestion);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        showDetails();
        updateActions();
    });
    for (const QKeySequence &key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, m_table);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, &SuggestionsPanel::acceptSuggestion);
    }
    auto *del = new QShortcut(QKeySequence::Delete, m_table);
    del->setContext(Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, &SuggestionsPanel::dismissSuggestion);
    updateActions();
}

SuggestionsPanel::~SuggestionsPanel() = default;

void SuggestionsPanel::onBusChanged(EventBus::Entity entity, const QString &, EventBus::Change)
{
    // A question recorded, answered or fed back on, a suggestion taken, an entry written (the
    // knowledge base may answer a group now): the list follows at most every RefreshDelayMs.
    if (entity == EventBus::Entity::AiAnswer || entity == EventBus::Entity::Knowledge)
        m_live.news();
}

void SuggestionsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_live.showing();
}

void SuggestionsPanel::refresh()
{
    m_live.read();
}

void SuggestionsPanel::startRead()
{
    if (!m_read)
        showMessage(tr("Reading the questions…"));
    m_worker.run([this, store = Store(m_store.bus(), m_store.clock()), index = m_index, thresholds = m_thresholds] {
        QVector<KnowledgeSuggestion> list;
        QString error;
        try {
            list = KnowledgeSuggestions(store, *index, thresholds).list();
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, list, error] { onListed(list, error); });
    });
}

void SuggestionsPanel::onListed(const QVector<KnowledgeSuggestion> &list, const QString &error)
{
    m_live.finish();
    if (!error.isEmpty()) {
        showMessage(tr("The suggestions could not be read: %1").arg(error), true);
        m_readFailed = true;
    } else {
        if (m_readFailed || !m_read)
            showMessage(QString());
        m_readFailed = false;
        m_read = true;
        m_all = list;
        // A suggestion dismissed through the API meanwhile is gone: so is its pending Undo's row.
        QSet<QString> listed;
        for (const KnowledgeSuggestion &s : list)
            listed.insert(s.id);
        m_hidden.intersect(listed);
        showPage();
    }
    emit listed();
    if (m_live.again())
        m_live.read();
}

QVector<KnowledgeSuggestion> SuggestionsPanel::shown() const
{
    QVector<KnowledgeSuggestion> out;
    out.reserve(m_all.size());
    for (const KnowledgeSuggestion &s : m_all) {
        if (!m_hidden.contains(s.id))
            out.append(s);
    }
    return out;
}

void SuggestionsPanel::showPage()
{
    const QString keep = m_selectAfterRefresh.isEmpty() ? currentSuggestionId() : m_selectAfterRefresh;
    const int keepRow = m_table->currentRow();
    m_selectAfterRefresh.clear();
    const QVector<KnowledgeSuggestion> all = shown();
    m_pager->clampTo(all.size());
    const qsizetype start = qsizetype(m_pager->page() - 1) * PageSize;
    const qsizetype count = qBound<qsizetype>(0, all.size() - start, qsizetype(PageSize));
    const QLocale locale;
    {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->setRowCount(0);
        m_table->setRowCount(int(count));
        for (int row = 0; row < count; ++row) {
            const KnowledgeSuggestion &s = all.at(start + row);
            auto *question = UiKit::tableItem(oneLine(s.question), s.id);
            QStringList lines{s.question};
            for (const QString &e : s.examples) {
                if (e != s.question)
                    lines << QStringLiteral("“%1”").arg(oneLine(e));
            }
            question->setToolTip(lines.join(QLatin1Char('\n')));
            m_table->setItem(row, QuestionColumn, question);
            auto *asked = UiKit::tableItem(locale.toString(s.count));
            asked->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, CountColumn, asked);
            m_table->setItem(row, LastSeenColumn, UiKit::tableItem(UiKit::localTime(s.lastSeen)));
            m_table->setItem(row, LanguageColumn, UiKit::tableItem(AssistantText::language(s.language)));
        }
    }
    m_pager->showRange(count, all.size());
    // The one chosen gone (accepted, dismissed): the one now in its place.
    if (!keep.isEmpty() && !selectSuggestion(keep) && m_table->rowCount() > 0)
        m_table->selectRow(qBound(0, keepRow, m_table->rowCount() - 1));
    showDetails();
    updateActions();
}

const KnowledgeSuggestion *SuggestionsPanel::current() const
{
    const QString id = currentSuggestionId();
    if (id.isEmpty())
        return nullptr;
    for (const KnowledgeSuggestion &s : m_all) {
        if (s.id == id)
            return &s;
    }
    return nullptr;
}

void SuggestionsPanel::showDetails()
{
    const KnowledgeSuggestion *s = current();
    if (!s) {
        m_details->clear();
        m_details->hide();
        return;
    }
    QStringList lines;
    lines << (s->count == 1 ? tr("Asked once, on %1.").arg(UiKit::localTime(s->lastSeen))
                            : tr("Asked %n time(s), first on %1, last on %2.", nullptr, s->count)
                                  .arg(UiKit::localTime(s->firstSeen), UiKit::localTime(s->lastSeen)));
    QStringList others;
    for (const QString &e : s->examples) {
        if (e != s->question)
            others << QStringLiteral("“%1”").arg(oneLine(e));
    }
    if (!others.isEmpty())
        lines << tr("Also asked as: %1").arg(others.join(QStringLiteral(" · ")));
    QStringList reasons;
    const QLocale locale;
    for (auto it = s->reasons.cbegin(); it != s->reasons.cend(); ++it)
        reasons << tr("%1 (%2)").arg(AssistantText::handoffReason(it.key()), locale.toString(it.value()));
    if (!reasons.isEmpty())
        lines << tr("Why it went to a person: %1").arg(reasons.join(QStringLiteral("; ")));
    m_details->setText(lines.join(QLatin1Char('\n')));
    m_details->show();
}

void SuggestionsPanel::updateActions()
{
    const bool chosen = current() != nullptr;
    m_accept->setEnabled(chosen);
    m_dismiss->setEnabled(chosen);
}

void SuggestionsPanel::showMessage(const QString &text, bool error)
{
    m_status->setText(text);
    UiKit::setTone(m_status, error ? UiKit::Tone::Danger : UiKit::Tone::Normal);
}

QString SuggestionsPanel::currentSuggestionId() const
{
    return UiKit::selectedId(m_table);
}

bool SuggestionsPanel::selectSuggestion(const QString &id)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (m_table->item(row, QuestionColumn)->data(UiKit::IdRole).toString() == id) {
            m_table->selectRow(row);
            m_table->scrollToItem(m_table->item(row, QuestionColumn));
            return true;
        }
    }
    return false;
}

void SuggestionsPanel::focusList()
{
    m_table->setFocus(Qt::ShortcutFocusReason);
    if (!m_table->selectionModel()->hasSelection() && m_table->rowCount() > 0)
        m_table->selectRow(0);
}

void SuggestionsPanel::acceptSuggestion()
{
    const KnowledgeSuggestion *s = current();
    if (!s)
        return;
    QStringList languages;
    try {
        languages = KnowledgeRepository(m_store).languages();
    } catch (const std::exception &) {
        // The editor offers Turkish and English, and takes a code typed.
    }
    if (m_editor)
        m_editor->close();
    auto *editor = new KnowledgeEditor(m_store, std::nullopt, languages, s->language, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    editor->setWindowTitle(tr("Answer a suggestion"));
    editor->setIntro(tr("Customers asked this %n time(s). Write the answer the assistant should give: once saved, "
                        "the entry answers these questions and the suggestion leaves the list.",
                        nullptr, s->count));
    editor->questionField()->setText(s->question);
    editor->answerField()->setFocus();
    const QString id = s->id;
    // Named here, in the window's thread: the worker's store has no acting user.
    const QString actor = m_store.actorOr({});
    editor->setSubmitFunction([this, id, actor](const KnowledgeChanges &changes, KnowledgeEditor::Done done) {
        m_worker.run([this, id, changes, actor, done, store = Store(m_store.bus(), m_store.clock()), index = m_index,
                      thresholds = m_thresholds] {
            QString entryId, error;
            try {
                entryId = KnowledgeSuggestions(store, *index, thresholds).accept(id, changes, actor).id;
            } catch (const std::exception &e) {
                error = ErrorText::of(e);
            }
            BackgroundWorker::post(this, [done, entryId, error] { done(entryId, error); });
        });
    });
    connect(editor, &KnowledgeEditor::saved, this, [this](const QString &entryId) {
        showMessage(tr("Entry saved: the assistant answers these questions now."));
        emit accepted(entryId);
        refresh();
    });
    m_editor = editor;
    editor->open();
}

void SuggestionsPanel::dismissSuggestion()
{
    const KnowledgeSuggestion *s = current();
    if (!s)
        return;
    const QString id = s->id;
    const QString question = oneLine(s->question);
    QPointer<SuggestionsPanel> self(this);
    UndoBar *bar = UndoBar::of(this);
    if (!bar) {
        MessageBoxes::confirm(this, tr("Dismiss suggestion"),
                              tr("Dismiss “%1”? Its questions leave the list, and the same question asked again "
                                 "does not bring it back.")
                                  .arg(question.left(200)),
                              tr("Dismiss"), [self, id] {
                                  if (self)
                                      self->dismissNow(id);
                              });
        return;
    }
    // Out of sight now, dismissed when the Undo offer ends.
    m_hidden.insert(id);
    showPage();
    showMessage(tr("Suggestion dismissed."));
    bar->offer(
        tr("Suggestion “%1” dismissed.").arg(question.left(80)),
        [self, id] {
            if (!self)
                return;
            self->m_hidden.remove(id);
            self->m_selectAfterRefresh = id;
            self->showPage();
            self->showMessage(tr("Undone."));
        },
        [self, id] {
            if (self)
                self->dismissNow(id);
        });
}

void SuggestionsPanel::dismissNow(const QString &id)
{
    m_hidden.insert(id);
    showPage();
    const QString actor = m_store.actorOr({});
    m_worker.run(
        [this, id, actor, store = Store(m_store.bus(), m_store.clock()), index = m_index, thresholds = m_thresholds] {
            QString error;
            try {
                KnowledgeSuggestions(store, *index, thresholds).dismiss(id, actor);
            } catch (const DomainError &e) {
                if (e.kind() != DomainError::NotFound) // gone meanwhile (answered, dismissed elsewhere): fine
                    error = ErrorText::of(e);
            } catch (const std::exception &e) {
                error = ErrorText::of(e);
            }
            BackgroundWorker::post(this, [this, id, error] {
                if (!error.isEmpty()) {
                    m_hidden.remove(id);
                    showPage();
                    showMessage(tr("The suggestion was not dismissed: %1").arg(error), true);
                    return;
                }
                emit dismissed(id);
                refresh();
            });
        });
}
