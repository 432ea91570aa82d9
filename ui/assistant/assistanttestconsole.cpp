#include "ui/assistant/assistanttestconsole.h"

#include "model/assistant/knowledgeindex.h"
#include "model/assistant/knowledgerepository.h"
#include "ui/assistant/assistanttext.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
QString consoleAskHint()
{
    return AssistantTestConsole::tr("Ask a question: the entries that would answer it are listed here, best first.");
}
} // namespace

AssistantTestConsole::AssistantTestConsole(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_index(std::move(index))
{
    setObjectName(QStringLiteral("assistantTestConsole"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, UiKit::Space::S);
    layout->setSpacing(UiKit::Space::S);

    auto *intro = new QLabel(tr("Ask as a customer would, and see what the assistant answers and why. Nothing is "
                                "stored or sent to anyone."),
                             this);
    intro->setObjectName(QStringLiteral("consoleIntro"));
    intro->setWordWrap(true);
    UiKit::setTone(intro, UiKit::Tone::Muted);
    layout->addWidget(intro);

    auto *askRow = new QHBoxLayout;
    askRow->setSpacing(UiKit::Space::S);
    m_question = new QLineEdit(this);
    m_question->setObjectName(QStringLiteral("consoleQuestion"));
    m_question->setPlaceholderText(tr("A customer's question, e.g. How much is shipping?"));
    m_question->setAccessibleName(tr("Question"));
    m_question->setMaxLength(2000);
    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("consoleLanguage"));
    m_language->setAccessibleName(tr("Language"));
    m_language->setToolTip(tr("The language of the question: found from its words, or the one chosen"));
    m_language->addItem(tr("Automatic"), QString());
    for (const char *code : {"tr", "en"})
        m_language->addItem(AssistantText::language(QLatin1String(code)), QLatin1String(code));
    m_ask = new QPushButton(tr("Ask"), this);
    m_ask->setObjectName(QStringLiteral("consoleAskButton"));
    m_ask->setToolTip(tr("Ask the assistant (Enter)"));
    askRow->addWidget(m_question, 1);
    askRow->addWidget(m_language);
    askRow->addWidget(m_ask);
    layout->addLayout(askRow);

    m_decision = new QLabel(this);
    m_decision->setObjectName(QStringLiteral("consoleDecision"));
    m_decision->setTextFormat(Qt::PlainText);
    m_decision->setWordWrap(true);
    UiKit::setType(m_decision, UiKit::Type::Title);
    m_measures = new QLabel(this);
    m_measures->setObjectName(QStringLiteral("consoleMeasures"));
    m_measures->setTextFormat(Qt::PlainText);
    m_measures->setWordWrap(true);
    m_measures->setToolTip(tr("Confidence: how well the best entry covers the question's words, weighted by how "
                              "rare they are. Margin: its lead over the next entry. The assistant answers when both "
                              "reach their thresholds."));
    m_replyLabel = new QLabel(tr("Reply the customer gets"), this);
    m_replyLabel->setObjectName(QStringLiteral("consoleReplyLabel"));
    UiKit::setTone(m_replyLabel, UiKit::Tone::Muted);
    m_reply = new QPlainTextEdit(this);
    m_reply->setObjectName(QStringLiteral("consoleReply"));
    m_reply->setAccessibleName(tr("Reply the customer gets"));
    m_reply->setReadOnly(true);
    m_reply->setTabChangesFocus(true);
    m_reply->setMaximumHeight(6 * fontMetrics().lineSpacing());
    m_replyLabel->setBuddy(m_reply);
    m_notes = new QLabel(this);
    m_notes->setObjectName(QStringLiteral("consoleNotes"));
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setWordWrap(true);
    UiKit::setTone(m_notes, UiKit::Tone::Muted);
    for (QWidget *w :
         {static_cast<QWidget *>(m_decision), static_cast<QWidget *>(m_measures), static_cast<QWidget *>(m_replyLabel),
          static_cast<QWidget *>(m_reply), static_cast<QWidget *>(m_notes)}) {
        w->hide(); // until the first reply
        layout->addWidget(w);
    }

    auto *candidatesLabel = new QLabel(tr("Candidates"), this);
    candidatesLabel->setObjectName(QStringLiteral("consoleCandidatesLabel"));
    UiKit::setTone(candidatesLabel, UiKit::Tone::Muted);
    layout->addWidget(candidatesLabel);
    m_candidates = UiKit::recordTable(ColumnCount,
                                      {tr("Entry"), tr("Score"), tr("Coverage"), tr("Confidence"), tr("Matched words")},
                                      QStringLiteral("consoleCandidates"), this);
    m_candidates->setAccessibleName(tr("Candidates"));
    m_candidates->setAlternatingRowColors(true);
    m_candidates->setWordWrap(false);
    candidatesLabel->setBuddy(m_candidates);
    QHeaderView *header = m_candidates->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QuestionColumn, QHeaderView::Stretch);
    {
        const QFontMetrics fm(m_candidates->font());
        const int number = fm.horizontalAdvance(AssistantText::percent(1.0)) + 3 * UiKit::Space::S;
        for (int column : {int(ScoreColumn), int(CoverageColumn), int(ConfidenceColumn)})
            header->resizeSection(column, qMax(number, header->sectionSizeHint(column)));
        header->resizeSection(MatchedColumn, qMax(22 * fm.averageCharWidth(), header->sectionSizeHint(MatchedColumn)));
    }
    m_candidates->horizontalHeaderItem(ScoreColumn)
        ->setToolTip(tr("BM25F: the words' weight in the entry's question, tags and answer"));
    m_candidates->horizontalHeaderItem(CoverageColumn)
        ->setToolTip(tr("How much of the question the entry holds, rare words counting more"));
    m_candidates->horizontalHeaderItem(ConfidenceColumn)
        ->setToolTip(tr("Coverage weighted with how much of the entry's question the words hold"));
    m_emptyHint = installEmptyHint(m_candidates, consoleAskHint());
    setEmptyHintIcon(m_emptyHint, QStringLiteral("search"));
    layout->addWidget(m_candidates, 1);

    connect(m_ask, &QPushButton::clicked, this, &AssistantTestConsole::ask);
    connect(m_question, &QLineEdit::returnPressed, this, &AssistantTestConsole::ask);
    auto open = [this] {
        const QString id = UiKit::selectedId(m_candidates);
        if (!id.isEmpty())
            emit entryRequested(id);
    };
    connect(m_candidates, &QTableWidget::doubleClicked, this, open);
    for (const QKeySequence &key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, m_candidates);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, open);
    }
}

void AssistantTestConsole::focusQuestion()
{
    m_question->setFocus(Qt::ShortcutFocusReason);
    m_question->selectAll();
}

void AssistantTestConsole::ask()
{
    const QString text = m_question->text().trimmed();
    if (text.isEmpty()) {
        m_question->setFocus();
        return;
    }
    if (m_asking) {
        m_askAgain = true;
        return;
    }
    m_asking = true;
    m_askAgain = false;
    m_ask->setEnabled(false);
    m_ask->setText(tr("Asking…"));
    AssistantQuestion question;
    question.message = text;
    question.language = m_language->currentData().toString();
    m_worker.run(
        [this, question, store = Store(m_store.bus(), m_store.clock()), index = m_index, thresholds = m_thresholds] {
            AssistantReply reply;
            QHash<QString, QString> questions;
            QString error;
            try {
                // Cheap when nothing changed; reads what did (an import's entries, another copy's).
                index->refresh(KnowledgeRepository(store));
                reply = Assistant(*index, thresholds).answer(question);
                QStringList ids;
                for (const KnowledgeIndex::Candidate &c : std::as_const(reply.search.candidates))
                    ids << c.entryId;
                if (reply.otherLanguage)
                    ids << reply.otherLanguage->entryId;
                for (const QString &id : std::as_const(ids)) {
                    if (const auto e = index->entry(id))
                        questions.insert(id, e->question);
                }
            } catch (const std::exception &e) {
                error = ErrorText::of(e);
            }
            BackgroundWorker::post(this, [this, reply, questions, error] { showReply(reply, questions, error); });
        });
}

void AssistantTestConsole::showReply(const AssistantReply &reply, const QHash<QString, QString> &questions,
                                     const QString &error)
{
    m_asking = false;
    m_ask->setEnabled(true);
    m_ask->setText(tr("Ask"));
    for (QWidget *w :
         {static_cast<QWidget *>(m_decision), static_cast<QWidget *>(m_measures), static_cast<QWidget *>(m_replyLabel),
          static_cast<QWidget *>(m_reply), static_cast<QWidget *>(m_notes)})
        w->setVisible(error.isEmpty());
    m_decision->setVisible(true);
    if (!error.isEmpty()) {
        m_last.reset();
        m_decision->setText(tr("The question could not be asked: %1").arg(error));
        UiKit::setTone(m_decision, UiKit::Tone::Danger);
        m_candidates->setRowCount(0);
        emit answered();
        return;
    }
    m_last = reply;
    const QString best = questions.value(reply.entryId);
    if (reply.answered) {
        m_decision->setText(tr("Answers with “%1”").arg(best));
        UiKit::setTone(m_decision, UiKit::Tone::Success);
        m_replyLabel->setText(tr("Reply the customer gets"));
    } else {
        m_decision->setText(tr("Hands off to a person: %1").arg(AssistantText::handoffReason(reply.handoffReason)));
        UiKit::setTone(m_decision, UiKit::Tone::Warning);
        m_replyLabel->setText(tr("Reply the customer gets while a person takes over"));
    }
    const QString language = reply.language.isEmpty() ? tr("none")
                             : reply.languageDetected ? tr("%1, detected").arg(AssistantText::language(reply.language))
                                                      : AssistantText::language(reply.language);
    m_measures->setText(tr("Confidence %1 (answers from %2) · margin %3 (at least %4) · language: %5")
                            .arg(AssistantText::percent(reply.confidence), AssistantText::percent(m_thresholds.answer),
                                 AssistantText::percent(reply.margin), AssistantText::percent(m_thresholds.margin),
                                 language));
    m_reply->setPlainText(reply.answer);
    QStringList notes;
    if (reply.otherLanguage)
        notes << tr("An entry in another language would answer (%1): “%2”, confidence %3.")
                     .arg(AssistantText::language(reply.otherLanguage->language),
                          questions.value(reply.otherLanguage->entryId),
                          AssistantText::percent(reply.otherLanguage->confidence));
    if (!reply.search.unknown.isEmpty())
        notes << tr("Words no entry holds: %1").arg(reply.search.unknown.join(QStringLiteral(", ")));
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());

    const QVector<KnowledgeIndex::Candidate> &candidates = reply.search.candidates;
    m_candidates->setRowCount(0);
    m_candidates->setRowCount(int(candidates.size()));
    for (int row = 0; row < candidates.size(); ++row) {
        const KnowledgeIndex::Candidate &c = candidates.at(row);
        auto *question = UiKit::tableItem(questions.value(c.entryId, c.entryId), c.entryId);
        if (reply.answered && c.entryId == reply.entryId) {
            QFont bold = question->font();
            bold.setBold(true);
            question->setFont(bold);
        }
        m_candidates->setItem(row, QuestionColumn, question);
        const QString values[] = {AssistantText::score(c.score), AssistantText::percent(c.coverage),
                                  AssistantText::percent(c.confidence)};
        for (int i = 0; i < 3; ++i) {
            auto *item = UiKit::tableItem(values[i]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_candidates->setItem(row, ScoreColumn + i, item);
        }
        m_candidates->setItem(row, MatchedColumn, UiKit::tableItem(c.matched.join(QStringLiteral(", "))));
    }
    m_emptyHint->setText(candidates.isEmpty() ? tr("No entry shares a word with the question.") : consoleAskHint());
    emit answered();
    if (m_askAgain)
        ask();
}
