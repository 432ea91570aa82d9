#include "model/contacts/contactrepository.h"

#include "model/contacts/contactrows.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/outbox.h"
#include "model/core/textfold.h"
#include "model/core/timeutil.h"
#include "model/deals/dealrepository.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>

#include <algorithm>

namespace {
using SqlValue::text;
using SqlValue::textOrNull;
const QString kColumns = QStringLiteral(
    "c.seq, c.id, c.first_name, c.last_name, c.email, c.phone, c.company, c.position, c.address, c.tags, "
    "c.custom_fields, c.source, c.lead_score, c.last_message_at, c.total_messages, c.sentiment, c.created_at, "
    "c.updated_at");

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString compact(const QStringList &list)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

Contact contactFromRow(SqlRowReader r)
{
    Contact c;
    c.seq = r.integer();
    c.id = r.text();
    c.firstName = r.text();
    c.lastName = r.text();
    c.email = r.text();
    c.phone = r.text();
    c.company = r.text();
    c.position = r.text();
    c.address = r.jsonObject();
    c.tags = r.jsonStrings();
    c.customFields = r.jsonObject();
    c.source = r.text();
    c.leadScore = int(r.integer());
    c.lastMessageAt = r.text();
    c.totalMessages = int(r.integer());
    c.sentiment = r.text();
    c.createdAt = r.text();
    c.updatedAt = r.text();
    return c;
}

// The words the search index holds for a contact. A phone is indexed as its digits and as the
// digits after a 1-, 2- or 3-digit country code and the last 7, so "532 123 4567", "5321234567"
// and "1234567" all find +90 532 123 45 67.
QString searchDocument(const Contact &c)
{
    QStringList parts{c.firstName, c.lastName, c.email, c.company};
    const QString e164 = ContactRules::toE164(c.phone);
    if (!e164.isEmpty()) {
        const QString digits = e164.mid(1);
        parts << digits;
        for (int cut = 1; cut <= 3 && digits.size() - cut >= 7; ++cut)
            parts << digits.mid(cut);
        if (digits.size() > 7)
            parts << digits.right(7);
    }
    return TextFold::fold(parts.join(QLatin1Char(' ')));
}

// An FTS5 MATCH expression from what a user typed: every word must match as a prefix. A search
// made only of phone characters is read as one number. Words hold only letters and digits, so
// quoting them is safe.
QStringList searchWords(const QString &search)
{
    bool phoneLike = true;
    QString digits;
    for (QChar ch : search) {
        if (ch.isDigit())
            digits.append(ch);
        else if (!QStringLiteral("+ -().").contains(ch))
            phoneLike = false;
    }
    if (phoneLike && digits.size() >= 3)
        return {digits};
    return TextFold::words(TextFold::fold(search)).mid(0, 8);
}

QString matchExpression(const QStringList &words)
{
    QStringList terms;
    for (const QString &w : words)
        terms << QLatin1Char('"') + w + QLatin1String("\"*");
    return terms.join(QLatin1Char(' '));
}

QString matchExpression(const QString &search)
{
    return matchExpression(searchWords(search));
}

// Whether every word is the start of some word of the indexed document (what the full-text
// query's "word"* terms ask, checked on one document).
bool documentMatches(const QString &document, const QStringList &words)
{
    const QStringList tokens = TextFold::words(document);
    return std::all_of(words.cbegin(), words.cend(), [&tokens](const QString &w) {
        return std::any_of(tokens.cbegin(), tokens.cend(), [&w](const QString &t) { return t.startsWith(w); });
    });
}

// The search's matching contacts (seq) when they are at most `few`; nullopt when there are more.
// Several words: FTS5 merges the whole doclist of every prefix term before intersecting them, so
// a common word ("com" of an e-mail, a frequent first name) costs milliseconds on a million
// contacts. When one word is rare (the word with digits, else the longest) its few matches are
// read alone and the other words checked on their documents; otherwise the full query runs.
bool onPostgres()
{
    return Database::dialect() == Database::Dialect::PostgreSQL;
}

// PostgreSQL: the condition "every word is the start of some word of the contact" over
// contact_words, a prefix range in byte order per word; values: two a word.
QString wordsCondition(const QStringList &words, const QString &seq, QVariantList *values)
{
    QStringList parts;
    for (const QString &w : words) {
        parts << QStringLiteral("%1 IN (SELECT contact_seq FROM contact_words WHERE word COLLATE \"C\" >= ? AND "
                                "word COLLATE \"C\" < ?)")
                     .arg(seq);
        // The upper end: w followed by the highest code point, above every word that starts with w.
        *values << w << w + QString::fromUcs4(U"\U0010FFFF", 1);
    }
    return parts.join(QStringLiteral(" AND "));
}

std::optional<QVector<qint64>> fewMatches(const QStringList &words, int few)
{
    std::optional<QVector<qint64>> out;
    if (words.isEmpty())
        return out;
    if (onPostgres()) {
        QVariantList values;
        const QString where = wordsCondition(words, QStringLiteral("c.seq"), &values);
        values << few + 1;
        QVector<qint64> seqs;
        Database::select(
            QStringLiteral("SELECT c.seq FROM contacts c WHERE ") + where + QStringLiteral(" LIMIT ?"), values,
            [&seqs](const SqlRow &r) { seqs.append(r.integer(0)); }, false);
        if (seqs.size() <= few)
            out = seqs;
        return out;
    }
    QStringList rest = words;
    if (words.size() > 1) {
        auto hasDigit = [](const QString &w) {
            return std::any_of(w.cbegin(), w.cend(), [](QChar c) { return c.isDigit(); });
        };
        const auto pick = std::max_element(rest.cbegin(), rest.cend(), [&](const QString &a, const QString &b) {
            return std::make_pair(hasDigit(a), a.size()) < std::make_pair(hasDigit(b), b.size());
        });
        const QString rare = *pick;
        rest.removeAt(int(pick - rest.cbegin()));
        QVector<qint64> seqs;
        int candidates = 0;
        Database::select(QStringLiteral("SELECT rowid, doc FROM contacts_fts WHERE contacts_fts MATCH ? LIMIT ?"),
                         {matchExpression(QStringList{rare}), few + 1}, [&](const SqlRow &r) {
                             ++candidates;
                             if (documentMatches(r.text(1), rest))
                                 seqs.append(r.integer(0));
                         });
        if (candidates <= few) {
            out = seqs;
            return out;
        }
    }
    QVector<qint64> seqs;
    Database::select(QStringLiteral("SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ? LIMIT ?"),
                     {matchExpression(words), few + 1}, [&seqs](const SqlRow &r) { seqs.append(r.integer(0)); });
    if (seqs.size() <= few)
        out = seqs;
    return out;
}

void writeTags(const Contact &c, bool replace)
{
    if (replace)
        Database::execCached(QStringLiteral("DELETE FROM contact_tags WHERE contact_seq = ?"), {c.seq});
    for (const QString &tag : c.tags) {
        Database::execCached(
            QStringLiteral("INSERT INTO contact_tags (contact_seq, tag_norm, tag) VALUES (?, ?, ?) ON CONFLICT DO "
                           "NOTHING"),
            {c.seq, ContactRules::tagKey(tag), tag});
    }
}

// PostgreSQL: the words of several contacts in one statement (two arrays unnested side by side), so
// that a contact's words, or a batch of a rebuild, cost one round trip instead of one a word.
void insertWords(const QVector<Contact> &contacts)
{
    QStringList seqs, words;
    auto quoted = [](QString w) {
        w.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
        w.replace(QLatin1Char('"'), QStringLiteral("\\\""));
        return QLatin1Char('"') + w + QLatin1Char('"');
    };
    for (const Contact &c : contacts) {
        for (const QString &word : TextFold::words(searchDocument(c))) {
            seqs << QString::number(c.seq);
            words << quoted(word);
        }
    }
    if (words.isEmpty())
        return;
    Database::execCached(
        QStringLiteral("INSERT INTO contact_words (contact_seq, word) SELECT unnest(CAST(? AS BIGINT[])), "
                       "unnest(CAST(? AS TEXT[])) ON CONFLICT DO NOTHING"),
        {QLatin1Char('{') + seqs.join(QLatin1Char(',')) + QLatin1Char('}'),
         QLatin1Char('{') + words.join(QLatin1Char(',')) + QLatin1Char('}')});
}

void writeSearch(const Contact &c, bool replace)
{
    if (onPostgres()) {
        if (replace)
            Database::execCached(QStringLiteral("DELETE FROM contact_words WHERE contact_seq = ?"), {c.seq});
        insertWords({c});
        return;
    }
    if (replace)
        Database::execCached(QStringLiteral("DELETE FROM contacts_fts WHERE rowid = ?"), {c.seq});
    Database::execCached(QStringLiteral("INSERT INTO contacts_fts (rowid, doc) VALUES (?, ?)"),
                         {c.seq, searchDocument(c)});
}

// Conflict when another contact has this e-mail or phone (e-mail compared case-insensitively, phone in E.164).
void checkUnique(const Contact &c)
{
    if (!c.email.isEmpty()) {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT id FROM contacts WHERE email_norm = ? AND seq != ?"), {c.email.toLower(), c.seq});
        if (q.next()) {
            throw DomainError(
                DomainError::Conflict, QStringLiteral("CONFLICT"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with e-mail %1 already exists"), {c.email}),
                FieldProblems{
                    {QStringLiteral("email"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already registered"))}},
                QJsonObject{{QStringLiteral("existingId"), q.value(0).toString()}});
        }
    }
    if (!c.phone.isEmpty()) {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT id FROM contacts WHERE phone_e164 = ? AND seq != ?"),
                                 {ContactRules::toE164(c.phone), c.seq});
        if (q.next()) {
            throw DomainError(
                DomainError::Conflict, QStringLiteral("CONFLICT"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with phone %1 already exists"), {c.phone}),
                FieldProblems{
                    {QStringLiteral("phone"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already registered"))}},
                QJsonObject{{QStringLiteral("existingId"), q.value(0).toString()}});
        }
    }
}

QJsonObject eventData(const Contact &c)
{
    QJsonObject data = c.toJson();
    data.insert(QStringLiteral("contactId"), c.id);
    return data;
}

// The stored sort key of a name or company (migration 19 computes the same in SQL): folded as search
// folds text; a blank value gets U+10FFFF, the last code point, after every folded text in byte
// order (PostgreSQL's text columns are COLLATE "C"), so that blanks come last in ascending order.
// (Not U+FFFF: SQLite reads that back as U+FFFD.)
QString sortKey(const QString &value)
{
    const QString folded = TextFold::fold(value.trimmed());
    return folded.isEmpty() ? QStringLiteral("\U0010FFFF") : folded;
}

QString nameSortKey(const Contact &c)
{
    return sortKey(c.firstName.trimmed() + QLatin1Char(' ') + c.lastName.trimmed());
}

void insertRow(Contact &c)
{
    c.seq = Database::insert(
        QStringLiteral(
            "INSERT INTO contacts (id, first_name, last_name, email, email_norm, phone, phone_e164, company, "
            "position, address, tags, custom_fields, source, lead_score, created_at, updated_at, name_sort, "
            "company_sort) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {c.id, text(c.firstName), text(c.lastName), textOrNull(c.email), textOrNull(c.email.toLower()),
         textOrNull(c.phone), textOrNull(ContactRules::toE164(c.phone)), text(c.company), text(c.position),
         compact(c.address), compact(c.tags), compact(c.customFields), text(c.source), c.leadScore, c.createdAt,
         c.updatedAt, nameSortKey(c), sortKey(c.company)});
    writeTags(c, false);
    writeSearch(c, false);
}

struct Filter
{
    QString where;
    QVariantList values;
};

// Each order is served by an index (contacts_created, contacts_name_sort, contacts_company_sort).
QString orderBy(ContactSort sort)
{
    switch (sort) {
    case ContactSort::Oldest:
        return QStringLiteral("c.created_at, c.seq");
    case ContactSort::NameAscending:
        return QStringLiteral("c.name_sort, c.seq");
    case ContactSort::NameDescending:
        return QStringLiteral("c.name_sort DESC, c.seq DESC");
    case ContactSort::CompanyAscending:
        return QStringLiteral("c.company_sort, c.seq");
    case ContactSort::CompanyDescending:
        return QStringLiteral("c.company_sort DESC, c.seq DESC");
    case ContactSort::Newest:
        break;
    }
    return QStringLiteral("c.created_at DESC, c.seq DESC");
}

Filter buildFilter(const ContactQuery &query)
{
    Filter f;
    QStringList clauses;
    if (query.searchSeqs) {
        QByteArray seqs = "[";
        for (qint64 seq : *query.searchSeqs)
            seqs.append(QByteArray::number(seq)).append(',');
        if (seqs.endsWith(','))
            seqs.chop(1);
        seqs.append(']');
        if (onPostgres()) {
            seqs.front() = '{';
            seqs.back() = '}';
            clauses << QStringLiteral("c.seq = ANY (CAST(? AS BIGINT[]))");
        } else {
            clauses << QStringLiteral("c.seq IN (SELECT value FROM json_each(?))");
        }
        f.values << QString::fromLatin1(seqs);
    } else if (!query.search.trimmed().isEmpty()) {
        const QString match = matchExpression(query.search);
        if (match.isEmpty()) {
            clauses << QStringLiteral("1 = 0"); // nothing searchable in it: punctuation only
        } else if (onPostgres()) {
            clauses << wordsCondition(searchWords(query.search), QStringLiteral("c.seq"), &f.values);
        } else {
            clauses << QStringLiteral("c.seq IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ?)");
            f.values << match;
        }
    }
    for (const QString &tag : query.tags) {
        clauses << QStringLiteral("c.seq IN (SELECT contact_seq FROM contact_tags WHERE tag_norm = ?)");
        f.values << ContactRules::tagKey(tag);
    }
    if (!query.source.isEmpty()) {
        clauses << QStringLiteral("c.source = ?");
        f.values << query.source;
    }
    if (query.createdAfter) {
        clauses << QStringLiteral("c.created_at >= ?");
        f.values << TimeUtil::iso(*query.createdAfter);
    }
    if (query.createdBefore) {
        clauses << QStringLiteral("c.created_at < ?");
        f.values << TimeUtil::iso(*query.createdBefore);
    }
    if (!query.extraWhere.isEmpty()) {
        clauses << QLatin1Char('(') + query.extraWhere + QLatin1Char(')');
        f.values << query.extraValues;
    }
    if (!clauses.isEmpty())
        f.where = QStringLiteral(" WHERE ") + clauses.join(QStringLiteral(" AND "));
    return f;
}
} // namespace

const QString &ContactRows::columns()
{
    return kColumns;
}

Contact ContactRows::fromRow(SqlRowReader r)
{
    return contactFromRow(r);
}

void ContactRows::insert(Contact &c)
{
    insertRow(c);
}

void ContactRows::update(const Contact &c, bool tagsChanged)
{
    Database::execCached(
        QStringLiteral(
            "UPDATE contacts SET first_name = ?, last_name = ?, email = ?, email_norm = ?, phone = ?, "
            "phone_e164 = ?, company = ?, position = ?, address = ?, tags = ?, custom_fields = ?, source = ?, "
            "lead_score = ?, updated_at = ?, name_sort = ?, company_sort = ? WHERE seq = ?"),
        {text(c.firstName), text(c.lastName), textOrNull(c.email), textOrNull(c.email.toLower()), textOrNull(c.phone),
         textOrNull(ContactRules::toE164(c.phone)), text(c.company), text(c.position), compact(c.address),
         compact(c.tags), compact(c.customFields), text(c.source), c.leadScore, c.updatedAt, nameSortKey(c),
         sortKey(c.company), c.seq});
    if (tagsChanged)
        writeTags(c, true);
    writeSearch(c, true);
}

void ContactRows::writeCounters(const Contact &c)
{
    Database::execCached(
        QStringLiteral("UPDATE contacts SET total_messages = ?, last_message_at = ?, sentiment = ? WHERE seq = ?"),
        {c.totalMessages, textOrNull(c.lastMessageAt), textOrNull(c.sentiment), c.seq});
}

void ContactRows::remove(const Contact &c)
{
    if (!onPostgres()) // contact_words goes with the contact (ON DELETE CASCADE)
        Database::execCached(QStringLiteral("DELETE FROM contacts_fts WHERE rowid = ?"), {c.seq});
    Database::execCached(QStringLiteral("DELETE FROM contacts WHERE seq = ?"), {c.seq});
}

void ContactRows::refuseTaken(const Contact &c)
{
    checkUnique(c);
}

QJsonObject ContactRows::eventData(const Contact &c)
{
    return ::eventData(c);
}

ContactRepository::ContactRepository(const Store &store)
    : m_store(store)
{
}

Contact ContactRepository::create(ContactChanges changes, const QString &actor)
{
    Q_UNUSED(actor);
    ContactRules::check(changes);
    Contact c;
    ContactRules::apply(c, changes);
    ContactRules::checkRequired(c);
    return insertNew(c);
}

Contact ContactRepository::createFromChannel(ContactChanges changes)
{
    ContactRules::check(changes);
    Contact c;
    ContactRules::apply(c, changes);
    if (c.email.isEmpty() && c.phone.isEmpty()) {
        if (c.firstName.isEmpty() && c.lastName.isEmpty())
            ContactRules::checkRequired(c); // throws for the missing name
    } else {
        ContactRules::checkRequired(c);
    }
    return insertNew(c);
}

Contact ContactRepository::insertNew(Contact c)
{
    c.id = Ids::make(u"contact");
    c.createdAt = c.updatedAt = m_store.nowIso();
    return Database::refuseDuplicate(
        [&] {
            Transaction tx;
            checkUnique(c);
            insertRow(c);
            m_store.appendEvent(QStringLiteral("contact.created"), eventData(c));
            tx.commit();
            m_store.notify(EventBus::Entity::Contact, c.id, EventBus::Change::Created);
            return c;
        },
        [&] { checkUnique(c); });
}

Contact ContactRepository::update(const QString &id, ContactChanges changes, const QString &actor)
{
    Q_UNUSED(actor);
    ContactRules::check(changes);
    Contact attempted;
    return Database::refuseDuplicate([&] { return updateOnce(id, changes, &attempted); },
                                     [&] { checkUnique(attempted); });
}

Contact ContactRepository::updateOnce(const QString &id, const ContactChanges &changes, Contact *attempted)
{
    Transaction tx;
    const Contact before = get(id);
    Contact c = before;
    ContactRules::apply(c, changes);
    ContactRules::checkRequired(c);
    const QJsonArray changed = Outbox::changedFields(before.toJson(), c.toJson());
    if (changed.isEmpty())
        return before; // nothing to store, no event
    *attempted = c;
    checkUnique(c);
    c.updatedAt = m_store.nowIso();
    ContactRows::update(c, c.tags != before.tags);
    QJsonObject data = eventData(c);
    data.insert(QStringLiteral("changedFields"), changed);
    m_store.appendEvent(QStringLiteral("contact.updated"), data);
    tx.commit();
    m_store.notify(EventBus::Entity::Contact, c.id, EventBus::Change::Updated);
    return c;
}

void ContactRepository::remove(const QString &id, const QString &actor)
{
    Q_UNUSED(actor);
    Transaction tx;
    const Contact c = get(id);
    // A contact's deals stay (they are sales history): they are unlinked, each with a deal.updated event.
    DealRepository(m_store).detachContact(c.id);
    ContactRows::remove(c);
    m_store.appendEvent(QStringLiteral("contact.deleted"), eventData(c));
    tx.commit();
    m_store.notify(EventBus::Entity::Contact, c.id, EventBus::Change::Deleted);
}

std::optional<Contact> ContactRepository::findByEmail(const QString &email) const
{
    static const QString sql =
        QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM contacts c WHERE c.email_norm = ?");
    std::optional<Contact> c;
    Database::select(sql, {email.trimmed().toLower()}, [&c](const SqlRow &r) { c = contactFromRow(r); });
    return c;
}

std::optional<Contact> ContactRepository::find(const QString &id) const
{
    static const QString sql = QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM contacts c WHERE c.id = ?");
    std::optional<Contact> c;
    Database::select(sql, {id}, [&c](const SqlRow &r) { c = contactFromRow(r); });
    return c;
}

Contact ContactRepository::get(const QString &id) const
{
    std::optional<Contact> c = find(id);
    if (!c)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Contact"), id);
    return *c;
}

ContactPage ContactRepository::list(const ContactQuery &query) const
{
    const ReadTransaction snapshot; // the total and the page agree
    ContactQuery counted = query;
    // Most searches find a few contacts: read their ids once from the index, then count and page
    // those (a name search on a million contacts costs milliseconds per full-text run).
    if (!query.search.trimmed().isEmpty() && !counted.searchSeqs)
        counted.searchSeqs = fewMatches(searchWords(query.search), 1000);
    ContactPage page;
    page.total = count(counted);
    counted.knownTotal = page.total;
    page.items = page.total == 0 ? QVector<Contact>() : listPage(counted);
    return page;
}

QVector<Contact> ContactRepository::listPage(const ContactQuery &query) const
{
    QVector<Contact> items;
    const Filter f = buildFilter(query);
    QVariantList values = f.values;
    const int limit = qBound(1, query.limit, 1000);
    const qint64 offset = qint64(qMax(1, query.page) - 1) * limit;
    values << limit << offset;
    // SQLite guesses that "c.seq IN (subquery)" (a segment, a tag, a search) yields a few rows, so it
    // drives from those rows and sorts them all to find one page: for 200,000 members, most of a
    // second. Walking contacts_created newest first and stopping at the page reads about
    // (offset + limit) * contacts / total rows instead. With the total known, walk when that is
    // fewer than about four times the total (a sorted member costs several walked rows).
    // (PostgreSQL has no index hints: its planner weighs the two plans itself.)
    bool walk = false;
    if (query.sort == ContactSort::Newest && !f.where.isEmpty() && query.knownTotal > 0 && !onPostgres()) {
        qint64 contacts = 0;
        Database::select(QStringLiteral("SELECT max(seq) FROM contacts"), {},
                         [&contacts](const SqlRow &r) { contacts = r.integer(0); });
        walk = double(offset + limit) * double(contacts) < 4.0 * double(query.knownTotal) * double(query.knownTotal);
    }
    const QString sql =
        QStringLiteral("SELECT ") + kColumns +
        (walk ? QStringLiteral(" FROM contacts c INDEXED BY contacts_created") : QStringLiteral(" FROM contacts c")) +
        f.where + QStringLiteral(" ORDER BY ") + orderBy(query.sort) + QStringLiteral(" LIMIT ? OFFSET ?");
    // Segment conditions vary without end: they are not kept in the per-thread statement cache.
    Database::select(
        sql, values, [&items](const SqlRow &r) { items.append(contactFromRow(r)); }, query.extraWhere.isEmpty());
    return items;
}

qint64 ContactRepository::count(const ContactQuery &query) const
{
    const Filter f = buildFilter(query);
    const QString sql = QStringLiteral("SELECT count(*) FROM contacts c") + f.where;
    qint64 n = 0;
    Database::select(
        sql, f.values, [&n](const SqlRow &r) { n = r.integer(0); }, query.extraWhere.isEmpty());
    return n;
}

QVector<qint64> ContactRepository::seqsOf(const ContactQuery &query, QStringList *customFieldKeys) const
{
    const ReadTransaction snapshot;
    ContactQuery q = query;
    if (!q.search.trimmed().isEmpty() && !q.searchSeqs)
        q.searchSeqs = fewMatches(searchWords(q.search), 1000);
    const Filter f = buildFilter(q);
    QVector<qint64> seqs;
    QSet<QString> keys;
    const QString sql = QStringLiteral("SELECT c.seq") +
                        (customFieldKeys ? QStringLiteral(", c.custom_fields") : QString()) +
                        QStringLiteral(" FROM contacts c") + f.where + QStringLiteral(" ORDER BY ") + orderBy(q.sort);
    Database::select(
        sql, f.values,
        [&](const SqlRow &r) {
            seqs.append(r.integer(0));
            if (customFieldKeys) {
                const QByteArray json = r.bytes(1);
                if (json.size() > 2) {
                    const QJsonObject fields = QJsonDocument::fromJson(json).object();
                    for (auto it = fields.begin(); it != fields.end(); ++it)
                        keys.insert(it.key());
                }
            }
        },
        q.extraWhere.isEmpty());
    if (customFieldKeys) {
        *customFieldKeys = QStringList(keys.cbegin(), keys.cend());
        customFieldKeys->sort();
    }
    return seqs;
}

Contact ContactRepository::addTags(const QString &id, const QStringList &tags, const QString &actor)
{
    const Contact c = get(id);
    QStringList merged = c.tags;
    merged << tags;
    ContactChanges changes;
    changes.tags = ContactRules::normalizeTags(merged);
    return update(id, changes, actor);
}

Contact ContactRepository::removeTag(const QString &id, const QString &tag, const QString &actor)
{
    const Contact c = get(id);
    QStringList kept;
    bool found = false;
    for (const QString &t : c.tags) {
        if (ContactRules::tagKey(t) == ContactRules::tagKey(tag))
            found = true;
        else
            kept << t;
    }
    if (!found)
        throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact %1 has no tag %2"), {id, tag}));
    ContactChanges changes;
    changes.tags = kept;
    return update(id, changes, actor);
}

ContactNote ContactRepository::addNote(const QString &id, const QString &content, const QString &actorGiven)
{
    const QString actor = m_store.actorOr(actorGiven);
    const QString text = content.trimmed();
    if (text.isEmpty())
        throw DomainError::missingFields({{QStringLiteral("content"), DomainError::isRequired()}});
    if (text.size() > 20000)
        throw DomainError::invalid(
            QStringLiteral("content"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {20000}));
    Transaction tx;
    Contact c = get(id);
    ContactNote note{Ids::make(u"note"), c.id, text, actor, m_store.nowIso()};
    Database::execCached(
        QStringLiteral(
            "INSERT INTO contact_notes (id, contact_seq, content, created_by, created_at) VALUES (?, ?, ?, ?, ?)"),
        {note.id, c.seq, note.content, textOrNull(actor), note.createdAt});
    c.updatedAt = note.createdAt;
    Database::execCached(QStringLiteral("UPDATE contacts SET updated_at = ? WHERE seq = ?"), {c.updatedAt, c.seq});
    QJsonObject data = eventData(c);
    data.insert(QStringLiteral("changedFields"), QJsonArray{QStringLiteral("notes")});
    data.insert(QStringLiteral("note"), note.toJson());
    m_store.appendEvent(QStringLiteral("contact.updated"), data);
    tx.commit();
    m_store.notify(EventBus::Entity::Contact, c.id, EventBus::Change::Updated);
    return note;
}

QVector<ContactNote> ContactRepository::notes(const QString &id) const
{
    return notes(get(id));
}

QVector<ContactNote> ContactRepository::notes(const Contact &c) const
{
    QVector<ContactNote> out;
    Database::select(
        QStringLiteral(
            "SELECT id, content, created_by, created_at FROM contact_notes WHERE contact_seq = ? ORDER BY seq"),
        {c.seq}, [&](const SqlRow &r) {
            out.append({r.text(0), c.id, r.text(1), r.text(2), r.text(3)});
        });
    return out;
}

QVector<QPair<QString, qint64>> ContactRepository::tagCounts() const
{
    QVector<QPair<QString, qint64>> out;
    CachedQuery q = Database::execCached(QStringLiteral(
        "SELECT min(tag), count(*) AS n FROM contact_tags GROUP BY tag_norm ORDER BY n DESC, tag_norm LIMIT 500"));
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toLongLong()});
    q.finish();
    return out;
}

qint64 ContactRepository::rebuildSearch()
{
    Transaction tx;
    Database::exec(onPostgres() ? QStringLiteral("DELETE FROM contact_words")
                                : QStringLiteral("DELETE FROM contacts_fts"));
    QVector<Contact> batch;
    qint64 done = 0;
    auto flush = [&] {
        if (onPostgres()) {
            insertWords(batch);
        } else {
            for (const Contact &c : std::as_const(batch))
                writeSearch(c, false);
        }
        done += batch.size();
        batch.clear();
    };
    // Read a batch, then write it: a statement is not stepped while another writes on this connection.
    for (qint64 after = 0;;) {
        Database::select(QStringLiteral("SELECT ") + kColumns +
                             QStringLiteral(" FROM contacts c WHERE c.seq > ? ORDER BY c.seq LIMIT 500"),
                         {after}, [&batch](const SqlRow &r) { batch.append(contactFromRow(r)); });
        if (batch.isEmpty())
            break;
        after = batch.constLast().seq;
        flush();
    }
    tx.commit();
    return done;
}

ContactRepository::Match ContactRepository::matchOf(const QString &email, const QString &phone) const
{
    Match m;
    const QString e164 = ContactRules::toE164(phone);
    if (email.isEmpty() && e164.isEmpty())
        return m;
    // One statement for both (each side served by its unique index): an import asks this per row.
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT id, email_norm, phone_e164 FROM contacts WHERE email_norm = ? OR phone_e164 = ?"),
        {email.isEmpty() ? QVariant() : QVariant(email.toLower()), e164.isEmpty() ? QVariant() : QVariant(e164)});
    while (q.next()) {
        if (!email.isEmpty() && q.value(1).toString() == email.toLower())
            m.byEmail = q.value(0).toString();
        if (!e164.isEmpty() && q.value(2).toString() == e164)
            m.byPhone = q.value(0).toString();
    }
    return m;
}

void ContactRepository::insertImported(Contact &c, const QString &now)
{
    c.id = Ids::make(u"contact");
    c.createdAt = c.updatedAt = now;
    insertRow(c);
}

void ContactRepository::updateImported(const Contact &before, Contact &c, const QString &now)
{
    c.updatedAt = now;
    ContactRows::update(c, c.tags != before.tags);
}

int ContactRepository::insertBulk(const QVector<QJsonObject> &bodies)
{
    Transaction tx;
    const QString now = m_store.nowIso();
    for (const QJsonObject &body : bodies) {
        Contact c;
        ContactRules::apply(c, ContactRules::parse(body));
        ContactRules::checkRequired(c);
        c.id = Ids::make(u"contact");
        // Seeding may spread creation times; anything else gets now.
        const auto created = TimeUtil::parse(body.value(QLatin1String("createdAt")).toString());
        c.createdAt = created ? TimeUtil::iso(*created) : now;
        c.updatedAt = c.createdAt;
        insertRow(c);
    }
    tx.commit();
    m_store.notify(EventBus::Entity::Contact, QString(), EventBus::Change::Created);
    return int(bodies.size());
}
