#include "model/deals/dealimporter.h"

#include "model/contacts/contactrepository.h"
#include "model/core/amounttext.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"

DealImporter::DealImporter(const Store &store)
    : m_store(store)
{
}

const QVector<CsvImport::Field> &DealImporter::fields()
{
    static const QVector<CsvImport::Field> list = {
        {QStringLiteral("name"),
         {QStringLiteral("Deal"), QStringLiteral("Deal name"), QStringLiteral("Title"), QStringLiteral("Fırsat"),
          QStringLiteral("Fırsat adı"), QStringLiteral("Başlık"), QStringLiteral("Ad")}},
        {QStringLiteral("value"),
         {QStringLiteral("Amount"), QStringLiteral("Tutar"), QStringLiteral("Değer"), QStringLiteral("Fiyat")}},
        {QStringLiteral("currency"), {QStringLiteral("Para birimi"), QStringLiteral("Döviz")}},
        {QStringLiteral("stage"), {QStringLiteral("Aşama"), QStringLiteral("Durum")}},
        {QStringLiteral("probability"), {QStringLiteral("Olasılık"), QStringLiteral("Yüzde")}},
        {QStringLiteral("expectedCloseDate"),
         {QStringLiteral("Close date"), QStringLiteral("Expected close"), QStringLiteral("Kapanış tarihi"),
          QStringLiteral("Tahmini kapanış"), QStringLiteral("Tahmini kapanış tarihi")}},
        {QStringLiteral("contactEmail"),
         {QStringLiteral("Contact email"), QStringLiteral("Contact e-mail"), QStringLiteral("E-mail"),
          QStringLiteral("E-posta"), QStringLiteral("Kişi e-posta"), QStringLiteral("Müşteri e-posta")}},
        {QStringLiteral("description"),
         {QStringLiteral("Notes"), QStringLiteral("Açıklama"), QStringLiteral("Not"), QStringLiteral("Notlar")}},
    };
    return list;
}

QJsonObject DealImporter::rowBody(const QStringList &row, const CsvImport::Mapping &mapping,
                                  const QString &pipelineId) const
{
    using CsvImport::cell;
    QJsonObject body;
    const QString name = cell(row, mapping, QStringLiteral("name"));
    if (name.isEmpty())
        throw DomainError::missingFields({{QStringLiteral("name"), DomainError::isRequired()}});
    body.insert(QStringLiteral("name"), name);
    const Pipeline pipeline = pipelineId.isEmpty() ? PipelineRepository(m_store).defaultPipeline()
                                                   : PipelineRepository(m_store).get(pipelineId);
    body.insert(QStringLiteral("pipelineId"), pipeline.id);
    if (const QString value = cell(row, mapping, QStringLiteral("value")); !value.isEmpty()) {
        // As the window reads amounts, else as a Turkish or an English spreadsheet writes them.
        AmountText::Reading r = AmountText::read(value);
        for (const QLocale &locale : {QLocale(QLocale::Turkish, QLocale::Turkey), QLocale::c()}) {
            if (!r.ok())
                r = AmountText::read(value, locale);
        }
        body.insert(QStringLiteral("value"), r.ok() ? QJsonValue(r.value) : QJsonValue(value));
    }
    if (const QString currency = cell(row, mapping, QStringLiteral("currency")); !currency.isEmpty())
        body.insert(QStringLiteral("currency"),
                    currency == QLatin1String("TL") ? QStringLiteral("TRY") : currency.toUpper());
    if (const QString stage = cell(row, mapping, QStringLiteral("stage")); !stage.isEmpty()) {
        // By its key, its name, or the Turkish name the window shows for the default stages.
        static const QList<QPair<QString, QStringList>> defaultNames = {
            {QStringLiteral("lead"), {QStringLiteral("Aday")}},
            {QStringLiteral("contact"), {QStringLiteral("İletişim kuruldu"), QStringLiteral("İletişim")}},
            {QStringLiteral("proposal"), {QStringLiteral("Teklif")}},
            {QStringLiteral("negotiation"), {QStringLiteral("Pazarlık"), QStringLiteral("Müzakere")}},
            {QStringLiteral("won"), {QStringLiteral("Kazanıldı"), QStringLiteral("Kazanılan")}},
            {QStringLiteral("lost"), {QStringLiteral("Kaybedildi"), QStringLiteral("Kaybedilen")}}};
        QString key;
        const QString named = CsvImport::choiceKey(stage, defaultNames);
        for (const PipelineStage &s : pipeline.stages) {
            if (key.isEmpty() &&
                (CsvImport::key(s.key) == CsvImport::key(named) || CsvImport::key(s.name) == CsvImport::key(stage)))
                key = s.key;
        }
        if (key.isEmpty()) // the repository's refusal, said before the row is written (the preview shows it)
            throw DomainError::unprocessable(
                ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of the stages of pipeline %1: %2"),
                          {pipeline.name, pipeline.stageKeys().join(QStringLiteral(", "))}),
                {{QStringLiteral("stage"),
                  ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of the stages of pipeline %1: %2"),
                            {pipeline.name, pipeline.stageKeys().join(QStringLiteral(", "))})}});
        body.insert(QStringLiteral("stage"), key);
    }
    if (const QString p = cell(row, mapping, QStringLiteral("probability")); !p.isEmpty()) {
        bool ok = false;
        const int n = QString(p).remove(QLatin1Char('%')).trimmed().toInt(&ok);
        body.insert(QStringLiteral("probability"), ok ? QJsonValue(n) : QJsonValue(p));
    }
    if (const QString d = cell(row, mapping, QStringLiteral("expectedCloseDate")); !d.isEmpty()) {
        const QDate date = CsvImport::readDate(d);
        body.insert(QStringLiteral("expectedCloseDate"), date.isValid() ? date.toString(Qt::ISODate) : d);
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
    if (const QJsonObject custom = CsvImport::customFields(row, mapping); !custom.isEmpty())
        body.insert(QStringLiteral("customFields"), custom);
    DealRules::parse(body); // the create's own checks of the values
    return body;
}

CsvImport::Report DealImporter::run(const Csv::Table &table, const CsvImport::Mapping &mapping,
                                    CsvImport::Duplicates duplicates,
                                    const std::function<bool(const CsvImport::Report &)> &progress,
                                    const QString &actor, const QString &pipelineId)
{
    DealRepository deals(m_store);
    return CsvImport::runRows(
        table,
        [&](int i) {
            const QJsonObject body = rowBody(table.rows.at(i), mapping, pipelineId);
            // The same deal: this pipeline, the same name folded, the same contact (or none).
            const QString name = body.value(QLatin1String("name")).toString();
            const QString existing = CsvImport::firstFoldedMatch(
                QStringLiteral("SELECT id, name FROM deals WHERE pipeline_id = ? AND "
                               "coalesce(contact_id, '') = coalesce(?, '') ORDER BY seq"),
                {body.value(QLatin1String("pipelineId")).toString(), body.value(QLatin1String("contactId")).toString()},
                name);
            if (!existing.isEmpty() && duplicates == CsvImport::Duplicates::Skip)
                return CsvImport::skippedDuplicate(
                    existing, QStringLiteral("name"),
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "A deal named %1 already exists (%2)"),
                              {name, existing}));
            if (!existing.isEmpty() && duplicates == CsvImport::Duplicates::Update) {
                // Changed or not, by the deal's fields (two writes may fall in one millisecond).
                auto fields = [](const Deal &d) {
                    QJsonObject o = d.toJson();
                    o.remove(QStringLiteral("updatedAt"));
                    o.remove(QStringLiteral("lastActivityAt"));
                    return o;
                };
                const Deal before = deals.get(existing);
                const Deal after = deals.update(existing, DealRules::parse(body), actor);
                return CsvImport::updatedOrUnchanged(
                    existing, fields(after) != fields(before),
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "Unchanged: the same as deal %1"), {existing}));
            }
            CsvImport::RowResult r;
            r.id = deals.create(DealRules::parse(body), actor).id;
            r.outcome = CsvImport::RowResult::Created;
            return r;
        },
        progress);
}
