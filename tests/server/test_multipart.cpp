// The multipart/form-data parser (server/api/multipart.h): boundaries, quoted names, RFC 5987
// filenames, binary bodies, limits, and a clear error for each malformed case.
#include "server/api/multipart.h"

#include <QtTest>

namespace {
const QByteArray kType = "multipart/form-data; boundary=XyZ";

QByteArray crlf(QByteArray text)
{
    return text.replace("\n", "\r\n");
}
} // namespace

class TestMultipart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void boundaryFromContentType_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("boundary"); // empty: refused
        QTest::newRow("bare") << QByteArray("multipart/form-data; boundary=abc123") << QByteArray("abc123");
        QTest::newRow("quoted") << QByteArray("multipart/form-data; boundary=\"a b:c\"") << QByteArray("a b:c");
        QTest::newRow("case and spaces") << QByteArray("Multipart/Form-Data ;  BOUNDARY = xyz ; charset=utf-8")
                                         << QByteArray("xyz");
        QTest::newRow("70 chars") << ("multipart/form-data; boundary=" + QByteArray(70, 'a')) << QByteArray(70, 'a');
        QTest::newRow("71 chars") << ("multipart/form-data; boundary=" + QByteArray(71, 'a')) << QByteArray();
        QTest::newRow("no boundary") << QByteArray("multipart/form-data") << QByteArray();
        QTest::newRow("empty boundary") << QByteArray("multipart/form-data; boundary=\"\"") << QByteArray();
        QTest::newRow("trailing space") << QByteArray("multipart/form-data; boundary=\"ab \"") << QByteArray();
        QTest::newRow("bad char") << QByteArray("multipart/form-data; boundary=\"a@b\"") << QByteArray();
        QTest::newRow("not form-data") << QByteArray("multipart/mixed; boundary=abc") << QByteArray();
        QTest::newRow("json") << QByteArray("application/json") << QByteArray();
        QTest::newRow("unterminated quote") << QByteArray("multipart/form-data; boundary=\"abc") << QByteArray();
        QTest::newRow("twice") << QByteArray("multipart/form-data; boundary=a; boundary=b") << QByteArray();
    }

    void boundaryFromContentType()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, boundary);
        QString error;
        QCOMPARE(MultipartForm::boundaryOf(contentType, &error), boundary);
        QCOMPARE(error.isEmpty(), !boundary.isEmpty());
    }

    void parsesValidBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QStringList>("filenames");
        QTest::addColumn<QList<QByteArray>>("bodies");

        static const char raw[] = "\r\n\0\r\r\n--XyZa\r\n--Xy\r\n--XyZ-x\n--XyZ--\r\n--XyZ \r--XyZ";
        const QByteArray binary(raw, sizeof raw - 1);
        QTest::newRow("one field") << crlf("--XyZ\nContent-Disposition: form-data; name=\"a\"\n\nhello\n--XyZ--\n")
                                   << QStringList{"a"} << QStringList{""} << QList<QByteArray>{"hello"};
        QTest::newRow("preamble and epilogue")
            << crlf("This is a preamble\nwith lines\n--XyZ\nContent-Disposition: form-data; name=a\n\n1\n--XyZ--\n"
                    "epilogue --XyZ\n")
            << QStringList{"a"} << QStringList{""} << QList<QByteArray>{"1"};
        QTest::newRow("two parts, file")
            << crlf("--XyZ\nContent-Disposition: form-data; name=\"caption\"\n\nHi\n--XyZ\n"
                    "Content-Disposition: form-data; name=\"file\"; filename=\"a.png\"\nContent-Type: image/png\n\n"
                    "PNGDATA\n--XyZ--")
            << QStringList{"caption", "file"} << QStringList{"", "a.png"} << QList<QByteArray>{"Hi", "PNGDATA"};
        QTest::newRow("quoted name with ; and escaped quote")
            << crlf("--XyZ\nContent-Disposition: form-data; name=\"a;b\\\"c\"; filename=\"x;y.txt\"\n\nv\n--XyZ--")
            << QStringList{"a;b\"c"} << QStringList{"x;y.txt"} << QList<QByteArray>{"v"};
        QTest::newRow("rfc 5987 filename wins")
            << crlf("--XyZ\nContent-Disposition: form-data; name=file; filename=\"fallback.txt\"; "
                    "filename*=UTF-8''%C3%A7i%C3%A7ek%20%E2%82%AC.txt\n\nv\n--XyZ--")
            << QStringList{"file"} << QStringList{QString::fromUtf8("çiçek €.txt")} << QList<QByteArray>{"v"};
        QTest::newRow("utf-8 filename raw")
            << ("--XyZ\r\nContent-Disposition: form-data; name=f; filename=\"" +
                QString::fromUtf8("ağaç.pdf").toUtf8() + "\"\r\n\r\nv\r\n--XyZ--")
            << QStringList{"f"} << QStringList{QString::fromUtf8("ağaç.pdf")} << QList<QByteArray>{"v"};
        QTest::newRow("empty body and empty filename")
            << crlf("--XyZ\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\n\n\n--XyZ--") << QStringList{"f"}
            << QStringList{""} << QList<QByteArray>{""};
        QTest::newRow("binary CR LF NUL and boundary look-alikes")
            << (QByteArray("--XyZ\r\nContent-Disposition: form-data; name=\"bin\"\r\n\r\n") + binary +
                "\r\n--XyZ--\r\n")
            << QStringList{"bin"} << QStringList{""} << QList<QByteArray>{binary};
        QTest::newRow("transport padding")
            << crlf("--XyZ \t\nContent-Disposition: form-data; name=a\n\nv\n--XyZ  \n"
                    "Content-Disposition: form-data; name=b\n\nw\n--XyZ--")
            << QStringList{"a", "b"} << QStringList{"", ""} << QList<QByteArray>{"v", "w"};
        QTest::newRow("no parts") << QByteArray("--XyZ--\r\n") << QStringList{} << QStringList{} << QList<QByteArray>{};
        QTest::newRow("binary encoding allowed")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\nContent-Transfer-Encoding: binary\n\nv\n--XyZ--")
            << QStringList{"a"} << QStringList{""} << QList<QByteArray>{"v"};
    }

    void parsesValidBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QStringList, names);
        QFETCH(QStringList, filenames);
        QFETCH(QList<QByteArray>, bodies);
        const MultipartForm form = MultipartForm::parse(kType, body);
        QVERIFY2(form.isValid(), qPrintable(form.errorString()));
        QCOMPARE(form.parts().size(), names.size());
        for (int i = 0; i < names.size(); ++i) {
            const MultipartPart &p = form.parts().at(i);
            QCOMPARE(p.name, names.at(i));
            QCOMPARE(p.filename, filenames.at(i));
            QCOMPARE(p.body.toByteArray(), bodies.at(i));
            // The body is a view into the request body, not a copy.
            QVERIFY(p.body.data() >= body.constData() && p.body.data() <= body.constData() + body.size());
        }
    }

    void partHeadersAreRead()
    {
        const QByteArray body = crlf("--XyZ\ncontent-disposition: form-data; name=\"file\"; filename=\"a.PNG\"\n"
                                     "content-type: Image/PNG; charset=binary\n\nx\n--XyZ--");
        const MultipartForm form = MultipartForm::parse(kType, body);
        QVERIFY(form.isValid());
        const MultipartPart *p = form.part(u"file");
        QVERIFY(p);
        QVERIFY(p->hasFilename);
        QCOMPARE(p->mimeType(), QByteArray("image/png"));
        QCOMPARE(p->header("CONTENT-TYPE"), QByteArray("Image/PNG; charset=binary"));
        QVERIFY(!form.part(u"other"));
        QCOMPARE(form.count(u"file"), 1);
    }

    void refusesMalformedBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error"); // a fragment of the message

        QTest::newRow("empty") << QByteArray() << "no boundary line";
        QTest::newRow("json") << QByteArray("{\"a\":1}") << "no boundary line";
        QTest::newRow("other boundary") << crlf("--Abc\nContent-Disposition: form-data; name=a\n\nv\n--Abc--")
                                        << "no boundary line";
        QTest::newRow("missing final boundary")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\n\nvalue without end") << "missing final boundary";
        QTest::newRow("ends after delimiter")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\n\nv\n--XyZ") << "missing final boundary";
        QTest::newRow("ends after delimiter dash")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\n\nv\n--XyZ-") << "missing final boundary";
        QTest::newRow("no content-disposition")
            << crlf("--XyZ\nContent-Type: text/plain\n\nv\n--XyZ--") << "no Content-Disposition";
        QTest::newRow("no headers at all") << crlf("--XyZ\n\nv\n--XyZ--") << "no Content-Disposition";
        QTest::newRow("not form-data") << crlf("--XyZ\nContent-Disposition: attachment; name=a\n\nv\n--XyZ--")
                                       << "must be form-data";
        QTest::newRow("no name") << crlf("--XyZ\nContent-Disposition: form-data; filename=a\n\nv\n--XyZ--")
                                 << "has no name";
        QTest::newRow("empty name") << crlf("--XyZ\nContent-Disposition: form-data; name=\"\"\n\nv\n--XyZ--")
                                    << "has no name";
        QTest::newRow("duplicate header")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\ncontent-disposition: form-data; name=b\n\nv\n"
                    "--XyZ--")
            << "duplicate header";
        QTest::newRow("duplicate content-type")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\nContent-Type: a/b\nContent-Type: c/d\n\nv\n"
                    "--XyZ--")
            << "duplicate header";
        QTest::newRow("duplicate parameter")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a; name=b\n\nv\n--XyZ--") << "given twice";
        QTest::newRow("unterminated quote")
            << crlf("--XyZ\nContent-Disposition: form-data; name=\"a\n\nv\n--XyZ--") << "unterminated";
        QTest::newRow("folded header") << crlf("--XyZ\nContent-Disposition: form-data;\n name=a\n\nv\n--XyZ--")
                                       << "folded";
        QTest::newRow("header without colon")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\nbogus\n\nv\n--XyZ--") << "malformed header";
        QTest::newRow("bare LF in header")
            << QByteArray("--XyZ\r\nContent-Disposition: form-data; name=a\nX: y\r\n\r\nv\r\n--XyZ--")
            << "control character";
        QTest::newRow("headers never end")
            << QByteArray("--XyZ\r\nContent-Disposition: form-data; name=a\r\n") << "headers do not end";
        QTest::newRow("bad filename*")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a; filename*=UTF-8''%ZZ\n\nv\n--XyZ--")
            << "percent-encoding";
        QTest::newRow("filename* charset")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a; filename*=koi8-r''x\n\nv\n--XyZ--") << "charset";
        QTest::newRow("filename* shape")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a; filename*=x.txt\n\nv\n--XyZ--") << "RFC 5987";
        QTest::newRow("invalid utf-8 filename")
            << QByteArray("--XyZ\r\nContent-Disposition: form-data; name=a; filename=\"\xff\xfe\"\r\n\r\nv\r\n--XyZ--")
            << "not valid UTF-8";
        QTest::newRow("bad part content-type")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\nContent-Type: nonsense\n\nv\n--XyZ--")
            << "type/subtype";
        QTest::newRow("base64 transfer encoding")
            << crlf("--XyZ\nContent-Disposition: form-data; name=a\nContent-Transfer-Encoding: base64\n\ndg==\n"
                    "--XyZ--")
            << "not supported";
        QTest::newRow("junk after quoted value")
            << crlf("--XyZ\nContent-Disposition: form-data; name=\"a\"x\n\nv\n--XyZ--") << "unexpected characters";
    }

    void refusesMalformedBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        const MultipartForm form = MultipartForm::parse(kType, body);
        QVERIFY(!form.isValid());
        QVERIFY2(form.errorString().contains(error), qPrintable(form.errorString()));
        QVERIFY(form.parts().isEmpty() || !form.isValid());
    }

    void enforcesLimits()
    {
        QList<MultipartField> fields;
        for (int i = 0; i < 5; ++i)
            fields.append({QStringLiteral("f%1").arg(i), "v", {}, false, {}});
        const QByteArray body = Multipart::serialize(fields, "XyZ");
        MultipartLimits limits;
        limits.maxParts = 4;
        MultipartForm form = MultipartForm::parse(kType, body, limits);
        QVERIFY(!form.isValid());
        QVERIFY2(form.errorString().contains("more than 4 parts"), qPrintable(form.errorString()));
        limits.maxParts = 5;
        QVERIFY(MultipartForm::parse(kType, body, limits).isValid());

        const QByteArray longHeader =
            "--XyZ\r\nContent-Disposition: form-data; name=a\r\nX-Long: " + QByteArray(9000, 'x') +
            "\r\n\r\nv\r\n--XyZ--";
        form = MultipartForm::parse(kType, longHeader);
        QVERIFY(!form.isValid());
        QVERIFY2(form.errorString().contains("headers longer than 8192"), qPrintable(form.errorString()));

        QByteArray many = "--XyZ\r\nContent-Disposition: form-data; name=a\r\n";
        for (int i = 0; i < 20; ++i)
            many += "X-H" + QByteArray::number(i) + ": v\r\n";
        many += "\r\nv\r\n--XyZ--";
        form = MultipartForm::parse(kType, many);
        QVERIFY(!form.isValid());
        QVERIFY2(form.errorString().contains("more than 16 headers"), qPrintable(form.errorString()));
    }

    void serializeEscapesNamesAndFilenames()
    {
        const QList<MultipartField> fields{
            {QStringLiteral("a\"b\\c;d"), "1", {}, false, {}},
            {QStringLiteral("file"), QByteArray("\0\r\n", 3), QString::fromUtf8("rapor \"son\" ğ.pdf"), true,
             "application/pdf"},
        };
        const QByteArray boundary = Multipart::makeBoundary();
        QVERIFY(boundary.size() <= 70);
        const QByteArray body = Multipart::serialize(fields, boundary);
        const MultipartForm form = MultipartForm::parse("multipart/form-data; boundary=" + boundary, body);
        QVERIFY2(form.isValid(), qPrintable(form.errorString()));
        QCOMPARE(form.parts().size(), 2);
        QCOMPARE(form.parts().at(0).name, fields.at(0).name);
        QCOMPARE(form.parts().at(1).filename, fields.at(1).filename);
        QCOMPARE(form.parts().at(1).body.toByteArray(), fields.at(1).body);
        QCOMPARE(form.parts().at(1).mimeType(), QByteArray("application/pdf"));
    }

    void largeBodyIsParsedWithoutCopying()
    {
        QByteArray big(8 * 1024 * 1024, 'a');
        for (qsizetype i = 0; i < big.size(); i += 997)
            big[i] = '\r';
        const QByteArray body = Multipart::serialize(
            {{QStringLiteral("file"), big, QStringLiteral("b.bin"), true, "application/octet-stream"}}, "XyZ");
        const MultipartForm form = MultipartForm::parse(kType, body);
        QVERIFY(form.isValid());
        QCOMPARE(form.parts().at(0).body.size(), big.size());
        QVERIFY(form.parts().at(0).body == QByteArrayView(big));
    }
};

QTEST_GUILESS_MAIN(TestMultipart)
#include "test_multipart.moc"
