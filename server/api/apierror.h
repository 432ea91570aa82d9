#pragma once

#include <QJsonObject>
#include <QString>
#include <stdexcept>

// What a handler throws to refuse a request; Router::dispatch turns it (and DomainError from the
// model) into the error envelope { success: false, error: { code, message, details? } }.
class ApiError : public std::runtime_error
{
public:
    ApiError(int status, QString code, QString message, QJsonObject details = {})
        : std::runtime_error(message.toStdString())
        , status(status)
        , code(std::move(code))
        , message(std::move(message))
        , details(std::move(details))
    {
    }

    static ApiError badRequest(const QString &message, const QJsonObject &details = {})
    {
        return ApiError(400, QStringLiteral("VALIDATION_ERROR"), message, details);
    }
    static ApiError unprocessable(const QString &message, const QJsonObject &details = {})
    {
        return ApiError(422, QStringLiteral("VALIDATION_ERROR"), message, details);
    }

    int status;
    QString code;
    QString message;
    QJsonObject details;
};
