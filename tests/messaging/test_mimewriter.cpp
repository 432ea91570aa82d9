// The e-mail writing of campaigns (messaging/mail/mailmessage.h): quoted-printable bodies and
// RFC 2047 headers that carry Turkish text, line lengths, the text part made from the HTML, the
// whole MIME message, DKIM's canonical forms, and the mail settings' parsing and refusals.
#include "messaging/mail/mailconfig.h"
#include "messaging/mail/mailmessage.h"
#include "model/core/errors.h"

#include <QtTest>

namespace {
// Decodes quoted-printable (soft breaks removed, CRLF kept as LF).
QByteArray decodeQp(const QByteArray &qp)
{
    QByteArray out;
    for (int i = 0; i < qp.size(); ++i) {
        if (qp[i] == '=' && i + 2 < qp.size() + 1 && qp.mid(i + 1, 2) == "\r\n") {
            i += 2;
        } else if (qp[i] == '=' && i + 2 < qp.size()) {
            out += char(qp.mid(i + 1, 2).toInt(nullptr, 16));
            i += 2;
        } else if (qp[i] == '\r' && i + 1 < qp.size() && qp[i + 1] == '\n') {
            out += '\n';
            ++i;
        } else {
            out += qp[i];
        }
    }
    return out;
}

// Decodes one "=?UTF-8?B|Q?…?=" word to its bytes (an empty result for anything else).
QByteArray decodeWord(const QByteArray &word)
{
    if (!word.startsWith("=?UTF-8?") || !word.endsWith("?=") || word.size() < 12)
        return {};
    const QByteArray data = word.mid(10, word.size() - 12);
    if (word[8] == 'B')
        return QByteArray::fromBase64(data);
    QByteArray q = data;
    q.replace('_', ' ');
    return decodeQp(q);
}

// The text of an encoded header value (words joined by CRLF SP), or the value itself when plain.
QString decodeHeader(const QByteArray &value)
{
    if (!value.startsWith("=?"))
        return QString::fromUtf8(value);
    QByteArray bytes;
    for (const QByteArray &w : value.split('\n'))
        bytes += decodeWord(w.trimmed());
    return QString::fromUtf8(bytes);
}

int longestLine(const QByteArray &text)
{
    int longest = 0;
    for (const QByteArray &l : text.split('\n'))
        longest = qMax(longest, int(l.size()) - (l.endsWith('\r') ? 1 : 0));
    return longest;
}

bool hasBareLineFeed(const QByteArray &text)
{
    for (int i = 0; i < text.size(); ++i)
        if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
            return true;
    return false;
}

const QString kTurkish = QStringLiteral("Kasım kampanyası: %20 indirim");
} // namespace

class TestMimeWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quotedPrintable_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("ascii") << QByteArray("Merhaba") << QByteArray("Merhaba");
        QTest::newRow("turkish") << QStringLiteral("Kasım ığüşöç İĞÜ").toUtf8()
                                 << QByteArray("Kas=C4=B1m =C4=B1=C4=9F=C3=BC=C5=9F=C3=B6=C3=A7 "
                                               "=C4=B0=C4=9E=C3=9C");
        QTest::newRow("equals") << QByteArray("a=b") << QByteArray("a=3Db");
        QTest::newRow("trailing spaces") << QByteArray("sat\xc4\xb1r  \nnext\t\n")
                                         << QByteArray("sat=C4=B1r =20\r\nnext=09\r\n");
        QTest::newRow("crlf kept") << QByteArray("a\r\nb") << QByteArray("a\r\nb");
        QTest::newRow("bare cr") << QByteArray("a\rb") << QByteArray("a=0Db");
        QTest::newRow("cr at the end") << QByteArray("a\r") << QByteArray("a=0D");
        QTest::newRow("76 fits") << QByteArray(76, 'x') << QByteArray(76, 'x');
        QTest::newRow("77 folds") << QByteArray(77, 'x') << QByteArray(75, 'x') + "=\r\nxx";
        QTest::newRow("escape never split") << QByteArray(74, 'x') + "\xc4\xb1" << QByteArray(74, 'x') + "=\r\n=C4=B1";
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("From at a line's start")
            << QByteArray("From here\nFrom there: From") << QByteArray("=46rom here\r\n=46rom there: From");
    }
    void quotedPrintable()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        QCOMPARE(MimeWriter::quotedPrintable(input), expected);
    }

    void quotedPrintableRoundTripsWithShortLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("long turkish") << QStringLiteral("Değerli müşterimiz, İstanbul’daki mağazamızda Kasım ayı "
                                                        "boyunca tüm ürünlerde %20 indirim var. Şimdi gelin!")
                                             .repeated(5);
        QTest::newRow("lines") << QStringLiteral("Birinci satır\nİkinci satır = eşit \n\nÜçüncü\t\n");
        QTest::newRow("spaces at a break")
            << QString(74, QLatin1Char('a')) + QStringLiteral("     ") + QString(80, QChar(0x131));
    }
    void quotedPrintableRoundTripsWithShortLines()
    {
        QFETCH(QString, text);
        const QByteArray qp = MimeWriter::quotedPrintable(text.toUtf8());
        QVERIFY2(longestLine(qp) <= 76, qp.constData());
        QVERIFY(!hasBareLineFeed(qp));
        for (const QByteArray &line : qp.split('\n')) {
            const QByteArray l = line.endsWith('\r') ? line.chopped(1) : line;
            QVERIFY2(!l.endsWith(' ') && !l.endsWith('\t'), l.constData()); // trailing white space is lost in transit
            for (const char c : l)
                QVERIFY(uchar(c) < 0x80);
        }
        QCOMPARE(QString::fromUtf8(decodeQp(qp)), QString(text).replace(QLatin1String("\r\n"), QLatin1String("\n")));
    }

    void encodedWord_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("ascii unchanged") << QStringLiteral("November sale: 20% off")
                                         << QByteArray("November sale: 20% off");
        QTest::newRow("turkish, Q shorter")
            << kTurkish << QByteArray("=?UTF-8?Q?Kas=C4=B1m_kampanyas=C4=B1=3A_=2520_indirim?=");
        QTest::newRow("mostly non-latin, B shorter")
            << QStringLiteral("ığüşöçİĞÜ") << "=?UTF-8?B?" + QStringLiteral("ığüşöçİĞÜ").toUtf8().toBase64() + "?=";
        QTest::newRow("empty") << QString() << QByteArray();
        QTest::newRow("looks encoded") << QStringLiteral("=?UTF-8?B?eA==?=")
                                       << QByteArray("=?UTF-8?B?PT9VVEYtOD9CP2VBPT0/PQ==?=");
    }
    void encodedWord()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, expected);
        QCOMPARE(MimeWriter::encodedWord(text), expected);
        QCOMPARE(decodeHeader(MimeWriter::encodedWord(text)), text);
    }

    void longSubjectsAreFoldedIntoWholeCharacters()
    {
        const QString subject = QStringLiteral("Çok özel bir teklif: İstanbul, İzmir ve Ankara mağazalarımızda "
                                               "Kasım boyunca ğüşıöç ürünlerde büyük indirim 😀 kaçırmayın");
        const QByteArray encoded = MimeWriter::encodedWord(subject);
        const QList<QByteArray> words = encoded.split('\n');
        QVERIFY(words.size() > 2);
        for (const QByteArray &w : words) {
            const QByteArray word = w.trimmed();
            QVERIFY2(word.size() <= 60, word.constData());
            // Each word alone is whole UTF-8: no character (nor the emoji's surrogate pair) cut in two.
            const QByteArray bytes = decodeWord(word);
            QVERIFY(!bytes.isEmpty());
            QVERIFY2(!QString::fromUtf8(bytes).contains(QChar::ReplacementCharacter), word.constData());
        }
        QCOMPARE(decodeHeader(encoded), subject);
        QVERIFY(longestLine("Subject: " + encoded) <= 78);
    }

    // Random text of markup, entities, Turkish letters, emoji, controls and white space: the encodings
    // decode back to it, lines stay short, and the text part is made without a crash or markup.
    void randomTextSurvives()
    {
        const QStringList pieces = {QStringLiteral("<"),       QStringLiteral(">"),
                                    QStringLiteral("&"),       QStringLiteral(";"),
                                    QStringLiteral("\""),      QStringLiteral("'"),
                                    QStringLiteral("="),       QStringLiteral(" "),
                                    QStringLiteral("\t"),      QStringLiteral("\n"),
                                    QStringLiteral("\r\n"),    QStringLiteral("ığüşöçİĞÜŞÖÇ"),
                                    QStringLiteral("😀"),       QStringLiteral("<p>"),
                                    QStringLiteral("</a>"),    QStringLiteral("<a href=\"https://x.tr/?a=1&amp;b\">"),
                                    QStringLiteral("&#x131;"), QStringLiteral("&amp"),
                                    QStringLiteral("<!--"),    QStringLiteral("<script>"),
                                    QStringLiteral("From "),   QStringLiteral("kelime"),
                                    QStringLiteral("."),       QString(QChar(0x1)),
                                    QString(QChar(0xA0)),      QStringLiteral("<br/>")};
        QRandomGenerator random(20261129);
        for (int round = 0; round < 500; ++round) {
            QString text;
            const int count = random.bounded(1, 60);
            for (int i = 0; i < count; ++i)
                text += pieces[random.bounded(int(pieces.size()))];
            const QByteArray qp = MimeWriter::quotedPrintable(text.toUtf8());
            QVERIFY2(longestLine(qp) <= 76, qp.constData());
            QVERIFY(!hasBareLineFeed(qp));
            QCOMPARE(QString::fromUtf8(decodeQp(qp)),
                     QString(text).replace(QLatin1String("\r\n"), QLatin1String("\n")));
            const QString oneLine = text.simplified();
            const QByteArray word = MimeWriter::encodedWord(oneLine);
            QCOMPARE(decodeHeader(word), oneLine);
            QVERIFY(longestLine("Subject: " + word) <= 78 || !word.startsWith("=?"));
            const QString plain = HtmlText::toText(text);
            QVERIFY2(!plain.contains(QLatin1String("<script>")), qPrintable(plain));
        }
    }

    void mailboxes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("address only") << QString() << QByteArray("ayse@ornek.com.tr");
        QTest::newRow("plain name") << QStringLiteral("Ornek Ltd") << QByteArray("Ornek Ltd <ayse@ornek.com.tr>");
        QTest::newRow("specials quoted") << QStringLiteral("Yilmaz, A. \"Ayse\"")
                                         << QByteArray("\"Yilmaz, A. \\\"Ayse\\\"\" <ayse@ornek.com.tr>");
        QTest::newRow("turkish encoded")
            << QStringLiteral("Ayşe Yılmaz")
            << QByteArray("=?UTF-8?B?QXnFn2UgWcSxbG1heg==?= <ayse@ornek.com.tr>"); // B: one shorter than Q
    }
    void mailboxes()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, expected);
        QCOMPARE(MimeWriter::mailbox(name, QStringLiteral("ayse@ornek.com.tr")), expected);
    }

    void dateValue()
    {
        const QDateTime istanbul(QDate(2026, 11, 29), QTime(1, 49, 35), Qt::OffsetFromUTC, 3 * 3600);
        QCOMPARE(MimeWriter::dateValue(istanbul), QByteArray("Sun, 29 Nov 2026 01:49:35 +0300"));
        const QDateTime utc(QDate(2027, 3, 1), QTime(23, 5, 0), Qt::UTC);
        QCOMPARE(MimeWriter::dateValue(utc), QByteArray("Mon, 1 Mar 2027 23:05:00 +0000"));
    }

    void htmlText_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("text");
        QTest::newRow("paragraphs") << QStringLiteral("<p>Merhaba <b>Ayşe</b>,</p>\n  <p>Yeni   ürünler\ngeldi.</p>")
                                    << QStringLiteral("Merhaba Ayşe,\n\nYeni ürünler geldi.");
        QTest::newRow("link") << QStringLiteral("<a href=\"https://ornek.com.tr/k?a=1&amp;b=2\">Kampanyayı gör</a>")
                              << QStringLiteral("Kampanyayı gör (https://ornek.com.tr/k?a=1&b=2)");
        QTest::newRow("link showing its url")
            << QStringLiteral("<a href='https://ornek.com.tr'>https://ornek.com.tr</a>")
            << QStringLiteral("https://ornek.com.tr");
        QTest::newRow("mailto") << QStringLiteral("Yazın: <a href=\"mailto:destek@ornek.com.tr\">destek</a>")
                                << QStringLiteral("Yazın: destek (destek@ornek.com.tr)");
        QTest::newRow("anchor only") << QStringLiteral("<a href=\"#top\">Başa dön</a>") << QStringLiteral("Başa dön");
        QTest::newRow("scripts and styles dropped")
            << QStringLiteral("<style>p { color: red }</style><SCRIPT>alert('<p>x</p>')</SCRIPT><p>Metin</p>")
            << QStringLiteral("Metin");
        QTest::newRow("head dropped") << QStringLiteral(
                                             "<html><head><title>Başlık</title></head><body>Gövde</body></html>")
                                      << QStringLiteral("Gövde");
        QTest::newRow("entities") << QStringLiteral(
                                         "&amp; &lt;b&gt; &#351;&#x131; &ccedil; a&nbsp;b &quot;q&quot; &bogus;")
                                  << QStringLiteral("& <b> şı ç a b \"q\" &bogus;");
        QTest::newRow("list") << QStringLiteral("<ul><li>Bir</li><li>İki</li></ul><p>Son</p>")
                              << QStringLiteral("- Bir\n- İki\n\nSon");
        QTest::newRow("br") << QStringLiteral("satır<br>yeni<br/>son") << QStringLiteral("satır\nyeni\nson");
        QTest::newRow("comment") << QStringLiteral("a<!-- <p>gizli</p> -->b") << QStringLiteral("ab");
        QTest::newRow("image alt") << QStringLiteral("<img src=\"logo.png\" alt=\"Ornek Logo\"><p>x</p>")
                                   << QStringLiteral("Ornek Logo\n\nx");
        QTest::newRow("headings and table")
            << QStringLiteral(
                   "<h1>Kasım</h1><table><tr><td>Ürün</td><td>Fiyat</td></tr><tr><td>Çay</td><td>10</td></tr></table>")
            << QStringLiteral("Kasım\n\nÜrün Fiyat\nÇay 10");
        QTest::newRow("lone less-than") << QStringLiteral("3 < 5 ve 7 > 6") << QStringLiteral("3 < 5 ve 7 > 6");
        QTest::newRow("unterminated") << QStringLiteral("<p>yarım <a href=\"x") << QStringLiteral("yarım");
        QTest::newRow("plain text") << QStringLiteral("Düz metin") << QStringLiteral("Düz metin");
        QTest::newRow("empty") << QString() << QString();
    }
    void htmlText()
    {
        QFETCH(QString, html);
        QFETCH(QString, text);
        QCOMPARE(HtmlText::toText(html), text);
    }

    void buildsAMultipartMessage()
    {
        MailMessage m;
        m.fromName = QStringLiteral("Örnek Mağaza");
        m.fromAddress = QStringLiteral("kampanya@ornek.com.tr");
        m.toName = QStringLiteral("Ayşe Yılmaz");
        m.toAddress = QStringLiteral("ayse@musteri.com.tr");
        m.subject = kTurkish;
        m.html =
            QStringLiteral("<p>Merhaba Ayşe,</p><p>Kasım boyunca <a href=\"https://ornek.com.tr/k\">tüm ürünlerde</a> "
                           "%20 indirim.</p>");
        m.messageId = QStringLiteral("cmp_1.rcp_2@ornek.com.tr");
        m.headers = {
            {"List-Unsubscribe", QStringLiteral("<https://ornek.com.tr/u/abc>, <mailto:u@ornek.com.tr?subject=u>")},
            {"List-Unsubscribe-Post", QStringLiteral("List-Unsubscribe=One-Click")},
            {"X-Kampanya", QStringLiteral("Kasım")},
            {"Bad Name", QStringLiteral("dropped")}};
        const QDateTime date(QDate(2026, 11, 29), QTime(10, 0), Qt::UTC);
        const QByteArray mail = MimeWriter::build(m, date);

        QVERIFY(!hasBareLineFeed(mail));
        QVERIFY2(longestLine(mail) <= 78, mail.constData());
        for (const char c : mail)
            QVERIFY(uchar(c) < 0x80); // 7-bit: every server takes it
        const int split = mail.indexOf("\r\n\r\n");
        const QByteArray head = mail.left(split + 2);
        QVERIFY(head.startsWith("Date: Sun, 29 Nov 2026 10:00:00 +0000\r\n"));
        QVERIFY(head.contains("From: =?UTF-8?B?w5ZybmVrIE1hxJ9hemE=?= <kampanya@ornek.com.tr>\r\n"));
        QVERIFY(head.contains("To: =?UTF-8?B?QXnFn2UgWcSxbG1heg==?= <ayse@musteri.com.tr>\r\n"));
        QVERIFY(head.contains("Subject: =?UTF-8?Q?Kas=C4=B1m_kampanyas=C4=B1=3A_=2520_indirim?=\r\n"));
        QVERIFY(head.contains("Message-ID: <cmp_1.rcp_2@ornek.com.tr>\r\n"));
        QVERIFY(head.contains("MIME-Version: 1.0\r\n"));
        QVERIFY(
            head.contains("List-Unsubscribe: <https://ornek.com.tr/u/abc>,\r\n <mailto:u@ornek.com.tr?subject=u>\r\n"));
        QVERIFY(head.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"));
        QVERIFY(head.contains("X-Kampanya: =?UTF-8?B?S2FzxLFt?=\r\n"));
        QVERIFY(!head.contains("dropped"));
        QVERIFY(head.contains("Content-Type: multipart/alternative;\r\n boundary=\"=_lsn_"));

        const int plain =
            mail.indexOf("Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable");
        const int html =
            mail.indexOf("Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable");
        QVERIFY(plain > split);
        QVERIFY(html > plain); // the HTML last: the part a client prefers
        const QByteArray boundary = head.mid(head.indexOf("boundary=\"") + 10).split('"').first();
        QCOMPARE(mail.count("--" + boundary), 3);
        QVERIFY(mail.endsWith("\r\n--" + boundary + "--\r\n"));
        const QByteArray textPart = mail.mid(plain).split('\n').mid(3).join('\n');
        const QString text = QString::fromUtf8(decodeQp(textPart.left(textPart.indexOf("\r\n--" + boundary))));
        QCOMPARE(text,
                 QStringLiteral("Merhaba Ayşe,\n\nKasım boyunca tüm ürünlerde (https://ornek.com.tr/k) %20 indirim."));
        // The same input gives the same bytes (a retried send is the same message).
        QCOMPARE(MimeWriter::build(m, date), mail);
    }

    void addressesCannotAddHeaders()
    {
        MailMessage m;
        m.fromAddress = QStringLiteral("a@ornek.com.tr");
        m.toName = QStringLiteral("Ayşe\r\nBcc: x@kotu.com");
        m.toAddress = QStringLiteral("b@ornek.com.tr>\r\nBcc: y@kotu.com");
        m.subject = QStringLiteral("Konu\r\nBcc: z@kotu.com");
        m.messageId = QStringLiteral("id@ornek.com.tr>\r\nBcc: w@kotu.com");
        m.headers = {{"X-Kampanya", QStringLiteral("a\nBcc: v@kotu.com")}};
        const QByteArray mail = MimeWriter::build(m, QDateTime::currentDateTimeUtc());
        QVERIFY2(!mail.contains("\nBcc"), mail.constData());
        QVERIFY(mail.contains("<b@ornek.com.trBcc:y@kotu.com>"));
    }

    void longNamesFoldWithoutEndingTheHeaders_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("ascii, quoted") << QStringLiteral(
            "Yilmaz, Ayse (Purchasing Manager, Istanbul Region Office) Ltd.");
        QTest::newRow("turkish, one word") << QStringLiteral("Ayşe Yılmaz (Satın Alma)");
        QTest::newRow("turkish, several words")
            << QStringLiteral("Mehmet Çağrı Öztürk-Şahinoğlu (Satın Alma Müdürü, İstanbul Bölge Müdürlüğü)");
    }
    void longNamesFoldWithoutEndingTheHeaders()
    {
        QFETCH(QString, name);
        MailMessage m;
        m.fromName = m.toName = name;
        m.fromAddress = QStringLiteral("kampanya@ornek.com.tr");
        m.toAddress = QStringLiteral("ayse.yilmaz.satinalma@musteri-firmasi.com.tr");
        m.subject = QStringLiteral("Test");
        m.html = QStringLiteral("<p>x</p>");
        const QByteArray mail = MimeWriter::build(m, QDateTime::currentDateTimeUtc());
        QVERIFY2(longestLine(mail) <= 78, mail.constData());
        // The header block ends where the MIME preamble starts, not inside a folded name.
        QCOMPARE(mail.indexOf("\r\n\r\n"), mail.indexOf("\r\n\r\nThis is a multi-part message"));
        QVERIFY(mail.contains("<ayse.yilmaz.satinalma@musteri-firmasi.com.tr>"));
    }

    void internationalDomainsAreWrittenInAscii()
    {
        QCOMPARE(MimeWriter::mailbox(QString(), QStringLiteral("ayse@örnek.com.tr")),
                 QByteArray("ayse@xn--rnek-4qa.com.tr"));
    }

    void aGivenTextPartIsUsedAsItIs()
    {
        MailMessage m;
        m.fromAddress = QStringLiteral("a@ornek.com.tr");
        m.toAddress = QStringLiteral("b@ornek.com.tr");
        m.subject = QStringLiteral("Test");
        m.html = QStringLiteral("<p>HTML</p>");
        m.text = QStringLiteral("Elle yazılmış metin");
        const QByteArray mail = MimeWriter::build(m, QDateTime::currentDateTimeUtc());
        QVERIFY(mail.contains(MimeWriter::quotedPrintable(m.text.toUtf8())));
        QVERIFY(!mail.contains("Message-ID")); // none given, none made up
    }

    void dkimCanonicalForms_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("canonical");
        QTest::newRow("white space") << QByteArray("a  \t b \r\n c\r\n") << QByteArray("a b\r\n c\r\n");
        QTest::newRow("trailing empty lines") << QByteArray("x\r\n\r\n\r\n") << QByteArray("x\r\n");
        QTest::newRow("no final line end") << QByteArray("x") << QByteArray("x\r\n");
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("only empty lines") << QByteArray("\r\n\r\n") << QByteArray();
    }
    void dkimCanonicalForms()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, canonical);
        QCOMPARE(DkimSigner::relaxedBody(body), canonical);
    }

    void dkimRelaxedHeader()
    {
        QCOMPARE(DkimSigner::relaxedHeader("SubJect ", " Kas=C4=B1m \t x\r\n\ty  "),
                 QByteArray("subject:Kas=C4=B1m x y\r\n"));
    }

    void dkimRefusesABadKey()
    {
        DkimSigner signer(QStringLiteral("ornek.com.tr"), QStringLiteral("s1"), "-----BEGIN PRIVATE KEY-----\nnope\n");
        QVERIFY(!signer.isValid());
        QCOMPARE(signer.sign("Subject: x\r\n\r\nbody\r\n"), QByteArray("Subject: x\r\n\r\nbody\r\n"));
    }

    void fromIsParsed_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("address");
        QTest::newRow("name and address") << QStringLiteral("Örnek Mağaza <kampanya@ornek.com.tr>")
                                          << QStringLiteral("Örnek Mağaza") << QStringLiteral("kampanya@ornek.com.tr");
        QTest::newRow("quoted name") << QStringLiteral("\"Yılmaz, Ayşe\" <ayse@ornek.com.tr>")
                                     << QStringLiteral("Yılmaz, Ayşe") << QStringLiteral("ayse@ornek.com.tr");
        QTest::newRow("address only") << QStringLiteral(" ayse@ornek.com.tr ") << QString()
                                      << QStringLiteral("ayse@ornek.com.tr");
        QTest::newRow("angle only") << QStringLiteral("<ayse@ornek.com.tr>") << QString()
                                    << QStringLiteral("ayse@ornek.com.tr");
    }
    void fromIsParsed()
    {
        QFETCH(QString, from);
        QFETCH(QString, name);
        QFETCH(QString, address);
        MailConfig c;
        c.from = from;
        QCOMPARE(c.fromName(), name);
        QCOMPARE(c.fromAddress(), address);
    }

    void envelopeSenders_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("tag");
        QTest::addColumn<QString>("sender");
        QTest::newRow("tagged") << QStringLiteral("Örnek <kampanya@ornek.com.tr>") << QStringLiteral("cmp_1.rcp_2")
                                << QStringLiteral("kampanya+cmp_1.rcp_2@ornek.com.tr");
        QTest::newRow("unsafe characters") << QStringLiteral("kampanya@ornek.com.tr") << QStringLiteral("a b@c<ı>")
                                           << QStringLiteral("kampanya+a-b-c---@ornek.com.tr");
        QTest::newRow("no tag") << QStringLiteral("kampanya@ornek.com.tr") << QString()
                                << QStringLiteral("kampanya@ornek.com.tr");
    }
    void envelopeSenders()
    {
        QFETCH(QString, from);
        QFETCH(QString, tag);
        QFETCH(QString, sender);
        MailConfig c;
        c.from = from;
        QCOMPARE(c.envelopeSender(tag), sender);
    }

    void settingsAreChecked_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("security");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("wrongField"); // empty: accepted
        const QString from = QStringLiteral("Örnek <kampanya@ornek.com.tr>");
        QTest::newRow("starttls") << QStringLiteral("smtp.ornek.com.tr") << QStringLiteral("starttls") << from
                                  << QString();
        QTest::newRow("tls") << QStringLiteral("smtp.ornek.com.tr") << QStringLiteral("tls") << from << QString();
        QTest::newRow("none on loopback") << QStringLiteral("127.0.0.1") << QStringLiteral("none") << from << QString();
        QTest::newRow("none on localhost")
            << QStringLiteral("localhost") << QStringLiteral("none") << from << QString();
        QTest::newRow("none on ::1") << QStringLiteral("::1") << QStringLiteral("none") << from << QString();
        QTest::newRow("none elsewhere") << QStringLiteral("smtp.ornek.com.tr") << QStringLiteral("none") << from
                                        << QStringLiteral("security");
        QTest::newRow("none on a private address")
            << QStringLiteral("192.168.1.5") << QStringLiteral("none") << from << QStringLiteral("security");
        QTest::newRow("unknown security")
            << QStringLiteral("smtp.ornek.com.tr") << QStringLiteral("ssl") << from << QStringLiteral("security");
        QTest::newRow("no host") << QString() << QStringLiteral("starttls") << from << QStringLiteral("smtpHost");
        QTest::newRow("bad from") << QStringLiteral("smtp.ornek.com.tr") << QStringLiteral("starttls")
                                  << QStringLiteral("Örnek <kampanya>") << QStringLiteral("from");
    }
    void settingsAreChecked()
    {
        QFETCH(QString, host);
        QFETCH(QString, security);
        QFETCH(QString, from);
        QFETCH(QString, wrongField);
        MailConfig c;
        c.smtpHost = host;
        c.security = security;
        c.from = from;
        QCOMPARE(c.usable(), wrongField.isEmpty());
        if (wrongField.isEmpty()) {
            c.check();
            return;
        }
        try {
            c.check();
            QFAIL("accepted");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::BadRequest);
            QCOMPARE(e.code(), QStringLiteral("VALIDATION_ERROR"));
            QVERIFY2(e.problems().contains(wrongField), qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestMimeWriter)
#include "test_mimewriter.moc"
