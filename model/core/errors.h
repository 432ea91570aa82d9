#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <initializer_list>
#include <stdexcept>
#include <type_traits>
#include <vector>

// A text of the model meant for people: an English template, marked for translation where it is
// written (with QT_TRANSLATE_NOOP in the context ModelError, so that Linguist sees it at its source), and its
// arguments. english() fills the template as the API and the log say it; the window fills the
// translated template with the same arguments (ui/shell/errortext.h), a field key read as the
// field's label. No layer ever parses the filled text back.
class ModelText;

// One argument of a ModelText: data shown as it is (a name, an e-mail address, an id, a number), a
// field key ("firstName", "address.city", "rules[0]"), a nested text, or a list of texts joined
// with a separator ("email is not …; phone must be …").
class ModelTextArg
{
public:
    enum Type
    {
        Data,
        Field,
        Text,
        List
    };

    ModelTextArg(const QString &data)
        : m_type(Data)
        , m_value(data)
    {
    }
    ModelTextArg(QLatin1String data)
        : m_type(Data)
        , m_value(data)
    {
    }
    // A number written as QString::arg() writes it.
    template<typename N, std::enable_if_t<std::is_arithmetic_v<N>, int> = 0>
    ModelTextArg(N number)
        : m_type(Data)
        , m_value(QStringLiteral("%1").arg(number))
    {
    }
    ModelTextArg(const ModelText &text);

    static ModelTextArg field(const QString &key)
    {
        ModelTextArg a{QString(key)};
        a.m_type = Field;
        return a;
    }
    static ModelTextArg list(std::vector<ModelTextArg> items, const QString &separator);

    Type type() const { return m_type; }
    // The data, the field key, or the list's separator.
    const QString &value() const { return m_value; }
    // The nested text (one).
    const ModelText &text() const { return m_texts.front(); }
    // The list's items.
    const std::vector<ModelTextArg> &items() const { return m_items; }

private:
    Type m_type;
    QString m_value;
    std::vector<ModelText> m_texts;
    std::vector<ModelTextArg> m_items;
};

class ModelText
{
public:
    using Arg = ModelTextArg;

    ModelText() = default;
    // source: a literal marked with QT_TRANSLATE_NOOP("ModelError", …) (it lives as long as the program).
    explicit ModelText(const char *source, std::initializer_list<Arg> args = {})
        : m_source(source)
        , m_args(args)
    {
    }
    ModelText(const char *source, std::vector<Arg> args)
        : m_source(source)
        , m_args(std::move(args))
    {
    }

    bool isNull() const { return m_source == nullptr; }
    const char *source() const { return m_source; }
    const std::vector<Arg> &args() const { return m_args; }

    // The template filled with its arguments, in English.
    QString english() const;

    // Puts args[n - 1] for each %n of a template in one pass (an argument that holds "%2" stays as
    // it is); a %n without an argument is kept.
    static QString fill(const QString &pattern, const QStringList &args);

private:
    const char *m_source = nullptr;
    std::vector<Arg> m_args;
};

inline ModelTextArg::ModelTextArg(const ModelText &text)
    : m_type(Text)
    , m_texts{text}
{
}

inline ModelTextArg ModelTextArg::list(std::vector<ModelTextArg> items, const QString &separator)
{
    ModelTextArg a{QString(separator)};
    a.m_type = List;
    a.m_items = std::move(items);
    return a;
}

// What is wrong with one field of an input, by the field's key.
using FieldProblems = QMap<QString, ModelText>;

// A refusal the model gives for bad input or a state: its kind, a stable code ("VALIDATION_ERROR",
// "DUPLICATE_EMAIL"), its text (a template and its arguments), the fields it names with what is
// wrong with each, and data for the caller (details such as existingId or retryAfter). The model
// never names a transport: the server maps kinds to its statuses in one table
// (server/api/errorstatus.h) and the window shows the text in its language (ui/shell/errortext.h).
class DomainError : public std::runtime_error
{
public:
    enum Kind
    {
        BadRequest,    // malformed input: wrong types, formats, ranges
        Unprocessable, // well-formed but not acceptable (a required field missing, an action unknown)
        NotFound,      // what it names does not exist
        Conflict,      // the state forbids it (a duplicate, a stage that holds deals, a closed task)
        Forbidden,     // the actor may not do this
        Unauthorized,  // the caller is not who it claims (a bad signature)
        TooLarge,      // over a size limit
        RateLimited,   // too many at once; details.retryAfter in seconds
        Unavailable,   // a service it needs cannot be reached now
        StorageFull    // the disk holding the database is full: the write was not saved (reads go on)
    };

    DomainError(Kind kind, QString code, ModelText text, FieldProblems problems = {}, QJsonObject data = {});
    DomainError(Kind kind, QString code, ModelText text, QJsonObject data)
        : DomainError(kind, std::move(code), std::move(text), {}, std::move(data))
    {
    }

    Kind kind() const { return m_kind; }
    const QString &code() const { return m_code; }
    const ModelText &text() const { return m_text; }
    // The text in English (the API's message).
    const QString &message() const { return m_message; }
    const FieldProblems &problems() const { return m_problems; }
    // The data given with the refusal (not texts).
    const QJsonObject &data() const { return m_data; }
    // The data and each field's problem in English (the API's details).
    const QJsonObject &details() const { return m_details; }

    // Malformed input (BadRequest) and unacceptable input (Unprocessable) with the usual
    // VALIDATION_ERROR code.
    static DomainError badRequest(ModelText text, FieldProblems problems = {})
    {
        return DomainError(BadRequest, QStringLiteral("VALIDATION_ERROR"), std::move(text), std::move(problems));
    }
    static DomainError unprocessable(ModelText text, FieldProblems problems = {})
    {
        return DomainError(Unprocessable, QStringLiteral("VALIDATION_ERROR"), std::move(text), std::move(problems));
    }

    // "Invalid data: email is not a valid e-mail address; phone must …" (BadRequest) naming each field.
    static DomainError invalid(const FieldProblems &problems);
    static DomainError invalid(const QString &field, ModelText problem) { return invalid({{field, problem}}); }
    // "Required field missing: title is required" (Unprocessable) naming each field.
    static DomainError missing(const FieldProblems &problems);
    static DomainError missing(const QString &field, ModelText problem) { return missing({{field, problem}}); }
    // "Invalid data: url, events" (BadRequest) and "Required field missing: name, url"
    // (Unprocessable): the fields' names only in the text, their problems in the details.
    static DomainError invalidFields(const FieldProblems &problems);
    static DomainError missingFields(const FieldProblems &problems);
    // "title is required", as a field's problem.
    static ModelText isRequired();

    // "<what> <id> does not exist"; what: a noun marked with QT_TRANSLATE_NOOP("ModelError", "Deal").
    static DomainError notFound(const char *what, const QString &id);

    // "email is not a valid e-mail address; phone must …": each field with its problem.
    static ModelTextArg problemList(const FieldProblems &problems);
    // "email, phone": the fields' names.
    static ModelTextArg fieldList(const FieldProblems &problems);

private:
    Kind m_kind;
    QString m_code;
    ModelText m_text;
    QString m_message;
    FieldProblems m_problems;
    QJsonObject m_data;
    QJsonObject m_details;
};

// A write that a unique index refused (SQLite's UNIQUE or PRIMARY KEY constraint, PostgreSQL's
// SQLSTATE 23505 unique_violation): another writer saved the same value between a repository's
// check and its write (two copies of Liaison on one PostgreSQL database), or a check is missing. A
// conflict like the checks' own (code CONFLICT). Repositories that can name the field run their
// check again outside the transaction (Database::refuseDuplicate) and give their own conflict; this
// one names no field.
class UniqueViolation : public DomainError
{
public:
    UniqueViolation()
        : DomainError(Conflict, QStringLiteral("CONFLICT"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError",
                                                  "Another change saved the same value first: this one was not saved")))
    {
    }
};

// A failure of the database itself (not of the input): a fault of the program or its machine, logged.
class DatabaseError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The database cannot be reached now: the PostgreSQL server is stopped or restarting, or it ended
// this thread's session. The unit of work was not committed (its transaction died with the
// connection; the one exception, a COMMIT whose answer was lost, is in docs/architecture.md), the
// thread's next statement makes a new connection, and the caller may try again (after kRetryAfterSeconds): the
// server and the window say so, loops try again on their next round.
class DatabaseUnavailable : public DatabaseError
{
public:
    using DatabaseError::DatabaseError;
    // Seconds after which a retry is worth it.
    static constexpr int kRetryAfterSeconds = 5;
};
