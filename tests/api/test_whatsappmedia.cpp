// WhatsApp media by upload: a media message whose file we hold (payload.mediaId) is uploaded to the
// local fake's POST /{phoneNumberId}/media as multipart and sent by the returned id, once per file;
// without the file it goes by link.
#include "messaging/channels/whatsappconnector.h"
#include "model/core/database.h"
#include "model/inbox/mediarepository.h"
#include "tests/support/fakegraphapi.h"
#include "tests/support/testsupport.h"

#include <QtTest>

namespace {
std::optional<SendOutcome> sendWith(ChannelConnector &connector, const Message &m, const QString &to)
{
    std::optional<SendOutcome> out;
    connector.send(m, to, [&out](const SendOutcome &o) { out = o; });
    (void)QTest::qWaitFor([&out] { return out.has_value(); }, 10000);
    return out;
}
} // namespace

class TestWhatsAppMedia : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<FakeGraphApi> m_fake;

    WhatsAppConfig config() const
    {
        WhatsAppConfig c;
        c.apiBaseUrl = m_fake->baseUrl();
        c.phoneNumberId = m_fake->phoneNumberId;
        c.accessToken = m_fake->token;
        return c;
    }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_fake = std::make_unique<FakeGraphApi>();
    }

    void cleanup()
    {
        QVERIFY2(m_fake->problems().isEmpty(), qPrintable(m_fake->problems().join('\n')));
        m_fake.reset();
        Database::closeThreadConnection();
        m_db.reset();
    }

    void uploadsOurFileAndSendsById()
    {
        const QString mediaDir = m_db->dir() + QStringLiteral("/media");
        const QByteArray png = QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(2000, 'x');
        MediaUpload upload;
        upload.bytes = png;
        upload.filename = QStringLiteral("teklif \"v2\".png");
        upload.declaredType = "image/png";
        const Media media = MediaRepository(testStore(), mediaDir).store(upload);

        WhatsAppConnector connector(config(), 5, nullptr, MediaRepository(testStore(), mediaDir));
        Message m;
        m.type = QStringLiteral("image");
        m.caption = QStringLiteral("Teklifimiz");
        m.mediaUrl = QStringLiteral("/media/") + media.id + QStringLiteral("/token"); // not reachable by Meta
        m.payload = {{QStringLiteral("mediaId"), media.id}};
        std::optional<SendOutcome> outcome = sendWith(connector, m, QStringLiteral("+905321234567"));
        QVERIFY(outcome);
        QCOMPARE(outcome->kind, SendOutcome::Sent);
        QCOMPARE(m_fake->uploads.size(), 1);
        QCOMPARE(m_fake->uploads.first().bytes, png);
        QCOMPARE(m_fake->uploads.first().mimeType, QByteArray("image/png"));
        QCOMPARE(m_fake->sends().size(), 1);
        const QJsonObject image = m_fake->sends().first().json.value("image").toObject();
        QCOMPARE(image.value("id").toString(), QStringLiteral("media.FAKE1"));
        QCOMPARE(image.value("caption").toString(), QStringLiteral("Teklifimiz"));
        QVERIFY(!image.contains("link"));

        // The same file again: sent by the same id, not uploaded twice.
        outcome = sendWith(connector, m, QStringLiteral("+905321234567"));
        QCOMPARE(outcome->kind, SendOutcome::Sent);
        QCOMPARE(m_fake->uploads.size(), 1);
        QCOMPARE(m_fake->sends().last().json.value("image").toObject().value("id").toString(),
                 QStringLiteral("media.FAKE1"));
    }

    void withoutTheFileItGoesByLink()
    {
        const QString mediaDir = m_db->dir() + QStringLiteral("/media");
        WhatsAppConnector connector(config(), 5, nullptr, MediaRepository(testStore(), mediaDir));
        Message m;
        m.type = QStringLiteral("document");
        m.mediaUrl = QStringLiteral("https://files.example.com/price-list.pdf");
        m.filename = QStringLiteral("price-list.pdf");
        m.payload = {{QStringLiteral("mediaId"), QStringLiteral("media_unknown")}};
        const std::optional<SendOutcome> outcome = sendWith(connector, m, QStringLiteral("+905321234567"));
        QVERIFY(outcome);
        QCOMPARE(outcome->kind, SendOutcome::Sent);
        QCOMPARE(m_fake->uploads.size(), 0);
        QCOMPARE(m_fake->sends().first().json.value("document").toObject().value("link").toString(),
                 QStringLiteral("https://files.example.com/price-list.pdf"));
    }
};

QTEST_GUILESS_MAIN(TestWhatsAppMedia)
#include "test_whatsappmedia.moc"
