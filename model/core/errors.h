#pragma once

#include <QJsonObject>
#include <QString>
#include <stdexcept>

// A refusal the model gives for bad input or a state conflict: its kind, a stable code
// ("VALIDATION_ERROR", "DUPLICATE_EMAIL"), a message and details naming fields. The model never names
// a transport: the server maps kinds to HTTP statuses in one table (server/api/errorstatus.h) and
// the window maps them to its own words (ui/shell/errortext.h).
class DomainError : public std::runtime_error
{
public:
    enum Kind
    {
        BadRequest,    // malformed input: wrong types, formats, ranges
        Unprocessable, // well-formed but not acceptable (a required field missing, an action unknown)
        NotFound,
        Conflict,     // the state forbids it (a duplicate, a stage that holds deals)
        Forbidden,    // the actor may not do this
        Unauthorized, // the caller is not who it claims (a bad signature)
        TooLarge,     // over a size limit
        RateLimited,  // too many at once; details.retryAfter in seconds
        Unavailable,  // a service it needs cannot be reached now
        StorageFull   // the disk holding the database is full: the write was not saved (reads go on)
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

    // Malformed input (400) and unacceptable input (422) with the usual VALIDATION_ERROR code.
    static DomainError badRequest(const QString &message, const QJsonObject &details = {})
    {
        return DomainError(BadRequest, QStringLiteral("VALIDATION_ERROR"), message, details);
    }
    static DomainError unprocessable(const QString &message, const QJsonObject &details = {})
    {
        return DomainError(Unprocessable, QStringLiteral("VALIDATION_ERROR"), message, details);
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

// A write that a unique index refused (SQLite's UNIQUE or PRIMARY KEY constraint, PostgreSQL's
// SQLSTATE 23505 unique_violation): another writer saved the same value between a repository's
// check and its write (two copies of Liaison on one PostgreSQL database), or a check is missing. A
// conflict like the checks' own: the server answers 409 CONFLICT. Repositories that can name the
// field run their check again outside the transaction (Database::refuseDuplicate) and give their
// own 409; this one names no field.
class UniqueViolation : public DomainError
{
public:
    UniqueViolation()
        : DomainError(Conflict, QStringLiteral("CONFLICT"),
                      QStringLiteral("Another change saved the same value first: this one was not saved"))
    {
    }
};

// A failure of the database itself (not of the input): answered 500 and logged.
class DatabaseError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The database cannot be reached now: the PostgreSQL server is stopped or restarting, or it ended
// this thread's session. The unit of work was not committed (its transaction died with the
// connection; the one exception, a COMMIT whose answer was lost, is in docs/architecture.md), the
// thread's next statement makes a new connection, and the caller may try again: the server answers
// 503 SERVICE_UNAVAILABLE with Retry-After, the window says so, loops try again on their next round.
class DatabaseUnavailable : public DatabaseError
{
public:
    using DatabaseError::DatabaseError;
    // Seconds after which a retry is worth it (the Retry-After of the answer).
    static constexpr int kRetryAfterSeconds = 5;
};
