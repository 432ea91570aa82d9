#include "server/controllers/campaigntrackingcontroller.h"

#include "model/core/errors.h"

#include <QUrl>

namespace {
// A transparent 1×1 GIF.
const QByteArray &pixelGif()
{
    static const QByteArray gif = QByteArray::fromBase64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7");
    return gif;
}

ApiResponse notCached(ApiResponse r)
{
    r.headers.emplaceBack("Cache-Control", "no-store, no-cache, must-revalidate, max-age=0");
    r.headers.emplaceBack("Pragma", "no-cache");
    r.headers.emplaceBack("Expires", "0");
    return r;
}

ApiResponse htmlPage(int status, const QString &title, const QString &body)
{
    ApiResponse r;
    r.status = status;
    r.body = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
                            "content=\"width=device-width, initial-scale=1\"><title>%1</title><style>body{font-family:"
                            "sans-serif;max-width:32em;margin:4em auto;padding:0 1em;color:#222}button{font-size:1em;"
                            "padding:.5em 1.2em}</style></head><body><h1>%1</h1>%2</body></html>")
                 .arg(title.toHtmlEscaped(), body)
                 .toUtf8();
    r.headers.emplaceBack("Content-Type", "text/html; charset=utf-8");
    r.headers.emplaceBack("X-Content-Type-Options", "nosniff");
    r.headers.emplaceBack("Referrer-Policy", "no-referrer");
    return notCached(r);
}

// The page speaks Turkish to a browser that prefers it, English otherwise.
bool prefersTurkish(const ApiRequest &request)
{
    const QByteArray lang = request.http.header("Accept-Language").trimmed().toLower();
    return lang.startsWith("tr");
}

struct UnsubscribeTexts
{
    QString title, question, button, done, doneText, unknown;
};

UnsubscribeTexts unsubscribeTexts(bool turkish)
{
    if (turkish)
        return {QStringLiteral("Abonelikten çık"),
                QStringLiteral("%1 adresine bu kanaldan kampanya iletisi gönderilmesin mi?"),
                QStringLiteral("Abonelikten çık"),
                QStringLiteral("Abonelikten çıktınız"),
                QStringLiteral("%1 adresine artık kampanya iletisi gönderilmeyecek."),
                QStringLiteral("Bu bağlantı geçerli değil.")};
    return {QStringLiteral("Unsubscribe"),
            QStringLiteral("Stop campaign messages to %1?"),
            QStringLiteral("Unsubscribe"),
            QStringLiteral("You are unsubscribed"),
            QStringLiteral("No more campaign messages will be sent to %1."),
            QStringLiteral("This link is not valid.")};
}
} // namespace

CampaignTrackingController::CampaignTrackingController(const Store &store)
    : m_campaigns(store)
{
}

bool CampaignTrackingController::isProxyOpen(const QByteArray &userAgent)
{
    const QByteArray ua = userAgent.trimmed();
    // Apple Mail Privacy Protection fetches every image when the message arrives, with this bare
    // user agent; the others are the image proxies and link scanners of mail providers and gateways.
    if (ua.isEmpty() || ua == "Mozilla/5.0")
        return true;
    static const QList<QByteArray> markers = {"googleimageproxy", "ggpht.com", "yahoomailproxy", "outlook-ios",
                                              "microsoft office", "mimecast",  "barracuda",      "proofpoint",
                                              "bingpreview",      "python",    "curl/",          "wget"};
    const QByteArray lower = ua.toLower();
    for (const QByteArray &m : markers) {
        if (lower.contains(m))
            return true;
    }
    return false;
}

void CampaignTrackingController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Campaign links");
    const auto bind = Router::binder(this);
    router.add("GET", QStringLiteral("/t/o/:token"), "trackCampaignOpen", bind(&CampaignTrackingController::open),
               Access::publicRoute(),
               {tag,
                QStringLiteral("The open pixel of a campaign message (a 1×1 GIF, never cached)"),
                {},
                {},
                {},
                {},
                200,
                QStringLiteral("image/gif")});
    router.add("GET", QStringLiteral("/t/c/:token"), "trackCampaignClick", bind(&CampaignTrackingController::click),
               Access::publicRoute(),
               {tag,
                QStringLiteral("A tracked link: records the click and redirects (307) to u, which the token signs"),
                {},
                {},
                QJsonObject{{QStringLiteral("u"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}},
                {404},
                307,
                QStringLiteral("text/plain")});
    router.add("GET", QStringLiteral("/u/:token"), "getUnsubscribePage",
               bind(&CampaignTrackingController::unsubscribePage), Access::publicRoute(),
               {tag,
                QStringLiteral("The unsubscribe confirmation page (changes nothing)"),
                {},
                {},
                {},
                {404},
                200,
                QStringLiteral("text/html")});
    router.add("POST", QStringLiteral("/u/:token"), "unsubscribe", bind(&CampaignTrackingController::unsubscribe),
               Access::publicRoute(),
               {tag,
                QStringLiteral("Unsubscribe (the page's button, or RFC 8058 one-click: List-Unsubscribe=One-Click)"),
                {},
                {},
                {},
                {404},
                200,
                QStringLiteral("text/html"),
                QStringLiteral("application/x-www-form-urlencoded")});
}

ApiResponse CampaignTrackingController::open(ApiRequest &request)
{
    QString token = request.param(QStringLiteral("token"));
    if (token.endsWith(QLatin1String(".gif")))
        token.chop(4);
    const QString id = CampaignLinks::verify(m_campaigns.linkKey(), QStringLiteral("open"), token);
    if (!id.isEmpty())
        m_campaigns.recordOpen(id, isProxyOpen(request.http.header("User-Agent")),
                               QString::fromUtf8(request.http.header("User-Agent")));
    // The image is answered either way: a mail client shows no broken picture.
    ApiResponse r;
    r.body = pixelGif();
    r.headers.emplaceBack("Content-Type", "image/gif");
    return notCached(r);
}

ApiResponse CampaignTrackingController::click(ApiRequest &request)
{
    const QString url = request.queryValue(QStringLiteral("u"));
    const QString id = CampaignLinks::verify(m_campaigns.linkKey(), QStringLiteral("click"),
                                             request.param(QStringLiteral("token")), url);
    const QUrl target(url, QUrl::StrictMode);
    if (id.isEmpty() || !target.isValid() ||
        (target.scheme() != QLatin1String("https") && target.scheme() != QLatin1String("http")))
        return htmlPage(404, unsubscribeTexts(prefersTurkish(request)).unknown, QString());
    m_campaigns.recordClick(id, url, QString::fromUtf8(request.http.header("User-Agent")));
    ApiResponse r;
    r.status = 307;
    r.headers.emplaceBack("Location", target.toEncoded());
    r.headers.emplaceBack("Content-Type", "text/plain; charset=utf-8");
    return notCached(r);
}

ApiResponse CampaignTrackingController::unsubscribePage(ApiRequest &request)
{
    const UnsubscribeTexts t = unsubscribeTexts(prefersTurkish(request));
    const QString token = request.param(QStringLiteral("token"));
    const QString id = CampaignLinks::verify(m_campaigns.linkKey(), QStringLiteral("unsubscribe"), token);
    const std::optional<CampaignRecipient> r = id.isEmpty() ? std::nullopt : m_campaigns.recipient(id);
    if (!r)
        return htmlPage(404, t.title, QStringLiteral("<p>%1</p>").arg(t.unknown.toHtmlEscaped()));
    if (!r->unsubscribedAt.isEmpty())
        return htmlPage(200, t.done, QStringLiteral("<p>%1</p>").arg(t.doneText.arg(r->address).toHtmlEscaped()));
    return htmlPage(200, t.title,
                    QStringLiteral("<p>%1</p><form method=\"post\"><input type=\"hidden\" name=\"List-Unsubscribe\" "
                                   "value=\"One-Click\"><button type=\"submit\">%2</button></form>")
                        .arg(t.question.arg(r->address).toHtmlEscaped(), t.button.toHtmlEscaped()));
}

ApiResponse CampaignTrackingController::unsubscribe(ApiRequest &request)
{
    const UnsubscribeTexts t = unsubscribeTexts(prefersTurkish(request));
    const QString id = CampaignLinks::verify(m_campaigns.linkKey(), QStringLiteral("unsubscribe"),
                                             request.param(QStringLiteral("token")));
    const std::optional<CampaignRecipient> r = id.isEmpty() ? std::nullopt : m_campaigns.recipient(id);
    if (!r)
        return htmlPage(404, t.title, QStringLiteral("<p>%1</p>").arg(t.unknown.toHtmlEscaped()));
    const bool oneClick = request.http.body.contains("List-Unsubscribe=One-Click");
    m_campaigns.unsubscribe(id, oneClick ? QStringLiteral("one-click") : QStringLiteral("page"));
    return htmlPage(200, t.done, QStringLiteral("<p>%1</p>").arg(t.doneText.arg(r->address).toHtmlEscaped()));
}
