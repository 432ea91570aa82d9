// Contact validation rules, phone and e-mail normalisation, search folding, ids.
#include "model/contacts/contact.h"
#include "model/core/errors.h"
#include "model/core/ids.h"
#include "model/core/textfold.h"
#include "model/core/timeutil.h"

#include <QJsonArray>
#include <QtTest>

class TestContactRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void validatesEmail_data()
    {
        QTest::addColumn<QString>("email");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << "a@example.org" << true;
        QTest::newRow("plus and dots") << "first.last+crm@mail.example.com.tr" << true;
        QTest::newRow("no at") << "example.org" << false;
        QTest::newRow("two ats") << "a@b@example.org" << false;
        QTest::newRow("no tld") << "a@localhost" << false;
        QTest::newRow("space") << "a b@example.org" << false;
        QTest::newRow("double dot") << "a..b@example.org" << false;
        QTest::newRow("empty label") << "a@example..org" << false;
        QTest::newRow("trailing dot") << "a@example.org." << false;
        QTest::newRow("empty") << "" << false;
    }
    void validatesEmail()
    {
        QFETCH(QString, email);
        QFETCH(bool, valid);
        QCOMPARE(ContactRules::isValidEmail(email), valid);
    }

    void normalisesPhoneToE164_data()
    {
        QTest::addColumn<QString>("phone");
        QTest::addColumn<QString>("e164");
        QTest::newRow("spaces") << "+90 532 123 45 67"
                                << "+905321234567";
        QTest::newRow("dashes and parens") << "+1 (415) 555-0100"
                                           << "+14155550100";
        QTest::newRow("dots") << "+49.30.1234567"
                              << "+49301234567";
        QTest::newRow("no plus") << "05321234567"
                                 << "";
        QTest::newRow("letters") << "+90 532 ABC"
                                 << "";
        QTest::newRow("too short") << "+12345"
                                   << "";
        QTest::newRow("too long") << "+1234567890123456"
                                  << "";
        QTest::newRow("leading zero country") << "+0532123456"
                                              << "";
        QTest::newRow("plus only") << "+"
                                   << "";
    }
    void normalisesPhoneToE164()
    {
        QFETCH(QString, phone);
        QFETCH(QString, e164);
        QCOMPARE(ContactRules::toE164(phone), e164);
    }

    // contacts/defaultCallingCode=90: numbers without "+" are Turkish national numbers.
    void readsNationalNumbersWithTheDefaultCallingCode_data()
    {
        QTest::addColumn<QString>("phone");
        QTest::addColumn<QString>("e164");
        QTest::newRow("trunk zero") << "0532 123 45 67"
                                    << "+905321234567";
        QTest::newRow("no trunk zero") << "532 123 45 67"
                                       << "+905321234567";
        QTest::newRow("parens") << "(0532) 123-45-67"
                                << "+905321234567";
        QTest::newRow("international prefix") << "0049 30 1234567"
                                              << "+49301234567";
        QTest::newRow("plus still wins") << "+1 415 555 0100"
                                         << "+14155550100";
        QTest::newRow("letters") << "0532 ABC"
                                 << "";
        QTest::newRow("too short") << "0532"
                                   << "";
        QTest::newRow("too long") << "0532123456789012"
                                  << "";
        QTest::newRow("00 then zero") << "000532"
                                      << "";
    }
    void readsNationalNumbersWithTheDefaultCallingCode()
    {
        QFETCH(QString, phone);
        QFETCH(QString, e164);
        ContactRules::setDefaultCallingCode(QStringLiteral("90"));
        const QString got = ContactRules::toE164(phone);
        ContactRules::setDefaultCallingCode({});
        QCOMPARE(got, e164);
    }

    // A number far outside a field's range is refused before any conversion to int (a cast of
    // 1e10 to int is undefined behaviour; the fuzzer found it).
    void hugeNumbersAreRefusedNotCast_data()
    {
        QTest::addColumn<double>("leadScore");
        QTest::newRow("1e10") << 1e10;
        QTest::newRow("-1e10") << -1e10;
        QTest::newRow("1e300") << 1e300;
        QTest::newRow("101") << 101.0;
        QTest::newRow("half") << 50.5;
    }
    void hugeNumbersAreRefusedNotCast()
    {
        QFETCH(double, leadScore);
        try {
            ContactRules::parse({{"firstName", "A"}, {"leadScore", leadScore}});
            QFAIL("accepted");
        } catch (const DomainError &e) {
            QVERIFY(e.details().contains("leadScore"));
        }
    }

    void timesOutsideTheFourDigitYearsAreRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("last minute") << "9999-12-31T23:59:59Z" << true;
        QTest::newRow("into 10000 by its offset") << "9999-12-31T23:30:00-02:00" << false;
        QTest::newRow("first day") << "0001-01-01T00:00:00Z" << true;
        QTest::newRow("into year 0 by its offset") << "0001-01-01T00:00:00+01:00" << false;
    }
    void timesOutsideTheFourDigitYearsAreRefused()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(TimeUtil::parse(text).has_value(), valid);
    }

    void aNationalNumberIsStoredInItsInternationalForm()
    {
        ContactRules::setDefaultCallingCode(QStringLiteral("90"));
        const ContactChanges c = ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "0532 123 45 67"}});
        ContactRules::setDefaultCallingCode({});
        QCOMPARE(*c.phone, QString("+905321234567"));
        // without the setting it is refused, saying why
        try {
            ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "0532 123 45 67"}});
            QFAIL("accepted a national number without a default calling code");
        } catch (const DomainError &e) {
            QVERIFY(e.details().value("phone").toString().contains("leading +"));
        }
    }

    void normalisesTags()
    {
        QCOMPARE(ContactRules::normalizeTags({" vip", "VIP", "", "lead ", "Lead", "b2b"}),
                 (QStringList{"vip", "lead", "b2b"}));
    }

    // What the window fills in goes through the same rules as a request body: each row is given
    // typed (ContactRules::check) and as JSON (ContactRules::parse), and both must agree.
    void checkAppliesTheBodyRulesToTypedChanges_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("stored"); // empty: refused
        QTest::addColumn<QString>("problem");
        QTest::newRow("trimmed name") << "firstName"
                                      << "  Ayşe "
                                      << "Ayşe"
                                      << "";
        QTest::newRow("name too long") << "firstName" << QString(201, 'a') << ""
                                       << "at most 200";
        QTest::newRow("e-mail") << "email"
                                << "ayse@ornek.com.tr"
                                << "ayse@ornek.com.tr"
                                << "";
        QTest::newRow("bad e-mail") << "email"
                                    << "ayse@"
                                    << ""
                                    << "not a valid e-mail";
        QTest::newRow("national phone") << "phone"
                                        << "0532 123 45 67"
                                        << "+905321234567"
                                        << "";
        QTest::newRow("international phone") << "phone"
                                             << "+90 532 123 45 67"
                                             << "+90 532 123 45 67"
                                             << "";
        QTest::newRow("short phone") << "phone"
                                     << "+90 12"
                                     << ""
                                     << "international number";
        QTest::newRow("source too long") << "source" << QString(65, 's') << ""
                                         << "at most 64";
    }
    void checkAppliesTheBodyRulesToTypedChanges()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, stored);
        QFETCH(QString, problem);
        ContactRules::setDefaultCallingCode(QStringLiteral("90"));
        const auto restore = qScopeGuard([] { ContactRules::setDefaultCallingCode({}); });
        ContactChanges typed;
        std::optional<QString> *slot = field == "firstName" ? &typed.firstName
                                       : field == "email"   ? &typed.email
                                       : field == "phone"   ? &typed.phone
                                                            : &typed.source;
        *slot = value;
        QString typedProblem;
        try {
            ContactRules::check(typed);
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::BadRequest);
            typedProblem = e.details().value(field).toString();
        }
        QString bodyProblem;
        std::optional<QString> parsed;
        try {
            const ContactChanges c = ContactRules::parse({{field, value}});
            parsed = field == "firstName" ? c.firstName
                     : field == "email"   ? c.email
                     : field == "phone"   ? c.phone
                                          : c.source;
        } catch (const DomainError &e) {
            bodyProblem = e.details().value(field).toString();
        }
        QCOMPARE(typedProblem, bodyProblem);
        if (stored.isEmpty()) {
            QVERIFY2(typedProblem.contains(problem), qPrintable(typedProblem));
        } else {
            QVERIFY2(typedProblem.isEmpty(), qPrintable(typedProblem));
            QCOMPARE(slot->value_or(QString()), stored);
            QCOMPARE(parsed.value_or(QString()), stored);
        }
    }

    void checkNormalisesTagsAndRefusesTooMany()
    {
        ContactChanges c;
        c.tags = QStringList{" vip", "VIP", "lead"};
        ContactRules::check(c);
        QCOMPARE(*c.tags, (QStringList{"vip", "lead"}));
        QStringList many;
        for (int i = 0; i < 101; ++i)
            many << QStringLiteral("t%1").arg(i);
        c.tags = many;
        QVERIFY_THROWS_EXCEPTION(DomainError, ContactRules::check(c));
        c.tags.reset();
        c.leadScore = 101;
        QVERIFY_THROWS_EXCEPTION(DomainError, ContactRules::check(c));
    }

    // customFields are bounded (docs/api.md): a 9 MiB value or 100,000 fields once made a page of
    // 20 contacts 10.9 MB.
    void boundsCustomFields_data()
    {
        QTest::addColumn<QJsonObject>("fields");
        QTest::addColumn<QString>("problem"); // empty: accepted
        auto many = [](int n, int valueLength) {
            QJsonObject o;
            for (int i = 0; i < n; ++i)
                o.insert(QStringLiteral("f%1").arg(i), QString(valueLength, QLatin1Char('v')));
            return o;
        };
        QTest::newRow("100 fields") << many(100, 10) << "";
        QTest::newRow("101 fields") << many(101, 1) << "must have at most 100 fields";
        QTest::newRow("100,000 fields") << many(100000, 1) << "must have at most 100 fields";
        QTest::newRow("a name of 64") << QJsonObject{{QString(64, 'k'), "v"}} << "";
        QTest::newRow("a name of 65") << QJsonObject{{QString(65, 'k'), "v"}}
                                      << "field names must be 1 to 64 characters";
        QTest::newRow("an empty name") << QJsonObject{{"", "v"}} << "field names must be 1 to 64 characters";
        QTest::newRow("a value of 1,000") << QJsonObject{{"not", QString(1000, 'x')}} << "";
        QTest::newRow("a value of 1,001")
            << QJsonObject{{"not", QString(1001, 'x')}} << "the value of not must be at most 1000 characters";
        QTest::newRow("a value of 9 MiB") << QJsonObject{{"not", QString(9 * 1024 * 1024, 'x')}}
                                          << "the value of not must be at most 1000 characters";
        QTest::newRow("a number") << QJsonObject{{"n", 12.5}, {"b", true}, {"z", QJsonValue()}} << "";
        QTest::newRow("a large array") << QJsonObject{{"list", QJsonArray::fromStringList(QStringList(300, "abc"))}}
                                       << "the value of list must be at most 1000 characters";
        QTest::newRow("17 KiB in all") << many(18, 990) << "must be at most 16384 bytes as JSON";
        QTest::newRow("16 of 990 characters") << many(16, 990) << "";
    }
    void boundsCustomFields()
    {
        QFETCH(QJsonObject, fields);
        QFETCH(QString, problem);
        try {
            ContactRules::parse({{"firstName", "Ayşe"}, {"customFields", fields}});
            QVERIFY2(problem.isEmpty(), "accepted");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::BadRequest);
            QCOMPARE(e.details().value("customFields").toString(), problem);
        }
        // The window's typed changes get the same rule.
        ContactChanges c;
        c.customFields = fields;
        if (problem.isEmpty())
            ContactRules::check(c);
        else
            QVERIFY_THROWS_EXCEPTION(DomainError, ContactRules::check(c));
    }

    void readsAddressParts_data()
    {
        QTest::addColumn<QJsonObject>("address");
        QTest::addColumn<QString>("field");   // the detail's key when refused
        QTest::addColumn<QString>("problem"); // empty: accepted, and `field` holds the stored city
        QTest::newRow("trimmed") << QJsonObject{{"city", "  İzmir "}} << "İzmir"
                                 << "";
        QTest::newRow("null is empty") << QJsonObject{{"city", QJsonValue::Null}} << ""
                                       << "";
        QTest::newRow("unknown part, even of the wrong type") << QJsonObject{{"zip", 35000}} << "address.zip"
                                                              << "is not an address field";
        QTest::newRow("not text") << QJsonObject{{"city", 35}} << "address.city"
                                  << "must be a string";
        QTest::newRow("too long") << QJsonObject{{"street", QString(201, 's')}} << "address.street"
                                  << "must be at most 200 characters";
    }
    void readsAddressParts()
    {
        QFETCH(QJsonObject, address);
        QFETCH(QString, field);
        QFETCH(QString, problem);
        try {
            const ContactChanges c = ContactRules::parse({{"address", address}});
            QVERIFY2(problem.isEmpty(), "accepted a bad address");
            QCOMPARE(c.address->value("city").toString(), field);
        } catch (const DomainError &e) {
            QVERIFY2(!problem.isEmpty(), qPrintable(e.message()));
            QCOMPARE(e.details().value(field).toString(), problem);
        }
    }

    void parseSeparatesAbsentFromCleared()
    {
        const ContactChanges c = ContactRules::parse({{"email", QJsonValue::Null}, {"company", " Acme "}});
        QVERIFY(!c.firstName.has_value());
        QVERIFY(c.email.has_value());
        QVERIFY(c.email->isEmpty());
        QCOMPARE(*c.company, QString("Acme"));
    }

    void parseReportsEveryBadField()
    {
        try {
            ContactRules::parse({{"email", "x"}, {"phone", "123"}, {"tags", 5}, {"leadScore", 1.5}});
            QFAIL("no error");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::BadRequest);
            QCOMPARE(e.code(), QString("VALIDATION_ERROR"));
            for (const char *field : {"email", "phone", "tags", "leadScore"})
                QVERIFY2(e.details().contains(QLatin1String(field)), field);
        }
    }

    void requiredFieldsGive422_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<bool>("ok");
        QTest::newRow("first name and email") << QJsonObject{{"firstName", "A"}, {"email", "a@example.com"}} << true;
        QTest::newRow("last name and phone") << QJsonObject{{"lastName", "B"}, {"phone", "+905321234567"}} << true;
        QTest::newRow("no name") << QJsonObject{{"email", "a@example.com"}} << false;
        QTest::newRow("no contact point") << QJsonObject{{"firstName", "A"}} << false;
    }
    void requiredFieldsGive422()
    {
        QFETCH(QJsonObject, body);
        QFETCH(bool, ok);
        Contact c;
        ContactRules::apply(c, ContactRules::parse(body));
        try {
            ContactRules::checkRequired(c);
            QVERIFY(ok);
        } catch (const DomainError &e) {
            QVERIFY(!ok);
            QCOMPARE(e.kind(), DomainError::Unprocessable);
        }
    }

    void foldsTurkishAndAccents_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("folded");
        QTest::newRow("dotted capital I") << "İSTANBUL"
                                          << "istanbul";
        QTest::newRow("dotless i") << "Işık"
                                   << "isik";
        QTest::newRow("cedilla and breve") << "Çağrı Şükrü"
                                           << "cagri sukru";
        QTest::newRow("umlaut") << "Müller Öz"
                                << "muller oz";
        QTest::newRow("plain") << "John"
                               << "john";
    }
    void foldsTurkishAndAccents()
    {
        QFETCH(QString, text);
        QFETCH(QString, folded);
        QCOMPARE(TextFold::fold(text), folded);
    }

    void idsArePrefixedAndTimeOrdered()
    {
        QString previous;
        for (int i = 0; i < 1000; ++i) {
            const QString id = Ids::make(u"contact");
            QVERIFY(Ids::looksLike(id, u"contact"));
            QVERIFY2(id > previous, qPrintable(id + " <= " + previous));
            previous = id;
        }
        QVERIFY(!Ids::looksLike(u"contact_short", u"contact"));
        QVERIFY(!Ids::looksLike(Ids::make(u"deal"), u"contact"));
    }

    void timestampsAreIsoUtcWithZ()
    {
        const QString now = TimeUtil::iso(QDateTime::currentDateTimeUtc());
        QVERIFY(now.endsWith('Z'));
        QCOMPARE(now.size(), 24);
        QVERIFY(TimeUtil::parse("2026-01-31").has_value());
        QCOMPARE(TimeUtil::iso(*TimeUtil::parse("2026-01-31T10:00:00+03:00")), QString("2026-01-31T07:00:00.000Z"));
        QVERIFY(!TimeUtil::parse("2026-02-30").has_value());
        QVERIFY(!TimeUtil::parse("yesterday").has_value());
    }
};

QTEST_GUILESS_MAIN(TestContactRules)
#include "test_contactrules.moc"
