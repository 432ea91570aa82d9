// SmtpSession against a real SMTP server on loopback (tests/support/smtpsink.py through SmtpSink):
// STARTTLS and AUTH, a Turkish campaign message that arrives with both parts, its subject and
// List-Unsubscribe headers intact and a DKIM signature that verifies, one connection for many
// messages, 550 and 451 answers, a wrong password, TLS refused or unverifiable, and settings that
// must never send in clear.
#include "messaging/mail/mailmessage.h"
#include "messaging/mail/smtpsession.h"
#include "model/core/errors.h"
#include "tests/support/smtpsink.h"

#include <QJsonArray>
#include <QProcess>
#include <QtTest>

namespace {
const QString kUser = QStringLiteral("kampanya");
const QString kPassword = QStringLiteral("gizli-parola-123");
const QString kSubject = QStringLiteral("Kasım kampanyası: %20 indirim");
const QString kHtml = QStringLiteral(
    "<html><head><style>p{color:#333}</style></head><body>"
    "<h1>Merhaba Ayşe Yılmaz,</h1><p>Kasım boyunca İstanbul ve İzmir mağazalarımızda <b>tüm ürünlerde</b> "
    "%20 indirim var. Çağrı merkezimiz: 0212 555 00 00.</p>"
    "<p><a href=\"https://ornek.com.tr/t/c/abc?u=https%3A%2F%2Fornek.com.tr%2Fkampanya\">Kampanyayı gör</a></p>"
    "<p style=\"font-size:11px\">Bu e-postaları almak istemiyorsanız "
    "<a href=\"https://ornek.com.tr/u/tok_123\">abonelikten çıkın</a>.</p></body></html>");

MailConfig configFor(const SmtpSink &sink, const QString &security = MailConfig::securityStartTls())
{
    MailConfig c;
    c.smtpHost = QStringLiteral("127.0.0.1");
    c.smtpPort = sink.port();
    c.security = security;
    c.user = kUser;
    c.password = kPassword;
    c.from = QStringLiteral("Örnek Mağaza <kampanya@ornek.com.tr>");
    c.verifyTls = false; // the sink's certificate is self-signed
    c.timeoutSeconds = 15;
    return c;
}

MailMessage campaignMessage(const QString &to, int n = 1)
{
    MailMessage m;
    m.toName = QStringLiteral("Ayşe Yılmaz");
    m.toAddress = to;
    m.subject = kSubject;
    m.html = kHtml;
    m.messageId = QStringLiteral("cmp_kasim.rcp_%1@ornek.com.tr").arg(n);
    m.headers = {{"List-Unsubscribe", QStringLiteral("<https://ornek.com.tr/u/tok_123>, "
                                                     "<mailto:unsubscribe+tok_123@ornek.com.tr>")},
                 {"List-Unsubscribe-Post", QStringLiteral("List-Unsubscribe=One-Click")}};
    return m;
}

SmtpSink::Options authenticated()
{
    SmtpSink::Options o;
    o.user = kUser;
    o.password = kPassword;
    return o;
}

// A sink that checks DKIM signatures of selector "liaison" of ornek.com.tr with this public key.
SmtpSink::Options verifying(const QByteArray &publicKey)
{
    SmtpSink::Options o = authenticated();
    o.dkimPublicKeyPem = publicKey;
    o.dkimSelector = QStringLiteral("liaison");
    o.dkimDomain = QStringLiteral("ornek.com.tr");
    return o;
}

MailConfig signing(MailConfig config, const QByteArray &privateKey)
{
    config.dkimDomain = QStringLiteral("ornek.com.tr");
    config.dkimSelector = QStringLiteral("liaison");
    config.dkimKeyPem = privateKey;
    return config;
}
} // namespace

class TestSmtpSession : public QObject
{
    Q_OBJECT
    QTemporaryDir m_keys;
    QByteArray m_privateKey, m_publicKey, m_otherPrivateKey;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_keys.isValid());
        std::tie(m_privateKey, m_publicKey) = SmtpSink::makeRsaKey(m_keys.path(), QStringLiteral("dkim"));
        QVERIFY2(m_privateKey.contains("PRIVATE KEY") && m_publicKey.contains("PUBLIC KEY"), "openssl genpkey failed");
        m_otherPrivateKey = SmtpSink::makeRsaKey(m_keys.path(), QStringLiteral("other")).first;
        QVERIFY(!m_otherPrivateKey.isEmpty());
    }

    void aTurkishCampaignMessageArrivesIntactAndSigned()
    {
        SmtpSink sink(verifying(m_publicKey));
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));

        const MailConfig config = signing(configFor(sink), m_privateKey);
        config.check();
        const MailMessage m = campaignMessage(QStringLiteral("ayse.yilmaz@musteri.com.tr"));
        const QByteArray bytes = MailComposer::compose(config, m, QDateTime::currentDateTimeUtc());
        QVERIFY(
            bytes.startsWith("DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;\r\n\td=ornek.com.tr; s=liaison;"));

        SmtpSession session(config);
        const SmtpOutcome outcome = session.send(QStringLiteral("bounce+rcp_1@ornek.com.tr"),
                                                 QStringLiteral("ayse.yilmaz@musteri.com.tr"), bytes);
        QCOMPARE(outcome.kind, SmtpOutcome::Sent);
        QCOMPARE(outcome.code, 250);
        QVERIFY2(outcome.detail.contains(QLatin1String("queued")), qPrintable(outcome.detail));

        QVERIFY(sink.waitForMessages(1));
        const QJsonObject got = sink.messages().first();
        QCOMPARE(got[QLatin1String("mailFrom")].toString(), QStringLiteral("bounce+rcp_1@ornek.com.tr"));
        QCOMPARE(got[QLatin1String("recipients")].toArray(), QJsonArray{QStringLiteral("ayse.yilmaz@musteri.com.tr")});
        QCOMPARE(got[QLatin1String("tls")].toBool(), true);
        QCOMPARE(got[QLatin1String("auth")].toBool(), true);
        QCOMPARE(got[QLatin1String("dkim")], QJsonValue(true));
        QCOMPARE(got[QLatin1String("bareLineFeeds")].toInt(), 0);
        QVERIFY2(got[QLatin1String("longestLine")].toInt() <= 78, qPrintable(sink.rawMessage(1)));
        QCOMPARE(got[QLatin1String("contentType")].toString(), QStringLiteral("multipart/alternative"));
        const QJsonObject headers = got[QLatin1String("headers")].toObject();
        QCOMPARE(headers[QLatin1String("Subject")].toString(), kSubject);
        QCOMPARE(headers[QLatin1String("From")].toString(), QStringLiteral("Örnek Mağaza <kampanya@ornek.com.tr>"));
        QCOMPARE(headers[QLatin1String("To")].toString(), QStringLiteral("Ayşe Yılmaz <ayse.yilmaz@musteri.com.tr>"));
        QCOMPARE(headers[QLatin1String("Message-ID")].toString(), QStringLiteral("<cmp_kasim.rcp_1@ornek.com.tr>"));
        QCOMPARE(headers[QLatin1String("MIME-Version")].toString(), QStringLiteral("1.0"));
        QVERIFY(!headers[QLatin1String("Date")].toString().isEmpty());
        QCOMPARE(headers[QLatin1String("List-Unsubscribe")].toString(),
                 QStringLiteral("<https://ornek.com.tr/u/tok_123>, <mailto:unsubscribe+tok_123@ornek.com.tr>"));
        QCOMPARE(headers[QLatin1String("List-Unsubscribe-Post")].toString(),
                 QStringLiteral("List-Unsubscribe=One-Click"));
        // Both parts decode to exactly what was written.
        QCOMPARE(got[QLatin1String("html")].toString(), kHtml);
        // (The sink's decoder keeps the CRLF line ends of the transfer.)
        QCOMPARE(got[QLatin1String("text")].toString().replace(QLatin1String("\r\n"), QLatin1String("\n")),
                 HtmlText::toText(kHtml));
        QCOMPARE(got[QLatin1String("textTransferEncoding")].toString(), QStringLiteral("quoted-printable"));
        QVERIFY(got[QLatin1String("text")].toString().contains(
            QStringLiteral("Kampanyayı gör (https://ornek.com.tr/t/c/abc?u=https%3A%2F%2Fornek.com.tr%2Fkampanya)")));
        QVERIFY(got[QLatin1String("text")].toString().contains(QStringLiteral("Çağrı merkezimiz")));

        // Folded headers (a long subject in several encoded words, a long name) keep the signature.
        MailMessage folded = campaignMessage(QStringLiteral("mehmet@musteri.com.tr"), 2);
        folded.subject = QStringLiteral("Çok özel bir teklif: İstanbul, İzmir ve Ankara mağazalarımızda Kasım boyunca "
                                        "ğüşıöç ürünlerde büyük indirim, kaçırmayın!");
        folded.toName = QStringLiteral("Mehmet Çağrı Öztürk-Şahinoğlu (Satın Alma Müdürü, İstanbul Bölge)");
        const QByteArray foldedBytes = MailComposer::compose(config, folded, QDateTime::currentDateTimeUtc());
        QVERIFY(foldedBytes.contains("Subject: =?UTF-8?") && foldedBytes.contains("?=\r\n =?UTF-8?"));
        QCOMPARE(session.send(config.fromAddress(), folded.toAddress, foldedBytes).kind, SmtpOutcome::Sent);
        QVERIFY(sink.waitForMessages(2));
        const QJsonObject second = sink.messages().at(1);
        QCOMPARE(second[QLatin1String("dkim")], QJsonValue(true));
        QVERIFY2(second[QLatin1String("longestLine")].toInt() <= 78, qPrintable(sink.rawMessage(2)));
        QCOMPARE(second[QLatin1String("headers")].toObject()[QLatin1String("Subject")].toString(), folded.subject);
        QCOMPARE(second[QLatin1String("headers")].toObject()[QLatin1String("To")].toString(),
                 QStringLiteral("Mehmet Çağrı Öztürk-Şahinoğlu (Satın Alma Müdürü, İstanbul Bölge) "
                                "<mehmet@musteri.com.tr>"));
        QCOMPARE(session.connectionsOpened(), 1);
    }

    void aSignatureWithAnotherKeyDoesNotVerify()
    {
        SmtpSink sink(verifying(m_publicKey));
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        const MailConfig config = signing(configFor(sink), m_otherPrivateKey);
        SmtpSession session(config);
        const MailMessage m = campaignMessage(QStringLiteral("mehmet@musteri.com.tr"));
        QCOMPARE(session
                     .send(config.fromAddress(), m.toAddress,
                           MailComposer::compose(config, m, QDateTime::currentDateTimeUtc()))
                     .kind,
                 SmtpOutcome::Sent);
        QVERIFY(sink.waitForMessages(1));
        QCOMPARE(sink.messages().first()[QLatin1String("dkim")], QJsonValue(false));
    }

    void oneConnectionCarriesManyMessages()
    {
        SmtpSink sink(authenticated());
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        const MailConfig config = configFor(sink);
        const MailComposer composer(config);
        SmtpSession session(config);
        for (int i = 1; i <= 20; ++i) {
            const MailMessage m = campaignMessage(QStringLiteral("alici%1@musteri.com.tr").arg(i), i);
            const SmtpOutcome o = session.send(QStringLiteral("bounce+rcp_%1@ornek.com.tr").arg(i), m.toAddress,
                                               composer.compose(m, QDateTime::currentDateTimeUtc()));
            QVERIFY2(o.kind == SmtpOutcome::Sent, qPrintable(o.detail));
        }
        QCOMPARE(session.connectionsOpened(), 1);
        QVERIFY(sink.waitForMessages(20));
        const QList<QJsonObject> got = sink.messages();
        QCOMPARE(got.size(), 20);
        QSet<qint64> connections;
        for (int i = 0; i < got.size(); ++i) {
            connections.insert(qint64(got[i][QLatin1String("connection")].toDouble()));
            QCOMPARE(got[i][QLatin1String("recipients")].toArray().first().toString(),
                     QStringLiteral("alici%1@musteri.com.tr").arg(i + 1));
        }
        QCOMPARE(connections.size(), 1); // the server saw one session too
    }

    void aConnectionTheServerClosedIsOpenedAgain()
    {
        SmtpSink::Options o = authenticated();
        o.idleTimeoutSeconds = 0.5;
        SmtpSink sink(o);
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        const MailConfig config = configFor(sink);
        SmtpSession session(config);
        const auto send = [&](int n) {
            const MailMessage m = campaignMessage(QStringLiteral("alici%1@musteri.com.tr").arg(n), n);
            return session.send(config.fromAddress(), m.toAddress,
                                MailComposer::compose(config, m, QDateTime::currentDateTimeUtc()));
        };
        QCOMPARE(send(1).kind, SmtpOutcome::Sent);
        // The server gives up the idle connection (421) and closes it.
        QTRY_VERIFY_WITH_TIMEOUT(sink.closedConnections() >= 1, 20000);
        const SmtpOutcome again = send(2);
        QVERIFY2(again.kind == SmtpOutcome::Sent, qPrintable(again.detail));
        QCOMPARE(session.connectionsOpened(), 2);
        QVERIFY(sink.waitForMessages(2));
        QCOMPARE(sink.messages().size(), 2);
    }

    void refusedRecipientsBounceHardOrSoft()
    {
        SmtpSink sink(authenticated());
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        const MailConfig config = configFor(sink);
        SmtpSession session(config);
        const auto send = [&](const QString &to) {
            const MailMessage m = campaignMessage(to);
            return session.send(config.fromAddress(), to,
                                MailComposer::compose(config, m, QDateTime::currentDateTimeUtc()));
        };
        const SmtpOutcome hard = send(QStringLiteral("hard-bounce@musteri.com.tr"));
        QCOMPARE(hard.kind, SmtpOutcome::HardBounce);
        QCOMPARE(hard.code, 550);
        QVERIFY2(hard.detail.contains(QLatin1String("mailbox unavailable")), qPrintable(hard.detail));
        const SmtpOutcome soft = send(QStringLiteral("soft-bounce-1@musteri.com.tr"));
        QCOMPARE(soft.kind, SmtpOutcome::SoftFailure);
        QCOMPARE(soft.code, 451);
        QVERIFY2(soft.detail.contains(QLatin1String("try again later")), qPrintable(soft.detail));
        // The session goes on sending after refusals.
        const SmtpOutcome ok = send(QStringLiteral("ayse@musteri.com.tr"));
        QVERIFY2(ok.kind == SmtpOutcome::Sent, qPrintable(ok.detail));
        QVERIFY(sink.waitForMessages(1));
        QCOMPARE(sink.messages().size(), 1);
    }

    void aWrongPasswordFailsSoftly()
    {
        SmtpSink sink(authenticated());
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        MailConfig config = configFor(sink);
        config.password = QStringLiteral("yanlis");
        SmtpSession session(config);
        const SmtpOutcome o =
            session.send(config.fromAddress(), QStringLiteral("ayse@musteri.com.tr"), "Subject: x\r\n\r\nx\r\n");
        QCOMPARE(o.kind, SmtpOutcome::SoftFailure);
        QCOMPARE(o.code, 535);
        QVERIFY(!o.detail.isEmpty());
        // Without a user the server's "authentication required" is a failure too.
        config.user.clear();
        SmtpSession anonymous(config);
        const SmtpOutcome refused =
            anonymous.send(config.fromAddress(), QStringLiteral("ayse@musteri.com.tr"), "Subject: x\r\n\r\nx\r\n");
        QVERIFY2(refused.kind == SmtpOutcome::SoftFailure, qPrintable(QString::number(refused.code) + refused.detail));
        QCOMPARE(refused.code, 530);
        QCOMPARE(sink.messageCount(), 0);
    }

    void plainSmtpIsRefusedBeyondLoopback()
    {
        MailConfig config;
        config.smtpHost = QStringLiteral("192.0.2.10"); // TEST-NET: never contacted
        config.smtpPort = 25;
        config.security = MailConfig::securityNone();
        config.from = QStringLiteral("kampanya@ornek.com.tr");
        QVERIFY(!config.usable());
        QVERIFY_THROWS_EXCEPTION(DomainError, config.check());
        SmtpSession session(config);
        const SmtpOutcome o =
            session.send(config.fromAddress(), QStringLiteral("ayse@musteri.com.tr"), "Subject: x\r\n\r\nx\r\n");
        QCOMPARE(o.kind, SmtpOutcome::SoftFailure);
        QCOMPARE(o.code, 0);
        QVERIFY2(o.detail.contains(QLatin1String("loopback")), qPrintable(o.detail));
        QCOMPARE(session.connectionsOpened(), 0);
    }

    void plainSmtpToLoopbackSends()
    {
        SmtpSink::Options o;
        o.offerStartTls = false;
        SmtpSink sink(o);
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        MailConfig config = configFor(sink, MailConfig::securityNone());
        config.user.clear();
        SmtpSession session(config);
        const MailMessage m = campaignMessage(QStringLiteral("ayse@musteri.com.tr"));
        const SmtpOutcome outcome = session.send(config.fromAddress(), m.toAddress,
                                                 MailComposer::compose(config, m, QDateTime::currentDateTimeUtc()));
        QVERIFY2(outcome.kind == SmtpOutcome::Sent, qPrintable(outcome.detail));
        QVERIFY(sink.waitForMessages(1));
        QCOMPARE(sink.messages().first()[QLatin1String("tls")].toBool(), false);
    }

    void startTlsRequiredButNotOfferedSendsNothing()
    {
        SmtpSink::Options o;
        o.offerStartTls = false;
        SmtpSink sink(o);
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        MailConfig config = configFor(sink); // starttls, with a user and password
        SmtpSession session(config);
        const MailMessage m = campaignMessage(QStringLiteral("ayse@musteri.com.tr"));
        const SmtpOutcome outcome = session.send(config.fromAddress(), m.toAddress,
                                                 MailComposer::compose(config, m, QDateTime::currentDateTimeUtc()));
        QCOMPARE(outcome.kind, SmtpOutcome::SoftFailure);
        QVERIFY(!outcome.detail.isEmpty());
        QVERIFY(!sink.waitForMessages(1, 500));
        QCOMPARE(sink.messageCount(), 0); // not in clear, not at all
    }

    void implicitTlsSends()
    {
        SmtpSink::Options o = authenticated();
        o.implicitTls = true;
        SmtpSink sink(o);
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        const MailConfig config = configFor(sink, MailConfig::securityTls());
        SmtpSession session(config);
        const MailMessage m = campaignMessage(QStringLiteral("ayse@musteri.com.tr"));
        const SmtpOutcome outcome = session.send(config.fromAddress(), m.toAddress,
                                                 MailComposer::compose(config, m, QDateTime::currentDateTimeUtc()));
        QVERIFY2(outcome.kind == SmtpOutcome::Sent, qPrintable(outcome.detail));
        QVERIFY(sink.waitForMessages(1));
        QCOMPARE(sink.messages().first()[QLatin1String("tls")].toBool(), true);
        QCOMPARE(sink.messages().first()[QLatin1String("auth")].toBool(), true);
    }

    void anUntrustedCertificateIsRefusedWhenVerifying()
    {
        SmtpSink sink(authenticated());
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        MailConfig config = configFor(sink);
        config.verifyTls = true; // the default: the sink's self-signed certificate is not trusted
        SmtpSession session(config);
        const SmtpOutcome outcome =
            session.send(config.fromAddress(), QStringLiteral("ayse@musteri.com.tr"), "Subject: x\r\n\r\nx\r\n");
        QCOMPARE(outcome.kind, SmtpOutcome::SoftFailure);
        QVERIFY(!sink.waitForMessages(1, 500));
        QCOMPARE(sink.messageCount(), 0);
    }

    void aClosedServerIsASoftFailure()
    {
        quint16 port = 0;
        {
            SmtpSink sink(authenticated());
            QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
            port = sink.port();
        } // stopped: nothing listens on the port now
        MailConfig config;
        config.smtpHost = QStringLiteral("127.0.0.1");
        config.smtpPort = port;
        config.from = QStringLiteral("kampanya@ornek.com.tr");
        config.timeoutSeconds = 5;
        SmtpSession session(config);
        const SmtpOutcome outcome =
            session.send(config.fromAddress(), QStringLiteral("ayse@musteri.com.tr"), "Subject: x\r\n\r\nx\r\n");
        QCOMPARE(outcome.kind, SmtpOutcome::SoftFailure);
        QCOMPARE(outcome.code, 0);
    }

    void addressesCannotCarryCommands()
    {
        SmtpSink sink(authenticated());
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        const MailConfig config = configFor(sink);
        SmtpSession session(config);
        const SmtpOutcome o = session.send(config.fromAddress(), QStringLiteral("a@b.com>\r\nRCPT TO:<c@d.com"),
                                           "Subject: x\r\n\r\nx\r\n");
        QCOMPARE(o.kind, SmtpOutcome::HardBounce);
        QCOMPARE(session.connectionsOpened(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSmtpSession)
#include "test_smtpsession.moc"
