#pragma once

#include <QJsonObject>
#include <QString>
#include <stdexcept>

// A refusal the model gives for bad input or a state conflict. The server maps kind to an HTTP status
// (BadRequest 400, Unprocessable 422, NotFound 404, Conflict 409, Forbidden 403) and writes the error envelope.
class DomainError : public std::runtime_error
{
public:
    enum Kind
    {
        BadRequest,
        Unprocessable,
        NotFound,
        Conflict,
        Forbidden
    };

    DomainError(Kind kind, QString code, QString message, QJsonObject details = {})
        : std::runtime_error(message.toStdString())
        , m_kind(kind)
        , m_code(std::move(code))
        , m_message(std::move(message))
        , m_details(std::move(details))
    {
    }

    Kind kind() const { return m_kind; }
    const QString &code() const { return m_code; }
    const QString &message() const { return m_message; }
    const QJsonObject &details() const { return m_details; }
    // The HTTP status the API answers with for this kind of refusal.
    int httpStatus() const
    {
        switch (m_kind) {
        case BadRequest:
            return 400;
        case Unprocessable:
            return 422;
        case NotFound:
            return 404;
        case Conflict:
            return 409;
        case Forbidden:
            return 403;
        }
        return 400;
    }

    static DomainError notFound(const QString &what, const QString &id)
    {
        return DomainError(NotFound, QStringLiteral("NOT_FOUND"), QStringLiteral("%1 %2 does not exist").arg(what, id));
    }

private:
    Kind m_kind;
    QString m_code;
    QString m_message;
    QJsonObject m_details;
};

// A failure of the database itself (not of the input): answered 500 and logged.
class DatabaseError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};
