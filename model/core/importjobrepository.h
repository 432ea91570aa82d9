#pragma once

#include "model/core/csvimport.h"
#include "model/core/store.h"

#include <QJsonObject>
#include <QString>

#include <optional>

// An import's job as stored (table import_jobs): what GET /api/v1/imports/:id answers, from any
// copy of Liaison on the database.
struct ImportJob
{
    QString id;     // imp_…
    QString kind;   // "contacts"
    QString status; // queued, running, completed, cancelled, failed
    QString fileName;
    QString duplicates;
    QJsonObject mapping;
    int rows = 0;
    int processed = 0;
    int created = 0;
    int updated = 0;
    int skipped = 0;
    int failed = 0;
    bool cancelRequested = false;
    QString error;
    QJsonArray report; // the per-row outcomes, once the job has ended
    QString createdBy;
    QString createdAt;
    QString updatedAt;
    QString finishedAt;

    // The API's object; the per-row report as `report` when withReport.
    QJsonObject toJson(bool withReport = true) const;
};

// Stores the jobs of imports. Each call is one short transaction of its own.
class ImportJobRepository
{
public:
    explicit ImportJobRepository(const Store &store);

    ImportJob create(const QString &kind, const QString &fileName, CsvImport::Duplicates duplicates,
                     const QJsonObject &mapping, int rows, const QString &createdBy);
    std::optional<ImportJob> find(const QString &id) const;
    ImportJob get(const QString &id) const; // NotFound
    void start(const QString &id);
    // Counts so far; answers whether a cancel was asked for meanwhile.
    bool progress(const QString &id, const CsvImport::Report &report);
    void finish(const QString &id, const CsvImport::Report &report);
    void fail(const QString &id, const QString &error);
    // Asks the job to stop after its current batch (a job that has ended is left as it is).
    ImportJob requestCancel(const QString &id);

private:
    Store m_store;
};
