#pragma once

#include "model/core/errors.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

// One entry of the assistant's knowledge base: a question customers ask and the team's answer.
struct KnowledgeEntry
{
    qint64 seq = 0;
    QString id;                           // kn_…
    QString type = QStringLiteral("faq"); // faq, article, snippet
    QString language;                     // "tr", "en", … (a language code, lower case)
    QString question;
    QString answer;
    QStringList tags;    // lower case, trimmed, without repeats
    qint64 revision = 0; // the knowledge base's revision of its last change
    QString createdBy;
    QString createdAt;
    QString updatedAt;

    QJsonObject toJson() const;
};

// What a caller asks to create or change (absent: unchanged).
struct KnowledgeChanges
{
    std::optional<QString> type, language, question, answer;
    std::optional<QStringList> tags;
};

struct KnowledgeQuery
{
    QString search;   // every word begins a word of the question, answer or tags (folded)
    QString language; // "" any
    QString type;     // "" any
    QStringList tags; // every one of them
    int page = 1;
    int limit = 20; // 0: every entry (exports)
};

struct KnowledgePage
{
    QVector<KnowledgeEntry> items;
    int total = 0;
};

// A CSV import's outcome: what was made, changed or left out, with each row's problem by its line.
struct KnowledgeImportReport
{
    struct Problem
    {
        int line = 0;
        QString field;
        QString message; // English
        QString code;
        ModelText text; // the same, for the window to show in its language
    };
    int rows = 0;
    int created = 0;
    int updated = 0;
    int skipped = 0;
    bool cancelled = false;
    QVector<Problem> problems;

    QJsonObject toJson() const;
};

namespace KnowledgeRules {
QStringList types();
constexpr int kMaxQuestion = 1000;
constexpr int kMaxAnswer = 10000;
constexpr int kMaxTags = 20;
constexpr int kMaxTag = 50;
// Reads a request body: BadRequest for a wrong type, length or value (every field at once), then
// Unprocessable naming the required fields missing (creating: question, answer, language).
KnowledgeChanges parse(const QJsonObject &body, bool creating);
// The same rules on changes however they were filled in; normalises them (texts trimmed, the
// language and tags lower case, tags without repeats).
void check(KnowledgeChanges &changes, bool creating);

// The CSV columns, in the order an export writes them: id, type, language, question, answer, tags
// (tags joined with ";"). An import reads them by the header's names, in any order and any case;
// unknown columns are ignored; question, answer and language are required columns.
QStringList csvColumns();
QString csvRow(const KnowledgeEntry &entry);
} // namespace KnowledgeRules
