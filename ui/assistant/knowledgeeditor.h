#pragma once

#include "model/assistant/knowledgerepository.h"
#include "ui/shell/fielderrors.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

// A knowledge entry made or changed: its type, language, the question customers ask, the answer
// (several lines) and its tags (separated by commas). The model's refusals show under the field
// they name, in the window's language, and the dialog stays open until a save succeeds.
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

public slots:
    // Creates or changes the entry; false (and the refusal under its fields) when the model refuses.
    bool save();

signals:
    void saved(const QString &id);

private:
    KnowledgeRepository m_knowledge;
    QString m_id;
    FieldErrors m_errors;
    QComboBox *m_type = nullptr;
    QComboBox *m_language = nullptr;
    QLineEdit *m_question = nullptr;
    QPlainTextEdit *m_answer = nullptr;
    QLineEdit *m_tags = nullptr;
};
