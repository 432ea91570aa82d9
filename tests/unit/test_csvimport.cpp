// CSV imports: reading a file in its encoding and separator, the column mapping's auto-match in
// English and Turkish, each row held to a create's rules, duplicates by e-mail and phone under the
// three policies, batches and cancel, the report, and the job that records it.
#include "model/contacts/contactimporter.h"
#include "model/contacts/contactrepository.h"
#include "model/core/csv.h"
#include "model/core/csvimport.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/importjobrepository.h"
#include "model/deals/dealimporter.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskimporter.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QtTest>

namespace {
int importOutboxCount()
{
    QSqlQuery q = Database::exec("SELECT count(*) FROM outbox WHERE event = 'contacts.imported'");
    q.next();
    return q.value(0).toInt();
}

int contactCount()
{
    QSqlQuery q = Database::exec("SELECT count(*) FROM contacts");
    q.next();
    return q.value(0).toInt();
}

Csv::Table table(const QString &text)
{
    return Csv::read(text.toUtf8());
}

CsvImport::Report importText(const QString &text, CsvImport::Duplicates d = CsvImport::Duplicates::Skip)
{
    const Csv::Table t = table(text);
    return ContactImporter(testStore()).run(t, CsvImport::autoMatch(t.header, ContactImporter::fields()), d);
}
} // namespace

class TestCsvImport : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;

private Q_SLOTS:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void readsEncodingsAndSeparators_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("encoding");
        QTest::addColumn<QChar>("separator");
        const QString text = QStringLiteral("Ad Soyad;Şirket\r\nİpek Işık;Ağaç Ltd\r\n");
        QTest::newRow("utf-8") << text.toUtf8() << int(Csv::Encoding::Utf8) << QChar(';');
        QTest::newRow("utf-8 bom") << QByteArray("\xEF\xBB\xBF") + text.toUtf8() << int(Csv::Encoding::Utf8)
                                   << QChar(';');
        // The same text as a Turkish Excel saves it.
        QTest::newRow("windows-1254") << QByteArray("Ad Soyad;\xDEirket\r\n\xDDpek I\xFE\xFDk;A\xF0\x61\xE7 Ltd\r\n")
                                      << int(Csv::Encoding::Windows1254) << QChar(';');
        QTest::newRow("tab") << QStringLiteral("Ad Soyad\tŞirket\nİpek Işık\tAğaç Ltd\n").toUtf8()
                             << int(Csv::Encoding::Utf8) << QChar('\t');
    }
    void readsEncodingsAndSeparators()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, encoding);
        QFETCH(QChar, separator);
        const Csv::Table t = Csv::read(bytes);
        QCOMPARE(int(t.encoding), encoding);
        QCOMPARE(t.separator, separator);
        QCOMPARE(t.header, (QStringList{QStringLiteral("Ad Soyad"), QStringLiteral("Şirket")}));
        QCOMPARE(t.rows.size(), 1);
        QCOMPARE(t.rows.first(), (QStringList{QStringLiteral("İpek Işık"), QStringLiteral("Ağaç Ltd")}));
        QCOMPARE(t.lines.first(), 2);
    }

    void readsWithAnEncodingForced()
    {
        // Valid UTF-8 read as Windows-1254 on request: the user's override wins.
        const QByteArray bytes = QStringLiteral("Ad\nÇağla\n").toUtf8();
        QCOMPARE(Csv::read(bytes, Csv::Encoding::Windows1254).rows.first().first(), QStringLiteral("Ã‡aÄŸla"));
        QCOMPARE(Csv::read(bytes, Csv::Encoding::Auto, QLatin1Char(',')).rows.first().first(), QStringLiteral("Çağla"));
    }

    void refusesWhatIsNotText()
    {
        static const char pngStart[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
        const QByteArray png(pngStart, sizeof pngStart - 1); // a PNG's first 20 bytes, NULs included
        QCOMPARE(refusalOf([&] { Csv::read(png); }).second, int(DomainError::Unprocessable));
        QCOMPARE(refusalOf([&] { Csv::read(QByteArray()); }).second, int(DomainError::Unprocessable));
    }

    void autoMatchesHeaders_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("field");
        QTest::newRow("E-posta") << "E-posta"
                                 << "email";
        QTest::newRow("e-mail") << "e-mail"
                                << "email";
        QTest::newRow("Email") << "Email"
                               << "email";
        QTest::newRow("E-POSTA ADRESİ") << "E-POSTA ADRESİ"
                                        << "email";
        QTest::newRow("Telefon") << "Telefon"
                                 << "phone";
        QTest::newRow("Cep Telefonu") << "Cep Telefonu"
                                      << "phone";
        QTest::newRow("Phone number") << "Phone number"
                                      << "phone";
        QTest::newRow("Ad Soyad") << "Ad Soyad"
                                  << "name";
        QTest::newRow("ADI SOYADI") << "ADI SOYADI"
                                    << "name";
        QTest::newRow("Full Name") << "Full Name"
                                   << "name";
        QTest::newRow("Ad") << "Ad"
                            << "firstName";
        QTest::newRow("first_name") << "first_name"
                                    << "firstName";
        QTest::newRow("Soyadı") << "Soyadı"
                                << "lastName";
        QTest::newRow("Şirket") << "Şirket"
                                << "company";
        QTest::newRow("sirket") << "sirket"
                                << "company";
        QTest::newRow("Firma") << "Firma"
                               << "company";
        QTest::newRow("Ünvan") << "Ünvan"
                               << "position";
        QTest::newRow("Şehir") << "Şehir"
                               << "address.city";
        QTest::newRow("Ülke") << "Ülke"
                              << "address.country";
        QTest::newRow("Etiketler") << "Etiketler"
                                   << "tags";
        QTest::newRow("leadScore") << "leadScore"
                                   << "leadScore";
        QTest::newRow("unknown") << "Sektör"
                                 << "";
    }
    void autoMatchesHeaders()
    {
        QFETCH(QString, header);
        QFETCH(QString, field);
        QCOMPARE(CsvImport::autoMatch({header}, ContactImporter::fields()), QStringList{field});
    }

    void autoMatchesAFieldOnce()
    {
        const QStringList m = CsvImport::autoMatch({"E-posta", "Email", "Telefon"}, ContactImporter::fields());
        QCOMPARE(m, (QStringList{"email", "", "phone"}));
    }

    void mappingJsonWinsAndIsChecked()
    {
        const QStringList header{"E-posta", "Sektör", "Ad Soyad"};
        const auto fields = ContactImporter::fields();
        QCOMPARE(CsvImport::fromJson(QJsonObject{{"Sektör", "customFields.sektor"}}, header, fields),
                 (QStringList{"email", "customFields.sektor", "name"}));
        QCOMPARE(CsvImport::fromJson(QJsonObject{{"E-posta", QJsonValue()}}, header, fields),
                 (QStringList{"", "", "name"}));
        // A column named in the JSON takes the field from an auto-matched one.
        QCOMPARE(CsvImport::fromJson(QJsonObject{{"Sektör", "email"}}, header, fields),
                 (QStringList{"", "email", "name"}));
        for (const QJsonObject &bad :
             {QJsonObject{{"Nope", "email"}}, QJsonObject{{"Sektör", "salary"}}, QJsonObject{{"Sektör", 3}},
              QJsonObject{{"Sektör", "email"}, {"E-posta", "email"}}})
            QCOMPARE(refusalOf([&] { CsvImport::fromJson(bad, header, fields); }).second, int(DomainError::BadRequest));
    }

    void checksRowsAsCreateDoes_data()
    {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("field"); // empty: accepted
        QTest::newRow("fine") << "Ayşe Yılmaz,ayse@example.com,+90 532 123 45 67,vip"
                              << "";
        QTest::newRow("e-mail only") << "Ayşe Yılmaz,ayse@example.com,,"
                                     << "";
        QTest::newRow("phone only") << "Ayşe,,+905321234567,"
                                    << "";
        QTest::newRow("bad e-mail") << "Ayşe Yılmaz,ayse@,+905321234567,"
                                    << "email";
        QTest::newRow("bad phone") << "Ayşe Yılmaz,,12ab,"
                                   << "phone";
        QTest::newRow("national phone without code") << "Ayşe Yılmaz,,0532 123 45 67,"
                                                     << "phone";
        QTest::newRow("no name") << ",ayse@example.com,,"
                                 << "firstName";
        QTest::newRow("no e-mail or phone") << "Ayşe Yılmaz,,,vip"
                                            << "email";
    }
    void checksRowsAsCreateDoes()
    {
        QFETCH(QString, row);
        QFETCH(QString, field);
        const Csv::Table t = table("Ad Soyad,E-posta,Telefon,Etiketler\n" + row + "\n");
        const QStringList mapping = CsvImport::autoMatch(t.header, ContactImporter::fields());
        if (field.isEmpty()) {
            ContactImporter::rowChanges(t.rows.first(), mapping);
            return;
        }
        try {
            ContactImporter::rowChanges(t.rows.first(), mapping);
            QFAIL("accepted");
        } catch (const DomainError &e) {
            QCOMPARE(e.problems().firstKey(), field);
        }
    }

    void readsRowsIntoContacts()
    {
        const CsvImport::Report r =
            importText("Ad Soyad;E-posta;Telefon;Şirket;Şehir;Etiketler;Sektör\n"
                       "Ayşe Nur Yılmaz;AYSE@example.com;+90 (532) 123 45 67;Anadolu Ltd;İzmir;vip, ege;Tekstil\n");
        QCOMPARE(r.created, 1);
        const Contact c = ContactRepository(testStore()).get(r.results.first().id);
        QCOMPARE(c.firstName, QStringLiteral("Ayşe Nur"));
        QCOMPARE(c.lastName, QStringLiteral("Yılmaz"));
        QCOMPARE(c.phone, QStringLiteral("+90 (532) 123 45 67"));
        QCOMPARE(c.company, QStringLiteral("Anadolu Ltd"));
        QCOMPARE(c.address.value("city").toString(), QStringLiteral("İzmir"));
        QCOMPARE(c.tags, (QStringList{"vip", "ege"}));
        // Found by search as a contact created one by one.
        ContactQuery q;
        q.search = QStringLiteral("5321234567");
        QCOMPARE(ContactRepository(testStore()).list(q).total, 1);
    }

    void customFieldsFromMappedColumns()
    {
        const Csv::Table t = table("Ad,E-posta,Sektör\nAyşe,a@example.com,Tekstil\n");
        const QStringList mapping =
            CsvImport::fromJson(QJsonObject{{"Sektör", "customFields.sektor"}}, t.header, ContactImporter::fields());
        const CsvImport::Report r = ContactImporter(testStore()).run(t, mapping, CsvImport::Duplicates::Skip);
        QCOMPARE(ContactRepository(testStore()).get(r.results.first().id).customFields.value("sektor").toString(),
                 QStringLiteral("Tekstil"));
    }

    void duplicates_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("company"); // of the stored contact afterwards
        // Stored: Ayşe, ayse@example.com, +905321234567, company Eski.
        QTest::newRow("skip by e-mail") << "skip"
                                        << "Ayşe,AYSE@example.com,,Yeni"
                                        << "skipped"
                                        << "Eski";
        QTest::newRow("skip by phone") << "skip"
                                       << "Ayşe,,+90-532-123-45-67,Yeni"
                                       << "skipped"
                                       << "Eski";
        QTest::newRow("update by e-mail") << "update"
                                          << "Ayşe,ayse@example.com,,Yeni"
                                          << "updated"
                                          << "Yeni";
        QTest::newRow("update by phone") << "update"
                                         << "Ayşe,,+90 532 123 4567,Yeni"
                                         << "updated"
                                         << "Yeni";
        QTest::newRow("update unchanged") << "update"
                                          << "Ayşe,ayse@example.com,,Eski"
                                          << "skipped"
                                          << "Eski";
        QTest::newRow("create refused") << "create"
                                        << "Ayşe,ayse@example.com,,Yeni"
                                        << "failed"
                                        << "Eski";
        QTest::newRow("no duplicate") << "skip"
                                      << "Veli,veli@example.com,,Yeni"
                                      << "created"
                                      << "Eski";
    }
    void duplicates()
    {
        QFETCH(QString, policy);
        QFETCH(QString, row);
        QFETCH(QString, outcome);
        QFETCH(QString, company);
        ContactRepository repo(testStore());
        ContactChanges ch;
        ch.firstName = QStringLiteral("Ayşe");
        ch.email = QStringLiteral("ayse@example.com");
        ch.phone = QStringLiteral("+905321234567");
        ch.company = QStringLiteral("Eski");
        const Contact stored = repo.create(ch);
        const CsvImport::Report r =
            importText("Ad,E-posta,Telefon,Şirket\n" + row + "\n", *CsvImport::duplicatesFrom(policy));
        QCOMPARE(r.results.size(), 1);
        QCOMPARE(CsvImport::outcomeName(r.results.first().outcome), outcome);
        QCOMPARE(r.results.first().line, 2);
        QCOMPARE(repo.get(stored.id).company, company);
        if (outcome != "created")
            QCOMPARE(r.results.first().id, stored.id);
        if (outcome == "skipped" || outcome == "failed")
            QVERIFY(!r.results.first().reason.english().isEmpty());
    }

    void duplicatesWithinTheFile()
    {
        const CsvImport::Report r = importText("Ad,E-posta,Telefon\n"
                                               "Ali,ali@example.com,\n"
                                               "Ali Can,ALI@example.com,+905551112233\n"
                                               "Veli,,+90 555 111 22 33\n",
                                               CsvImport::Duplicates::Update);
        QCOMPARE(r.created, 1);
        QCOMPARE(r.updated, 2);
        QCOMPARE(contactCount(), 1);
        const Contact c = ContactRepository(testStore()).get(r.results.first().id);
        QCOMPARE(c.firstName, QStringLiteral("Veli"));
        QCOMPARE(c.phone, QStringLiteral("+90 555 111 22 33"));
    }

    void updateRefusesAnotherContactsPhone()
    {
        ContactRepository repo(testStore());
        ContactChanges a;
        a.firstName = QStringLiteral("A");
        a.email = QStringLiteral("a@example.com");
        repo.create(a);
        ContactChanges b;
        b.firstName = QStringLiteral("B");
        b.phone = QStringLiteral("+905550000000");
        const Contact cb = repo.create(b);
        const CsvImport::Report r =
            importText("Ad,E-posta,Telefon\nA,a@example.com,+905550000000\n", CsvImport::Duplicates::Update);
        QCOMPARE(r.failed, 1);
        QCOMPARE(r.results.first().field, QStringLiteral("phone"));
        QCOMPARE(r.results.first().id, cb.id);
    }

    void batchesWriteOneEventEachAndCancelKeepsThem()
    {
        QString text = "Ad,E-posta\n";
        const int rows = CsvImport::kBatchRows * 3 + 7;
        for (int i = 0; i < rows; ++i)
            text += QStringLiteral("Kişi %1,k%1@example.com\n").arg(i);
        const Csv::Table t = table(text);
        int calls = 0;
        const CsvImport::Report r = ContactImporter(testStore())
                                        .run(t, CsvImport::autoMatch(t.header, ContactImporter::fields()),
                                             CsvImport::Duplicates::Skip, [&](const CsvImport::Report &soFar) {
                                                 ++calls;
                                                 [&] { QCOMPARE(soFar.rows, rows); }();
                                                 // cancel after two batches
                                                 return soFar.done < CsvImport::kBatchRows * 2;
                                             });
        QVERIFY(r.cancelled);
        QCOMPARE(calls, 2);
        QCOMPARE(r.done, CsvImport::kBatchRows * 2);
        QCOMPARE(r.created, CsvImport::kBatchRows * 2);
        QCOMPARE(contactCount(), CsvImport::kBatchRows * 2);
        QCOMPARE(importOutboxCount(), 2);
        QSqlQuery q = Database::exec("SELECT payload FROM outbox WHERE event = 'contacts.imported' ORDER BY seq");
        QVERIFY(q.next());
        const QJsonObject data = QJsonDocument::fromJson(q.value(0).toByteArray()).object().value("data").toObject();
        QCOMPARE(data.value("created").toInt(), CsvImport::kBatchRows);
        QCOMPARE(data.value("createdIds").toArray().size(), CsvImport::kBatchRows);
        QCOMPARE(data.value("firstLine").toInt(), 2);
        // One by one creates' events are not written for imported contacts.
        QSqlQuery created = Database::exec("SELECT count(*) FROM outbox WHERE event = 'contact.created'");
        QVERIFY(created.next());
        QCOMPARE(created.value(0).toInt(), 0);
    }

    void reportAsCsv()
    {
        const CsvImport::Report r = importText("Ad,E-posta\nAli,ali@example.com\n,bad\n");
        QCOMPARE(r.created, 1);
        QCOMPARE(r.failed, 1);
        const Csv::Table t = Csv::read(r.toCsv());
        QCOMPARE(t.header, (QStringList{"line", "outcome", "id", "field", "code", "reason"}));
        QCOMPARE(t.rows.size(), 2);
        QCOMPARE(t.rows.at(0).mid(0, 2), (QStringList{"2", "created"}));
        QCOMPARE(t.rows.at(1).mid(0, 2), (QStringList{"3", "failed"}));
        QVERIFY(!t.rows.at(1).at(5).isEmpty());
        const QString translated =
            QString::fromUtf8(r.toCsv([](const ModelText &) { return QStringLiteral("çeviri"); }));
        QVERIFY(translated.contains(QStringLiteral("çeviri")));
    }

    void jobRecordsProgressCancelAndReport()
    {
        ImportJobRepository jobs(testStore());
        const ImportJob job = jobs.create("contacts", "kisiler.csv", CsvImport::Duplicates::Skip, {}, 2, "user_x");
        QCOMPARE(jobs.get(job.id).status, QStringLiteral("queued"));
        jobs.start(job.id);
        CsvImport::Report r = importText("Ad,E-posta\nAli,ali@example.com\n,bad\n");
        QVERIFY(!jobs.progress(job.id, r));
        QCOMPARE(jobs.requestCancel(job.id).cancelRequested, true);
        QVERIFY(jobs.progress(job.id, r));
        r.cancelled = true;
        jobs.finish(job.id, r);
        const ImportJob done = jobs.get(job.id);
        QCOMPARE(done.status, QStringLiteral("cancelled"));
        QCOMPARE(done.created, 1);
        QCOMPARE(done.failed, 1);
        QCOMPARE(done.report.size(), 2);
        QCOMPARE(done.report.at(1).toObject().value("line").toInt(), 3);
        QCOMPARE(jobs.requestCancel(job.id).status, QStringLiteral("cancelled")); // an ended job stays as it is
        QCOMPARE(refusalOf([&] { jobs.get("imp_nope"); }).second, int(DomainError::NotFound));
    }

    void exportsDealsAndTasksAsCsv()
    {
        DealRepository deals(testStore());
        deals.create(DealRules::parse(
            {{"name", "Filo yenileme"}, {"value", 1250.5}, {"customFields", QJsonObject{{"kaynak", "fuar"}}}}));
        deals.create(DealRules::parse({{"name", "Yazılım lisansı"}, {"value", 90}}));
        DealQuery dq;
        dq.search = QStringLiteral("filo");
        Csv::Table t = Csv::read(deals.exportCsv(dq));
        QCOMPARE(t.rows.size(), 1);
        QCOMPARE(t.rows.first().at(t.header.indexOf("name")), QStringLiteral("Filo yenileme"));
        QCOMPARE(t.rows.first().at(t.header.indexOf("value")), QStringLiteral("1250.50"));
        QCOMPARE(t.rows.first().at(t.header.indexOf("customFields.kaynak")), QStringLiteral("fuar"));
        QCOMPARE(Csv::read(deals.exportCsv(DealQuery())).rows.size(), 2);

        TaskRepository tasks(testStore());
        tasks.create(TaskRules::parse({{"title", "Ayşe'yi ara"}, {"dueDate", "2026-12-01"}}));
        tasks.create(TaskRules::parse({{"title", "Teklif gönder"}, {"priority", "high"}}));
        TaskQuery tq;
        tq.priorities = QStringList{QStringLiteral("high")};
        t = Csv::read(tasks.exportCsv(tq));
        QCOMPARE(t.rows.size(), 1);
        QCOMPARE(t.rows.first().at(t.header.indexOf("title")), QStringLiteral("Teklif gönder"));
        QCOMPARE(Csv::read(tasks.exportCsv(TaskQuery())).rows.size(), 2);
    }

    void importsDealsThroughTheirRules()
    {
        ContactChanges ayse;
        ayse.firstName = QStringLiteral("Ayşe");
        ayse.email = QStringLiteral("ayse@example.com");
        const Contact c = ContactRepository(testStore()).create(ayse);
        const Csv::Table t = table("Fırsat;Tutar;Para birimi;Aşama;Kişi e-posta;Kapanış tarihi\n"
                                   "Filo yenileme;1250,50;TL;Teklif;ayse@example.com;15.01.2027\n"
                                   ";10;TRY;;;\n"
                                   "Lisans;abc;TRY;;;\n"
                                   "Bakım;100;TRY;;nobody@example.com;\n"
                                   "Kasa;100;TRY;Rüya;;\n"
                                   "filo YENILEME;1300;TRY;;ayse@example.com;\n");
        const CsvImport::Mapping m = CsvImport::autoMatch(t.header, DealImporter::fields());
        QCOMPARE(m, (QStringList{"name", "value", "currency", "stage", "contactEmail", "expectedCloseDate"}));
        const CsvImport::Report r = DealImporter(testStore()).run(t, m, CsvImport::Duplicates::Update);
        QCOMPARE(r.created, 1);
        QCOMPARE(r.updated, 1);
        QCOMPARE(r.failed, 4);
        QCOMPARE(r.results.at(4).field, QStringLiteral("stage"));
        QCOMPARE(r.results.at(1).field, QStringLiteral("name"));
        QCOMPARE(r.results.at(2).field, QStringLiteral("value"));
        QCOMPARE(r.results.at(3).field, QStringLiteral("contactEmail"));
        const Deal d = DealRepository(testStore()).get(r.results.first().id);
        QCOMPARE(d.value, 1300.0);
        QCOMPARE(d.currency, QStringLiteral("TRY"));
        QCOMPARE(d.stage, QStringLiteral("proposal"));
        QCOMPARE(d.contactId, c.id);
        QCOMPARE(d.expectedCloseDate, QStringLiteral("2027-01-15"));
        // One by one creates' events, as the API's.
        QSqlQuery q = Database::exec("SELECT count(*) FROM outbox WHERE event = 'deal.created'");
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
    }

    void importsTasksThroughTheirRules()
    {
        const Csv::Table t = table("Görev,Öncelik,Tür,Son tarih,Durum\n"
                                   "Ayşe'yi ara,Yüksek,Arama,01.12.2026 14:30,Yapılacak\n"
                                   "Teklif gönder,Acil,E-posta,02.12.2026,\n"
                                   "Teklif gönder,Acil,E-posta,02.12.2026,\n"
                                   ",Düşük,,,\n"
                                   "Fuar,Çok,,,\n");
        const CsvImport::Mapping m = CsvImport::autoMatch(t.header, TaskImporter::fields());
        QCOMPARE(m, (QStringList{"title", "priority", "type", "dueDate", "status"}));
        const CsvImport::Report r =
            TaskImporter(testStore(), QTimeZone("Europe/Istanbul")).run(t, m, CsvImport::Duplicates::Skip);
        QCOMPARE(r.created, 2);
        QCOMPARE(r.skipped, 1);
        QCOMPARE(r.failed, 2);
        QCOMPARE(r.results.at(4).field, QStringLiteral("priority"));
        const Task call = TaskRepository(testStore()).get(r.results.first().id);
        QCOMPARE(call.priority, QStringLiteral("high"));
        QCOMPARE(call.type, QStringLiteral("call"));
        QCOMPARE(call.dueDate, QStringLiteral("2026-12-01T11:30:00.000Z"));
        QCOMPARE(TaskRepository(testStore()).get(r.results.at(1).id).dueDate, QStringLiteral("2026-12-02"));
    }
};

QTEST_GUILESS_MAIN(TestCsvImport)
#include "test_csvimport.moc"
