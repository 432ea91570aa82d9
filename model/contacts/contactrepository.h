#pragma once

#include "model/contacts/contact.h"
#include "model/core/store.h"

#include <QDateTime>
#include <QJsonObject>
#include <QStringList>
#include <QVariant>

#include <optional>

// The order of a contact list. Names and companies are compared folded as search folds them
// (without case or accents, so "Çelik" sorts among the C's); a blank name or company sorts after
// every other one in ascending order. Equal keys go by creation, in the same direction.
enum class ContactSort
{
    Newest,
    Oldest,
    NameAscending,
    NameDescending,
    CompanyAscending,
    CompanyDescending
};

struct ContactQuery
{
    int page = 1; // 1-based
    int limit = 20;
    QString search;   // words over name, e-mail, phone, company (prefix match, case- and accent-insensitive)
    QStringList tags; // the contact carries every one of them (case-insensitive)
    QString source;
    std::optional<QDateTime> createdAfter;  // createdAt >= this
    std::optional<QDateTime> createdBefore; // createdAt <  this
    // An extra condition over `contacts c` with ? placeholders and its values (segment membership,
    // see SegmentRules::compile); empty: none. Never built from user text: only from bound values.
    QString extraWhere;
    QVariantList extraValues;
    // The total of this query when the caller has just counted it (-1: unknown). With it, listPage()
    // picks its plan for a large result: walk the newest-first index rather than sort every match.
    qint64 knownTotal = -1;
    ContactSort sort = ContactSort::Newest;
    // The search's matches when list() found them few: the count and the page then read these
    // contacts instead of running the full-text query twice. Unset: the search runs as such.
    std::optional<QVector<qint64>> searchSeqs;
};

struct ContactPage
{
    QVector<Contact> items;
    qint64 total = 0;
};

// Stores contacts. Every write runs in one transaction together with its outbox event
// (contact.created / contact.updated / contact.deleted) and, after the commit, tells the event bus
// ("contact", id, change). Bad input throws DomainError of a kind: BadRequest for wrong types
// or formats, Unprocessable for missing required fields, Conflict for a duplicate e-mail or phone, NotFound for an
// unknown id. Usable from any thread (each uses its own connection).
class ContactRepository
{
public:
    explicit ContactRepository(const Store &store);
    // The store it reads and writes (for the related repositories of a view built with this one).
    const Store &store() const { return m_store; }

    // actor: the user or API key id that makes the change (recorded on notes and events). The
    // changes are checked (ContactRules::check) whoever filled them in; a request body is read into
    // them with ContactRules::parse.
    Contact create(ContactChanges changes, const QString &actor = {});
    // A contact a messaging channel introduced (Telegram, Instagram: no e-mail or phone known): a
    // name is still required, an e-mail or phone is not.
    Contact createFromChannel(ContactChanges changes);
    Contact update(const QString &id, ContactChanges changes, const QString &actor = {});
    void remove(const QString &id, const QString &actor = {});
    std::optional<Contact> find(const QString &id) const;
    // The contact with this e-mail (case-insensitive), if any.
    std::optional<Contact> findByEmail(const QString &email) const;
    Contact get(const QString &id) const; // throws NotFound

    // One page and the total of the query (list = listPage + count).
    ContactPage list(const ContactQuery &query) const;
    // The items of one page only, without counting (a lazy view counts once per query and passes
    // that count as knownTotal).
    QVector<Contact> listPage(const ContactQuery &query) const;
    qint64 count(const ContactQuery &query) const;
    // Every contact the query finds (page and limit ignored), in its order, as seqs, read in one
    // snapshot; customFieldKeys, when given, receives the custom fields' names they use, sorted.
    // An export then reads them a chunk at a time (ContactQuery::searchSeqs).
    QVector<qint64> seqsOf(const ContactQuery &query, QStringList *customFieldKeys = nullptr) const;

    // Adds tags not yet present (case-insensitive); returns the updated contact. Idempotent.
    Contact addTags(const QString &id, const QStringList &tags, const QString &actor = {});
    // Removes a tag (case-insensitive); NotFound when the contact does not carry it.
    Contact removeTag(const QString &id, const QString &tag, const QString &actor = {});

    ContactNote addNote(const QString &id, const QString &content, const QString &actor = {});
    QVector<ContactNote> notes(const QString &id) const; // oldest first
    QVector<ContactNote> notes(const Contact &contact) const;

    // All distinct tags in use with their counts, most used first (for the tag filter of the window).
    QVector<QPair<QString, qint64>> tagCounts() const;

    // For imports (ContactImporter), inside the caller's write transaction, of contacts already
    // checked: the contact with this e-mail (case-insensitive) and the one with this phone (in
    // E.164), if any; a new row (id and timestamps given here); a changed row. No outbox event and
    // no news of their own: the importer writes one event and one news a batch.
    struct Match
    {
        QString byEmail;
        QString byPhone;
    };
    Match matchOf(const QString &email, const QString &phone) const;
    void insertImported(Contact &c, const QString &now);
    void updateImported(const Contact &before, Contact &c, const QString &now);

    // Inserts many contacts in one transaction without events (seeding and imports of trusted data).
    int insertBulk(const QVector<QJsonObject> &bodies);
    // Writes the search index again from the contacts (SQLite's FTS5 table, PostgreSQL's
    // contact_words) in one transaction; returns how many contacts it holds. db migrate-to builds
    // PostgreSQL's this way.
    static qint64 rebuildSearch();

private:
    // Stores a contact that passed its checks (create, createFromChannel): id, timestamps, the
    // uniqueness check, the row, contact.created in the outbox, then the bus.
    Contact insertNew(Contact c);
    Contact updateOnce(const QString &id, const ContactChanges &changes, Contact *attempted);

    Store m_store;
};
