#pragma once

#include "messaging/mail/mailmessage.h"
#include "model/campaigns/campaignrepository.h"

#include <functional>

// The e-mail of one campaign recipient: merge fields filled from the contact (HTML-escaped in the
// body), every http(s) link of the body through a signed click redirect and an open pixel at its end
// (when tracking is on and there is a public base URL), {{unsubscribeUrl}} and the List-Unsubscribe
// headers (RFC 2369 URL and mailto, RFC 8058 one-click), a Message-ID naming the campaign and the
// recipient, and a per-recipient envelope sender (VERP) so that a bounce names whom it is for.
namespace CampaignMail {
struct Links
{
    QString publicBaseUrl; // empty: no links
    bool tracking = true;
    QByteArray key; // CampaignRepository::linkKey()
};

MailMessage compose(const CampaignSend &send, const MailConfig &mail, const Links &links);
// The text of an SMS: the campaign's HTML with merge fields filled, as plain text (HtmlText::toText;
// links as "text (url)", untracked; {{unsubscribeUrl}} the recipient's unsubscribe page).
QString smsText(const CampaignSend &send, const Links &links);
// The recipient id a VERP address (MailConfig::envelopeSender: "kampanya+rcp_…@ornek.com.tr")
// names, empty when it is not one.
QString recipientOfEnvelope(const QString &address);
// The HTML with each href="http(s)://…" replaced by rewrite(url) (entities in the URL decoded first).
QString rewriteLinks(const QString &html, const std::function<QString(const QString &url)> &rewrite);
} // namespace CampaignMail
