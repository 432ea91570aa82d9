#pragma once

#include "model/core/csv.h"
#include "model/core/errors.h"

#include <QDate>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTime>
#include <QVector>

#include <functional>
#include <optional>

// What the record imports share (contacts, deals, tasks: docs/api.md, "Imports"): the fields a
// column can fill, the mapping of a file's columns to them with its auto-match by header names in
// English and Turkish, the duplicate policy, and the per-row report.
namespace CsvImport {

// How many rows one transaction writes; a cancel is seen between two batches.
constexpr int kBatchRows = 500;

// A field a column can fill: its key (the API's field name, "address.city"; a custom field is
// "customFields.<name>"), whether a row needs it, and the header names that mean it (compared by
// key()).
struct Field
{
    QString key;
    QStringList names;
};

// A header name as compared: folded as search folds text (case, Turkish dotted and dotless i,
// accents), then letters and digits only: "E-posta" and "eposta", "Ad Soyad" and "adsoyad" meet.
QString key(const QString &header);

// The field of each column ("" leaves it out), one per header name.
using Mapping = QStringList;

// Each header to the field whose key or name it is ("customFields.<name>", as an export writes it,
// to that custom field); a header that names no field stays empty (the
// caller may map it to a custom field). A field is matched once: a second column of the same
// meaning stays empty.
Mapping autoMatch(const QStringList &header, const QVector<Field> &fields);
// A mapping sent as JSON: an object of header name → field key ("" or null: leave the column
// out); columns it does not name are auto-matched. A field key that is neither one of `fields` nor
// "customFields.<name>" (1 to 64 characters), a header the file does not have and a field filled
// by two columns are refused (BadRequest VALIDATION_ERROR, field "mapping").
Mapping fromJson(const QJsonObject &json, const QStringList &header, const QVector<Field> &fields);
QJsonObject toJson(const Mapping &mapping, const QStringList &header);
// Whether a key is a custom field's ("customFields.<name>") and that name.
bool isCustomField(const QString &key);
QString customFieldName(const QString &key);

// What to do with a row that matches a stored record (contacts: the same e-mail, or the same phone in
// E.164): leave the record as it is, change it with the row's values, or store the row as a new
// record where the rules allow two (contacts never: such a row is refused as a duplicate).
enum class Duplicates
{
    Skip,
    Update,
    Create
};
QString duplicatesName(Duplicates d); // "skip", "update", "create"
std::optional<Duplicates> duplicatesFrom(const QString &name);

// One row's outcome, by its first line in the file (the header is line 1).
struct RowResult
{
    enum Outcome
    {
        Created,
        Updated,
        Skipped, // a duplicate left as it is, or nothing to change
        Failed   // refused by a rule: the record was not written
    };
    int line = 0;
    Outcome outcome = Failed;
    QString id;    // the record created, updated or matched
    QString field; // the field a refusal names first (empty: none)
    QString code;  // VALIDATION_ERROR, DUPLICATE, CONFLICT, …
    ModelText reason;
};
QString outcomeName(RowResult::Outcome o); // "created", "updated", "skipped", "failed"

struct Report
{
    int rows = 0; // rows in the file (the header not counted)
    int done = 0; // rows read so far (all of them unless cancelled)
    int created = 0;
    int updated = 0;
    int skipped = 0;
    int failed = 0;
    bool cancelled = false;
    QVector<RowResult> results; // in the file's order

    void add(RowResult r);
    // { rows, processed, created, updated, skipped, failed, cancelled }
    QJsonObject countsJson() const;
    // Each row as { line, outcome, id?, field?, code?, reason? } (reason in English).
    QJsonArray rowsJson() const;
    // The report as a CSV file (columns line, outcome, id, field, code, reason; a byte order mark
    // first, CRLF), the reasons written by `text` (English when not given: the window passes its
    // translation).
    QByteArray toCsv(const std::function<QString(const ModelText &)> &text = {}) const;
};

// The result of a refusal for one row.
RowResult failure(int line, const DomainError &e);
// A row left as it is because it names a stored record (id): skipped, DUPLICATE, the field, reason.
RowResult skippedDuplicate(const QString &id, const QString &field, ModelText reason);
// A row written over the stored record id: updated when it changed something, else skipped as
// UNCHANGED with unchangedReason.
RowResult updatedOrUnchanged(const QString &id, bool changed, ModelText unchangedReason);
// The first record (in the order sql gives) whose text, the second column of sql's rows after the
// id, folded as search folds it (case, accents, spaces), is text's; empty when none. How the deals'
// and tasks' imports find a duplicate by name or title among a few candidates.
QString firstFoldedMatch(const QString &sql, const QVariantList &values, const QString &text);

// Runs the rows of a table a batch of kBatchRows at a time, each batch one transaction and each
// row a savepoint of it (a row refused halfway leaves nothing): row(index) writes one row through
// the repository's own create or update, with its events, and returns its outcome; a DomainError it
// throws makes the row failed. progress and cancel as ContactImporter::run.
Report runRows(const Csv::Table &table, const std::function<RowResult(int index)> &row,
               const std::function<bool(const Report &soFar)> &progress);

// The cell of a field in a row (trimmed; empty when the field is not mapped or the cell is empty).
QString cell(const QStringList &row, const Mapping &mapping, const QString &field);
// The custom fields a row fills ("customFields.<name>" columns with a non-empty cell).
QJsonObject customFields(const QStringList &row, const Mapping &mapping);
// A date as spreadsheets write it: 2026-12-01, 01.12.2026, 1.12.2026, 01/12/2026 (day first);
// invalid otherwise. With a time after it ("01.12.2026 14:30", "2026-12-01 14:30"), *time gets it.
QDate readDate(const QString &text, QTime *time = nullptr);
// The key a word names among keys with their names in English and Turkish ("Yüksek" → "high"),
// compared as header names are (key()); the text itself when none.
QString choiceKey(const QString &text, const QList<QPair<QString, QStringList>> &choices);

} // namespace CsvImport
