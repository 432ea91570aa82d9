#include "model/core/importjobrepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/ids.h"

#include <QJsonDocument>

namespace {
const QString kImportJobColumns = QStringLiteral(
    "id, kind, status, file_name, duplicates, mapping, rows_total, processed, created, updated, skipped, failed, "
    "cancel_requested, error, report, created_by, created_at, updated_at, finished_at");

ImportJob importJobFromRow(SqlRowReader r)
{
    ImportJob j;
    j.id = r.text();
    j.kind = r.text();
    j.status = r.text();
    j.fileName = r.text();
    j.duplicates = r.text();
    j.mapping = r.jsonObject();
    j.rows = int(r.integer());
    j.processed = int(r.integer());
    j.created = int(r.integer());
    j.updated = int(r.integer());
    j.skipped = int(r.integer());
    j.failed = int(r.integer());
    j.cancelRequested = r.integer() != 0;
    j.error = r.text();
    j.report = QJsonDocument::fromJson(r.bytes()).array();
    j.createdBy = r.text();
    j.createdAt = r.text();
    j.updatedAt = r.text();
    j.finishedAt = r.text();
    return j;
}

QJsonValue importJobOrNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}
} // namespace

QJsonObject ImportJob::toJson(bool withReport) const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("type"), kind},
        {QStringLiteral("status"), status},
        {QStringLiteral("fileName"), importJobOrNull(fileName)},
        {QStringLiteral("duplicates"), duplicates},
        {QStringLiteral("mapping"), mapping},
        {QStringLiteral("progress"), QJsonObject{{QStringLiteral("processed"), processed},
                                                 {QStringLiteral("total"), rows},
                                                 {QStringLiteral("percent"), rows > 0 ? processed * 100 / rows : 100}}},
        {QStringLiteral("counts"), QJsonObject{{QStringLiteral("created"), created},
                                               {QStringLiteral("updated"), updated},
                                               {QStringLiteral("skipped"), skipped},
                                               {QStringLiteral("failed"), failed}}},
        {QStringLiteral("cancelRequested"), cancelRequested},
        {QStringLiteral("error"), importJobOrNull(error)},
        {QStringLiteral("createdBy"), importJobOrNull(createdBy)},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
        {QStringLiteral("finishedAt"), importJobOrNull(finishedAt)}};
    if (withReport)
        o.insert(QStringLiteral("report"), report);
    return o;
}

ImportJobRepository::ImportJobRepository(const Store &store)
    : m_store(store)
{
}

ImportJob ImportJobRepository::create(const QString &kind, const QString &fileName, CsvImport::Duplicates duplicates,
                                      const QJsonObject &mapping, int rows, const QString &createdBy)
{
    ImportJob j;
    j.id = Ids::make(u"imp");
    j.kind = kind;
    j.status = QStringLiteral("queued");
    j.fileName = fileName;
    j.duplicates = CsvImport::duplicatesName(duplicates);
    j.mapping = mapping;
    j.rows = rows;
    j.createdBy = m_store.actorOr(createdBy);
    j.createdAt = j.updatedAt = m_store.nowIso();
    Transaction tx;
    Database::exec(QStringLiteral("INSERT INTO import_jobs (id, kind, status, file_name, duplicates, mapping, "
                                  "rows_total, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                                  "?, ?)"),
                   {j.id, j.kind, j.status, SqlValue::textOrNull(fileName), j.duplicates,
                    QString::fromUtf8(QJsonDocument(mapping).toJson(QJsonDocument::Compact)), rows,
                    SqlValue::textOrNull(j.createdBy), j.createdAt, j.updatedAt});
    tx.commit();
    return j;
}

std::optional<ImportJob> ImportJobRepository::find(const QString &id) const
{
    std::optional<ImportJob> j;
    Database::select(QStringLiteral("SELECT ") + kImportJobColumns + QStringLiteral(" FROM import_jobs WHERE id = ?"),
                     {id}, [&j](const SqlRow &r) { j = importJobFromRow(r); });
    return j;
}

ImportJob ImportJobRepository::get(const QString &id) const
{
    std::optional<ImportJob> j = find(id);
    if (!j)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Import"), id);
    return *j;
}

void ImportJobRepository::start(const QString &id)
{
    Transaction tx;
    Database::exec(QStringLiteral("UPDATE import_jobs SET status = 'running', updated_at = ? WHERE id = ?"),
                   {m_store.nowIso(), id});
    tx.commit();
}

bool ImportJobRepository::progress(const QString &id, const CsvImport::Report &report)
{
    Transaction tx;
    Database::execCached(
        QStringLiteral("UPDATE import_jobs SET processed = ?, created = ?, updated = ?, skipped = ?, "
                       "failed = ?, updated_at = ? WHERE id = ?"),
        {report.done, report.created, report.updated, report.skipped, report.failed, m_store.nowIso(), id});
    bool cancel = false;
    Database::select(QStringLiteral("SELECT cancel_requested FROM import_jobs WHERE id = ?"), {id},
                     [&cancel](const SqlRow &r) { cancel = r.integer(0) != 0; });
    tx.commit();
    return cancel;
}

void ImportJobRepository::finish(const QString &id, const CsvImport::Report &report)
{
    const QString now = m_store.nowIso();
    Transaction tx;
    Database::exec(
        QStringLiteral("UPDATE import_jobs SET status = ?, processed = ?, created = ?, updated = ?, skipped = ?, "
                       "failed = ?, report = ?, updated_at = ?, finished_at = ? WHERE id = ?"),
        {report.cancelled ? QStringLiteral("cancelled") : QStringLiteral("completed"), report.done, report.created,
         report.updated, report.skipped, report.failed,
         QString::fromUtf8(QJsonDocument(report.rowsJson()).toJson(QJsonDocument::Compact)), now, now, id});
    tx.commit();
}

void ImportJobRepository::fail(const QString &id, const QString &error)
{
    const QString now = m_store.nowIso();
    Transaction tx;
    Database::exec(QStringLiteral("UPDATE import_jobs SET status = 'failed', error = ?, updated_at = ?, finished_at = "
                                  "? WHERE id = ?"),
                   {error, now, now, id});
    tx.commit();
}

ImportJob ImportJobRepository::requestCancel(const QString &id)
{
    Transaction tx;
    ImportJob j = get(id);
    if (j.status == QLatin1String("queued") || j.status == QLatin1String("running")) {
        j.cancelRequested = true;
        j.updatedAt = m_store.nowIso();
        Database::exec(QStringLiteral("UPDATE import_jobs SET cancel_requested = 1, updated_at = ? WHERE id = ?"),
                       {j.updatedAt, id});
    }
    tx.commit();
    return j;
}
