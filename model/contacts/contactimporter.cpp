#include "model/contacts/contactimporter.h"

#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace {

// The cells of a tags column: "vip; istanbul" or "vip, istanbul" or "vip|istanbul".
QStringList contactImportTags(const QString &cell)
{
    static const QRegularExpression separators(QStringLiteral("[;,|]"));
    QStringList tags = cell.split(separators, Qt::SkipEmptyParts);
    for (QString &t : tags)
        t = t.trimmed();
    return tags;
}

// A duplicate's refusal text, the one a create gives (translated already).
ModelText contactImportDuplicate(const Contact &row, const ContactRepository::Match &m)
{
    if (!m.byEmail.isEmpty())
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with e-mail %1 already exists"), {row.email});
    return ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with phone %1 already exists"), {row.phone});
}

// The row's values over a stored contact: what the row gives replaces, tags are added, address
// parts and custom fields merged key by key.
void contactImportMerge(Contact &c, const ContactChanges &ch)
{
    ContactChanges merged = ch;
    if (ch.tags) {
        QStringList tags = c.tags;
        tags << *ch.tags;
        merged.tags = ContactRules::normalizeTags(tags);
    }
    if (ch.address) {
        QJsonObject a = c.address;
        for (auto it = ch.address->begin(); it != ch.address->end(); ++it)
            a.insert(it.key(), it.value());
        merged.address = a;
    }
    if (ch.customFields) {
        QJsonObject f = c.customFields;
        for (auto it = ch.customFields->begin(); it != ch.customFields->end(); ++it)
            f.insert(it.key(), it.value());
        merged.customFields = f;
    }
    ContactRules::apply(c, merged);
}

} // namespace

ContactImporter::ContactImporter(const Store &store)
    : m_store(store)
{
}

const QVector<CsvImport::Field> &ContactImporter::fields()
{
    // Names compared by CsvImport::key (case, accents and punctuation ignored).
    static const QVector<CsvImport::Field> list = {
        {QStringLiteral("name"),
         {QStringLiteral("Full name"), QStringLiteral("Name"), QStringLiteral("Contact"),
          QStringLiteral("Contact name"), QStringLiteral("Ad Soyad"), QStringLiteral("Adı Soyadı"),
          QStringLiteral("İsim Soyisim"), QStringLiteral("İsim Soyad"), QStringLiteral("Kişi"),
          QStringLiteral("Müşteri"), QStringLiteral("Müşteri Adı")}},
        {QStringLiteral("firstName"),
         {QStringLiteral("First name"), QStringLiteral("Given name"), QStringLiteral("Forename"), QStringLiteral("Ad"),
          QStringLiteral("Adı"), QStringLiteral("İsim")}},
        {QStringLiteral("lastName"),
         {QStringLiteral("Last name"), QStringLiteral("Surname"), QStringLiteral("Family name"),
          QStringLiteral("Soyad"), QStringLiteral("Soyadı"), QStringLiteral("Soyisim")}},
        {QStringLiteral("email"),
         {QStringLiteral("E-mail"), QStringLiteral("Mail"), QStringLiteral("E-mail address"),
          QStringLiteral("Email address"), QStringLiteral("E-posta"), QStringLiteral("E-posta adresi"),
          QStringLiteral("Eposta")}},
        {QStringLiteral("phone"),
         {QStringLiteral("Phone number"), QStringLiteral("Telephone"), QStringLiteral("Mobile"),
          QStringLiteral("Mobile phone"), QStringLiteral("Cell"), QStringLiteral("Telefon"), QStringLiteral("Tel"),
          QStringLiteral("Telefon numarası"), QStringLiteral("Cep"), QStringLiteral("Cep telefonu"),
          QStringLiteral("GSM")}},
        {QStringLiteral("company"),
         {QStringLiteral("Organization"), QStringLiteral("Organisation"), QStringLiteral("Company name"),
          QStringLiteral("Şirket"), QStringLiteral("Şirket adı"), QStringLiteral("Firma"), QStringLiteral("Firma adı"),
          QStringLiteral("Kurum")}},
        {QStringLiteral("position"),
         {QStringLiteral("Title"), QStringLiteral("Job title"), QStringLiteral("Role"), QStringLiteral("Pozisyon"),
          QStringLiteral("Ünvan"), QStringLiteral("Unvan"), QStringLiteral("Görev")}},
        {QStringLiteral("source"), {QStringLiteral("Lead source"), QStringLiteral("Kaynak")}},
        {QStringLiteral("tags"),
         {QStringLiteral("Tag"), QStringLiteral("Labels"), QStringLiteral("Etiket"), QStringLiteral("Etiketler")}},
        {QStringLiteral("leadScore"),
         {QStringLiteral("Lead score"), QStringLiteral("Score"), QStringLiteral("Puan"), QStringLiteral("Skor")}},
        {QStringLiteral("address.street"),
         {QStringLiteral("Street"), QStringLiteral("Address"), QStringLiteral("Adres"), QStringLiteral("Sokak"),
          QStringLiteral("Cadde")}},
        {QStringLiteral("address.city"),
         {QStringLiteral("City"), QStringLiteral("Town"), QStringLiteral("Şehir"), QStringLiteral("İl")}},
        {QStringLiteral("address.country"), {QStringLiteral("Country"), QStringLiteral("Ülke")}},
    };
    return list;
}

ContactChanges ContactImporter::rowChanges(const QStringList &row, const CsvImport::Mapping &mapping)
{
    ContactChanges ch;
    QString fullName;
    QJsonObject address, custom;
    for (int i = 0; i < mapping.size() && i < row.size(); ++i) {
        const QString &field = mapping.at(i);
        const QString cell = row.at(i).trimmed();
        if (field.isEmpty() || cell.isEmpty())
            continue;
        if (field == QLatin1String("firstName"))
            ch.firstName = cell;
        else if (field == QLatin1String("lastName"))
            ch.lastName = cell;
        else if (field == QLatin1String("name"))
            fullName = cell.simplified();
        else if (field == QLatin1String("email"))
            ch.email = cell;
        else if (field == QLatin1String("phone"))
            ch.phone = cell;
        else if (field == QLatin1String("company"))
            ch.company = cell;
        else if (field == QLatin1String("position"))
            ch.position = cell;
        else if (field == QLatin1String("source"))
            ch.source = cell;
        else if (field == QLatin1String("tags"))
            ch.tags = contactImportTags(cell);
        else if (field == QLatin1String("leadScore")) {
            bool ok = false;
            const int score = cell.toInt(&ok);
            ch.leadScore = ok ? score : -1; // not a number: the rule's own refusal
        } else if (field.startsWith(QLatin1String("address.")))
            address.insert(field.mid(8), cell);
        else if (CsvImport::isCustomField(field))
            custom.insert(CsvImport::customFieldName(field), cell);
    }
    if (!fullName.isEmpty() && !ch.firstName && !ch.lastName) {
        const qsizetype space = fullName.lastIndexOf(QLatin1Char(' '));
        if (space < 0) {
            ch.firstName = fullName;
        } else {
            ch.firstName = fullName.left(space);
            ch.lastName = fullName.mid(space + 1);
        }
    }
    if (!address.isEmpty())
        ch.address = address;
    if (!custom.isEmpty())
        ch.customFields = custom;
    ContactRules::check(ch);
    Contact c;
    ContactRules::apply(c, ch);
    ContactRules::checkRequired(c);
    return ch;
}

CsvImport::Report ContactImporter::run(const Csv::Table &table, const CsvImport::Mapping &mapping,
                                       CsvImport::Duplicates duplicates,
                                       const std::function<bool(const CsvImport::Report &)> &progress,
                                       const QString &importId, const QString &actor)
{
    using CsvImport::RowResult;
    ContactRepository contacts(m_store);
    CsvImport::Report report;
    const int total = int(table.rows.size());
    report.rows = total;
    const QString by = m_store.actorOr(actor);
    for (int start = 0; start < total; start += CsvImport::kBatchRows) {
        const int end = qMin(total, start + CsvImport::kBatchRows);
        // The rows' checks need no database: done before the batch takes the write lock.
        QVector<std::optional<ContactChanges>> changes(end - start);
        QVector<RowResult> results(end - start);
        for (int i = start; i < end; ++i) {
            try {
                changes[i - start] = rowChanges(table.rows.at(i), mapping);
            } catch (const DomainError &e) {
                results[i - start] = CsvImport::failure(table.lines.value(i), e);
            }
        }
        // Another copy on the same PostgreSQL database may store one of these e-mails between our
        // check and our insert: the unique index refuses it, the batch rolls back, and the second
        // attempt sees that contact as a duplicate.
        for (int attempt = 0;; ++attempt) {
            QVector<RowResult> batch = results;
            try {
                Transaction tx;
                const QString now = m_store.nowIso();
                QJsonArray created, updated;
                for (int i = start; i < end; ++i) {
                    if (!changes.at(i - start))
                        continue;
                    RowResult &r = batch[i - start];
                    r.line = table.lines.value(i);
                    const ContactChanges &ch = *changes.at(i - start);
                    Contact row;
                    ContactRules::apply(row, ch);
                    const ContactRepository::Match m = contacts.matchOf(row.email, row.phone);
                    if (m.byEmail.isEmpty() && m.byPhone.isEmpty()) {
                        contacts.insertImported(row, now);
                        r.outcome = RowResult::Created;
                        r.id = row.id;
                        created.append(row.id);
                        continue;
                    }
                    const QString existing = !m.byEmail.isEmpty() ? m.byEmail : m.byPhone;
                    r.id = existing;
                    if (duplicates == CsvImport::Duplicates::Skip) {
                        r.outcome = RowResult::Skipped;
                        r.code = QStringLiteral("DUPLICATE");
                        r.field = !m.byEmail.isEmpty() ? QStringLiteral("email") : QStringLiteral("phone");
                        r.reason = contactImportDuplicate(row, m);
                        continue;
                    }
                    if (duplicates == CsvImport::Duplicates::Create ||
                        (!m.byEmail.isEmpty() && !m.byPhone.isEmpty() && m.byEmail != m.byPhone)) {
                        // Two contacts never share an e-mail or a phone; a row that would make one
                        // contact take another's phone is refused as update() refuses it.
                        r.outcome = RowResult::Failed;
                        r.code = QStringLiteral("DUPLICATE");
                        const bool phoneOfAnother = duplicates == CsvImport::Duplicates::Update;
                        r.field =
                            phoneOfAnother || m.byEmail.isEmpty() ? QStringLiteral("phone") : QStringLiteral("email");
                        r.reason =
                            phoneOfAnother
                                ? ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with phone %1 already exists"),
                                            {row.phone})
                                : contactImportDuplicate(row, m);
                        if (phoneOfAnother)
                            r.id = m.byPhone;
                        continue;
                    }
                    const Contact before = contacts.get(existing);
                    Contact c = before;
                    contactImportMerge(c, ch);
                    if (c.toJson() == before.toJson()) {
                        r.outcome = RowResult::Skipped;
                        r.code = QStringLiteral("UNCHANGED");
                        r.reason =
                            ModelText(QT_TRANSLATE_NOOP("ModelError", "Unchanged: the same as contact %1"), {existing});
                        continue;
                    }
                    // The merged contact may now carry an e-mail or phone of a third contact.
                    const ContactRepository::Match after = contacts.matchOf(c.email, c.phone);
                    if ((!after.byEmail.isEmpty() && after.byEmail != c.id) ||
                        (!after.byPhone.isEmpty() && after.byPhone != c.id)) {
                        const bool email = !after.byEmail.isEmpty() && after.byEmail != c.id;
                        r.outcome = RowResult::Failed;
                        r.code = QStringLiteral("DUPLICATE");
                        r.field = email ? QStringLiteral("email") : QStringLiteral("phone");
                        r.id = email ? after.byEmail : after.byPhone;
                        r.reason =
                            email
                                ? ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with e-mail %1 already exists"),
                                            {c.email})
                                : ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with phone %1 already exists"),
                                            {c.phone});
                        continue;
                    }
                    contacts.updateImported(before, c, now);
                    r.outcome = RowResult::Updated;
                    updated.append(c.id);
                }
                if (!created.isEmpty() || !updated.isEmpty()) {
                    QJsonObject data{{QStringLiteral("importId"), importId},
                                     {QStringLiteral("createdIds"), created},
                                     {QStringLiteral("updatedIds"), updated},
                                     {QStringLiteral("created"), created.size()},
                                     {QStringLiteral("updated"), updated.size()},
                                     {QStringLiteral("firstLine"), table.lines.value(start)},
                                     {QStringLiteral("lastLine"), table.lines.value(end - 1)}};
                    if (!by.isEmpty())
                        data.insert(QStringLiteral("importedBy"), by);
                    m_store.appendEvent(QStringLiteral("contacts.imported"), data);
                    m_store.notify(EventBus::Entity::Contact, QString(),
                                   created.isEmpty() ? EventBus::Change::Updated : EventBus::Change::Created);
                }
                tx.commit();
            } catch (const UniqueViolation &) {
                if (attempt < 2)
                    continue;
                throw;
            }
            for (RowResult &r : batch)
                report.add(std::move(r));
            break;
        }
        report.done = end;
        if (progress && !progress(report) && end < total) {
            report.cancelled = true;
            break;
        }
    }
    return report;
}
