#include "server/controllers/importscontroller.h"

#include "messaging/media/mediaservice.h"
#include "model/contacts/contactimporter.h"
#include "model/core/csv.h"
#include "model/core/csvimport.h"
#include "model/core/errors.h"
#include "server/api/importrunner.h"
#include "server/api/schemas.h"
#include "server/api/uploadform.h"

#include <QJsonDocument>

#include <memory>

using namespace Schema;

namespace {

// The form's text parts, each optional: mapping (a JSON object), duplicates, encoding, separator.
struct ImportForm
{
    QJsonObject mapping;
    bool mappingGiven = false;
    CsvImport::Duplicates duplicates = CsvImport::Duplicates::Skip;
    Csv::Encoding encoding = Csv::Encoding::Auto;
    QChar separator;
};

ImportForm importFormOf(const MultipartForm &form)
{
    const QJsonObject fields = UploadForm::fields(form, {{QStringLiteral("mapping"), 65536},
                                                         {QStringLiteral("duplicates"), 16},
                                                         {QStringLiteral("encoding"), 32},
                                                         {QStringLiteral("separator"), 8}});
    ImportForm f;
    FieldProblems problems;
    const QString mapping = fields.value(QLatin1String("mapping")).toString();
    if (!mapping.isEmpty()) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(mapping.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            problems.insert(QStringLiteral("mapping"),
                            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a JSON object of column → field")));
        f.mapping = doc.object();
        f.mappingGiven = true;
    }
    if (fields.contains(QLatin1String("duplicates"))) {
        const std::optional<CsvImport::Duplicates> d =
            CsvImport::duplicatesFrom(fields.value(QLatin1String("duplicates")).toString().toLower());
        if (d)
            f.duplicates = *d;
        else
            problems.insert(QStringLiteral("duplicates"),
                            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of %1"),
                                      {QStringLiteral("skip, update, create")}));
    }
    if (fields.contains(QLatin1String("encoding"))) {
        const std::optional<Csv::Encoding> e =
            Csv::encodingFromName(fields.value(QLatin1String("encoding")).toString());
        if (e)
            f.encoding = *e;
        else
            problems.insert(QStringLiteral("encoding"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of %1"),
                                                                  {QStringLiteral("auto, utf-8, windows-1254")}));
    }
    if (fields.contains(QLatin1String("separator"))) {
        const QString s = fields.value(QLatin1String("separator")).toString();
        if (s == QLatin1String(",") || s == QLatin1String(";"))
            f.separator = s.at(0);
        else if (s == QLatin1String("tab") || s == QLatin1String("\t"))
            f.separator = QLatin1Char('\t');
        else if (!s.isEmpty() && s != QLatin1String("auto"))
            problems.insert(QStringLiteral("separator"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of %1"),
                                                                   {QStringLiteral(", ; tab auto")}));
    }
    if (!problems.isEmpty())
        throw DomainError::invalid(problems);
    return f;
}

// A mapping that can fill no row is refused before the job starts: a name and an e-mail or phone.
void checkContactMapping(const CsvImport::Mapping &mapping)
{
    const bool name = mapping.contains(QStringLiteral("name")) || mapping.contains(QStringLiteral("firstName")) ||
                      mapping.contains(QStringLiteral("lastName"));
    const bool reach = mapping.contains(QStringLiteral("email")) || mapping.contains(QStringLiteral("phone"));
    if (!name || !reach)
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP(
                "ModelError", "The mapping must fill a name (name, firstName or lastName) and an e-mail or phone")),
            {{QStringLiteral("mapping"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "fills no name or no e-mail or phone column"))}});
}

} // namespace

ImportsController::ImportsController(const Store &store, std::shared_ptr<ImportRunner> runner,
                                     std::shared_ptr<MediaService> media)
    : m_store(store)
    , m_jobs(store)
    , m_runner(std::move(runner))
    , m_media(std::move(media))
{
}

QJsonObject ImportsController::schemas() const
{
    const QJsonObject row = object({{QStringLiteral("line"), integer(2)},
                                    {QStringLiteral("outcome"), string()},
                                    {QStringLiteral("id"), string()},
                                    {QStringLiteral("field"), string()},
                                    {QStringLiteral("code"), string()},
                                    {QStringLiteral("reason"), string()}});
    const QJsonObject job = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("type"), string()},
        {QStringLiteral("status"), string()},
        {QStringLiteral("fileName"), nullable(string())},
        {QStringLiteral("duplicates"), string()},
        {QStringLiteral("mapping"), object({})},
        {QStringLiteral("progress"), object({{QStringLiteral("processed"), integer(0)},
                                             {QStringLiteral("total"), integer(0)},
                                             {QStringLiteral("percent"), integer(0, 100)}})},
        {QStringLiteral("counts"), object({{QStringLiteral("created"), integer(0)},
                                           {QStringLiteral("updated"), integer(0)},
                                           {QStringLiteral("skipped"), integer(0)},
                                           {QStringLiteral("failed"), integer(0)}})},
        {QStringLiteral("cancelRequested"), boolean()},
        {QStringLiteral("error"), nullable(string())},
        {QStringLiteral("createdBy"), nullable(string())},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("finishedAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("report"), array(ref(QStringLiteral("ImportRow")))},
    });
    return {{QStringLiteral("ImportJob"), job}, {QStringLiteral("ImportRow"), row}};
}

void ImportsController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Imports");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("contacts:read"));
    const Access write = Access::scoped(QStringLiteral("contacts:write"));
    const QJsonObject job = envelope(ref(QStringLiteral("ImportJob")));

    // POST /api/v1/contacts/import
    RouteDoc importDoc{tag,
                       QStringLiteral("Import contacts from a CSV file as a job (202)"),
                       object({{QStringLiteral("file"), string(QStringLiteral("binary"))},
                               {QStringLiteral("mapping"), string()},
                               {QStringLiteral("duplicates"), string()},
                               {QStringLiteral("encoding"), string()},
                               {QStringLiteral("separator"), string()}},
                              {QStringLiteral("file")}),
                       job,
                       {},
                       {400, 401, 403, 413, 422, 429},
                       202};
    importDoc.requestContentType = QStringLiteral("multipart/form-data");
    importDoc.description = QStringLiteral("Multipart: file, and optionally mapping (JSON), duplicates "
                                           "(skip|update|create), encoding and separator; answers 202 with the job.");
    router.add("POST", QStringLiteral("/api/v1/contacts/import"), "importContacts",
               bind(&ImportsController::importContacts), write, importDoc);
    // GET /api/v1/imports/:id
    router.add("GET", QStringLiteral("/api/v1/imports/:id"), "getImport", bind(&ImportsController::get), read,
               {tag,
                QStringLiteral("An import's status, progress, counts and per-row report"),
                {},
                job,
                {},
                {401, 403, 404, 429}});
    // POST /api/v1/imports/:id/cancel
    router.add("POST", QStringLiteral("/api/v1/imports/:id/cancel"), "cancelImport", bind(&ImportsController::cancel),
               write,
               {tag,
                QStringLiteral("Stop an import after its current batch (the batches written stay)"),
                {},
                job,
                {},
                {401, 403, 404, 429}});
}

ApiResponse ImportsController::importContacts(ApiRequest &request)
{
    const MultipartForm form = UploadForm::read(request, m_media->config());
    const MultipartPart &part = UploadForm::file(form, *m_media);
    const ImportForm f = importFormOf(form);
    auto table = std::make_shared<Csv::Table>(Csv::read(part.body.toByteArray(), f.encoding, f.separator));
    const CsvImport::Mapping mapping = f.mappingGiven
                                           ? CsvImport::fromJson(f.mapping, table->header, ContactImporter::fields())
                                           : CsvImport::autoMatch(table->header, ContactImporter::fields());
    checkContactMapping(mapping);
    const QJsonObject mappingJson = CsvImport::toJson(mapping, table->header);
    const ImportJob job = m_jobs.create(QStringLiteral("contacts"), part.filename.section(QLatin1Char('/'), -1),
                                        f.duplicates, mappingJson, int(table->rows.size()), request.principal.id);
    m_runner->submit([store = m_store, runner = m_runner.get(), table, mapping, duplicates = f.duplicates, id = job.id,
                      actor = request.principal.id] {
        ImportJobRepository jobs(store);
        try {
            if (runner->stopping()) {
                jobs.fail(id, QStringLiteral("Liaison stopped before the import started"));
                return;
            }
            jobs.start(id);
            const CsvImport::Report report = ContactImporter(store).run(
                *table, mapping, duplicates,
                [&](const CsvImport::Report &soFar) { return !jobs.progress(id, soFar) && !runner->stopping(); }, id,
                actor);
            jobs.finish(id, report);
        } catch (const std::exception &e) {
            qWarning("import %s failed: %s", qPrintable(id), e.what());
            try {
                jobs.fail(id, QString::fromUtf8(e.what()));
            } catch (const std::exception &) {
                // the database itself is gone: the job stays as last written
            }
        }
    });
    ApiResponse r = ApiResponse::ok(job.toJson(false), QStringLiteral("Import started"));
    r.status = 202;
    r.headers.emplaceBack("Location", "/api/v1/imports/" + job.id.toUtf8());
    return r;
}

ApiResponse ImportsController::get(ApiRequest &request)
{
    return ApiResponse::ok(m_jobs.get(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse ImportsController::cancel(ApiRequest &request)
{
    const ImportJob job = m_jobs.requestCancel(request.param(QStringLiteral("id")));
    return ApiResponse::ok(job.toJson(false), QStringLiteral("Cancel requested"));
}
