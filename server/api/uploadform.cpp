#include "server/api/uploadform.h"

#include "messaging/media/mediaservice.h"
#include "model/core/errors.h"
#include "server/api/apirequest.h"

#include <QStringDecoder>

#include <optional>

namespace UploadForm {

MultipartForm read(const ApiRequest &request, const MediaConfig &config)
{
    const QByteArray &body = request.http.body;
    if (body.size() > config.maxUploadBytes + MediaConfig::kMultipartOverhead)
        throw DomainError(
            DomainError::TooLarge, QStringLiteral("PAYLOAD_TOO_LARGE"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "File too large: at most %1 bytes"), {config.maxUploadBytes}));
    const QByteArray contentType = request.http.header("Content-Type");
    if (!MultipartForm::isMultipart(contentType))
        throw DomainError(
            DomainError::BadRequest, QStringLiteral("INVALID_MULTIPART"),
            ModelText(QT_TRANSLATE_NOOP("ModelError",
                                        "This endpoint takes multipart/form-data (Content-Type: multipart/form-data; "
                                        "boundary=…)")));
    MultipartForm form = MultipartForm::parse(contentType, body);
    if (!form.isValid())
        throw DomainError(
            DomainError::BadRequest, QStringLiteral("INVALID_MULTIPART"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Malformed multipart body: %1"), {form.errorString()}));
    return form;
}

const MultipartPart &file(const MultipartForm &form, const MediaService &media)
{
    const int count = form.count(u"file");
    if (count == 0)
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: file")),
            {{QStringLiteral("file"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "is required (a multipart file part)"))}});
    if (count > 1)
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Send one file per request")),
            {{QStringLiteral("file"), ModelText(QT_TRANSLATE_NOOP("ModelError", "was given more than once"))}});
    const MultipartPart &part = *form.part(u"file");
    if (!part.hasFilename)
        throw DomainError::unprocessable(
            ModelText(
                QT_TRANSLATE_NOOP("ModelError", "file must be a file part (Content-Disposition with a filename)")),
            {{QStringLiteral("file"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a file"))}});
    media.checkSize(part.body.size());
    return part;
}

namespace {
// One text field of the form; nullopt when absent.
std::optional<QString> uploadFormText(const MultipartForm &form, const QString &name, int maxLength)
{
    if (form.count(name) > 1)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 given more than once"), {name}),
            {{name, ModelText(QT_TRANSLATE_NOOP("ModelError", "given more than once"))}});
    const MultipartPart *part = form.part(name);
    if (!part)
        return std::nullopt;
    if (part->hasFilename)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 must be a text field, not a file"), {name}),
            {{name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be text"))}});
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder.decode(part->body);
    if (decoder.hasError())
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 is not valid UTF-8"), {name}),
            {{name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be UTF-8 text"))}});
    if (text.size() > maxLength)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 must be at most %2 characters"),
                      {name, maxLength}),
            {{name, ModelText(QT_TRANSLATE_NOOP("ModelError", "too long"))}});
    return text.trimmed();
}
} // namespace

QJsonObject fields(const MultipartForm &form, const QList<QPair<QString, int>> &names)
{
    QJsonObject out;
    for (const auto &[name, maxLength] : names) {
        if (const std::optional<QString> text = uploadFormText(form, name, maxLength))
            out.insert(name, *text);
    }
    return out;
}

MediaUpload upload(const MultipartPart &file, const ApiRequest &request, const QString &conversationId)
{
    MediaUpload upload;
    upload.bytes = file.body;
    upload.filename = file.filename;
    upload.declaredType = file.mimeType();
    upload.uploadedBy = request.principal.id;
    upload.conversationId = conversationId;
    return upload;
}

} // namespace UploadForm
