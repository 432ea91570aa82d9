#include "ui/assistant/knowledgeeditor.h"

#include "model/core/errors.h"
#include "ui/assistant/assistanttext.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QVBoxLayout>

KnowledgeEditor::KnowledgeEditor(const Store &store, const std::optional<KnowledgeEntry> &entry,
                                 const QStringList &languages, const QString &language, QWidget *parent)
    : QDialog(parent)
    , m_knowledge(store)
    , m_id(entry ? entry->id : QString())
{
    setObjectName(QStringLiteral("knowledgeEditor"));
    setWindowTitle(entry ? tr("Edit knowledge entry") : tr("New knowledge entry"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::L, UiKit::Space::L, UiKit::Space::L, UiKit::Space::M);
    layout->setSpacing(UiKit::Space::S);
    m_intro = new QLabel(this);
    m_intro->setObjectName(QStringLiteral("knowledgeEditorIntro"));
    m_intro->setTextFormat(Qt::PlainText);
    m_intro->setWordWrap(true);
    UiKit::setTone(m_intro, UiKit::Tone::Muted);
    m_intro->hide();
    layout->addWidget(m_intro);
    layout->addWidget(m_errors.createFormLabel(this));

    m_type = new QComboBox(this);
    m_type->setObjectName(QStringLiteral("knowledgeTypeField"));
    for (const QString &t : KnowledgeRules::types())
        m_type->addItem(AssistantText::type(t), t);
    m_type->setToolTip(tr("FAQ: a question and its answer; article: a longer text; snippet: a ready reply"));

    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("knowledgeLanguageField"));
    m_language->setEditable(true);
    m_language->setInsertPolicy(QComboBox::NoInsert);
    m_language->setToolTip(tr("The language the customer writes in: choose one, or type its code (de, ar, …)"));
    QStringList codes{QStringLiteral("tr"), QStringLiteral("en")};
    for (const QString &code : languages) {
        if (!code.isEmpty() && !codes.contains(code))
            codes << code;
    }
    if (entry && !codes.contains(entry->language))
        codes << entry->language;
    for (const QString &code : std::as_const(codes)) {
        const QString name = AssistantText::language(code);
        m_language->addItem(name == code ? code : tr("%1 (%2)").arg(name, code), code);
    }

    m_question = new QLineEdit(this);
    m_question->setObjectName(QStringLiteral("knowledgeQuestionField"));
    m_question->setMaxLength(KnowledgeRules::kMaxQuestion + 1); // one more: the model names the limit
    m_question->setPlaceholderText(tr("As a customer would ask it"));
    m_answer = new QPlainTextEdit(this);
    m_answer->setObjectName(QStringLiteral("knowledgeAnswerField"));
    m_answer->setTabChangesFocus(true);
    m_answer->setPlaceholderText(tr("The reply the customer gets"));
    m_answer->setMinimumHeight(8 * fontMetrics().lineSpacing());
    m_tags = new QLineEdit(this);
    m_tags->setObjectName(QStringLiteral("knowledgeTagsField"));
    m_tags->setPlaceholderText(tr("Separated by commas: shipping, returns"));

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->setVerticalSpacing(UiKit::Space::S);
    form->addRow(tr("&Type"), m_errors.cell(FieldErrors::row({m_type}, this), {QStringLiteral("type")}, this));
    form->addRow(tr("&Language"),
                 m_errors.cell(FieldErrors::row({m_language}, this), {QStringLiteral("language")}, this));
    form->addRow(tr("&Question"), m_errors.cell(m_question, {QStringLiteral("question")}, this));
    form->addRow(tr("&Answer"), m_errors.cell(m_answer, {QStringLiteral("answer")}, this));
    form->addRow(tr("Ta&gs"), m_errors.cell(m_tags, {QStringLiteral("tags")}, this));
    layout->addLayout(form, 1);
    if (entry) {
        auto *changed = new QLabel(tr("Last changed %1").arg(UiKit::localTime(entry->updatedAt)), this);
        changed->setObjectName(QStringLiteral("knowledgeChangedLabel"));
        UiKit::setType(changed, UiKit::Type::Caption);
        UiKit::setTone(changed, UiKit::Tone::Muted);
        layout->addWidget(changed);
    }

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    m_buttons = buttons;
    buttons->button(QDialogButtonBox::Save)->setText(tr("Save"));
    buttons->button(QDialogButtonBox::Save)->setToolTip(tr("Save (Ctrl+Enter)"));
    buttons->button(QDialogButtonBox::Cancel)->setText(tr("Cancel"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &KnowledgeEditor::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &KnowledgeEditor::reject);
    // Enter in the answer starts a new line: Ctrl+Enter saves from anywhere in the dialog.
    for (const QKeySequence &key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)})
        connect(new QShortcut(key, this), &QShortcut::activated, this, &KnowledgeEditor::save);

    if (entry) {
        m_type->setCurrentIndex(qMax(0, m_type->findData(entry->type)));
        m_language->setCurrentIndex(qMax(0, m_language->findData(entry->language)));
        m_question->setText(entry->question);
        m_answer->setPlainText(entry->answer);
        m_tags->setText(entry->tags.join(QStringLiteral(", ")));
    } else {
        const QString initial = !language.isEmpty()                        ? language
                                : QLocale().language() == QLocale::Turkish ? QStringLiteral("tr")
                                                                           : QStringLiteral("en");
        m_language->setCurrentIndex(qMax(0, m_language->findData(initial)));
    }
    UiKit::nameFormFields(this);
    setMinimumWidth(560);
    resize(640, sizeHint().height());
    m_question->setFocus();
}

QString KnowledgeEditor::languageCode() const
{
    const int i = m_language->currentIndex();
    if (i >= 0 && m_language->itemText(i) == m_language->currentText())
        return m_language->itemData(i).toString();
    return m_language->currentText().trimmed();
}

void KnowledgeEditor::setIntro(const QString &text)
{
    m_intro->setText(text);
    m_intro->setVisible(!text.isEmpty());
}

bool KnowledgeEditor::save()
{
    if (m_saving)
        return false;
    m_errors.clear();
    KnowledgeChanges ch;
    ch.type = m_type->currentData().toString();
    ch.language = languageCode();
    ch.question = m_question->text();
    ch.answer = m_answer->toPlainText();
    static const QRegularExpression separators(QStringLiteral("[,;]"));
    ch.tags = m_tags->text().split(separators, Qt::SkipEmptyParts);
    try {
        if (m_submit && m_id.isEmpty()) {
            // The rules here, at once; the writing where the submit function does it.
            KnowledgeChanges checked = ch;
            KnowledgeRules::check(checked, true);
            submit(ch);
            return true;
        }
        const KnowledgeEntry e = m_id.isEmpty() ? m_knowledge.create(ch) : m_knowledge.update(m_id, ch);
        m_id = e.id;
        emit saved(e.id);
        accept();
        return true;
    } catch (const DomainError &e) {
        showRefusal(e);
    } catch (const std::exception &e) {
        m_errors.show(ErrorText::of(e), {});
    }
    return false;
}

void KnowledgeEditor::submit(const KnowledgeChanges &changes)
{
    m_saving = true;
    m_buttons->setEnabled(false);
    m_buttons->button(QDialogButtonBox::Save)->setText(tr("Saving…"));
    QPointer<KnowledgeEditor> self(this);
    m_submit(changes, [self](const QString &id, const QString &error) {
        if (!self)
            return;
        self->m_saving = false;
        self->m_buttons->setEnabled(true);
        self->m_buttons->button(QDialogButtonBox::Save)->setText(tr("Save"));
        if (!error.isEmpty()) {
            self->m_errors.show(error, {});
            return;
        }
        self->m_id = id;
        emit self->saved(id);
        self->accept();
    });
}

void KnowledgeEditor::reject()
{
    // An entry being written is not left half known: the dialog waits for the answer.
    if (!m_saving)
        QDialog::reject();
}

void KnowledgeEditor::showRefusal(const DomainError &e)
{
    const QJsonObject all = ErrorText::details(e);
    QJsonObject fields;
    for (auto it = all.begin(); it != all.end(); ++it) {
        if (it.value().isString())
            fields.insert(it.key(), it.value());
    }
    // The model names wrong values before missing ones: an empty field says so at once too,
    // so that one save shows every problem.
    for (auto [key, blank] : {std::pair{"question", m_question->text().trimmed().isEmpty()},
                              std::pair{"answer", m_answer->toPlainText().trimmed().isEmpty()},
                              std::pair{"language", languageCode().isEmpty()}}) {
        if (blank && !fields.contains(QLatin1String(key)))
            fields.insert(QLatin1String(key), ErrorText::text(DomainError::isRequired()));
    }
    const QString first = m_errors.show(ErrorText::of(e), fields, {}, FieldErrors::ListUnplaced);
    const QHash<QString, QWidget *> fieldOf{{QStringLiteral("type"), m_type},
                                            {QStringLiteral("language"), m_language},
                                            {QStringLiteral("question"), m_question},
                                            {QStringLiteral("answer"), m_answer},
                                            {QStringLiteral("tags"), m_tags}};
    if (QWidget *w = fieldOf.value(first))
        w->setFocus();
}
