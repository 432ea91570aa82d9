#pragma once

#include "model/assistant/knowledgerepository.h"
#include "ui/shell/fielderrors.h"

#include <QDialog>

#include <functional>
#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

// A knowledge entry made or changed: its type, language, the question customers ask, the answer
// (several lines) and its tags (separated by commas). The model's refusals show under the field
// they name, in the window's language, and the dialog stays open until a save succeeds. A new entry
// may be saved by another way than the repository (a suggestion accepted in a worker thread:
// setSubmitFunction), the dialog waiting for its answer.
class KnowledgeEditor : public QDialog
{
    Q_OBJECT
public:
    // entry: the entry to change (none: a new one, in language `language` when given). languages:
    // the codes the language field offers besides tr and en (those of the knowledge base).
    KnowledgeEditor(const Store &store, const std::optional<KnowledgeEntry> &entry, const QStringList &languages,
                    const QString &language = {}, QWidget *parent = nullptr);

    QString entryId() const { return m_id; }
    QComboBox *typeField() const { return m_type; }
    // Editable: a code not offered is typed ("de", "ar").
    QComboBox *languageField() const { return m_language; }
    QLineEdit *questionField() const { return m_question; }
    QPlainTextEdit *answerField() const { return m_answer; }
    QLineEdit *tagsField() const { return m_tags; }
    // The language code the field holds: the chosen one's, else the text typed.
    QString languageCode() const;

    // How a new entry is saved when not by KnowledgeRepository::create (a suggestion accepted in a
    // worker thread): called once the entry's rules pass here, with the changes; it answers
    // done(id) or done({}, why) later, in the window's thread. Meanwhile Save and Cancel wait.
    using Done = std::function<void(const QString &id, const QString &error)>;
    using SubmitFunction = std::function<void(const KnowledgeChanges &changes, Done done)>;
    void setSubmitFunction(SubmitFunction submit) { m_submit = std::move(submit); }
    bool isSaving() const { return m_saving; }
    // A line above the fields saying where the entry comes from (empty: none).
    void setIntro(const QString &text);
    QLabel *introLabel() const { return m_intro; }

public slots:
    // Creates or changes the entry; false (and the refusal under its fields) when the model refuses.
    // With a submit function: true once the changes are handed to it (saved() follows its answer).
    bool save();
    void reject() override;

signals:
    void saved(const QString &id);

private:
    void submit(const KnowledgeChanges &changes);
    void showRefusal(const DomainError &e);

    KnowledgeRepository m_knowledge;
    QString m_id;
    FieldErrors m_errors;
    QComboBox *m_type = nullptr;
    QComboBox *m_language = nullptr;
    QLineEdit *m_question = nullptr;
    QPlainTextEdit *m_answer = nullptr;
    QLineEdit *m_tags = nullptr;
    QLabel *m_intro = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    SubmitFunction m_submit;
    bool m_saving = false;
};
