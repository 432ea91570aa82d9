#include "messaging/mail/mailmessage.h"

#include <QCryptographicHash>
#include <QDateTime>

#include <openssl/evp.h>
#include <openssl/pem.h>

struct DkimSigner::Key
{
    EVP_PKEY *pkey = nullptr;
    ~Key() { EVP_PKEY_free(pkey); }
};

namespace {
bool dkimIsWsp(char c)
{
    return c == ' ' || c == '\t';
}

// Header fields of a message's header block, each its name and its raw value (folding kept).
QList<std::pair<QByteArray, QByteArray>> dkimHeaderFields(const QByteArray &head)
{
    QList<std::pair<QByteArray, QByteArray>> fields;
    const QList<QByteArray> lines = head.split('\n');
    for (QByteArray line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (!line.isEmpty() && dkimIsWsp(line[0]) && !fields.isEmpty()) {
            fields.last().second += "\r\n" + line;
            continue;
        }
        const int colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        fields.append({line.left(colon), line.mid(colon + 1)});
    }
    return fields;
}

// The signed header names: those of the list that the message holds.
const QList<QByteArray> &dkimSignedHeaderNames()
{
    static const QList<QByteArray> names = {"from",
                                            "to",
                                            "subject",
                                            "date",
                                            "message-id",
                                            "mime-version",
                                            "content-type",
                                            "list-unsubscribe",
                                            "list-unsubscribe-post"};
    return names;
}
} // namespace

DkimSigner::DkimSigner(const QString &domain, const QString &selector, const QByteArray &keyPem)
    : m_domain(domain.trimmed().toLower().toUtf8())
    , m_selector(selector.trimmed().toUtf8())
    , m_key(std::make_unique<Key>())
{
    if (keyPem.isEmpty())
        return;
    BIO *bio = BIO_new_mem_buf(keyPem.constData(), int(keyPem.size()));
    if (!bio)
        return;
    EVP_PKEY *pkey = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, const_cast<char *>(""));
    BIO_free(bio);
    if (pkey && EVP_PKEY_base_id(pkey) != EVP_PKEY_RSA) {
        EVP_PKEY_free(pkey);
        pkey = nullptr;
    }
    m_key->pkey = pkey;
}

DkimSigner::~DkimSigner() = default;

bool DkimSigner::isValid() const
{
    return m_key->pkey && !m_domain.isEmpty() && !m_selector.isEmpty();
}

QByteArray DkimSigner::relaxedHeader(const QByteArray &name, const QByteArray &value)
{
    QByteArray v;
    v.reserve(value.size());
    bool space = false;
    for (const char c : value) {
        if (c == '\r' || c == '\n')
            continue; // unfolded
        if (dkimIsWsp(c)) {
            space = true;
            continue;
        }
        if (space && !v.isEmpty())
            v += ' ';
        space = false;
        v += c;
    }
    return name.trimmed().toLower() + ':' + v + "\r\n";
}

QByteArray DkimSigner::relaxedBody(const QByteArray &body)
{
    QByteArray out;
    out.reserve(body.size());
    QList<QByteArray> lines = body.split('\n');
    // The split of a body that ends with a line break gives a last empty piece: not a line.
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    for (QByteArray line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        QByteArray l;
        l.reserve(line.size());
        bool space = false;
        for (const char c : line) {
            if (dkimIsWsp(c)) {
                space = true;
                continue;
            }
            if (space)
                l += ' ';
            space = false;
            l += c;
        }
        out += l + "\r\n";
    }
    while (out.endsWith("\r\n\r\n"))
        out.chop(2);
    if (out == "\r\n")
        out.clear();
    return out;
}

QByteArray DkimSigner::sign(const QByteArray &message) const
{
    return sign(message, QDateTime::currentSecsSinceEpoch());
}

QByteArray DkimSigner::sign(const QByteArray &message, qint64 timestamp) const
{
    if (!isValid())
        return message;
    int split = message.indexOf("\r\n\r\n");
    int bodyStart = split + 4;
    if (split < 0) {
        split = message.indexOf("\n\n");
        bodyStart = split + 2;
    }
    if (split < 0) {
        split = int(message.size());
        bodyStart = split;
    }
    const QByteArray head = message.left(split);
    const QByteArray body = message.mid(bodyStart);

    const QByteArray bodyHash = QCryptographicHash::hash(relaxedBody(body), QCryptographicHash::Sha256).toBase64();
    const auto fields = dkimHeaderFields(head);
    QByteArray signedHeaders;
    QList<QByteArray> names;
    for (const QByteArray &wanted : dkimSignedHeaderNames()) {
        // The last instance of a field is signed first (RFC 6376 5.4.2); our messages have one each.
        for (int i = int(fields.size()) - 1; i >= 0; --i) {
            if (fields[i].first.trimmed().toLower() == wanted) {
                signedHeaders += relaxedHeader(fields[i].first, fields[i].second);
                names += wanted;
                break;
            }
        }
    }
    // The h= list folded at its colons so that the lines stay short.
    QByteArray h;
    int lineLength = 3;
    for (int i = 0; i < names.size(); ++i) {
        const QByteArray piece = names[i] + (i + 1 < names.size() ? ":" : ";");
        if (lineLength + piece.size() > 72) {
            h += "\r\n\t ";
            lineLength = 2;
        }
        h += piece;
        lineLength += int(piece.size());
    }
    const QByteArray value = " v=1; a=rsa-sha256; c=relaxed/relaxed;\r\n\td=" + m_domain + "; s=" + m_selector +
                             "; t=" + QByteArray::number(timestamp) + ";\r\n\th=" + h + "\r\n\tbh=" + bodyHash +
                             ";\r\n\tb=";
    const QByteArray data = signedHeaders + relaxedHeader("DKIM-Signature", value).chopped(2);

    QByteArray signature;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t length = 0;
    if (ctx && EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, m_key->pkey) == 1 &&
        EVP_DigestSignUpdate(ctx, data.constData(), size_t(data.size())) == 1 &&
        EVP_DigestSignFinal(ctx, nullptr, &length) == 1) {
        signature.resize(qsizetype(length));
        if (EVP_DigestSignFinal(ctx, reinterpret_cast<unsigned char *>(signature.data()), &length) == 1)
            signature.resize(qsizetype(length));
        else
            signature.clear();
    }
    EVP_MD_CTX_free(ctx);
    if (signature.isEmpty())
        return message;
    const QByteArray b = signature.toBase64();
    QByteArray folded;
    for (int i = 0; i < b.size(); i += 70) {
        if (i > 0)
            folded += "\r\n\t ";
        folded += b.mid(i, 70);
    }
    return "DKIM-Signature:" + value + folded + "\r\n" + message;
}

MailComposer::MailComposer(const MailConfig &config)
    : m_fromName(config.fromName())
    , m_fromAddress(config.fromAddress())
{
    if (config.dkimConfigured()) {
        m_signer = std::make_unique<DkimSigner>(config.dkimDomain, config.dkimSelector, config.dkimKeyPem);
        if (!m_signer->isValid()) {
            m_signer.reset();
            m_dkimFailed = true;
        }
    }
}

MailComposer::~MailComposer() = default;

QByteArray MailComposer::compose(const MailMessage &message, const QDateTime &date) const
{
    QByteArray built;
    if (message.fromAddress.isEmpty()) {
        MailMessage m = message;
        m.fromAddress = m_fromAddress;
        if (m.fromName.isEmpty())
            m.fromName = m_fromName;
        built = MimeWriter::build(m, date);
    } else {
        built = MimeWriter::build(message, date);
    }
    return m_signer ? m_signer->sign(built) : built;
}

QByteArray MailComposer::compose(const MailConfig &config, const MailMessage &message, const QDateTime &date)
{
    return MailComposer(config).compose(message, date);
}
