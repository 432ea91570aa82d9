#include "model/core/csvimport.h"

#include "model/core/database.h"
#include "model/core/textfold.h"

#include <QHash>
#include <QSet>

QString CsvImport::key(const QString &header)
{
    QString out;
    for (const QChar c : TextFold::fold(header)) {
        if (c.isLetterOrNumber())
            out.append(c);
    }
    return out;
}

bool CsvImport::isCustomField(const QString &key)
{
    return key.startsWith(QLatin1String("customFields.")) && key.size() > 13;
}

QString CsvImport::customFieldName(const QString &key)
{
    return isCustomField(key) ? key.mid(13) : QString();
}

CsvImport::Mapping CsvImport::autoMatch(const QStringList &header, const QVector<Field> &fields)
{
    QHash<QString, QString> byName;
    for (const Field &f : fields) {
        byName.insert(key(f.key), f.key);
        for (const QString &name : f.names)
            byName.insert(key(name), f.key);
    }
    Mapping out;
    QSet<QString> taken;
    for (const QString &h : header) {
        // What an export wrote: "customFields.<name>".
        const QString field = isCustomField(h) && h.size() <= 13 + 64 ? h : byName.value(key(h));
        if (field.isEmpty() || taken.contains(field)) {
            out << QString();
            continue;
        }
        taken.insert(field);
        out << field;
    }
    return out;
}

CsvImport::Mapping CsvImport::fromJson(const QJsonObject &json, const QStringList &header, const QVector<Field> &fields)
{
    QSet<QString> known;
    for (const Field &f : fields)
        known.insert(f.key);
    const QString mappingField = QStringLiteral("mapping");
    Mapping out = autoMatch(header, fields);
    for (auto it = json.begin(); it != json.end(); ++it) {
        const int column = int(header.indexOf(it.key()));
        if (column < 0)
            throw DomainError::invalid(
                mappingField,
                ModelText(QT_TRANSLATE_NOOP("ModelError", "names %1, a column the file does not have"), {it.key()}));
        if (!it.value().isString() && !it.value().isNull())
            throw DomainError::invalid(
                mappingField, ModelText(QT_TRANSLATE_NOOP("ModelError", "must map each column to a field name")));
        const QString field = it.value().toString().trimmed();
        if (!field.isEmpty() && !known.contains(field) &&
            !(isCustomField(field) && customFieldName(field).size() <= 64))
            throw DomainError::invalid(
                mappingField, ModelText(QT_TRANSLATE_NOOP("ModelError", "names %1, which is not a field"), {field}));
        out[column] = field;
    }
    // A column named in the JSON wins over an auto-matched one of the same field.
    for (int i = 0; i < out.size(); ++i) {
        if (out.at(i).isEmpty())
            continue;
        for (int j = 0; j < out.size(); ++j) {
            if (j == i || out.at(j) != out.at(i))
                continue;
            const bool iGiven = json.contains(header.at(i));
            const bool jGiven = json.contains(header.at(j));
            if (iGiven && jGiven)
                throw DomainError::invalid(
                    mappingField, ModelText(QT_TRANSLATE_NOOP("ModelError", "fills %1 from two columns"), {out.at(i)}));
            out[iGiven ? j : i] = QString();
        }
    }
    return out;
}

QJsonObject CsvImport::toJson(const Mapping &mapping, const QStringList &header)
{
    QJsonObject out;
    for (int i = 0; i < header.size() && i < mapping.size(); ++i)
        out.insert(header.at(i), mapping.at(i).isEmpty() ? QJsonValue() : QJsonValue(mapping.at(i)));
    return out;
}

QString CsvImport::duplicatesName(Duplicates d)
{
    switch (d) {
    case Duplicates::Skip:
        return QStringLiteral("skip");
    case Duplicates::Update:
        return QStringLiteral("update");
    case Duplicates::Create:
        break;
    }
    return QStringLiteral("create");
}

std::optional<CsvImport::Duplicates> CsvImport::duplicatesFrom(const QString &name)
{
    for (Duplicates d : {Duplicates::Skip, Duplicates::Update, Duplicates::Create}) {
        if (duplicatesName(d) == name)
            return d;
    }
    return std::nullopt;
}

QString CsvImport::outcomeName(RowResult::Outcome o)
{
    switch (o) {
    case RowResult::Created:
        return QStringLiteral("created");
    case RowResult::Updated:
        return QStringLiteral("updated");
    case RowResult::Skipped:
        return QStringLiteral("skipped");
    case RowResult::Failed:
        break;
    }
    return QStringLiteral("failed");
}

void CsvImport::Report::add(RowResult r)
{
    switch (r.outcome) {
    case RowResult::Created:
        ++created;
        break;
    case RowResult::Updated:
        ++updated;
        break;
    case RowResult::Skipped:
        ++skipped;
        break;
    case RowResult::Failed:
        ++failed;
        break;
    }
    results.append(std::move(r));
}

QJsonObject CsvImport::Report::countsJson() const
{
    return {{QStringLiteral("rows"), rows},          {QStringLiteral("processed"), done},
            {QStringLiteral("created"), created},    {QStringLiteral("updated"), updated},
            {QStringLiteral("skipped"), skipped},    {QStringLiteral("failed"), failed},
            {QStringLiteral("cancelled"), cancelled}};
}

QJsonArray CsvImport::Report::rowsJson() const
{
    QJsonArray out;
    for (const RowResult &r : results) {
        QJsonObject o{{QStringLiteral("line"), r.line}, {QStringLiteral("outcome"), outcomeName(r.outcome)}};
        if (!r.id.isEmpty())
            o.insert(QStringLiteral("id"), r.id);
        if (!r.field.isEmpty())
            o.insert(QStringLiteral("field"), r.field);
        if (!r.code.isEmpty())
            o.insert(QStringLiteral("code"), r.code);
        if (!r.reason.isNull())
            o.insert(QStringLiteral("reason"), r.reason.english());
        out.append(o);
    }
    return out;
}

QByteArray CsvImport::Report::toCsv(const std::function<QString(const ModelText &)> &text) const
{
    QString out = Csv::line({QStringLiteral("line"), QStringLiteral("outcome"), QStringLiteral("id"),
                             QStringLiteral("field"), QStringLiteral("code"), QStringLiteral("reason")});
    for (const RowResult &r : results) {
        const QString reason = r.reason.isNull() ? QString() : text ? text(r.reason) : r.reason.english();
        out += Csv::line({QString::number(r.line), outcomeName(r.outcome), r.id, r.field, r.code, reason});
    }
    return QByteArray("\xEF\xBB\xBF") + out.toUtf8();
}

CsvImport::RowResult CsvImport::failure(int line, const DomainError &e)
{
    RowResult r;
    r.line = line;
    r.outcome = RowResult::Failed;
    r.field = e.problems().isEmpty() ? QString() : e.problems().firstKey();
    r.code = e.code();
    r.reason = e.text();
    return r;
}

CsvImport::RowResult CsvImport::skippedDuplicate(const QString &id, const QString &field, ModelText reason)
{
    RowResult r;
    r.id = id;
    r.outcome = RowResult::Skipped;
    r.code = QStringLiteral("DUPLICATE");
    r.field = field;
    r.reason = std::move(reason);
    return r;
}

CsvImport::RowResult CsvImport::updatedOrUnchanged(const QString &id, bool changed, ModelText unchangedReason)
{
    RowResult r;
    r.id = id;
    r.outcome = changed ? RowResult::Updated : RowResult::Skipped;
    if (!changed) {
        r.code = QStringLiteral("UNCHANGED");
        r.reason = std::move(unchangedReason);
    }
    return r;
}

QString CsvImport::firstFoldedMatch(const QString &sql, const QVariantList &values, const QString &text)
{
    const QString wanted = TextFold::fold(text).simplified();
    QString found;
    Database::select(sql, values, [&](const SqlRow &row) {
        if (found.isEmpty() && TextFold::fold(row.text(1)).simplified() == wanted)
            found = row.text(0);
    });
    return found;
}

CsvImport::Report CsvImport::runRows(const Csv::Table &table, const std::function<RowResult(int)> &row,
                                     const std::function<bool(const Report &)> &progress)
{
    Report report;
    const int total = int(table.rows.size());
    report.rows = total;
    for (int start = 0; start < total; start += kBatchRows) {
        const int end = qMin(total, start + kBatchRows);
        QVector<RowResult> batch;
        Transaction tx;
        for (int i = start; i < end; ++i) {
            const int line = table.lines.value(i);
            try {
                Transaction savepoint;
                RowResult r = row(i);
                r.line = line;
                savepoint.commit();
                batch.append(r);
            } catch (const DomainError &e) {
                batch.append(failure(line, e));
            }
        }
        tx.commit();
        for (RowResult &r : batch)
            report.add(std::move(r));
        report.done = end;
        if (progress && !progress(report) && end < total) {
            report.cancelled = true;
            break;
        }
    }
    return report;
}

QString CsvImport::cell(const QStringList &row, const Mapping &mapping, const QString &field)
{
    const qsizetype i = mapping.indexOf(field);
    return i < 0 ? QString() : row.value(i).trimmed();
}

QJsonObject CsvImport::customFields(const QStringList &row, const Mapping &mapping)
{
    QJsonObject out;
    for (int i = 0; i < mapping.size() && i < row.size(); ++i) {
        const QString value = row.at(i).trimmed();
        if (isCustomField(mapping.at(i)) && !value.isEmpty())
            out.insert(customFieldName(mapping.at(i)), value);
    }
    return out;
}

QDate CsvImport::readDate(const QString &text, QTime *time)
{
    const QString t = text.simplified();
    const QString day = t.section(QLatin1Char(' '), 0, 0);
    const QString clock = t.section(QLatin1Char(' '), 1, 1);
    QDate d = QDate::fromString(day, Qt::ISODate);
    for (const char *format : {"dd.MM.yyyy", "d.M.yyyy", "dd/MM/yyyy", "d/M/yyyy"}) {
        if (!d.isValid())
            d = QDate::fromString(day, QLatin1String(format));
    }
    if (time && d.isValid() && !clock.isEmpty()) {
        for (const char *format : {"HH:mm", "H:mm", "HH:mm:ss"}) {
            if (!time->isValid())
                *time = QTime::fromString(clock, QLatin1String(format));
        }
    }
    return d;
}

QString CsvImport::choiceKey(const QString &text, const QList<QPair<QString, QStringList>> &choices)
{
    const QString k = key(text);
    for (const auto &choice : choices) {
        if (key(choice.first) == k)
            return choice.first;
        for (const QString &name : choice.second) {
            if (key(name) == k)
                return choice.first;
        }
    }
    return text;
}
