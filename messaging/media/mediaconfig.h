#pragma once

#include <QString>
#include <QtGlobal>

// Section "media" of the settings: uploads (POST /api/v1/media/upload, /messages/send-file) and the
// public URLs that serve them.
struct MediaConfig
{
    qint64 maxUploadBytes = 16 * 1024 * 1024; // media/maxUploadBytes: the largest file; above it 413
    int lifetimeDays = 30;                    // media/lifetimeDays: expiresAt = upload + this; then deleted
    QString publicBaseUrl; // media/publicBaseUrl ("https://crm.example.com"); empty: the server's own base URL
    // Room for the multipart framing, headers and the other fields of an upload request.
    static constexpr qint64 kMultipartOverhead = 256 * 1024;
};
