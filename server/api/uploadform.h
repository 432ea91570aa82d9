#pragma once

#include "model/inbox/mediarepository.h"
#include "server/api/multipart.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

struct ApiRequest;
class MediaService;
struct MediaConfig;

// The multipart/form-data body of the upload routes (POST /api/v1/media/upload, POST
// /api/v1/messages/send-file) read into what MediaService stores.
namespace UploadForm {

// The request's form: DomainError BadRequest INVALID_MULTIPART (not multipart, malformed), TooLarge
// when the body is larger than the upload limit allows.
MultipartForm read(const ApiRequest &request, const MediaConfig &config);
// Checks the `file` part without storing it: Unprocessable when missing, given twice, not a file or
// empty; TooLarge above media/maxUploadBytes.
const MultipartPart &file(const MultipartForm &form, const MediaService &media);
// The text fields of the form named with their longest length, as the JSON object the one body
// reader (FieldReader) reads: each one given is decoded (UTF-8) and trimmed, an absent one left
// out. BadRequest when a field is given twice, is a file, is not UTF-8 or is longer than its length.
QJsonObject fields(const MultipartForm &form, const QList<QPair<QString, int>> &names);
// What MediaService::store takes for the (checked) file part, uploaded by the request's principal.
MediaUpload upload(const MultipartPart &file, const ApiRequest &request, const QString &conversationId = {});

} // namespace UploadForm
