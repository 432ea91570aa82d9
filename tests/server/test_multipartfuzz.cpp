// Fuzzing the multipart parser with a fixed seed: mutated valid bodies (bit flips, truncation,
// splices, inserted delimiters, random boundaries) never crash it and always end in either a parse
// or an error message; and a round trip (random parts -> serialize -> parse) gives the same parts.
// Bounded so that it stays well under 10 s in Debug and under ASan + UBSan.
#include "server/api/multipart.h"

#include <QRandomGenerator>
#include <QtTest>

namespace {
constexpr quint32 kSeed = 20261126;
constexpr int kMutations = 6000;
constexpr int kRoundTrips = 400;

QByteArray randomBytes(QRandomGenerator &rng, int maxSize)
{
    const int size = int(rng.bounded(maxSize + 1));
    QByteArray b(size, Qt::Uninitialized);
    // Mostly the bytes a multipart body is made of, so that mutations hit the interesting paths.
    static const char alphabet[] = "\r\n-\"\\;=:XyZ \t\0abc%'";
    for (int i = 0; i < size; ++i)
        b[i] = rng.bounded(3) == 0 ? char(rng.bounded(256)) : alphabet[rng.bounded(int(sizeof alphabet - 1))];
    return b;
}

QByteArray randomBoundary(QRandomGenerator &rng)
{
    static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?";
    const int size = 1 + int(rng.bounded(70));
    QByteArray b;
    for (int i = 0; i < size; ++i)
        b += chars[rng.bounded(int(sizeof chars - 1))];
    return b;
}

QString randomName(QRandomGenerator &rng)
{
    static const QString chars = QString::fromUtf8("abcXYZ09_-;=\"\\ çğü€.'%");
    const int size = 1 + int(rng.bounded(12));
    QString s;
    for (int i = 0; i < size; ++i)
        s += chars.at(int(rng.bounded(chars.size())));
    return s;
}

QList<MultipartField> randomFields(QRandomGenerator &rng)
{
    QList<MultipartField> fields;
    const int count = int(rng.bounded(6));
    for (int i = 0; i < count; ++i) {
        MultipartField f;
        f.name = randomName(rng);
        f.isFile = rng.bounded(2) == 1;
        if (f.isFile)
            f.filename = randomName(rng);
        if (rng.bounded(2) == 1)
            f.contentType = rng.bounded(2) ? QByteArray("image/png") : QByteArray("text/plain; charset=utf-8");
        f.body = randomBytes(rng, rng.bounded(10) == 0 ? 5000 : 200);
        fields.append(f);
    }
    return fields;
}

bool containsDelimiter(const QList<MultipartField> &fields, const QByteArray &boundary)
{
    for (const MultipartField &f : fields) {
        if (f.body.contains("\r\n--" + boundary) || f.body.startsWith("--" + boundary))
            return true;
    }
    return false;
}

// The parser either succeeds with parts whose views lie inside the body, or explains why not.
void checkOutcome(const QByteArray &contentType, const QByteArray &body)
{
    const MultipartForm form = MultipartForm::parse(contentType, body);
    if (!form.isValid()) {
        QVERIFY(!form.errorString().isEmpty());
        return;
    }
    for (const MultipartPart &p : form.parts()) {
        QVERIFY(!p.name.isEmpty());
        QVERIFY(p.body.isEmpty() ||
                (p.body.data() >= body.constData() && p.body.data() + p.body.size() <= body.constData() + body.size()));
    }
}
} // namespace

class TestMultipartFuzz : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mutatedBodiesNeverCrash()
    {
        QRandomGenerator rng(kSeed);
        int parsed = 0;
        for (int i = 0; i < kMutations; ++i) {
            QByteArray boundary = randomBoundary(rng);
            while (boundary.endsWith(' '))
                boundary.chop(1);
            if (boundary.isEmpty())
                boundary = "b";
            const QList<MultipartField> fields = randomFields(rng);
            QByteArray body = Multipart::serialize(fields, boundary);
            const int mutations = 1 + int(rng.bounded(4));
            for (int m = 0; m < mutations && !body.isEmpty(); ++m) {
                const qsizetype at = qsizetype(rng.bounded(quint32(body.size())));
                switch (rng.bounded(7)) {
                case 0: // bit flip
                    body[at] = char(body[at] ^ (1 << rng.bounded(8)));
                    break;
                case 1: // truncation
                    body.truncate(at);
                    break;
                case 2: // splice a piece of itself elsewhere
                {
                    const qsizetype len = qMin<qsizetype>(body.size() - at, rng.bounded(64));
                    const QByteArray piece = body.mid(at, len);
                    body.insert(qsizetype(rng.bounded(quint32(body.size()))), piece);
                    break;
                }
                case 3: // a delimiter (or a prefix of it) in the middle
                {
                    const QByteArray delim = "\r\n--" + boundary + (rng.bounded(2) ? "--" : "\r\n");
                    body.insert(at, delim.left(1 + rng.bounded(quint32(delim.size()))));
                    break;
                }
                case 4: // delete a range
                    body.remove(at, rng.bounded(32));
                    break;
                case 5: // random bytes
                    body.insert(at, randomBytes(rng, 16));
                    break;
                default: // a CRLF dropped to LF
                    body.replace(body.indexOf("\r\n", at) < 0 ? 0 : body.indexOf("\r\n", at), 2, "\n");
                    break;
                }
            }
            // Sometimes the Content-Type itself is mangled or names another boundary.
            QByteArray contentType = "multipart/form-data; boundary=\"" + boundary + '"';
            if (rng.bounded(10) == 0)
                contentType = "multipart/form-data; boundary=" + randomBoundary(rng);
            else if (rng.bounded(20) == 0)
                contentType = randomBytes(rng, 60);
            checkOutcome(contentType, body);
            if (QTest::currentTestFailed())
                QFAIL(
                    qPrintable(QStringLiteral("iteration %1, body %2").arg(i).arg(QString::fromLatin1(body.toHex()))));
            parsed += MultipartForm::parse(contentType, body).isValid() ? 1 : 0;
        }
        // Some mutations leave the body valid (data bytes flipped): both outcomes were exercised.
        QVERIFY(parsed > 0);
        QVERIFY(parsed < kMutations);
    }

    void randomBytesNeverCrash()
    {
        QRandomGenerator rng(kSeed + 1);
        for (int i = 0; i < 2000; ++i) {
            QByteArray body = (rng.bounded(2) ? "--XyZ\r\n" : "") + randomBytes(rng, 400);
            checkOutcome("multipart/form-data; boundary=XyZ", body);
        }
    }

    void roundTripGivesTheSameParts()
    {
        QRandomGenerator rng(kSeed + 2);
        for (int i = 0; i < kRoundTrips; ++i) {
            const QList<MultipartField> fields = randomFields(rng);
            QByteArray boundary = randomBoundary(rng);
            while (boundary.endsWith(' ') || containsDelimiter(fields, boundary))
                boundary = Multipart::makeBoundary();
            const QByteArray body = Multipart::serialize(fields, boundary);
            const MultipartForm form = MultipartForm::parse("multipart/form-data; boundary=\"" + boundary + '"', body);
            QVERIFY2(form.isValid(), qPrintable(form.errorString()));
            QCOMPARE(form.parts().size(), fields.size());
            for (int p = 0; p < fields.size(); ++p) {
                const MultipartPart &part = form.parts().at(p);
                QCOMPARE(part.name, fields.at(p).name);
                QCOMPARE(part.hasFilename, fields.at(p).isFile);
                QCOMPARE(part.filename, fields.at(p).filename);
                QCOMPARE(part.contentType, fields.at(p).contentType);
                QCOMPARE(part.body.toByteArray(), fields.at(p).body);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestMultipartFuzz)
#include "test_multipartfuzz.moc"
