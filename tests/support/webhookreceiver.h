#pragma once

// A real HTTPS webhook receiver on 127.0.0.1 for tests and benchmarks: a throwaway self-signed
// certificate (TlsCertificate::generateSelfSigned), HTTP/1.1 keep-alive, and the signature check
// the spec tells a receiver to make (sha256=<hex HMAC-SHA256 of the body>, 401 on a mismatch).
// Answers with the next status of statuses() (then 200), after delayMs, or never when hang.

#include "server/http/tlscertificate.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QMessageAuthenticationCode>
#include <QPointer>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>

class WebhookReceiver : public QTcpServer
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QHash<QByteArray, QByteArray> headers; // lower-case names
        QByteArray body;
        bool signatureOk = false;
        qint64 receivedMs = 0; // since the receiver started
        QByteArray header(const QByteArray &name) const { return headers.value(name.toLower()); }
    };

    explicit WebhookReceiver(const QString &secret = {}, QObject *parent = nullptr)
        : QTcpServer(parent)
        , m_secret(secret)
    {
        m_tls = sharedTls();
        m_clock.start();
        if (!listen(QHostAddress::LocalHost, 0))
            qFatal("receiver cannot listen");
    }

    QString url(const QString &path = QStringLiteral("/hook")) const
    {
        return QStringLiteral("https://127.0.0.1:%1%2").arg(serverPort()).arg(path);
    }
    QSslCertificate certificate() const { return m_tls.localCertificate(); }
    void setSecret(const QString &secret) { m_secret = secret; }
    QList<int> &statuses() { return m_statuses; }
    int delayMs = 0;
    bool hang = false;
    QList<Request> requests;

Q_SIGNALS:
    void received();

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QSslSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        socket->setSslConfiguration(m_tls);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(socket, &QSslSocket::readyRead, this, [this, socket] { read(socket); });
        connect(socket, &QSslSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            socket->deleteLater();
        });
        connect(socket, &QSslSocket::errorOccurred, socket, [socket] { socket->close(); });
        socket->startServerEncryption();
    }

private:
    void read(QSslSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer.append(socket->readAll());
        for (;;) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            Request r;
            const QList<QByteArray> lines = buffer.left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            r.method = first.value(0);
            r.path = first.value(1);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines.at(i).indexOf(':');
                if (colon > 0)
                    r.headers.insert(lines.at(i).left(colon).trimmed().toLower(), lines.at(i).mid(colon + 1).trimmed());
            }
            const qsizetype length = r.header("content-length").toLongLong();
            if (buffer.size() < end + 4 + length)
                return;
            r.body = buffer.mid(end + 4, length);
            buffer.remove(0, end + 4 + length);
            const QByteArray expected =
                "sha256=" +
                QMessageAuthenticationCode::hash(r.body, m_secret.toUtf8(), QCryptographicHash::Sha256).toHex();
            r.signatureOk = r.header("x-service-signature") == expected;
            r.receivedMs = m_clock.elapsed();
            requests.append(r);
            int status = m_statuses.isEmpty() ? 200 : m_statuses.takeFirst();
            if (!m_secret.isEmpty() && !r.signatureOk)
                status = 401;
            Q_EMIT received();
            if (hang)
                continue;
            QPointer<QSslSocket> guard(socket);
            auto answer = [guard, status] {
                if (!guard)
                    return;
                const QByteArray body = "{\"ok\":" + QByteArray(status < 300 ? "true" : "false") + "}";
                guard->write("HTTP/1.1 " + QByteArray::number(status) +
                             " X\r\nContent-Type: application/json\r\nContent-Length: " +
                             QByteArray::number(body.size()) + "\r\n\r\n" + body);
            };
            if (delayMs > 0)
                QTimer::singleShot(delayMs, this, answer);
            else
                answer();
        }
    }

    // One certificate for every receiver of the process: self-signed certificates with the same
    // subject would shadow each other as trusted CAs.
    static QSslConfiguration sharedTls()
    {
        static QTemporaryDir dir;
        static QSslConfiguration tls;
        if (tls.localCertificate().isNull()) {
            QString error;
            const QString cert = dir.filePath(QStringLiteral("cert.pem"));
            const QString key = dir.filePath(QStringLiteral("key.pem"));
            if (!TlsCertificate::generateSelfSigned(cert, key, &error))
                qFatal("receiver certificate: %s", qPrintable(error));
            const auto config = TlsCertificate::load(cert, key, &error);
            if (!config)
                qFatal("receiver certificate: %s", qPrintable(error));
            tls = *config;
        }
        return tls;
    }

    QString m_secret;
    QSslConfiguration m_tls;
    QElapsedTimer m_clock;
    QList<int> m_statuses;
    QHash<QSslSocket *, QByteArray> m_buffers;
};
