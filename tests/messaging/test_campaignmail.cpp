// The e-mail of one campaign recipient, data-driven: which links are tracked and how (entities,
// quotes, the unsubscribe link left alone), the open pixel's place, the headers (List-Unsubscribe
// URL and mailto, one-click, Message-ID), the VERP envelope sender and its reading back, and a
// message without a public base URL (no links, mailto only).
#include "messaging/campaigns/campaignmail.h"

#include <QtTest>

namespace {
CampaignSend sampleSend()
{
    CampaignSend s;
    s.recipientId = QStringLiteral("rcp_01kbx7y3z4a5b6c7d8e9f0g1h2");
    s.campaignId = QStringLiteral("cmp_01kbx7y3z4a5b6c7d8e9f0g1h3");
    s.address = QStringLiteral("ayse@ornek.com.tr");
    s.name = QStringLiteral("Ayşe Yılmaz");
    s.contact.firstName = QStringLiteral("Ayşe");
    s.subject = QStringLiteral("Merhaba {{firstName}},\n Kasım'a özel");
    s.htmlContent = QStringLiteral("<html><body><p><a href=\"https://ornek.com.tr/a?x=1&amp;y=2\">a</a> "
                                   "<a href='http://ornek.com.tr/b'>b</a> <a href=\"mailto:x@y.z\">m</a> "
                                   "<a href=\"{{unsubscribeUrl}}\">çık</a></p></body></html>");
    return s;
}

MailConfig sampleMail()
{
    MailConfig m;
    m.from = QStringLiteral("Örnek Mağaza <kampanya@ornek.com.tr>");
    return m;
}

QString header(const MailMessage &m, const QByteArray &name)
{
    for (const auto &h : m.headers) {
        if (h.first == name)
            return h.second;
    }
    return {};
}
} // namespace

class TestCampaignMail : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rewritesLinks_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("expected");
        QTest::newRow("double quotes") << "<a href=\"https://a.b/c\">x</a>"
                                       << "<a href=\"[https://a.b/c]\">x</a>";
        QTest::newRow("single quotes") << "<a href='http://a.b'>x</a>"
                                       << "<a href='[http://a.b]'>x</a>";
        QTest::newRow("entity decoded") << "<a href=\"https://a.b/?x=1&amp;y=2\">"
                                        << "<a href=\"[https://a.b/?x=1&amp;y=2]\">";
        QTest::newRow("upper case") << "<A HREF=\"https://a.b\">"
                                    << "<A HREF=\"[https://a.b]\">";
        QTest::newRow("mailto untouched") << "<a href=\"mailto:a@b.c\">"
                                          << "<a href=\"mailto:a@b.c\">";
        QTest::newRow("relative untouched") << "<a href=\"/x\">"
                                            << "<a href=\"/x\">";
        QTest::newRow("text untouched") << "see https://a.b"
                                        << "see https://a.b";
    }

    void rewritesLinks()
    {
        QFETCH(QString, html);
        QFETCH(QString, expected);
        // The rewrite sees the decoded URL; what it returns is escaped back into the attribute.
        QCOMPARE(CampaignMail::rewriteLinks(html, [](const QString &url) { return "[" + url + "]"; }), expected);
    }

    void trackedMessage()
    {
        CampaignMail::Links links{QStringLiteral("https://crm.ornek.com.tr:8443/"), true, "key-key-key-key"};
        const MailMessage m = CampaignMail::compose(sampleSend(), sampleMail(), links);
        QCOMPARE(m.subject, QString("Merhaba Ayşe, Kasım'a özel")); // one line
        QCOMPARE(m.fromName, QString("Örnek Mağaza"));
        QCOMPARE(m.fromAddress, QString("kampanya@ornek.com.tr"));
        QCOMPARE(m.toAddress, QString("ayse@ornek.com.tr"));
        QCOMPARE(m.html.count("https://crm.ornek.com.tr:8443/t/c/rcp_"), 2);
        QVERIFY(m.html.contains("?u=https%3A%2F%2Fornek.com.tr%2Fa%3Fx%3D1%26y%3D2"));
        QVERIFY(m.html.contains("mailto:x@y.z"));
        QVERIFY(m.html.contains("href=\"https://crm.ornek.com.tr:8443/u/rcp_"));
        const qsizetype pixel = m.html.indexOf("https://crm.ornek.com.tr:8443/t/o/rcp_");
        QVERIFY(pixel > 0 && pixel < m.html.indexOf("</body>"));
        const QString unsubscribe = header(m, "List-Unsubscribe");
        QVERIFY(unsubscribe.startsWith("<https://crm.ornek.com.tr:8443/u/rcp_"));
        QVERIFY(unsubscribe.contains("<mailto:kampanya@ornek.com.tr?subject=unsubscribe%20rcp_"));
        QCOMPARE(header(m, "List-Unsubscribe-Post"), QString("List-Unsubscribe=One-Click"));
        QCOMPARE(m.messageId, QString("cmp_01kbx7y3z4a5b6c7d8e9f0g1h3.rcp_01kbx7y3z4a5b6c7d8e9f0g1h2@ornek.com.tr"));
    }

    void untrackedAndLinklessMessages()
    {
        CampaignMail::Links untracked{QStringLiteral("https://crm.ornek.com.tr"), false, "key"};
        MailMessage m = CampaignMail::compose(sampleSend(), sampleMail(), untracked);
        QVERIFY(!m.html.contains("/t/c/"));
        QVERIFY(!m.html.contains("/t/o/"));
        QVERIFY(m.html.contains("https://ornek.com.tr/a?x=1&amp;y=2"));
        QVERIFY(m.html.contains("https://crm.ornek.com.tr/u/rcp_"));
        const CampaignMail::Links none;
        m = CampaignMail::compose(sampleSend(), sampleMail(), none);
        QVERIFY(!m.html.contains("/u/"));
        QVERIFY(header(m, "List-Unsubscribe").startsWith("<mailto:"));
        QVERIFY(header(m, "List-Unsubscribe-Post").isEmpty());
    }

    void envelopeSender()
    {
        const QString e = sampleMail().envelopeSender("rcp_01kbx7y3z4a5b6c7d8e9f0g1h2");
        QCOMPARE(e, QString("kampanya+rcp_01kbx7y3z4a5b6c7d8e9f0g1h2@ornek.com.tr"));
        QCOMPARE(CampaignMail::recipientOfEnvelope(e), QString("rcp_01kbx7y3z4a5b6c7d8e9f0g1h2"));
        QVERIFY(CampaignMail::recipientOfEnvelope("kampanya@ornek.com.tr").isEmpty());
        QVERIFY(CampaignMail::recipientOfEnvelope("kampanya+rcp_short@ornek.com.tr").isEmpty());
    }
};

QTEST_MAIN(TestCampaignMail)
#include "test_campaignmail.moc"
