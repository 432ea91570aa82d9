#pragma once

#include "model/core/csvimport.h"
#include "model/core/store.h"

#include <QTimeZone>

#include <functional>

// Imports tasks from a CSV table (docs/api.md, "Imports"). Each row is read into a create body and
// goes through TaskRepository's create or update one by one: the same rules (TaskRules) and events
// (task.created, task.updated) as the API's. Type, priority and status are read by their keys or
// their English or Turkish names ("Arama", "Yüksek", "Yapılacak"); a due date day first, with a time
// ("01.12.2026 14:30", read in the tasks' time zone) or without (an all-day task); the contact by
// its e-mail. A row is a duplicate of a task with the same title (without case or accents), the same
// due date and the same contact (or none); duplicates are skipped, updated, or created anyway.
class TaskImporter
{
public:
    TaskImporter(const Store &store, const QTimeZone &tz);

    static const QVector<CsvImport::Field> &fields();
    // Throws DomainError as a create would.
    QJsonObject rowBody(const QStringList &row, const CsvImport::Mapping &mapping) const;

    CsvImport::Report run(const Csv::Table &table, const CsvImport::Mapping &mapping, CsvImport::Duplicates duplicates,
                          const std::function<bool(const CsvImport::Report &soFar)> &progress = {},
                          const QString &actor = {});

private:
    Store m_store;
    QTimeZone m_tz;
};
