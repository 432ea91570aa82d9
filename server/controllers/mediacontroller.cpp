#include "server/controllers/mediacontroller.h"

#include "messaging/media/mediaservice.h"
#include "model/core/errors.h"
#include "server/api/schemas.h"
#include "server/api/uploadform.h"

#include <QFile>

using namespace Schema;

namespace {
DomainError mediaNotFound()
{
    return DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "Media not found")));
}

// inline; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded> (RFC 6266): the fallback
// replaces quotes, backslashes and anything outside printable ASCII, so that it can never end the
// quoted string or inject a header.
QByteArray contentDisposition(const QString &disposition, const QString &filename)
{
    QByteArray ascii;
    for (const QChar c : filename) {
        const ushort u = c.unicode();
        ascii += (u >= 0x20 && u < 0x7f && u != '"' && u != '\\') ? char(u) : '_';
    }
    return disposition.toLatin1() + "; filename=\"" + ascii + "\"; filename*=UTF-8''" +
           filename.toUtf8().toPercentEncoding();
}
} // namespace

MediaController::MediaController(std::shared_ptr<MediaService> media)
    : m_media(std::move(media))
{
}

QJsonObject MediaController::schemas() const
{
    return {{QStringLiteral("MediaUpload"),
             object({{QStringLiteral("mediaId"), string()},
                     {QStringLiteral("url"), string(QStringLiteral("uri"))},
                     {QStringLiteral("type"), string()},
                     {QStringLiteral("size"), integer(1)},
                     {QStringLiteral("expiresAt"), string(QStringLiteral("date-time"))},
                     {QStringLiteral("kind"), string()},
                     {QStringLiteral("filename"), string()}},
                    {QStringLiteral("mediaId"), QStringLiteral("url"), QStringLiteral("type"), QStringLiteral("size"),
                     QStringLiteral("expiresAt")})}};
}

void MediaController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Media");
    // POST /api/v1/media/upload
    RouteDoc uploadDoc{tag,
                       QStringLiteral("Upload a file (multipart field `file`); answers its public URL"),
                       object({{QStringLiteral("file"), string(QStringLiteral("binary"))}}, {QStringLiteral("file")}),
                       envelope(ref(QStringLiteral("MediaUpload"))),
                       {},
                       {400, 401, 403, 413, 422, 429},
                       201};
    uploadDoc.requestContentType = QStringLiteral("multipart/form-data");
    router.add(
        "POST", QStringLiteral("/api/v1/media/upload"), "uploadMedia", [this](ApiRequest &r) { return upload(r); },
        Access::scoped(QStringLiteral("messages:write")), uploadDoc);
    // GET /media/:mediaId/:token
    RouteDoc serveDoc{
        tag, QStringLiteral("The bytes of uploaded media (public: the token in the URL is the credential)"),
        {},  string(QStringLiteral("binary")),
        {},  {404},
        200};
    serveDoc.contentType = QStringLiteral("application/octet-stream");
    router.add(
        "GET", QStringLiteral("/media/:mediaId/:token"), "downloadMedia", [this](ApiRequest &r) { return serve(r); },
        Access::publicRoute(), serveDoc);
}

QJsonObject MediaController::uploadResult(const Media &media) const
{
    return {{QStringLiteral("mediaId"), media.id},          {QStringLiteral("url"), m_media->url(media)},
            {QStringLiteral("type"), media.mimeType},       {QStringLiteral("size"), double(media.size)},
            {QStringLiteral("expiresAt"), media.expiresAt}, {QStringLiteral("kind"), media.kind},
            {QStringLiteral("filename"), media.filename}};
}

ApiResponse MediaController::upload(ApiRequest &request)
{
    const MultipartForm form = UploadForm::read(request, m_media->config());
    const Media media = m_media->store(UploadForm::upload(UploadForm::file(form, *m_media), request));
    return ApiResponse::created(uploadResult(media), QStringLiteral("Media uploaded"));
}

ApiResponse MediaController::serve(ApiRequest &request)
{
    const std::optional<Media> media = m_media->repository().findServable(request.param(QStringLiteral("mediaId")),
                                                                          request.param(QStringLiteral("token")));
    if (!media)
        throw mediaNotFound();
    std::optional<QByteArray> bytes = m_media->repository().content(media->id);
    if (!bytes)
        throw mediaNotFound();
    ApiResponse r;
    r.status = 200;
    r.body = std::move(*bytes);
    const bool active = MediaRules::isActiveContent(media->mimeType);
    r.headers.emplaceBack("Content-Type", media->mimeType.toLatin1());
    r.headers.emplaceBack(
        "Content-Disposition",
        contentDisposition(active ? QStringLiteral("attachment") : QStringLiteral("inline"), media->filename));
    r.headers.emplaceBack("Cache-Control", "private");
    r.headers.emplaceBack("X-Content-Type-Options", "nosniff");
    if (active)
        r.headers.emplaceBack("Content-Security-Policy", "sandbox; default-src 'none'");
    return r;
}
