// CSV import and export of contacts: a Turkish file of N rows (default 100,000; Windows-1254 when
// the second argument is "1254", else UTF-8 with a byte order mark) read, mapped by its headers and
// imported in batches (ContactImporter, the duplicate policy "skip"), then the contacts exported
// again (ContactExport). Prints the rows/s of each step; the target is the import of
// 100,000 rows in under 20 s on a 2-core machine.
// Usage: bench_import [rows] [utf8|1254]
#include "model/contacts/contactexport.h"
#include "model/contacts/contactimporter.h"
#include "model/core/csv.h"
#include "model/core/csvimport.h"
#include "model/core/database.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/modelsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringEncoder>

#include <cstdio>
#include <ctime>

namespace {
QByteArray turkishCsv(int rows, bool windows1254)
{
    static const char16_t *firsts[] = {u"Ayşe", u"Mehmet", u"Çağla", u"İsmail", u"Gülşen", u"Oğuz", u"Şule", u"Ümit"};
    static const char16_t *lasts[] = {u"Yılmaz", u"Kaya", u"Demir", u"Şahin", u"Çelik", u"Öztürk", u"Aydın", u"Doğan"};
    static const char16_t *cities[] = {u"İstanbul", u"Ankara", u"İzmir", u"Bursa", u"Eskişehir", u"Muğla"};
    QString text = QStringLiteral("Ad Soyad;E-posta;Telefon;Şirket;Ünvan;Şehir;Etiketler;Sektör\r\n");
    for (int i = 0; i < rows; ++i) {
        text += QStringLiteral("%1 %2;%3.%4@ornek.com.tr;0532 %5;%6 Ltd. Şti.;Satın Alma Müdürü;%7;müşteri, %8;%9\r\n")
                    .arg(QString::fromUtf16(firsts[i % 8]), QString::fromUtf16(lasts[(i / 8) % 8]))
                    .arg(i % 8)
                    .arg(i)
                    .arg(i, 7, 10, QLatin1Char('0'))
                    .arg(QString::fromUtf16(lasts[(i / 3) % 8]), QString::fromUtf16(cities[i % 6]))
                    .arg(i % 2 ? QStringLiteral("bayi") : QStringLiteral("perakende"))
                    .arg(i % 3 ? QStringLiteral("Tekstil") : QStringLiteral("Gıda"));
    }
    if (!windows1254)
        return QByteArray("\xEF\xBB\xBF") + text.toUtf8();
    QByteArray out;
    out.reserve(text.size());
    for (QChar c : std::as_const(text)) {
        switch (c.unicode()) {
        case 0x011E:
            out += '\xD0';
            break;
        case 0x0130:
            out += '\xDD';
            break;
        case 0x015E:
            out += '\xDE';
            break;
        case 0x011F:
            out += '\xF0';
            break;
        case 0x0131:
            out += '\xFD';
            break;
        case 0x015F:
            out += '\xFE';
            break;
        default:
            out += char(c.unicode() < 0x100 ? c.unicode() : '?');
        }
    }
    return out;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int rows = argc > 1 ? qMax(10, atoi(argv[1])) : 100000;
    const bool windows1254 = argc > 2 && QByteArray(argv[2]) == "1254";
    TempDatabase db;
    ContactRules::setDefaultCallingCode(QStringLiteral("90"));
    const QByteArray file = turkishCsv(rows, windows1254);
    std::printf("file: %d rows, %.1f MB, %s\n", rows, file.size() / 1e6, windows1254 ? "Windows-1254" : "UTF-8 BOM");

    QElapsedTimer t;
    t.start();
    const Csv::Table table = Csv::read(file);
    const double readMs = ms(t);
    const CsvImport::Mapping mapping =
        CsvImport::fromJson(QJsonObject{{QStringLiteral("Sektör"), QStringLiteral("customFields.sektor")}},
                            table.header, ContactImporter::fields());
    std::printf("read (decode, parse): %.0f ms, %.0f rows/s\n", readMs, rows / (readMs / 1000));

    t.restart();
    const std::clock_t cpu = std::clock();
    int batches = 0;
    const CsvImport::Report report =
        ContactImporter(testStore()).run(table, mapping, CsvImport::Duplicates::Skip, [&](const CsvImport::Report &) {
            ++batches;
            return true;
        });
    const double importMs = ms(t);
    const double importCpu = double(std::clock() - cpu) / CLOCKS_PER_SEC;
    // The machine may be shared: the CPU time says what the import itself cost.
    std::printf("import: %d created, %d skipped, %d failed in %d batches: %.2f s (CPU %.2f s), %.0f rows/s\n",
                report.created, report.skipped, report.failed, batches, importMs / 1000, importCpu,
                rows / (importMs / 1000));

    t.restart();
    const CsvImport::Report again = ContactImporter(testStore()).run(table, mapping, CsvImport::Duplicates::Update);
    const double updateMs = ms(t);
    std::printf("import again, policy update: %d updated, %d unchanged: %.2f s, %.0f rows/s\n", again.updated,
                again.skipped, updateMs / 1000, rows / (updateMs / 1000));

    t.restart();
    ContactExport exporter(testStore(), ContactQuery());
    qint64 bytes = 0;
    while (!exporter.atEnd())
        bytes += exporter.next().size();
    const double exportMs = ms(t);
    std::printf("export: %lld contacts, %.1f MB: %.2f s, %.0f rows/s\n", exporter.total(), bytes / 1e6, exportMs / 1000,
                exporter.total() / (exportMs / 1000));

    t.restart();
    const QByteArray reportCsv = report.toCsv();
    std::printf("report as CSV: %.1f MB in %.0f ms\n", reportCsv.size() / 1e6, ms(t));
    return importMs < 20000 ? 0 : 1;
}
