#include "messaging/campaigns/campaignmail.h"

#include <QRegularExpression>
#include <QUrl>

namespace {
QString decodeHrefEntities(QString url)
{
    url.replace(QLatin1String("&amp;"), QLatin1String("&"));
    url.replace(QLatin1String("&#38;"), QLatin1String("&"));
    url.replace(QLatin1String("&quot;"), QLatin1String("\""));
    return url;
}

QString linkUrl(const CampaignMail::Links &links, const QString &path, const QString &token)
{
    QString base = links.publicBaseUrl;
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base + path + token;
}

QString domainOf(const QString &address)
{
    const qsizetype at = address.lastIndexOf(QLatin1Char('@'));
    return at < 0 ? QString() : address.mid(at + 1);
}
} // namespace

QString CampaignMail::rewriteLinks(const QString &html, const std::function<QString(const QString &url)> &rewrite)
{
    static const QRegularExpression href(QStringLiteral(R"((\bhref\s*=\s*)(["'])(https?://[^"']+)\2)"),
                                         QRegularExpression::CaseInsensitiveOption);
    QString out;
    out.reserve(html.size() + 256);
    qsizetype last = 0;
    QRegularExpressionMatchIterator it = href.globalMatch(html);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(html).mid(last, m.capturedStart() - last);
        out +=
            m.captured(1) + m.captured(2) + rewrite(decodeHrefEntities(m.captured(3))).toHtmlEscaped() + m.captured(2);
        last = m.capturedEnd();
    }
    out += QStringView(html).mid(last);
    return out;
}

QString CampaignMail::recipientOfEnvelope(const QString &address)
{
    static const QRegularExpression verp(QStringLiteral(R"(\+(rcp_[0-9a-z]{26})@[^@]+$)"));
    const QRegularExpressionMatch m = verp.match(address.trimmed());
    return m.hasMatch() ? m.captured(1) : QString();
}

MailMessage CampaignMail::compose(const CampaignSend &send, const MailConfig &mail, const Links &links)
{
    MailMessage m;
    m.fromName = mail.fromName();
    m.fromAddress = mail.fromAddress();
    m.toName = send.name;
    m.toAddress = send.address;
    const bool withLinks = !links.publicBaseUrl.isEmpty() && !links.key.isEmpty();
    QHash<QString, QString> extra;
    QString unsubscribeUrl;
    if (withLinks) {
        unsubscribeUrl = linkUrl(links, QStringLiteral("/u/"),
                                 CampaignLinks::token(links.key, QStringLiteral("unsubscribe"), send.recipientId));
        extra.insert(QStringLiteral("unsubscribeUrl"), unsubscribeUrl);
    }
    m.subject = MergeFields::render(send.subject, send.contact, false, extra).simplified();
    QString html = MergeFields::render(send.htmlContent, send.contact, true, extra);
    if (withLinks && links.tracking) {
        html = rewriteLinks(html, [&](const QString &url) {
            if (url == unsubscribeUrl)
                return url;
            return linkUrl(links, QStringLiteral("/t/c/"),
                           CampaignLinks::token(links.key, QStringLiteral("click"), send.recipientId, url)) +
                   QStringLiteral("?u=") + QString::fromLatin1(QUrl::toPercentEncoding(url));
        });
        const QString pixel =
            QStringLiteral("<img src=\"%1\" width=\"1\" height=\"1\" alt=\"\" style=\"display:block;border:0\">")
                .arg(linkUrl(links, QStringLiteral("/t/o/"),
                             CampaignLinks::token(links.key, QStringLiteral("open"), send.recipientId)));
        const qsizetype body = html.lastIndexOf(QLatin1String("</body>"), -1, Qt::CaseInsensitive);
        if (body >= 0)
            html.insert(body, pixel);
        else
            html += pixel;
    }
    m.html = html;
    m.messageId = QStringLiteral("%1.%2@%3").arg(send.campaignId, send.recipientId, domainOf(m.fromAddress));
    QStringList unsubscribe;
    if (!unsubscribeUrl.isEmpty())
        unsubscribe << QLatin1Char('<') + unsubscribeUrl + QLatin1Char('>');
    if (!m.fromAddress.isEmpty())
        unsubscribe << QStringLiteral("<mailto:%1?subject=unsubscribe%20%2>").arg(m.fromAddress, send.recipientId);
    if (!unsubscribe.isEmpty())
        m.headers.append({QByteArrayLiteral("List-Unsubscribe"), unsubscribe.join(QStringLiteral(", "))});
    if (!unsubscribeUrl.isEmpty())
        m.headers.append({QByteArrayLiteral("List-Unsubscribe-Post"), QStringLiteral("List-Unsubscribe=One-Click")});
    m.headers.append({QByteArrayLiteral("X-Liaison-Campaign"), send.campaignId});
    return m;
}

QString CampaignMail::smsText(const CampaignSend &send, const Links &links)
{
    QHash<QString, QString> extra;
    if (!links.publicBaseUrl.isEmpty() && !links.key.isEmpty())
        extra.insert(QStringLiteral("unsubscribeUrl"),
                     linkUrl(links, QStringLiteral("/u/"),
                             CampaignLinks::token(links.key, QStringLiteral("unsubscribe"), send.recipientId)));
    // Filled as HTML (values escaped), then turned to text: a value's own "<" or "&" comes out as
    // typed, and a link keeps its URL ("text (url)").
    return HtmlText::toText(MergeFields::render(send.htmlContent, send.contact, true, extra)).trimmed();
}
