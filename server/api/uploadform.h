#pragma once

#include "model/inbox/mediarepository.h"
#include "server/api/multipart.h"

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
// A text field of the form (UTF-8), empty when absent; BadRequest when it is a file or too long.
QString text(const MultipartForm &form, const QString &name, int maxLength);
// What MediaService::store takes for the (checked) file part, uploaded by the request's principal.
MediaUpload upload(const MultipartPart &file, const ApiRequest &request, const QString &conversationId = {});

} // namespace UploadForm
