// Fuzz target: the segment rule engine (model/contacts/segmentrules.cpp). The input is JSON: a filters group
// { logic, rules: [...] } as the rule builder sends it, or a request body { filters: {...} } as
// POST /api/v1/segments sends it. It goes the way SegmentRepository takes it:
// SegmentRules::validate(), then SegmentRules::compile() of the normalised filters (under a fixed
// clock), and the SQL condition runs against a real, migrated SQLite database holding a few contacts
// (ContactRepository::count and list, as countMatching and the member list do).
//
// DomainError (400) is the expected refusal of bad filters. Checked besides crashes and sanitizer
// reports: compile() accepts what validate() accepted; validate() is idempotent on its own output;
// the normalised filters stored as JSON and read back (as the segments table keeps them) compile to
// the same SQL and values; the SQL has one '?' per bound value; SQLite accepts the SQL (a
// DatabaseError is a bug: the compiled condition must always be valid); count and list agree.
//
// LIAISON_FUZZ_SEGMENT_SQL=0 in the environment skips the database part (parse and build only).
#include "tests/fuzz/fuzzsupport.h"
#include "tests/support/fakeclock.h"

#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrules.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/timeutil.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimeZone>

#include <cstdio>
#include <cstdlib>

namespace {
QTemporaryDir *g_dir = nullptr;
bool g_withDatabase = true;

void check(bool ok, const char *what)
{
    if (!ok)
        FuzzSupport::fail(what);
}

void cleanUp()
{
    Database::closeThreadConnection();
    delete g_dir; // removes the database
    g_dir = nullptr;
}

// The repository of the fuzz runs (its bus has no listener).
ContactRepository &contacts()
{
    static EventBus bus;
    static ContactRepository repository{Store(bus)};
    return repository;
}

void openDatabase()
{
    g_dir = new QTemporaryDir(QDir::tempPath() + QStringLiteral("/liaison-fuzz-segments-XXXXXX"));
    if (!g_dir->isValid())
        FuzzSupport::fail("no temporary directory for the database");
    std::atexit(cleanUp);
    Database::setPath(g_dir->filePath(QStringLiteral("liaison.db")));
    Database::migrate();
    // A few contacts, so that every condition is evaluated against rows (tags, custom fields, dates).
    contacts().insertBulk({
        QJsonObject{{"firstName", "Ayşe"},
                    {"lastName", "Yılmaz"},
                    {"email", "ayse@example.com"},
                    {"phone", "+90 532 123 45 67"},
                    {"tags", QJsonArray{"vip", "istanbul"}},
                    {"source", "web"},
                    {"leadScore", 80},
                    {"customFields", QJsonObject{{"sektor", "perakende"}, {"calisan", 120}, {"aktif", true}}}},
        QJsonObject{{"firstName", "Çağrı"},
                    {"lastName", "Öztürk"},
                    {"email", "cagri@example.org"},
                    {"tags", QJsonArray{"İzmir"}},
                    {"source", "whatsapp"},
                    {"leadScore", 15},
                    {"customFields", QJsonObject{{"sektor", "lojistik"}, {"calisan", 8.5}, {"bos", QJsonValue()}}}},
        QJsonObject{{"firstName", "Şule"}, {"phone", "+49 30 1234567"}, {"source", "telegram"}},
        QJsonObject{{"lastName", "Güneş"}, {"email", "gunes@example.net"}, {"leadScore", 100}},
    });
}

// The compiled SQL binds every value: its text holds one '?' per value and no value inline.
void checkSql(const SegmentRules::Sql &sql)
{
    check(!sql.where.isEmpty(), "an accepted filter compiles to no SQL");
    check(sql.where.count(QLatin1Char('?')) == sql.values.size(), "the SQL's placeholders and values differ in number");
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv)
{
    FuzzSupport::initApplication(*argv);
    g_withDatabase = qEnvironmentVariable("LIAISON_FUZZ_SEGMENT_SQL") != QLatin1String("0");
    if (g_withDatabase)
        openDatabase();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return 0;
    QJsonValue filters;
    if (doc.isObject()) {
        const QJsonObject o = doc.object();
        filters = o.contains(QLatin1String("filters")) && !o.contains(QLatin1String("rules"))
                      ? o.value(QLatin1String("filters"))
                      : QJsonValue(o);
    } else if (doc.isArray()) {
        filters = doc.array();
    }

    QJsonObject normalized;
    try {
        normalized = SegmentRules::validate(filters);
    } catch (const DomainError &e) {
        check(e.kind() == DomainError::BadRequest, "bad filters refused with another status than 400");
        check(!e.message().isEmpty() && !e.details().isEmpty(), "a refusal without message or details");
        return 0;
    }

    const FakeClock clock(QDateTime(QDate(2026, 1, 15), QTime(12, 0), QTimeZone::utc()));
    SegmentRules::Sql sql;
    try {
        check(SegmentRules::validate(normalized) == normalized, "validate() is not idempotent");
        sql = SegmentRules::compile(normalized, clock);
        // Stored as the segments table stores them, and read back.
        const QJsonObject stored =
            QJsonDocument::fromJson(QJsonDocument(normalized).toJson(QJsonDocument::Compact)).object();
        const SegmentRules::Sql again = SegmentRules::compile(stored, clock);
        check(again.where == sql.where && again.values == sql.values,
              "the stored filters compile to other SQL than the accepted ones");
    } catch (const DomainError &e) {
        std::fprintf(stderr, "refused after validate(): %s\n", qPrintable(e.message()));
        FuzzSupport::fail("compile() or a second validate() refuses what validate() accepted");
    }
    checkSql(sql);

    if (!g_withDatabase)
        return 0;
    ContactQuery q;
    q.limit = 100;
    q.extraWhere = sql.where;
    q.extraValues = sql.values;
    try {
        const qint64 count = contacts().count(q);
        const ContactPage page = contacts().list(q);
        check(count >= 0 && count <= 4, "a count outside the 4 contacts");
        check(page.items.size() == count, "count and list disagree");
    } catch (const DatabaseError &e) {
        std::fprintf(stderr, "SQLite refused the compiled condition: %s\nWHERE %s\n", e.what(), qPrintable(sql.where));
        FuzzSupport::fail("the compiled SQL fails in SQLite");
    }
    return 0;
}
