#pragma once

#include "model/assistant/knowledgeentry.h"
#include "model/core/store.h"

#include <QByteArray>
#include <QHash>

#include <functional>

// Stores the knowledge entries. Bad input throws DomainError: BadRequest a wrong type, length or
// value, Unprocessable a required field missing, NotFound an unknown id. Every write raises the
// knowledge base's revision in its transaction (what KnowledgeIndex follows) and tells the bus
// (Entity::Knowledge).
class KnowledgeRepository
{
public:
    explicit KnowledgeRepository(const Store &store);

    KnowledgePage list(const KnowledgeQuery &query) const;
    KnowledgeEntry get(const QString &id) const;
    // type defaults to faq, tags to none; createdBy: the actor (the store's acting user when empty).
    KnowledgeEntry create(const KnowledgeChanges &changes, const QString &createdBy = {});
    KnowledgeEntry update(const QString &id, const KnowledgeChanges &changes); // partial
    void remove(const QString &id);

    // Reads a CSV file (KnowledgeRules::csvColumns by the header's names; UTF-8 with or without a
    // byte order mark, or Windows-1254; separator ',', ';' or tab). A row whose id names an entry
    // changes it; a row with the question of an entry in the same language (without case)
    // changes that one; other rows are new entries. A row that breaks a rule is skipped with its
    // line and problem; the others go on. Written in batches of kImportBatch rows, each one
    // transaction; progress(done, total) is called after each batch, and a false answer stops
    // the import there: the batches written stay, nothing of the next is written (cancelled).
    // A file without rows or without the required columns, and one that is not text (a NUL, or
    // control characters in 1% of it), throw DomainError Unprocessable.
    static constexpr int kImportBatch = 500;
    KnowledgeImportReport importCsv(const QByteArray &file, const QString &createdBy = {},
                                    const std::function<bool(int done, int total)> &progress = {});
    // The entries the query finds (every page: limit is ignored) as CSV, a byte order mark first
    // (so that Excel reads it as UTF-8), CRLF line ends.
    QByteArray exportCsv(const KnowledgeQuery &query) const;

    // For the index (KnowledgeIndex): the knowledge base's revision; the entries written, and
    // the ids removed, above a revision.
    qint64 revision() const;
    QVector<KnowledgeEntry> changedSince(qint64 revision) const;
    QStringList removedSince(qint64 revision) const;
    int count() const;
    // What the filters offer: every tag of the entries, and every language, sorted.
    QStringList tags() const;
    QStringList languages() const;

private:
    qint64 nextRevision() const;
    void insert(KnowledgeEntry &e) const;
    void write(const KnowledgeEntry &e) const;

    Store m_store;
};
