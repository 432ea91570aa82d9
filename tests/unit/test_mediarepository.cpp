// MediaRepository and MediaRules on the database of the pass (the bytes in DATA/media on SQLite, in
// media_contents on PostgreSQL): the type a file is stored as (the magic number against what was
// declared), safe file names, the kind, the credential of a public URL, expiry and the sweep of
// expired media and of files left without a row.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/mediarepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

namespace {
const QDateTime kNow(QDate(2031, 3, 4), QTime(10, 0), Qt::UTC);
const QByteArray kPng = QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(40, 'p');
const QByteArray kPdf = QByteArray("%PDF-1.7\n") + QByteArray(40, 'd');
} // namespace

class TestMediaRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock;

    MediaRepository media() { return MediaRepository(Store(m_bus, m_clock), m_db->dir() + QStringLiteral("/media")); }
    Media upload(const QByteArray &bytes, const QByteArray &type = {}, const QString &name = "dosya", int days = 30)
    {
        MediaUpload u;
        u.bytes = bytes;
        u.declaredType = type;
        u.filename = name;
        u.lifetimeDays = days;
        return media().store(u);
    }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(kNow);
    }
    void cleanup() { m_db.reset(); }

    void sniffsTheMagicNumber_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("type");
        QTest::newRow("png") << kPng << "image/png";
        QTest::newRow("jpeg") << QByteArray("\xff\xd8\xff\xe0xxxx") << "image/jpeg";
        QTest::newRow("gif") << QByteArray("GIF89a....") << "image/gif";
        QTest::newRow("webp") << QByteArray("RIFF\x10\0\0\0WEBPVP8 ", 16) << "image/webp";
        QTest::newRow("wav") << QByteArray("RIFF\x10\0\0\0WAVEfmt ", 16) << "audio/wav";
        QTest::newRow("riff of another kind") << QByteArray("RIFF\x10\0\0\0ABCD", 12) << "";
        QTest::newRow("tiff") << QByteArray("II*\0rest", 8) << "image/tiff";
        QTest::newRow("pdf") << kPdf << "application/pdf";
        QTest::newRow("zip, docx") << QByteArray("PK\x03\x04rest") << "application/zip";
        QTest::newRow("mp4") << QByteArray("\0\0\0\x18"
                                           "ftypisom",
                                           12)
                             << "video/mp4";
        QTest::newRow("quicktime") << QByteArray("\0\0\0\x14"
                                                 "ftypqt  ",
                                                 12)
                                   << "video/quicktime";
        QTest::newRow("heic") << QByteArray("\0\0\0\x18"
                                            "ftypheic",
                                            12)
                              << "image/heic";
        QTest::newRow("m4a") << QByteArray("\0\0\0\x18"
                                           "ftypM4A ",
                                           12)
                             << "audio/mp4";
        QTest::newRow("webm") << QByteArray("\x1a\x45\xdf\xa3rest") << "video/webm";
        QTest::newRow("ogg") << QByteArray("OggSrest") << "audio/ogg";
        QTest::newRow("mp3 with a tag") << QByteArray("ID3\x03rest") << "audio/mpeg";
        QTest::newRow("mp3 frame") << QByteArray("\xff\xfbrest") << "audio/mpeg";
        QTest::newRow("aac frame") << QByteArray("\xff\xf1rest") << "audio/aac";
        QTest::newRow("amr") << QByteArray("#!AMR\n") << "audio/amr";
        QTest::newRow("text") << QByteArray("Merhaba, dünya") << "";
        QTest::newRow("too short for its magic") << QByteArray("\x89PNG") << "";
        QTest::newRow("empty") << QByteArray() << "";
    }
    void sniffsTheMagicNumber()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, type);
        QCOMPARE(MediaRules::sniff(bytes), type);
    }

    void resolvesTheStoredType_data()
    {
        QTest::addColumn<QByteArray>("declared");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("type"); // empty: refused as a mismatch
        QTest::newRow("declared and agreeing") << QByteArray("image/png") << kPng << "image/png";
        QTest::newRow("declared in capitals, spaced") << QByteArray(" IMAGE/PNG ") << kPng << "image/png";
        QTest::newRow("an alias of the family")
            << QByteArray("image/jpg") << QByteArray("\xff\xd8\xff\xe0") << "image/jpg";
        QTest::newRow("nothing declared: sniffed") << QByteArray() << kPdf << "application/pdf";
        QTest::newRow("octet-stream: sniffed") << QByteArray("application/octet-stream") << kPng << "image/png";
        QTest::newRow("nothing known") << QByteArray() << QByteArray("a,b\n1,2\n") << "application/octet-stream";
        QTest::newRow("a type it cannot check is kept") << QByteArray("text/csv") << kPng << "text/csv";
        QTest::newRow("docx is a zip") << QByteArray(
                                              "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
                                       << QByteArray("PK\x03\x04rest")
                                       << "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
        QTest::newRow("a png that is a pdf") << QByteArray("image/png") << kPdf << "";
        QTest::newRow("a pdf of unknown bytes") << QByteArray("application/pdf") << QByteArray("hello") << "";
        QTest::newRow("a jpeg that is a png") << QByteArray("image/jpeg") << kPng << "";
    }
    void resolvesTheStoredType()
    {
        QFETCH(QByteArray, declared);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, type);
        QString resolved;
        const QPair<QString, int> refusal = refusalOf([&] { resolved = MediaRules::resolveType(declared, bytes); });
        if (type.isEmpty()) {
            QCOMPARE(refusal, qMakePair(QStringLiteral("file"), int(DomainError::Unprocessable)));
            try {
                MediaRules::resolveType(declared, bytes);
            } catch (const DomainError &e) {
                QCOMPARE(e.code(), QStringLiteral("MEDIA_TYPE_MISMATCH"));
            }
        } else {
            QCOMPARE(refusal.second, -1);
            QCOMPARE(resolved, type);
        }
    }

    void makesFileNamesSafe_data()
    {
        QTest::addColumn<QString>("given");
        QTest::addColumn<QString>("safe");
        QTest::newRow("plain") << "teklif.pdf"
                               << "teklif.pdf";
        QTest::newRow("a path") << "../../etc/passwd"
                                << "passwd";
        QTest::newRow("a windows path") << "C:\\Users\\ayse\\fatura.pdf"
                                        << "fatura.pdf";
        QTest::newRow("control characters") << QString("fa\ttura\n.pdf") << "fatura.pdf";
        QTest::newRow("a right-to-left override") << QString::fromUtf8("fatura\u202Efdp.exe") << "faturafdp.exe";
        QTest::newRow("spaces trimmed") << "  rapor.txt  "
                                        << "rapor.txt";
        QTest::newRow("empty") << ""
                               << "file";
        QTest::newRow("a dot") << "."
                               << "file";
        QTest::newRow("two dots after a slash") << "a/.."
                                                << "file";
        QTest::newRow("at most 255 bytes") << QString(300, QChar(0x00E7)) << QString(127, QChar(0x00E7));
    }
    void makesFileNamesSafe()
    {
        QFETCH(QString, given);
        QFETCH(QString, safe);
        QCOMPARE(MediaRules::safeFilename(given), safe);
    }

    void kindsAndActiveContent_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("active");
        QTest::newRow("png") << "image/png"
                             << "image" << false;
        QTest::newRow("svg is a document, and active") << "image/svg+xml"
                                                       << "document" << true;
        QTest::newRow("mp4") << "video/mp4"
                             << "video" << false;
        QTest::newRow("ogg") << "audio/ogg"
                             << "audio" << false;
        QTest::newRow("pdf") << "application/pdf"
                             << "document" << false;
        QTest::newRow("html") << "text/html"
                              << "document" << true;
        QTest::newRow("xhtml") << "application/xhtml+xml"
                               << "document" << true;
        QTest::newRow("javascript") << "text/javascript"
                                    << "document" << true;
        QTest::newRow("plain text") << "text/plain"
                                    << "document" << false;
    }
    void kindsAndActiveContent()
    {
        QFETCH(QString, type);
        QFETCH(QString, kind);
        QFETCH(bool, active);
        QCOMPARE(MediaRules::kindOf(type), kind);
        QCOMPARE(MediaRules::isActiveContent(type), active);
    }

    void storesAndServesWithItsToken()
    {
        QSignalSpy spy(&m_bus, &EventBus::changed);
        const Media m = upload(kPng, {}, QStringLiteral("../logo.png"));
        QCOMPARE(spy.size(), 1);
        QVERIFY(m.id.startsWith(QLatin1String("media_")));
        QCOMPARE(m.filename, QStringLiteral("logo.png"));
        QCOMPARE(m.mimeType, QStringLiteral("image/png"));
        QCOMPARE(m.kind, QStringLiteral("image"));
        QCOMPARE(m.size, qint64(kPng.size()));
        QCOMPARE(m.sha256, QString::fromLatin1(QCryptographicHash::hash(kPng, QCryptographicHash::Sha256).toHex()));
        QCOMPARE(m.token.size(), 43);
        QCOMPARE(m.path(), QStringLiteral("/media/%1/%2").arg(m.id, m.token));
        QCOMPARE(m.expiresAt, QStringLiteral("2031-04-03T10:00:00.000Z"));
        // The bytes where this database keeps them, and nowhere else.
        QCOMPARE(QFile::exists(media().mediaDir() + QLatin1Char('/') + m.id), !MediaRepository::inDatabase());
        QCOMPARE(*media().content(m.id), kPng);

        QCOMPARE(media().findServable(m.id, m.token)->id, m.id);
        QString wrong = m.token;
        wrong[0] = wrong[0] == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
        QVERIFY(!media().findServable(m.id, wrong));
        QVERIFY(!media().findServable(m.id, m.token.left(42)));
        QVERIFY(!media().findServable(QStringLiteral("media_none"), m.token));
        QVERIFY(media().find(m.id)->token.isEmpty()); // only its hash is stored

        // The message that carries it.
        const Store store(m_bus, m_clock);
        const Contact c =
            ContactRepository(store).create(ContactRules::parse({{"firstName", "Ali"}, {"phone", "+905321112233"}}));
        ConversationRepository conversations(store);
        const Conversation v = conversations.findOrCreate(c.id, QStringLiteral("whatsapp"), c.phone);
        MessageContent content;
        content.type = QStringLiteral("image");
        content.mediaUrl = m.path();
        const Message sent = conversations.addOutgoing(v.id, content, {QStringLiteral("api"), QString(), QString()});
        media().linkMessage(m.id, sent.id);
        QCOMPARE(media().find(m.id)->messageId, sent.id);
    }

    void refusesWhatItCannotStore()
    {
        QCOMPARE(refusalOf([&] { upload(QByteArray()); }),
                 qMakePair(QStringLiteral("file"), int(DomainError::Unprocessable)));
        QCOMPARE(refusalOf([&] { upload(kPdf, "image/png"); }),
                 qMakePair(QStringLiteral("file"), int(DomainError::Unprocessable)));
        QCOMPARE(MediaRepository::usage().files, 0);
        QVERIFY(QDir(media().mediaDir()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    void namesAFileWithoutMagicByItsExtension()
    {
        QCOMPARE(upload("ad,soyad\nAyşe,Yılmaz\n", {}, QStringLiteral("kisiler.csv")).mimeType,
                 QStringLiteral("text/csv"));
        QCOMPARE(upload("ad,soyad\n", {}, QStringLiteral("kisiler")).mimeType,
                 QStringLiteral("application/octet-stream"));
    }

    void expiresAndIsSweptWithFilesLeftWithoutARow()
    {
        const Media shortLived = upload(kPng, {}, QStringLiteral("a.png"), 1);
        const Media kept = upload(kPdf, {}, QStringLiteral("b.pdf"), 30);
        MediaRepository::Usage usage = MediaRepository::usage();
        QCOMPARE(usage.files, 2);
        QCOMPARE(usage.bytes, qint64(kPng.size() + kPdf.size()));
        QCOMPARE(usage.nextExpiry, shortLived.expiresAt);

        // A file a crash left behind, and one of an upload in progress.
        QDir().mkpath(media().mediaDir());
        const QString orphan = media().mediaDir() + QStringLiteral("/media_orphan");
        const QString recent = media().mediaDir() + QStringLiteral("/media_recent");
        for (const auto &[path, modified] :
             {qMakePair(orphan, kNow.addSecs(-2 * 3600)), qMakePair(recent, kNow.addSecs(-60))}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("x");
            f.flush();
            QVERIFY(f.setFileTime(modified, QFileDevice::FileModificationTime));
        }

        QCOMPARE(media().deleteExpired(), 0);
        QVERIFY(!QFile::exists(orphan));
        QVERIFY(QFile::exists(recent));
        QVERIFY(media().findServable(shortLived.id, shortLived.token));

        m_clock.advance(24 * 3600); // the short-lived one's expiry: no longer served
        QVERIFY(!media().findServable(shortLived.id, shortLived.token));
        QSignalSpy spy(&m_bus, &EventBus::changed);
        QCOMPARE(media().deleteExpired(), 1);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.at(0).at(1).toString(), shortLived.id);
        QVERIFY(!media().find(shortLived.id));
        QVERIFY(!media().content(shortLived.id));
        QVERIFY(!QFile::exists(media().mediaDir() + QLatin1Char('/') + shortLived.id));
        QCOMPARE(*media().content(kept.id), kPdf);
        QCOMPARE(MediaRepository::usage().files, 1);
        QCOMPARE(media().deleteExpired(), 0);
    }

    void aShortOrMissingCopyIsNeverServed()
    {
        if (MediaRepository::inDatabase())
            QSKIP("the bytes are in the row's own transaction on PostgreSQL");
        const Media m = upload(kPng);
        const QString path = media().mediaDir() + QLatin1Char('/') + m.id;
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(kPng.left(10));
        f.close();
        QVERIFY(!media().content(m.id));
        QVERIFY(QFile::remove(path));
        QVERIFY(!media().content(m.id));
    }
};

QTEST_GUILESS_MAIN(TestMediaRepository)
#include "test_mediarepository.moc"
