#include "model/tasks/taskimporter.h"

#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "model/core/timeutil.h"
#include "model/tasks/taskrepository.h"

TaskImporter::TaskImporter(const Store &store, const QTimeZone &tz)
    : m_store(store)
    , m_tz(tz)
{
}

const QVector<CsvImport::Field> &TaskImporter::fields()
{
    static const QVector<CsvImport::Field> list = {
        {QStringLiteral("title"),
         {QStringLiteral("Task"), QStringLiteral("Subject"), QStringLiteral("Görev"), QStringLiteral("Başlık"),
          QStringLiteral("Konu")}},
        {QStringLiteral("type"), {QStringLiteral("Tür"), QStringLiteral("Tip")}},
        {QStringLiteral("priority"), {QStringLiteral("Öncelik")}},
        {QStringLiteral("status"), {QStringLiteral("Durum")}},
        {QStringLiteral("dueDate"),
         {QStringLiteral("Due"), QStringLiteral("Due date"), QStringLiteral("Son tarih"), QStringLiteral("Tarih"),
          QStringLiteral("Bitiş tarihi")}},
        {QStringLiteral("contactEmail"),
         {QStringLiteral("Contact email"), QStringLiteral("Contact e-mail"), QStringLiteral("E-mail"),
          QStringLiteral("E-posta"), QStringLiteral("Kişi e-posta"), QStringLiteral("Müşteri e-posta")}},
        {QStringLiteral("description"),
         {QStringLiteral("Notes"), QStringLiteral("Açıklama"), QStringLiteral("Not"), QStringLiteral("Notlar")}},
    };
    return list;
}

QJsonObject TaskImporter::rowBody(const QStringList &row, const CsvImport::Mapping &mapping) const
{
    using CsvImport::cell;
    QJsonObject body;
    const QString title = cell(row, mapping, QStringLiteral("title"));
    if (title.isEmpty())
        throw DomainError::missingFields({{QStringLiteral("title"), DomainError::isRequired()}});
    body.insert(QStringLiteral("title"), title);
    static const QList<QPair<QString, QStringList>> types = {
        {QStringLiteral("task"), {QStringLiteral("Görev")}},
        {QStringLiteral("call"), {QStringLiteral("Arama"), QStringLiteral("Telefon")}},
        {QStringLiteral("meeting"), {QStringLiteral("Toplantı")}},
        {QStringLiteral("email"), {QStringLiteral("E-posta"), QStringLiteral("E-mail")}},
        {QStringLiteral("followup"), {QStringLiteral("Follow-up"), QStringLiteral("Takip")}}};
    static const QList<QPair<QString, QStringList>> priorities = {
        {QStringLiteral("low"), {QStringLiteral("Düşük")}},
        {QStringLiteral("medium"), {QStringLiteral("Orta"), QStringLiteral("Normal")}},
        {QStringLiteral("high"), {QStringLiteral("Yüksek")}},
        {QStringLiteral("urgent"), {QStringLiteral("Acil")}}};
    static const QList<QPair<QString, QStringList>> statuses = {
        {QStringLiteral("pending"), {QStringLiteral("To do"), QStringLiteral("Yapılacak"), QStringLiteral("Bekliyor")}},
        {QStringLiteral("in_progress"), {QStringLiteral("In progress"), QStringLiteral("Devam ediyor")}},
        {QStringLiteral("completed"),
         {QStringLiteral("Done"), QStringLiteral("Tamamlandı"), QStringLiteral("Yapıldı")}},
        {QStringLiteral("cancelled"), {QStringLiteral("İptal"), QStringLiteral("İptal edildi")}}};
    for (const auto &[field, choices] :
         {std::pair{QStringLiteral("type"), &types}, std::pair{QStringLiteral("priority"), &priorities},
          std::pair{QStringLiteral("status"), &statuses}}) {
        if (const QString v = cell(row, mapping, field); !v.isEmpty())
            body.insert(field, CsvImport::choiceKey(v, *choices));
    }
    if (const QString due = cell(row, mapping, QStringLiteral("dueDate")); !due.isEmpty()) {
        QTime time;
        const QDate day = CsvImport::readDate(due, &time);
        if (!day.isValid())
            body.insert(QStringLiteral("dueDate"), due); // an ISO date-time, or the rule's own refusal
        else if (time.isValid())
            body.insert(QStringLiteral("dueDate"), TimeUtil::iso(QDateTime(day, time, m_tz).toUTC()));
        else
            body.insert(QStringLiteral("dueDate"), day.toString(Qt::ISODate));
    }
    if (const QString email = cell(row, mapping, QStringLiteral("contactEmail")); !email.isEmpty()) {
        const std::optional<Contact> c = ContactRepository(m_store).findByEmail(email);
        if (!c)
            throw DomainError::unprocessable(
                ModelText(QT_TRANSLATE_NOOP("ModelError", "No contact has the e-mail %1"), {email}),
                {{QStringLiteral("contactEmail"), ModelText(QT_TRANSLATE_NOOP("ModelError", "names no contact"))}});
        body.insert(QStringLiteral("contactId"), c->id);
    }
    if (const QString d = cell(row, mapping, QStringLiteral("description")); !d.isEmpty())
        body.insert(QStringLiteral("description"), d);
    TaskRules::parse(body); // the create's own checks of the values
    return body;
}

CsvImport::Report TaskImporter::run(const Csv::Table &table, const CsvImport::Mapping &mapping,
                                    CsvImport::Duplicates duplicates,
                                    const std::function<bool(const CsvImport::Report &)> &progress,
                                    const QString &actor)
{
    TaskRepository tasks(m_store);
    return CsvImport::runRows(
        table,
        [&](int i) {
            const QJsonObject body = rowBody(table.rows.at(i), mapping);
            // The same task: the same title folded, due date and contact (or none).
            const QString title = body.value(QLatin1String("title")).toString();
            const QString existing = CsvImport::firstFoldedMatch(
                QStringLiteral("SELECT id, title FROM tasks WHERE coalesce(due_date, '') = coalesce(?, '') AND "
                               "coalesce(contact_id, '') = coalesce(?, '') ORDER BY seq"),
                {body.value(QLatin1String("dueDate")).toString(), body.value(QLatin1String("contactId")).toString()},
                title);
            if (!existing.isEmpty() && duplicates == CsvImport::Duplicates::Skip)
                return CsvImport::skippedDuplicate(
                    existing, QStringLiteral("title"),
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "A task titled %1 already exists (%2)"),
                              {title, existing}));
            if (!existing.isEmpty() && duplicates == CsvImport::Duplicates::Update)
                return CsvImport::updatedOrUnchanged(
                    existing, tasks.update(existing, TaskRules::parse(body), actor).changed,
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "Unchanged: the same as task %1"), {existing}));
            CsvImport::RowResult r;
            r.id = tasks.create(TaskRules::parse(body), actor).id;
            r.outcome = CsvImport::RowResult::Created;
            return r;
        },
        progress);
}
