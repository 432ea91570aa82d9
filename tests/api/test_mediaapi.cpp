// Media over real HTTPS on loopback: POST /api/v1/media/upload for each kind, its limits and
// errors (413, 422, 400), the public GET /media/:mediaId/:token (no bearer; wrong token, expired:
// 404; HEAD), POST /api/v1/messages/send-file into a widget conversation (404, 503, Idempotency-Key),
// the JSON body limit and 415 for multipart on a JSON route, the OpenAPI entry, and the clean-up.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/mediacleaner.h"
#include "model/inbox/mediarepository.h"
#include "server/api/multipart.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSqlQuery>
#include <QtTest>

namespace {
int count(const QString &sql)
{
    QSqlQuery q = Database::exec(sql);
    q.next();
    return q.value(0).toInt();
}

const QByteArray kPng = QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) + QByteArray(200, '\x01');
const QByteArray kJpeg = QByteArray("\xff\xd8\xff\xe0\0\x10JFIF\0", 11) + QByteArray(300, '\x02');
const QByteArray kMp4 = QByteArray("\0\0\0\x18"
                                   "ftypmp42",
                                   12) +
                        QByteArray(400, '\x03');
const QByteArray kOgg = QByteArray("OggS\0\x02", 6) + QByteArray(100, '\x04');
const QByteArray kPdf = QByteArray("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n") + QByteArray(500, 'p');
} // namespace

class TestMediaApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<TestServer> m_server;
    QString m_key;

    void startServer(qint64 maxUploadBytes = 16 * 1024 * 1024, const QString &publicBaseUrl = {})
    {
        m_server.reset();
        m_server = std::make_unique<TestServer>(m_db->dir(), [&](ServerConfig &c) {
            c.media.maxUploadBytes = maxUploadBytes;
            c.media.publicBaseUrl = publicBaseUrl;
        });
    }

    std::unique_ptr<ApiClient> client(const QString &token = {})
    {
        auto c = std::make_unique<ApiClient>(m_server->baseUrl(), m_server->certificate());
        if (!token.isEmpty())
            c->setToken(token);
        return c;
    }

    HttpResult postForm(const QString &path, const QList<MultipartField> &fields,
                        const QList<QPair<QByteArray, QByteArray>> &extra = {})
    {
        const QByteArray boundary = Multipart::makeBoundary();
        QList<QPair<QByteArray, QByteArray>> headers{{"Content-Type", "multipart/form-data; boundary=" + boundary}};
        headers.append(extra);
        return client(m_key)->call("POST", path, Multipart::serialize(fields, boundary), headers);
    }

    static MultipartField file(const QByteArray &bytes, const QString &name, const QByteArray &type)
    {
        return {QStringLiteral("file"), bytes, name, true, type};
    }

    // The path of an absolute media URL of this server.
    QString pathOf(const QString &url) { return url.mid(m_server->baseUrl().size()); }

    QString widgetConversation()
    {
        const HttpResult r = client()->post("/widget/v1/visitors", {{"name", "Ayşe"}});
        return r.data().value("conversationId").toString();
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        startServer();
        m_key = m_server->createApiKey();
    }

    void cleanup()
    {
        m_server.reset();
        m_db.reset();
    }

    void uploadsEachKindAndServesIt_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("filename");
        QTest::addColumn<QByteArray>("declared");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("kind");
        QTest::newRow("png") << kPng << "logo.png" << QByteArray("image/png") << "image/png"
                             << "image";
        QTest::newRow("jpeg, no type sent") << kJpeg << "photo.jpg" << QByteArray() << "image/jpeg"
                                            << "image";
        QTest::newRow("mp4") << kMp4 << "clip.mp4" << QByteArray("video/mp4") << "video/mp4"
                             << "video";
        QTest::newRow("ogg voice note") << kOgg << "voice.ogg" << QByteArray("audio/ogg; codecs=opus") << "audio/ogg"
                                        << "audio";
        QTest::newRow("pdf as octet-stream")
            << kPdf << "teklif.pdf" << QByteArray("application/octet-stream") << "application/pdf"
            << "document";
        QTest::newRow("csv by extension")
            << QByteArray("name,phone\nAyşe,+905551112233\n") << "list.csv" << QByteArray() << "text/csv"
            << "document";
    }

    void uploadsEachKindAndServesIt()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, filename);
        QFETCH(QByteArray, declared);
        QFETCH(QString, type);
        QFETCH(QString, kind);
        const HttpResult r = postForm("/api/v1/media/upload", {file(bytes, filename, declared)});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.json.value("success").toBool(), true);
        const QJsonObject d = r.data();
        QVERIFY(d.value("mediaId").toString().startsWith("media_"));
        QCOMPARE(d.value("type").toString(), type);
        QCOMPARE(d.value("kind").toString(), kind);
        QCOMPARE(d.value("size").toInteger(), qint64(bytes.size()));
        QCOMPARE(d.value("filename").toString(), filename);
        const QDateTime expires = QDateTime::fromString(d.value("expiresAt").toString(), Qt::ISODateWithMs);
        QVERIFY(qAbs(expires.secsTo(QDateTime::currentDateTimeUtc().addDays(30))) < 60);
        const QString url = d.value("url").toString();
        QVERIFY2(url.startsWith(m_server->baseUrl() + "/media/" + d.value("mediaId").toString() + "/"),
                 qPrintable(url));

        // Served without a bearer, with its type, length and safe headers.
        const HttpResult got = client()->get(pathOf(url));
        QCOMPARE(got.status, 200);
        QCOMPARE(got.body, bytes);
        QCOMPARE(got.header("Content-Type"), type.toLatin1());
        QCOMPARE(got.header("Content-Length"), QByteArray::number(bytes.size()));
        QCOMPARE(got.header("Cache-Control"), QByteArray("private"));
        QCOMPARE(got.header("X-Content-Type-Options"), QByteArray("nosniff"));
        QVERIFY(got.header("Content-Disposition").startsWith("inline; filename=\"" + filename.toLatin1().left(4)));
        // The bytes: DATA/media on SQLite, the database on PostgreSQL (every copy serves them).
        if (MediaRepository::inDatabase()) {
            QVERIFY(!QFile::exists(m_db->dir() + "/media/" + d.value("mediaId").toString()));
            QCOMPARE(count("SELECT count(*) FROM media_contents"), 1);
        } else {
            QVERIFY(QFile::exists(m_db->dir() + "/media/" + d.value("mediaId").toString()));
        }
    }

    void filenamesAreQuotedSafely()
    {
        const HttpResult r =
            postForm("/api/v1/media/upload", {file(kPdf, QString::fromUtf8("../../etc/\"tek\r\nlif\" ğ.pdf"), "")});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("filename").toString(), QString::fromUtf8("\"teklif\" ğ.pdf"));
        const HttpResult got = client()->get(pathOf(r.data().value("url").toString()));
        QCOMPARE(got.status, 200);
        QCOMPARE(got.header("Content-Disposition"),
                 QByteArray("inline; filename=\"_teklif_ _.pdf\"; filename*=UTF-8''%22teklif%22%20%C4%9F.pdf"));
        // A Windows path (old browsers send one): only the name is kept.
        const HttpResult win = postForm("/api/v1/media/upload", {file(kPdf, "C:\\Users\\ali\\rapor.pdf", "")});
        QCOMPARE(win.data().value("filename").toString(), QString("rapor.pdf"));
    }

    void activeContentIsServedAsAttachment()
    {
        const HttpResult r =
            postForm("/api/v1/media/upload", {file("<script>alert(1)</script>", "x.html", "text/html")});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("kind").toString(), QString("document"));
        const HttpResult got = client()->get(pathOf(r.data().value("url").toString()));
        QCOMPARE(got.status, 200);
        QVERIFY(got.header("Content-Disposition").startsWith("attachment;"));
        QVERIFY(got.header("Content-Security-Policy").contains("sandbox"));
    }

    void refusesBadUploads_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        const QByteArray mp = "multipart/form-data; boundary=B";
        QTest::newRow("no file part") << mp << Multipart::serialize({{"caption", "hi", {}, false, {}}}, "B") << 422
                                      << "VALIDATION_ERROR";
        QTest::newRow("file as a text field")
            << mp << Multipart::serialize({{"file", "abc", {}, false, {}}}, "B") << 422 << "VALIDATION_ERROR";
        QTest::newRow("two files") << mp
                                   << Multipart::serialize(
                                          {file(kPng, "a.png", "image/png"), file(kPng, "b.png", "image/png")}, "B")
                                   << 422 << "VALIDATION_ERROR";
        QTest::newRow("empty file") << mp << Multipart::serialize({file({}, "empty.txt", "text/plain")}, "B") << 422
                                    << "EMPTY_FILE";
        QTest::newRow("type mismatch") << mp << Multipart::serialize({file(kPdf, "fake.png", "image/png")}, "B") << 422
                                       << "MEDIA_TYPE_MISMATCH";
        QTest::newRow("missing final boundary")
            << mp << QByteArray("--B\r\nContent-Disposition: form-data; name=file; filename=a\r\n\r\nabc") << 400
            << "INVALID_MULTIPART";
        QTest::newRow("part without disposition")
            << mp << QByteArray("--B\r\nContent-Type: a/b\r\n\r\nabc\r\n--B--") << 400 << "INVALID_MULTIPART";
        QTest::newRow("no boundary parameter")
            << QByteArray("multipart/form-data") << QByteArray("--B--") << 400 << "INVALID_MULTIPART";
        QTest::newRow("json body") << QByteArray("application/json") << QByteArray("{\"file\":\"x\"}") << 400
                                   << "INVALID_MULTIPART";
    }

    void refusesBadUploads()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        const HttpResult r = client(m_key)->call("POST", "/api/v1/media/upload", body, {{"Content-Type", contentType}});
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), code);
        QVERIFY(!r.json.value("error").toObject().value("message").toString().isEmpty());
        QCOMPARE(count("SELECT count(*) FROM media"), 0);
        QVERIFY(QDir(m_db->dir() + "/media").entryList(QDir::Files).isEmpty());
    }

    void refusesFilesAboveTheLimit()
    {
        startServer(1000);
        HttpResult r = postForm("/api/v1/media/upload", {file(QByteArray(1001, 'a'), "big.txt", "text/plain")});
        QCOMPARE(r.status, 413);
        QCOMPARE(r.errorCode(), QString("PAYLOAD_TOO_LARGE"));
        QVERIFY(r.json.value("error").toObject().value("message").toString().contains("1000"));
        r = postForm("/api/v1/media/upload", {file(QByteArray(1000, 'a'), "fits.txt", "text/plain")});
        QCOMPARE(r.status, 201);
        QCOMPARE(count("SELECT count(*) FROM media"), 1);
    }

    void needsCredentialAndScope()
    {
        const QByteArray body = Multipart::serialize({file(kPng, "a.png", "image/png")}, "B");
        const QList<QPair<QByteArray, QByteArray>> headers{{"Content-Type", "multipart/form-data; boundary=B"}};
        QCOMPARE(client()->call("POST", "/api/v1/media/upload", body, headers).status, 401);
        const QString readOnly = ApiKeyRepository(testStore()).create("ro", {QStringLiteral("messages:read")}).secret;
        QCOMPARE(client(readOnly)->call("POST", "/api/v1/media/upload", body, headers).status, 403);
    }

    void wrongTokenOrExpiredIs404()
    {
        const HttpResult r = postForm("/api/v1/media/upload", {file(kPng, "a.png", "image/png")});
        QCOMPARE(r.status, 201);
        const QString id = r.data().value("mediaId").toString();
        const QString path = pathOf(r.data().value("url").toString());
        const QString token = path.section('/', 3);
        QCOMPARE(token.size(), 43);

        QString wrong = token;
        wrong[0] = wrong[0] == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
        for (const QString &bad : {"/media/" + id + "/" + wrong, "/media/" + id + "/short",
                                   "/media/media_unknown/" + token, "/media/" + id}) {
            const HttpResult got = client()->get(bad);
            QCOMPARE(got.status, 404);
            QCOMPARE(got.json.value("success").toBool(true), false);
            QCOMPARE(got.errorCode(), QString("NOT_FOUND"));
        }
        QCOMPARE(client()->get(path).status, 200);

        Database::exec("UPDATE media SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?", {id});
        const HttpResult expired = client()->get(path);
        QCOMPARE(expired.status, 404);
        QCOMPARE(expired.errorCode(), QString("NOT_FOUND"));
    }

    void headGivesHeadersOnly()
    {
        const HttpResult r = postForm("/api/v1/media/upload", {file(kJpeg, "p.jpg", "image/jpeg")});
        // QNetworkAccessManager::head() (a custom "HEAD" verb would wait for a body).
        QNetworkAccessManager nam;
        QNetworkRequest request(QUrl(r.data().value("url").toString()));
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificate(m_server->certificate());
        request.setSslConfiguration(ssl);
        std::unique_ptr<QNetworkReply> reply(nam.head(request));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(10000));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QVERIFY(reply->readAll().isEmpty());
        QCOMPARE(reply->rawHeader("Content-Length"), QByteArray::number(kJpeg.size()));
        QCOMPARE(reply->rawHeader("Content-Type"), QByteArray("image/jpeg"));
    }

    void publicBaseUrlIsUsed()
    {
        startServer(16 * 1024 * 1024, "https://crm.example.com/");
        const HttpResult r = postForm("/api/v1/media/upload", {file(kPng, "a.png", "image/png")});
        QCOMPARE(r.status, 201);
        QVERIFY(r.data().value("url").toString().startsWith("https://crm.example.com/media/" +
                                                            r.data().value("mediaId").toString() + "/"));
    }

    void sendFileIntoWidgetConversation()
    {
        const QString conv = widgetConversation();
        QVERIFY(!conv.isEmpty());
        HttpResult r = postForm("/api/v1/messages/send-file", {{"conversationId", conv.toUtf8(), {}, false, {}},
                                                               file(kPng, "urun.png", "image/png"),
                                                               {"caption", "Ürün fotoğrafı", {}, false, {}}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.json.value("message").toString(), QString("Message sent"));
        const QJsonObject m = r.data();
        QCOMPARE(m.value("type").toString(), QString("image"));
        QCOMPARE(m.value("direction").toString(), QString("outgoing"));
        QCOMPARE(m.value("caption").toString(), QString::fromUtf8("Ürün fotoğrafı"));
        QVERIFY(m.value("status").toString() == "sent" || m.value("status").toString() == "delivered");
        const QString url = m.value("mediaUrl").toString();
        QVERIFY(url.startsWith(m_server->baseUrl() + "/media/media_"));
        QCOMPARE(client()->get(pathOf(url)).body, kPng);

        // The media row knows its conversation and message; the connector gets payload.mediaId.
        QSqlQuery q = Database::exec("SELECT conversation_id, message_id, id FROM media");
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), conv);
        QCOMPARE(q.value(1).toString(), m.value("id").toString());
        const QString mediaId = q.value(2).toString();
        q = Database::exec("SELECT payload, filename FROM messages WHERE id = ?", {m.value("id").toString()});
        QVERIFY(q.next());
        QCOMPARE(QJsonDocument::fromJson(q.value(0).toByteArray()).object().value("mediaId").toString(), mediaId);
        QCOMPARE(q.value(1).toString(), QString("urun.png"));
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.sent'"), 1);

        // Each kind gives its message type.
        r = postForm("/api/v1/messages/send-file",
                     {{"conversationId", conv.toUtf8(), {}, false, {}}, file(kPdf, "teklif.pdf", "application/pdf")});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("type").toString(), QString("document"));
        QCOMPARE(r.data().value("filename").toString(), QString("teklif.pdf"));
        r = postForm("/api/v1/messages/send-file",
                     {{"conversationId", conv.toUtf8(), {}, false, {}}, file(kOgg, "ses.ogg", "audio/ogg")});
        QCOMPARE(r.data().value("type").toString(), QString("audio"));
        r = postForm("/api/v1/messages/send-file",
                     {{"conversationId", conv.toUtf8(), {}, false, {}}, file(kMp4, "v.mp4", "video/mp4")});
        QCOMPARE(r.data().value("type").toString(), QString("video"));
    }

    void sendFileErrors()
    {
        const QString conv = widgetConversation();
        // 404: unknown conversation; nothing stored.
        HttpResult r = postForm("/api/v1/messages/send-file",
                                {{"conversationId", "conv_unknown", {}, false, {}}, file(kPng, "a.png", "image/png")});
        QCOMPARE(r.status, 404);
        // 422: no conversationId, no file, empty file.
        r = postForm("/api/v1/messages/send-file", {file(kPng, "a.png", "image/png")});
        QCOMPARE(r.status, 422);
        r = postForm("/api/v1/messages/send-file", {{"conversationId", conv.toUtf8(), {}, false, {}}});
        QCOMPARE(r.status, 422);
        r = postForm("/api/v1/messages/send-file",
                     {{"conversationId", conv.toUtf8(), {}, false, {}}, file({}, "a.txt", "text/plain")});
        QCOMPARE(r.status, 422);
        // 400: malformed multipart.
        r = client(m_key)->call("POST", "/api/v1/messages/send-file", "--B\r\nnot a part",
                                {{"Content-Type", "multipart/form-data; boundary=B"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), QString("INVALID_MULTIPART"));

        // 503: a channel that is not configured; checked before the file is stored.
        const Contact contact =
            ContactRepository(testStore())
                .create(ContactRules::parse({{"firstName", "Mehmet"}, {"phone", "+905551112299"}}), QString());
        const Conversation wa =
            ConversationRepository(testStore()).findOrCreate(contact.id, "whatsapp", "+905551112299");
        r = postForm("/api/v1/messages/send-file",
                     {{"conversationId", wa.id.toUtf8(), {}, false, {}}, file(kPng, "a.png", "image/png")});
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
        QCOMPARE(count("SELECT count(*) FROM media"), 0);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);

        // 413 above the limit.
        startServer(100);
        r = postForm("/api/v1/messages/send-file",
                     {{"conversationId", conv.toUtf8(), {}, false, {}}, file(kPng, "a.png", "image/png")});
        QCOMPARE(r.status, 413);
        QCOMPARE(count("SELECT count(*) FROM media"), 0);
    }

    void sendFileWithIdempotencyKeySendsOnce()
    {
        const QString conv = widgetConversation();
        const QList<MultipartField> fields{{"conversationId", conv.toUtf8(), {}, false, {}},
                                           file(kPng, "a.png", "image/png")};
        const HttpResult first = postForm("/api/v1/messages/send-file", fields, {{"Idempotency-Key", "file-1"}});
        QCOMPARE(first.status, 201);
        const HttpResult again = postForm("/api/v1/messages/send-file", fields, {{"Idempotency-Key", "file-1"}});
        QCOMPARE(again.status, 201);
        QCOMPARE(again.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(again.data().value("id").toString(), first.data().value("id").toString());
        QCOMPARE(count("SELECT count(*) FROM messages"), 1);
        QCOMPARE(count("SELECT count(*) FROM media"), 1);
        // Another key sends again.
        QCOMPARE(postForm("/api/v1/messages/send-file", fields, {{"Idempotency-Key", "file-2"}}).status, 201);
        QCOMPARE(count("SELECT count(*) FROM messages"), 2);
    }

    void jsonRoutesKeepTheirLimits()
    {
        // multipart on a JSON route: 415; a JSON body above limits.maxBodyBytes (10 MiB): 413.
        const HttpResult wrongType = postForm("/api/v1/contacts", {{"firstName", "A", {}, false, {}}});
        QCOMPARE(wrongType.status, 415);
        QCOMPARE(wrongType.errorCode(), QString("UNSUPPORTED_MEDIA_TYPE"));
        const QByteArray big = "{\"firstName\":\"" + QByteArray(11 * 1024 * 1024, 'a') + "\"}";
        const HttpResult tooBig = client(m_key)->call("POST", "/api/v1/contacts", big);
        QCOMPARE(tooBig.status, 413);
        QCOMPARE(tooBig.errorCode(), QString("PAYLOAD_TOO_LARGE"));
    }

    void openApiDescribesMultipartBodies()
    {
        const QJsonObject doc = m_server->server().openApi();
        const QJsonObject paths = doc.value("paths").toObject();
        for (const QString &path :
             {QStringLiteral("/api/v1/media/upload"), QStringLiteral("/api/v1/messages/send-file")}) {
            const QJsonObject content = paths.value(path)
                                            .toObject()
                                            .value("post")
                                            .toObject()
                                            .value("requestBody")
                                            .toObject()
                                            .value("content")
                                            .toObject();
            QVERIFY2(content.contains("multipart/form-data"), qPrintable(path));
            QVERIFY(!content.contains("application/json"));
            QCOMPARE(content.value("multipart/form-data")
                         .toObject()
                         .value("schema")
                         .toObject()
                         .value("properties")
                         .toObject()
                         .value("file")
                         .toObject()
                         .value("format")
                         .toString(),
                     QString("binary"));
        }
        QVERIFY(paths.contains("/media/{mediaId}/{token}"));
        QVERIFY(doc.value("components").toObject().value("schemas").toObject().contains("MediaUpload"));
    }

    void cleanerDeletesExpiredMediaAndOrphans()
    {
        const HttpResult a = postForm("/api/v1/media/upload", {file(kPng, "a.png", "image/png")});
        const HttpResult b = postForm("/api/v1/media/upload", {file(kPdf, "b.pdf", "application/pdf")});
        const QString expired = a.data().value("mediaId").toString();
        const QString kept = b.data().value("mediaId").toString();
        Database::exec("UPDATE media SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?", {expired});
        // An orphan: a file with no row, older than an hour (a directory left from SQLite days on
        // PostgreSQL, where uploads are not files).
        QVERIFY(QDir().mkpath(m_db->dir() + "/media"));
        const QString orphan = m_db->dir() + "/media/media_orphan";
        QFile f(orphan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
        f.flush();
        f.setFileTime(QDateTime::currentDateTimeUtc().addDays(-1), QFileDevice::FileModificationTime);
        f.close();

        MediaCleaner cleaner(m_server->store(), m_db->dir() + "/media");
        QCOMPARE(cleaner.cleanNow(), 1);
        if (MediaRepository::inDatabase()) {
            QCOMPARE(count("SELECT count(*) FROM media_contents"), 1); // deleted with its row
        } else {
            QVERIFY(!QFile::exists(m_db->dir() + "/media/" + expired));
            QVERIFY(QFile::exists(m_db->dir() + "/media/" + kept));
        }
        QVERIFY(!QFile::exists(orphan));
        QCOMPARE(count("SELECT count(*) FROM media"), 1);
        QCOMPARE(client()->get(pathOf(b.data().value("url").toString())).status, 200);
        QCOMPARE(cleaner.cleanNow(), 0);
    }
};

QTEST_GUILESS_MAIN(TestMediaApi)
#include "test_mediaapi.moc"
