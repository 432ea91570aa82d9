// TLS certificate generation and loading for the HTTPS server, down to a real handshake on loopback.

#include "server/http/tlscertificate.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <functional>

#include <sys/stat.h>

namespace {

int fileMode(const QString &path)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QSslCertificate firstCertificate(const QString &path)
{
    const QList<QSslCertificate> list = QSslCertificate::fromData(readAll(path), QSsl::Pem);
    return list.isEmpty() ? QSslCertificate() : list.first();
}

} // namespace

class TestTlsCertificate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void generatesCertificateAndKey();
    void loadPairsThem();
    void mismatchedKeyIsRefused();
    void unreadableFilesAreRefused();
    void ensureGeneratesOnceThenReuses();
    void ensureRenewsAnExpiringGeneratedCertificate();
    void ensureUsesConfiguredFiles();
    void handshakeOnLoopback();
    void offersOnlyStrongCiphers_data();
    void offersOnlyStrongCiphers();

private:
    // Runs one TLS handshake against `server` and returns the client's errors (empty: it succeeded).
    // `tweak` changes the client's configuration (protocol, ciphers).
    QList<QSslError> handshake(const QSslConfiguration &server, const QList<QSslCertificate> &clientCas,
                               const QString &peerName, bool *encrypted,
                               const std::function<void(QSslConfiguration &)> &tweak = {});
};

void TestTlsCertificate::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(QSslSocket::supportsSsl(), "QtNetwork has no TLS backend");
}

void TestTlsCertificate::generatesCertificateAndKey()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString cert = dir.filePath(QStringLiteral("a/b/cert.pem"));
    const QString key = dir.filePath(QStringLiteral("a/b/key.pem"));
    QString error;
    const QDateTime before = QDateTime::currentDateTimeUtc();
    QVERIFY2(TlsCertificate::generateSelfSigned(cert, key, &error), qPrintable(error));

    QVERIFY(QFileInfo::exists(cert));
    QVERIFY(QFileInfo::exists(key));
    QCOMPARE(fileMode(key), 0600);
    QCOMPARE(fileMode(cert), 0644);
    QCOMPARE(fileMode(dir.filePath(QStringLiteral("a"))), 0700);
    QCOMPARE(fileMode(dir.filePath(QStringLiteral("a/b"))), 0700);
    QVERIFY(readAll(key).startsWith("-----BEGIN PRIVATE KEY-----"));

    const QSslCertificate c = firstCertificate(cert);
    QVERIFY(!c.isNull());
    QCOMPARE(c.subjectInfo(QSslCertificate::CommonName), QStringList{QStringLiteral("Liaison local server")});
    QVERIFY(c.isSelfSigned());
    QCOMPARE(c.version(), QByteArray("3"));
    QCOMPARE(c.publicKey().algorithm(), QSsl::Ec);
    QCOMPARE(c.publicKey().length(), 256);

    const auto sans = c.subjectAlternativeNames();
    QCOMPARE(sans.values(QSsl::DnsEntry), QList<QString>{QStringLiteral("localhost")});
    QList<QString> ips = sans.values(QSsl::IpAddressEntry);
    std::sort(ips.begin(), ips.end());
    QCOMPARE(ips, (QList<QString>{QStringLiteral("127.0.0.1"), QStringLiteral("::1")}));

    // valid from (just before) now, for exactly 825 days
    const QDateTime after = QDateTime::currentDateTimeUtc();
    QVERIFY(c.effectiveDate() <= before);
    QVERIFY(c.effectiveDate() >= before.addSecs(-10 * 60));
    QCOMPARE(c.effectiveDate().secsTo(c.expiryDate()), qint64(825) * 24 * 3600);
    QVERIFY(c.expiryDate() > after.addDays(824));

    // the serial is random: a second certificate has another one, and another key
    const QString cert2 = dir.filePath(QStringLiteral("cert2.pem"));
    const QString key2 = dir.filePath(QStringLiteral("key2.pem"));
    QVERIFY2(TlsCertificate::generateSelfSigned(cert2, key2, &error), qPrintable(error));
    const QSslCertificate c2 = firstCertificate(cert2);
    QVERIFY(!c.serialNumber().isEmpty());
    QVERIFY(c.serialNumber() != c2.serialNumber());
    QVERIFY(readAll(key) != readAll(key2));

    // regenerating over an existing pair replaces both, and a key with loose permissions is tightened
    QVERIFY(QFile::setPermissions(key2, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    QVERIFY2(TlsCertificate::generateSelfSigned(cert2, key2, &error), qPrintable(error));
    QCOMPARE(fileMode(key2), 0600);
    QVERIFY(firstCertificate(cert2).serialNumber() != c2.serialNumber());
}

void TestTlsCertificate::loadPairsThem()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString cert = dir.filePath(QStringLiteral("cert.pem"));
    const QString key = dir.filePath(QStringLiteral("key.pem"));
    QString error;
    QVERIFY2(TlsCertificate::generateSelfSigned(cert, key, &error), qPrintable(error));

    const auto conf = TlsCertificate::load(cert, key, &error);
    QVERIFY2(conf, qPrintable(error));
    QCOMPARE(conf->localCertificate(), firstCertificate(cert));
    QCOMPARE(conf->localCertificateChain().size(), 1);
    QVERIFY(!conf->privateKey().isNull());
    QCOMPARE(conf->privateKey().algorithm(), QSsl::Ec);
    QCOMPARE(conf->privateKey().type(), QSsl::PrivateKey);
    QCOMPARE(conf->protocol(), QSsl::TlsV1_2OrLater);
    QCOMPARE(conf->peerVerifyMode(), QSslSocket::VerifyNone);

    // a chain: the server's certificate first, then the others
    const QString other = dir.filePath(QStringLiteral("other.pem"));
    const QString otherKey = dir.filePath(QStringLiteral("other-key.pem"));
    QVERIFY2(TlsCertificate::generateSelfSigned(other, otherKey, &error), qPrintable(error));
    const QString chained = dir.filePath(QStringLiteral("chain.pem"));
    QFile out(chained);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(readAll(cert) + readAll(other));
    out.close();
    const auto chainConf = TlsCertificate::load(chained, key, &error);
    QVERIFY2(chainConf, qPrintable(error));
    QCOMPARE(chainConf->localCertificateChain().size(), 2);
    QCOMPARE(chainConf->localCertificate(), firstCertificate(cert));
}

void TestTlsCertificate::mismatchedKeyIsRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY2(TlsCertificate::generateSelfSigned(dir.filePath(QStringLiteral("a.pem")),
                                                dir.filePath(QStringLiteral("a.key")), &error),
             qPrintable(error));
    QVERIFY2(TlsCertificate::generateSelfSigned(dir.filePath(QStringLiteral("b.pem")),
                                                dir.filePath(QStringLiteral("b.key")), &error),
             qPrintable(error));
    error.clear();
    const auto conf =
        TlsCertificate::load(dir.filePath(QStringLiteral("a.pem")), dir.filePath(QStringLiteral("b.key")), &error);
    QVERIFY(!conf);
    QVERIFY2(error.contains(QStringLiteral("does not match")), qPrintable(error));

    // the same through ensure() with configured paths
    error.clear();
    QVERIFY(!TlsCertificate::ensure(dir.path(), dir.filePath(QStringLiteral("b.pem")),
                                    dir.filePath(QStringLiteral("a.key")), &error));
    QVERIFY2(error.contains(QStringLiteral("does not match")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("tls"))));
}

void TestTlsCertificate::unreadableFilesAreRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString cert = dir.filePath(QStringLiteral("cert.pem"));
    const QString key = dir.filePath(QStringLiteral("key.pem"));
    QString error;
    QVERIFY2(TlsCertificate::generateSelfSigned(cert, key, &error), qPrintable(error));

    error.clear();
    QVERIFY(!TlsCertificate::load(dir.filePath(QStringLiteral("missing.pem")), key, &error));
    QVERIFY2(error.contains(QStringLiteral("missing.pem")), qPrintable(error));

    // a key where the certificate belongs, and the other way round
    error.clear();
    QVERIFY(!TlsCertificate::load(key, key, &error));
    QVERIFY2(error.contains(QStringLiteral("no PEM certificate")), qPrintable(error));
    error.clear();
    QVERIFY(!TlsCertificate::load(cert, cert, &error));
    QVERIFY2(error.contains(QStringLiteral("no unencrypted PEM private key")), qPrintable(error));

    // an encrypted key is refused, never prompted for on the terminal
    const QString encrypted = dir.filePath(QStringLiteral("encrypted.pem"));
    QFile out(encrypted);
    QVERIFY(out.open(QIODevice::WriteOnly));
    const QSslKey plain(readAll(key), QSsl::Ec, QSsl::Pem, QSsl::PrivateKey);
    QVERIFY(!plain.isNull());
    out.write(plain.toPem("passphrase"));
    out.close();
    error.clear();
    QVERIFY(!TlsCertificate::load(cert, encrypted, &error));
    QVERIFY2(error.contains(QStringLiteral("no unencrypted PEM private key")), qPrintable(error));

    // only one of the two configured
    error.clear();
    QVERIFY(!TlsCertificate::ensure(dir.path(), cert, QString(), &error));
    QVERIFY2(error.contains(QStringLiteral("both")), qPrintable(error));
}

void TestTlsCertificate::ensureGeneratesOnceThenReuses()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString data = dir.filePath(QStringLiteral("data"));
    const QString cert = data + QStringLiteral("/tls/cert.pem");
    const QString key = data + QStringLiteral("/tls/key.pem");
    QString error;

    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("^Generated a self-signed TLS certificate")));
    const auto first = TlsCertificate::ensure(data, QString(), QString(), &error);
    QVERIFY2(first, qPrintable(error));
    QVERIFY(QFileInfo::exists(cert));
    QVERIFY(QFileInfo::exists(key));
    QCOMPARE(fileMode(key), 0600);
    QCOMPARE(fileMode(data + QStringLiteral("/tls")), 0700);
    const QByteArray certBytes = readAll(cert);
    const QByteArray keyBytes = readAll(key);
    QCOMPARE(first->localCertificate(), firstCertificate(cert));

    const auto second = TlsCertificate::ensure(data, QString(), QString(), &error);
    QVERIFY2(second, qPrintable(error));
    QCOMPARE(readAll(cert), certBytes);
    QCOMPARE(readAll(key), keyBytes);
    QCOMPARE(second->localCertificate(), first->localCertificate());
    QCOMPARE(second->privateKey(), first->privateKey());

    // a generated key found with loose permissions is restricted again (with a warning)
    QVERIFY(QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("key\\.pem was readable by other users")));
    QVERIFY2(TlsCertificate::ensure(data, QString(), QString(), &error), qPrintable(error));
    QCOMPARE(fileMode(key), 0600);
    QCOMPARE(readAll(key), keyBytes);

    // half a pair (the certificate was deleted) is generated anew
    QVERIFY(QFile::remove(cert));
    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("half of the pair is missing")));
    const auto third = TlsCertificate::ensure(data, QString(), QString(), &error);
    QVERIFY2(third, qPrintable(error));
    QVERIFY(readAll(cert) != certBytes);
    QVERIFY(readAll(key) != keyBytes);

    // a broken pair is an error and is left alone
    QFile broken(cert);
    QVERIFY(broken.open(QIODevice::WriteOnly | QIODevice::Truncate));
    broken.write("garbage");
    broken.close();
    error.clear();
    QVERIFY(!TlsCertificate::ensure(data, QString(), QString(), &error));
    QVERIFY2(error.contains(QStringLiteral("no PEM certificate")), qPrintable(error));
    QCOMPARE(readAll(cert), QByteArray("garbage"));
}

void TestTlsCertificate::ensureRenewsAnExpiringGeneratedCertificate()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString cert = dir.filePath(QStringLiteral("tls/cert.pem"));
    const QString key = dir.filePath(QStringLiteral("tls/key.pem"));
    QString error;
    QVERIFY2(TlsCertificate::generateSelfSigned(cert, key, &error, 10), qPrintable(error));
    const QByteArray old = readAll(cert);
    QVERIFY(firstCertificate(cert).expiryDate() < QDateTime::currentDateTimeUtc().addDays(11));

    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("the generated certificate expires on")));
    const auto conf = TlsCertificate::ensure(dir.path(), QString(), QString(), &error);
    QVERIFY2(conf, qPrintable(error));
    QVERIFY(readAll(cert) != old);
    QVERIFY(conf->localCertificate().expiryDate() > QDateTime::currentDateTimeUtc().addDays(800));
}

void TestTlsCertificate::ensureUsesConfiguredFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString cert = dir.filePath(QStringLiteral("admin/cert.pem"));
    const QString key = dir.filePath(QStringLiteral("admin/key.pem"));
    QString error;
    QVERIFY2(TlsCertificate::generateSelfSigned(cert, key, &error), qPrintable(error));
    const QString data = dir.filePath(QStringLiteral("data"));
    const auto conf = TlsCertificate::ensure(data, cert, key, &error);
    QVERIFY2(conf, qPrintable(error));
    QCOMPARE(conf->localCertificate(), firstCertificate(cert));
    QVERIFY(!QFileInfo::exists(data + QStringLiteral("/tls"))); // nothing generated

    error.clear();
    QVERIFY(!TlsCertificate::ensure(data, dir.filePath(QStringLiteral("admin/nope.pem")), key, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFileInfo::exists(data + QStringLiteral("/tls")));
}

QList<QSslError> TestTlsCertificate::handshake(const QSslConfiguration &serverConf,
                                               const QList<QSslCertificate> &clientCas, const QString &peerName,
                                               bool *encrypted, const std::function<void(QSslConfiguration &)> &tweak)
{
    *encrypted = false;
    QSslServer server;
    server.setSslConfiguration(serverConf);
    server.setHandshakeTimeout(10000);
    if (!server.listen(QHostAddress::LocalHost, 0)) {
        qWarning() << "listen failed:" << server.errorString();
        return {QSslError(QSslError::UnspecifiedError)};
    }

    QSslSocket client;
    QSslConfiguration clientConf = QSslConfiguration::defaultConfiguration();
    clientConf.setCaCertificates({}); // only what the test trusts, not the system store
    for (const QSslCertificate &ca : clientCas)
        clientConf.addCaCertificate(ca);
    clientConf.setPeerVerifyMode(QSslSocket::VerifyPeer);
    clientConf.setProtocol(QSsl::TlsV1_2OrLater);
    if (tweak)
        tweak(clientConf);
    client.setSslConfiguration(clientConf);
    QList<QSslError> errors;
    QObject::connect(&client, &QSslSocket::sslErrors, &client,
                     [&errors](const QList<QSslError> &list) { errors += list; });

    client.connectToHostEncrypted(QStringLiteral("127.0.0.1"), server.serverPort(), peerName);
    (void)QTest::qWaitFor(
        [&] {
            return client.isEncrypted() || !errors.isEmpty() || client.state() == QAbstractSocket::UnconnectedState;
        },
        10000);

    if (client.isEncrypted()) {
        // the server side completes too and serves bytes over the encrypted channel
        const auto waitFor = [](const std::function<bool()> &done) { return QTest::qWaitFor(done, 10000); };
        if (!waitFor([&] { return server.hasPendingConnections(); }))
            return {QSslError(QSslError::UnspecifiedError)};
        auto *peer = qobject_cast<QSslSocket *>(server.nextPendingConnection());
        if (!peer || !peer->isEncrypted())
            return {QSslError(QSslError::UnspecifiedError)};
        peer->write("hello");
        if (!waitFor([&] { return client.bytesAvailable() >= 5; }) || client.readAll() != "hello")
            return {QSslError(QSslError::UnspecifiedError)};
        if (client.sessionProtocol() != QSsl::TlsV1_2 && client.sessionProtocol() != QSsl::TlsV1_3)
            return {QSslError(QSslError::UnspecifiedError)};
        *encrypted = true;
    }
    client.abort();
    return errors;
}

void TestTlsCertificate::handshakeOnLoopback()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("^Generated a self-signed TLS certificate")));
    const auto conf = TlsCertificate::ensure(dir.path(), QString(), QString(), &error);
    QVERIFY2(conf, qPrintable(error));
    const QSslCertificate cert = conf->localCertificate();

    bool encrypted = false;
    QList<QSslError> errors;

    // trusted (added as a CA), peer name localhost (the DNS SAN)
    errors = handshake(*conf, {cert}, QStringLiteral("localhost"), &encrypted);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.isEmpty() ? QString() : errors.first().errorString()));
    QVERIFY(encrypted);

    // by IP address too (the IP SAN)
    errors = handshake(*conf, {cert}, QStringLiteral("127.0.0.1"), &encrypted);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.isEmpty() ? QString() : errors.first().errorString()));
    QVERIFY(encrypted);

    // not trusted: refused as self-signed
    errors = handshake(*conf, {}, QStringLiteral("localhost"), &encrypted);
    QVERIFY(!encrypted);
    bool selfSigned = false;
    for (const QSslError &e : errors)
        selfSigned = selfSigned || e.error() == QSslError::SelfSignedCertificate;
    QVERIFY(selfSigned);

    // trusted but another name: refused
    errors = handshake(*conf, {cert}, QStringLiteral("example.com"), &encrypted);
    QVERIFY(!encrypted);
    bool mismatch = false;
    for (const QSslError &e : errors)
        mismatch = mismatch || e.error() == QSslError::HostNameMismatch;
    QVERIFY(mismatch);
}

void TestTlsCertificate::offersOnlyStrongCiphers_data()
{
    QTest::addColumn<QString>("cipher"); // the only suite the client offers (TLS 1.2)
    QTest::addColumn<bool>("accepted");
    QTest::newRow("ECDHE AES-128-GCM") << "ECDHE-ECDSA-AES128-GCM-SHA256" << true;
    QTest::newRow("ECDHE AES-256-GCM") << "ECDHE-ECDSA-AES256-GCM-SHA384" << true;
    QTest::newRow("ECDHE ChaCha20") << "ECDHE-ECDSA-CHACHA20-POLY1305" << true;
    QTest::newRow("CBC SHA-1") << "ECDHE-ECDSA-AES128-SHA" << false;
    QTest::newRow("CBC SHA-1 256") << "ECDHE-ECDSA-AES256-SHA" << false;
    QTest::newRow("CBC SHA-256") << "ECDHE-ECDSA-AES128-SHA256" << false;
}

void TestTlsCertificate::offersOnlyStrongCiphers()
{
    QFETCH(QString, cipher);
    QFETCH(bool, accepted);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("^Generated a self-signed TLS certificate")));
    const auto conf = TlsCertificate::ensure(dir.path(), QString(), QString(), &error);
    QVERIFY2(conf, qPrintable(error));
    QVERIFY(!conf->ciphers().isEmpty());
    for (const QSslCipher &c : conf->ciphers())
        QVERIFY2(TlsCertificate::isStrongCipher(c.name()), qPrintable(c.name()));
    const QSslCipher offered(cipher);
    if (offered.isNull())
        QSKIP("this OpenSSL does not know the suite");
    bool encrypted = false;
    const QList<QSslError> errors = handshake(*conf, {conf->localCertificate()}, QStringLiteral("localhost"),
                                              &encrypted, [&offered](QSslConfiguration &c) {
                                                  c.setProtocol(QSsl::TlsV1_2);
                                                  c.setCiphers({offered});
                                              });
    QCOMPARE(encrypted, accepted);
    if (accepted)
        QVERIFY(errors.isEmpty());
}

QTEST_GUILESS_MAIN(TestTlsCertificate)
#include "test_tlscertificate.moc"
