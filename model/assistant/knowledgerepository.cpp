#include "model/assistant/knowledgerepository.h"

#include "model/core/csv.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/ids.h"
#include "model/core/sqldialect.h"
#include "model/core/textfold.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace {

const QString kKnowledgeColumns = QStringLiteral(
    "k.seq, k.id, k.type, k.language, k.question, k.answer, k.tags, k.revision, k.created_by, k.created_at, "
    "k.updated_at");

KnowledgeEntry knowledgeFromRow(SqlRowReader r)
{
    KnowledgeEntry e;
    e.seq = r.integer();
    e.id = r.text();
    e.type = r.text();
    e.language = r.text();
    e.question = r.text();
    e.answer = r.text();
    for (const QJsonValue &t : QJsonDocument::fromJson(r.bytes()).array())
        e.tags.append(t.toString());
    e.revision = r.integer();
    e.createdBy = r.text();
    e.createdAt = r.text();
    e.updatedAt = r.text();
    return e;
}

QString tagsJson(const QStringList &tags)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(tags)).toJson(QJsonDocument::Compact));
}

void applyChanges(const KnowledgeChanges &ch, KnowledgeEntry &e)
{
    for (auto [value, field] : {std::pair{&ch.type, &e.type}, std::pair{&ch.language, &e.language},
                                std::pair{&ch.question, &e.question}, std::pair{&ch.answer, &e.answer}}) {
        if (*value)
            *field = **value;
    }
    if (ch.tags)
        e.tags = *ch.tags;
}

struct KnowledgeFilter
{
    QString where;
    QVariantList values;
};

KnowledgeFilter knowledgeFilter(const KnowledgeQuery &q)
{
    KnowledgeFilter f;
    QStringList clauses;
    if (!q.language.isEmpty()) {
        clauses << QStringLiteral("k.language = ?");
        f.values << q.language.toLower();
    }
    if (!q.type.isEmpty()) {
        clauses << QStringLiteral("k.type = ?");
        f.values << q.type;
    }
    for (const QString &tag : q.tags) {
        // tags is a JSON array of lower-case strings: a tag is its quoted text in it.
        clauses << QStringLiteral("k.tags LIKE ? ESCAPE '\\'");
        QString pattern =
            QString::fromUtf8(QJsonDocument(QJsonArray{tag.trimmed().toLower()}).toJson(QJsonDocument::Compact));
        pattern = pattern.mid(1, pattern.size() - 2);
        pattern.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
            .replace(QLatin1Char('%'), QLatin1String("\\%"))
            .replace(QLatin1Char('_'), QLatin1String("\\_"));
        f.values << QLatin1Char('%') + pattern + QLatin1Char('%');
    }
    if (const QString words = SqlDialect::wordsBeginFolded(
            QStringLiteral("(k.question || ' ' || k.answer || ' ' || k.tags)"), q.search, &f.values);
        !words.isEmpty())
        clauses << words;
    if (!clauses.isEmpty())
        f.where = QStringLiteral(" WHERE ") + clauses.join(QStringLiteral(" AND "));
    return f;
}

QString questionKey(const QString &language, const QString &question)
{
    return language + QLatin1Char('|') + TextFold::fold(question).simplified();
}

} // namespace

KnowledgeRepository::KnowledgeRepository(const Store &store)
    : m_store(store)
{
}

KnowledgePage KnowledgeRepository::list(const KnowledgeQuery &query) const
{
    const ReadTransaction snapshot; // the page and its total agree
    const KnowledgeFilter f = knowledgeFilter(query);
    KnowledgePage page;
    QVariantList values = f.values;
    QString sql = QStringLiteral("SELECT ") + kKnowledgeColumns + QStringLiteral(" FROM knowledge_entries k") +
                  f.where + QStringLiteral(" ORDER BY k.seq DESC");
    if (query.limit > 0) {
        sql += QStringLiteral(" LIMIT ? OFFSET ?");
        values << query.limit << qMax(0, query.page - 1) * query.limit;
    }
    QSqlQuery q = Database::exec(sql, values);
    while (q.next())
        page.items.append(knowledgeFromRow(q));
    q.finish();
    QSqlQuery c = Database::exec(QStringLiteral("SELECT count(*) FROM knowledge_entries k") + f.where, f.values);
    page.total = c.next() ? c.value(0).toInt() : 0;
    return page;
}

KnowledgeEntry KnowledgeRepository::get(const QString &id) const
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kKnowledgeColumns +
                                     QStringLiteral(" FROM knowledge_entries k WHERE k.id = ?"),
                                 {id});
    if (!q.next())
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Knowledge entry"), id);
    return knowledgeFromRow(q);
}

qint64 KnowledgeRepository::nextRevision() const
{
    Database::exec(QStringLiteral("UPDATE knowledge_revision SET revision = revision + 1 WHERE name = 'entries'"));
    QSqlQuery q = Database::exec(QStringLiteral("SELECT revision FROM knowledge_revision WHERE name = 'entries'"));
    return q.next() ? q.value(0).toLongLong() : 0;
}

void KnowledgeRepository::insert(KnowledgeEntry &e) const
{
    e.id = Ids::make(u"kn");
    e.seq = Database::insert(
        QStringLiteral(
            "INSERT INTO knowledge_entries (id, type, language, question, answer, tags, revision, created_by, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {e.id, e.type, e.language, e.question, e.answer, tagsJson(e.tags), e.revision,
         e.createdBy.isEmpty() ? QVariant() : QVariant(e.createdBy), e.createdAt, e.updatedAt});
}

void KnowledgeRepository::write(const KnowledgeEntry &e) const
{
    Database::execCached(
        QStringLiteral("UPDATE knowledge_entries SET type = ?, language = ?, question = ?, answer = ?, "
                       "tags = ?, revision = ?, updated_at = ? WHERE id = ?"),
        {e.type, e.language, e.question, e.answer, tagsJson(e.tags), e.revision, e.updatedAt, e.id});
}

KnowledgeEntry KnowledgeRepository::create(const KnowledgeChanges &changes, const QString &createdBy)
{
    KnowledgeChanges ch = changes;
    KnowledgeRules::check(ch, true);
    KnowledgeEntry e;
    applyChanges(ch, e);
    e.createdBy = m_store.actorOr(createdBy);
    e.createdAt = e.updatedAt = m_store.nowIso();
    Transaction tx;
    e.revision = nextRevision();
    insert(e);
    m_store.notify(EventBus::Entity::Knowledge, e.id, EventBus::Change::Created);
    tx.commit();
    return e;
}

KnowledgeEntry KnowledgeRepository::update(const QString &id, const KnowledgeChanges &changes)
{
    KnowledgeChanges ch = changes;
    KnowledgeRules::check(ch, false);
    Transaction tx;
    KnowledgeEntry e = get(id);
    applyChanges(ch, e);
    e.updatedAt = m_store.nowIso();
    e.revision = nextRevision();
    write(e);
    m_store.notify(EventBus::Entity::Knowledge, e.id, EventBus::Change::Updated);
    tx.commit();
    return e;
}

void KnowledgeRepository::remove(const QString &id)
{
    Transaction tx;
    get(id);
    const qint64 revision = nextRevision();
    Database::exec(QStringLiteral("DELETE FROM knowledge_entries WHERE id = ?"), {id});
    Database::exec(QStringLiteral("INSERT INTO knowledge_removed (id, revision) VALUES (?, ?)"), {id, revision});
    m_store.notify(EventBus::Entity::Knowledge, id, EventBus::Change::Deleted);
    tx.commit();
}

KnowledgeImportReport KnowledgeRepository::importCsv(const QByteArray &file, const QString &createdBy,
                                                     const std::function<bool(int, int)> &progress)
{
    const Csv::Table table = Csv::read(file);
    KnowledgeImportReport report;
    QHash<QString, int> column;
    for (int i = 0; i < table.header.size(); ++i)
        column.insert(table.header.at(i).toLower(), i);
    QStringList absent;
    for (const char *required : {"question", "answer", "language"}) {
        if (!column.contains(QLatin1String(required)))
            absent << QLatin1String(required);
    }
    if (!absent.isEmpty())
        throw DomainError(
            DomainError::Unprocessable, QStringLiteral("VALIDATION_ERROR"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The file has no column %1 (columns: %2)"),
                      {absent.join(QStringLiteral(", ")), KnowledgeRules::csvColumns().join(QStringLiteral(", "))}));
    auto cell = [&column](const QStringList &row, const char *name) -> std::optional<QString> {
        const int i = column.value(QLatin1String(name), -1);
        if (i < 0)
            return std::nullopt;
        return i < row.size() ? row.at(i) : QString();
    };

    // Entries known by id and by their question, to change instead of repeating them.
    QHash<QString, QString> byQuestion;
    QSet<QString> known;
    Database::select(QStringLiteral("SELECT id, language, question FROM knowledge_entries"), {}, [&](const SqlRow &r) {
        known.insert(r.text(0));
        byQuestion.insert(questionKey(r.text(1), r.text(2)), r.text(0));
    });

    const QString actor = m_store.actorOr(createdBy);
    const QVector<QStringList> &rows = table.rows;
    const QVector<int> &lines = table.lines;
    const int total = int(rows.size());
    report.rows = total;
    for (int start = 0; start < total; start += kImportBatch) {
        const int end = qMin(total, start + kImportBatch);
        Transaction tx;
        const qint64 revision = nextRevision();
        const QString now = m_store.nowIso();
        QHash<QString, QString> madeHere; // rolled back with the batch
        for (int i = start; i < end; ++i) {
            const QStringList &row = rows.at(i);
            KnowledgeChanges ch;
            ch.type = cell(row, "type");
            if (ch.type && ch.type->trimmed().isEmpty())
                ch.type.reset();
            ch.language = cell(row, "language");
            ch.question = cell(row, "question");
            ch.answer = cell(row, "answer");
            if (const std::optional<QString> tags = cell(row, "tags"))
                ch.tags = tags->split(QRegularExpression(QStringLiteral("[;,]")), Qt::SkipEmptyParts);
            try {
                KnowledgeRules::check(ch, true);
            } catch (const DomainError &e) {
                ++report.skipped;
                report.problems.append({lines.value(i), e.problems().isEmpty() ? QString() : e.problems().firstKey(),
                                        e.message(), e.code(), e.text()});
                continue;
            }
            const QString id = cell(row, "id").value_or(QString()).trimmed();
            const QString key = questionKey(*ch.language, *ch.question);
            QString existing = !id.isEmpty() && known.contains(id) ? id : byQuestion.value(key, madeHere.value(key));
            if (!existing.isEmpty()) {
                KnowledgeEntry e = get(existing);
                const KnowledgeEntry before = e;
                applyChanges(ch, e);
                if (e.type == before.type && e.language == before.language && e.question == before.question &&
                    e.answer == before.answer && e.tags == before.tags) {
                    ++report.skipped;
                    const ModelText unchanged(QT_TRANSLATE_NOOP("ModelError", "Unchanged: the same as entry %1"),
                                              {existing});
                    report.problems.append(
                        {lines.value(i), QString(), unchanged.english(), QStringLiteral("UNCHANGED"), unchanged});
                    continue;
                }
                e.updatedAt = now;
                e.revision = revision;
                write(e);
                ++report.updated;
                continue;
            }
            KnowledgeEntry e;
            applyChanges(ch, e);
            e.createdBy = actor;
            e.createdAt = e.updatedAt = now;
            e.revision = revision;
            insert(e);
            madeHere.insert(key, e.id);
            ++report.created;
        }
        m_store.notify(EventBus::Entity::Knowledge, QString(), EventBus::Change::Updated);
        tx.commit();
        for (auto it = madeHere.cbegin(); it != madeHere.cend(); ++it) {
            byQuestion.insert(it.key(), it.value());
            known.insert(it.value());
        }
        if (progress && !progress(end, total) && end < total) {
            report.cancelled = true;
            break;
        }
    }
    return report;
}

QByteArray KnowledgeRepository::exportCsv(const KnowledgeQuery &query) const
{
    KnowledgeQuery all = query;
    all.limit = 0;
    QString out = Csv::line(KnowledgeRules::csvColumns());
    const KnowledgePage page = list(all);
    for (auto it = page.items.crbegin(); it != page.items.crend(); ++it)
        out += KnowledgeRules::csvRow(*it);
    return QByteArray("\xEF\xBB\xBF") + out.toUtf8();
}

qint64 KnowledgeRepository::revision() const
{
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT revision FROM knowledge_revision WHERE name = 'entries'"));
    const qint64 r = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return r;
}

QVector<KnowledgeEntry> KnowledgeRepository::changedSince(qint64 revision) const
{
    QVector<KnowledgeEntry> out;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kKnowledgeColumns +
                                     QStringLiteral(" FROM knowledge_entries k WHERE k.revision > ? ORDER BY k.seq"),
                                 {revision});
    while (q.next())
        out.append(knowledgeFromRow(q));
    return out;
}

QStringList KnowledgeRepository::removedSince(qint64 revision) const
{
    QStringList out;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT id FROM knowledge_removed WHERE revision > ?"), {revision});
    while (q.next())
        out.append(q.value(0).toString());
    return out;
}

int KnowledgeRepository::count() const
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT count(*) FROM knowledge_entries"));
    return q.next() ? q.value(0).toInt() : 0;
}

QStringList KnowledgeRepository::tags() const
{
    // Read whole and counted here: the column is JSON text on both databases, and a knowledge base
    // of 10,000 entries reads in a few milliseconds.
    QSet<QString> seen;
    Database::select(QStringLiteral("SELECT tags FROM knowledge_entries"), {}, [&seen](const SqlRow &r) {
        for (const QJsonValue &t : QJsonDocument::fromJson(r.bytes(0)).array())
            seen.insert(t.toString());
    });
    QStringList out(seen.cbegin(), seen.cend());
    out.removeAll(QString());
    std::sort(out.begin(), out.end(), [](const QString &a, const QString &b) { return a.localeAwareCompare(b) < 0; });
    return out;
}

QStringList KnowledgeRepository::languages() const
{
    QStringList out;
    Database::select(QStringLiteral("SELECT DISTINCT language FROM knowledge_entries ORDER BY language"), {},
                     [&out](const SqlRow &r) { out.append(r.text(0)); });
    return out;
}
