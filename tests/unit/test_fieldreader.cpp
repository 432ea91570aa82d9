// FieldReader, the one reader of a body's members: what each reader that refuses at once accepts
// and returns, and how it refuses (kind, the English message the API answers with, the details
// naming the field) for a missing member, null, a wrong type, a text too long, lists; and the
// collecting readers (string(), choice(), throwIfAny()).
#include "model/core/errors.h"
#include "model/core/fieldreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <functional>

namespace {
// What a read gave: its value written out ("nullopt" for an absent optional), or the refusal.
struct Outcome
{
    QString value;
    QString kind; // "" when it did not refuse
    QString message;
    QString details; // compact JSON
};

QString kindName(DomainError::Kind kind)
{
    switch (kind) {
    case DomainError::BadRequest:
        return QStringLiteral("BadRequest");
    case DomainError::Unprocessable:
        return QStringLiteral("Unprocessable");
    default:
        return QStringLiteral("other");
    }
}

QString written(const std::optional<QString> &v)
{
    return v ? QStringLiteral("\"%1\"").arg(*v) : QStringLiteral("nullopt");
}

QString written(const QStringList &v)
{
    return QStringLiteral("[%1]").arg(v.join(QLatin1Char('|')));
}

QString written(const std::optional<bool> &v)
{
    return v ? (*v ? QStringLiteral("true") : QStringLiteral("false")) : QStringLiteral("nullopt");
}

// Runs one reader of the at-once kind by its name on member "m" of body.
Outcome read(const QJsonObject &body, const QString &reader)
{
    const FieldReader r(body);
    const QString m = QStringLiteral("m");
    const std::map<QString, std::function<QString()>> readers{
        {"requiredString", [&] { return QStringLiteral("\"%1\"").arg(r.requiredString(m)); }},
        {"optionalString", [&] { return QStringLiteral("\"%1\"").arg(r.optionalString(m)); }},
        {"optionalText", [&] { return QStringLiteral("\"%1\"").arg(r.optionalText(m, 5)); }},
        {"nullableString", [&] { return written(r.nullableString(m)); }},
        {"presentString", [&] { return written(r.presentString(m)); }},
        {"optionalBool", [&] { return written(r.optionalBool(m)); }},
        {"requiredStringArray", [&] { return written(r.requiredStringArray(m)); }},
        {"optionalStringArray", [&] { return written(r.optionalStringArray(m)); }},
        {"requiredWords", [&] { return written(r.requiredWords(m, 4)); }},
    };
    Outcome out;
    try {
        out.value = readers.at(reader)();
    } catch (const DomainError &e) {
        out.kind = kindName(e.kind());
        out.message = e.message();
        out.details = QString::fromUtf8(QJsonDocument(e.details()).toJson(QJsonDocument::Compact));
    }
    return out;
}

QJsonObject withM(const QJsonValue &v)
{
    return v.isUndefined() ? QJsonObject{} : QJsonObject{{QStringLiteral("m"), v}};
}

const QJsonValue kAbsent = QJsonValue(QJsonValue::Undefined);
const QJsonValue kNull = QJsonValue(QJsonValue::Null);
} // namespace

class TestFieldReader final : public QObject
{
    Q_OBJECT

private slots:
    void readsAtOnce_data()
    {
        QTest::addColumn<QString>("reader");
        QTest::addColumn<QJsonValue>("member"); // Undefined: absent
        QTest::addColumn<QString>("value");     // what it returned, when it did not refuse
        QTest::addColumn<QString>("kind");      // the refusal's kind, "" when none
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("details");

        const QString missing = QStringLiteral("Required field missing: m");
        const QString missingDetail = QStringLiteral(R"({"m":"is required"})");
        const QString notString = QStringLiteral("Invalid data: m must be a string");
        const QString notStringDetail = QStringLiteral(R"({"m":"must be a string"})");

        // requiredString: a non-blank string, as given.
        QTest::newRow("required: given") << "requiredString" << QJsonValue(" a ") << "\" a \""
                                         << ""
                                         << ""
                                         << "";
        QTest::newRow("required: absent") << "requiredString" << kAbsent << ""
                                          << "Unprocessable" << missing << missingDetail;
        QTest::newRow("required: null") << "requiredString" << kNull << ""
                                        << "Unprocessable" << missing << missingDetail;
        QTest::newRow("required: blank") << "requiredString" << QJsonValue("  ") << ""
                                         << "Unprocessable" << missing << missingDetail;
        QTest::newRow("required: number") << "requiredString" << QJsonValue(3) << ""
                                          << "BadRequest" << notString << notStringDetail;
        QTest::newRow("required: array") << "requiredString" << QJsonValue(QJsonArray{"a"}) << ""
                                         << "BadRequest" << notString << notStringDetail;

        // optionalString: absent and null read as "", as given otherwise.
        QTest::newRow("optional: absent") << "optionalString" << kAbsent << "\"\""
                                          << ""
                                          << ""
                                          << "";
        QTest::newRow("optional: null") << "optionalString" << kNull << "\"\""
                                        << ""
                                        << ""
                                        << "";
        QTest::newRow("optional: untrimmed") << "optionalString" << QJsonValue(" a ") << "\" a \""
                                             << ""
                                             << ""
                                             << "";
        QTest::newRow("optional: bool") << "optionalString" << QJsonValue(true) << ""
                                        << "BadRequest" << notString << notStringDetail;

        // optionalText: trimmed, at most 5 characters here.
        QTest::newRow("text: trimmed") << "optionalText" << QJsonValue("  abcde  ") << "\"abcde\""
                                       << ""
                                       << ""
                                       << "";
        QTest::newRow("text: too long") << "optionalText" << QJsonValue("abcdef") << ""
                                        << "BadRequest"
                                        << "Invalid data: m must be at most 5 characters"
                                        << R"({"m":"must be at most 5 characters"})";
        QTest::newRow("text: object") << "optionalText" << QJsonValue(QJsonObject{}) << ""
                                      << "BadRequest" << notString << notStringDetail;

        // nullableString: absent -> nullopt, null -> "" (cleared), trimmed.
        QTest::newRow("nullable: absent") << "nullableString" << kAbsent << "nullopt"
                                          << ""
                                          << ""
                                          << "";
        QTest::newRow("nullable: null") << "nullableString" << kNull << "\"\""
                                        << ""
                                        << ""
                                        << "";
        QTest::newRow("nullable: trimmed") << "nullableString" << QJsonValue(" u_1 ") << "\"u_1\""
                                           << ""
                                           << ""
                                           << "";
        QTest::newRow("nullable: number") << "nullableString" << QJsonValue(1) << ""
                                          << "BadRequest"
                                          << "Invalid data: m must be a string or null"
                                          << R"({"m":"must be a string or null"})";

        // presentString: null is not a string.
        QTest::newRow("present: absent") << "presentString" << kAbsent << "nullopt"
                                         << ""
                                         << ""
                                         << "";
        QTest::newRow("present: empty") << "presentString" << QJsonValue("") << "\"\""
                                        << ""
                                        << ""
                                        << "";
        QTest::newRow("present: null") << "presentString" << kNull << ""
                                       << "BadRequest" << notString << notStringDetail;

        // optionalBool
        QTest::newRow("bool: absent") << "optionalBool" << kAbsent << "nullopt"
                                      << ""
                                      << ""
                                      << "";
        QTest::newRow("bool: false") << "optionalBool" << QJsonValue(false) << "false"
                                     << ""
                                     << ""
                                     << "";
        QTest::newRow("bool: string") << "optionalBool" << QJsonValue("true") << ""
                                      << "BadRequest"
                                      << "Invalid data: m must be a boolean"
                                      << R"({"m":"must be a boolean"})";
        QTest::newRow("bool: null") << "optionalBool" << kNull << ""
                                    << "BadRequest"
                                    << "Invalid data: m must be a boolean"
                                    << R"({"m":"must be a boolean"})";

        // Lists.
        const QString notStrings = QStringLiteral("Invalid data: m must be an array of strings");
        const QString notStringsDetail = QStringLiteral(R"({"m":"must be an array of strings"})");
        QTest::newRow("array: strings") << "requiredStringArray" << QJsonValue(QJsonArray{"a", " b"}) << "[a| b]"
                                        << ""
                                        << ""
                                        << "";
        QTest::newRow("array: empty") << "requiredStringArray" << QJsonValue(QJsonArray{}) << "[]"
                                      << ""
                                      << ""
                                      << "";
        QTest::newRow("array: absent") << "requiredStringArray" << kAbsent << ""
                                       << "Unprocessable" << missing << missingDetail;
        QTest::newRow("array: a string") << "requiredStringArray" << QJsonValue("a") << ""
                                         << "BadRequest" << notStrings << notStringsDetail;
        QTest::newRow("array: a number in it") << "requiredStringArray" << QJsonValue(QJsonArray{"a", 2}) << ""
                                               << "BadRequest" << notStrings << notStringsDetail;
        QTest::newRow("optional array: null") << "optionalStringArray" << kNull << "[]"
                                              << ""
                                              << ""
                                              << "";
        QTest::newRow("optional array: object") << "optionalStringArray" << QJsonValue(QJsonObject{}) << ""
                                                << "BadRequest"
                                                << "Invalid data: m must be an array"
                                                << R"({"m":"must be an array"})";
        QTest::newRow("optional array: a null in it")
            << "optionalStringArray" << QJsonValue(QJsonArray{"a", QJsonValue()}) << ""
            << "BadRequest" << notStrings << notStringsDetail;

        // requiredWords: at most 4 characters each here, not blank, not empty.
        QTest::newRow("words: given") << "requiredWords" << QJsonValue(QJsonArray{"vip", " new "}) << "[vip| new ]"
                                      << ""
                                      << ""
                                      << "";
        QTest::newRow("words: empty") << "requiredWords" << QJsonValue(QJsonArray{}) << ""
                                      << "Unprocessable"
                                      << "Required field missing: m must not be empty"
                                      << R"({"m":"must not be empty"})";
        QTest::newRow("words: blank one") << "requiredWords" << QJsonValue(QJsonArray{"vip", " "}) << ""
                                          << "BadRequest"
                                          << "Invalid data: m must be non-empty strings of at most 4 characters"
                                          << R"({"m":"must be non-empty strings of at most 4 characters"})";
        QTest::newRow("words: long one") << "requiredWords" << QJsonValue(QJsonArray{"abcde"}) << ""
                                         << "BadRequest"
                                         << "Invalid data: m must be non-empty strings of at most 4 characters"
                                         << R"({"m":"must be non-empty strings of at most 4 characters"})";
        QTest::newRow("words: absent") << "requiredWords" << kAbsent << ""
                                       << "Unprocessable" << missing << missingDetail;
    }

    void readsAtOnce()
    {
        QFETCH(QString, reader);
        QFETCH(QJsonValue, member);
        QFETCH(QString, value);
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QFETCH(QString, details);
        const Outcome out = read(withM(member), reader);
        QCOMPARE(out.kind, kind);
        QCOMPARE(out.message, message);
        QCOMPARE(out.details, details);
        QCOMPARE(out.value, value);
    }

    // has/given/stringOrNothing tell an absent member from a null one.
    void tellsAbsentFromNull_data()
    {
        QTest::addColumn<QJsonValue>("member");
        QTest::addColumn<bool>("has");
        QTest::addColumn<bool>("given");
        QTest::addColumn<bool>("stringOrNothing");
        QTest::newRow("absent") << kAbsent << false << false << true;
        QTest::newRow("null") << kNull << true << false << true;
        QTest::newRow("string") << QJsonValue("") << true << true << true;
        QTest::newRow("number") << QJsonValue(0) << true << true << false;
    }

    void tellsAbsentFromNull()
    {
        QFETCH(QJsonValue, member);
        QFETCH(bool, has);
        QFETCH(bool, given);
        QFETCH(bool, stringOrNothing);
        const QJsonObject body = withM(member);
        const FieldReader r(body);
        QCOMPARE(r.has("m"), has);
        QCOMPARE(r.given("m"), given);
        QCOMPARE(r.stringOrNothing("m"), stringOrNothing);
    }

    // The collecting readers: every wrong field at once (BadRequest) before the missing ones
    // (Unprocessable), the first problem of a field kept.
    void collectsEveryField()
    {
        const QJsonObject body{{"name", 3}, {"note", "abcdef"}, {"kind", "x"}};
        FieldReader r(body);
        QVERIFY(!r.string(QStringLiteral("name"), 10));
        QVERIFY(!r.string(QStringLiteral("note"), 5));
        QVERIFY(!r.choice(QStringLiteral("kind"), {"a", "b"}));
        r.missing(QStringLiteral("title"));
        try {
            r.throwIfAny();
            QFAIL("no refusal");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::BadRequest);
            QCOMPARE(e.message(), QStringLiteral("Invalid data: kind must be one of a, b; name must be a string; "
                                                 "note must be at most 5 characters"));
            QCOMPARE(e.problems().keys(), QStringList({"kind", "name", "note"}));
        }
        FieldReader onlyMissing(body);
        onlyMissing.missing(QStringLiteral("title"));
        try {
            onlyMissing.throwIfAny();
            QFAIL("no refusal");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Unprocessable);
            QCOMPARE(e.message(), QStringLiteral("Required field missing: title is required"));
        }
        FieldReader fine(body);
        QVERIFY(!fine.string(QStringLiteral("absent"), 5));
        fine.throwIfAny(); // nothing collected
    }
};

QTEST_GUILESS_MAIN(TestFieldReader)
#include "test_fieldreader.moc"
