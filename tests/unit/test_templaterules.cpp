// Template writes: typed changes and a request body meet the same rules, so that a template made
// by code is refused on the same field, with the same kind, as the same values sent to the API.
#include "model/core/errors.h"
#include "model/inbox/messagetemplate.h"
#include "model/inbox/templaterepository.h"
#include "tests/support/modelsupport.h"

#include <QtTest>

#include <functional>
#include <memory>

class TestTemplateRules : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;

private slots:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void typedAndJsonAlike_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("category"); // empty: not set
        QTest::addColumn<QStringList>("buttons");
        QTest::addColumn<QString>("badField"); // empty: accepted
        QTest::addColumn<int>("kind");
        const int bad = DomainError::BadRequest, missing = DomainError::Unprocessable;
        QTest::newRow("ok") << "siparis_hazir"
                            << "tr"
                            << "Merhaba {{1}}"
                            << "" << QStringList{" Evet "} << "" << -1;
        QTest::newRow("name with capitals") << "Sipariş"
                                            << "tr"
                                            << "x"
                                            << "" << QStringList() << "name" << bad;
        QTest::newRow("empty name") << ""
                                    << "tr"
                                    << "x"
                                    << "" << QStringList() << "name" << bad;
        QTest::newRow("long language") << "a"
                                       << "turkish_TR"
                                       << "x"
                                       << "" << QStringList() << "language" << bad;
        QTest::newRow("empty body") << "a"
                                    << "tr"
                                    << "  "
                                    << "" << QStringList() << "body" << missing;
        QTest::newRow("unknown category") << "a"
                                          << "tr"
                                          << "x"
                                          << "spam" << QStringList() << "category" << bad;
        QTest::newRow("long button") << "a"
                                     << "tr"
                                     << "x"
                                     << "" << QStringList{QString(26, 'b')} << "buttons" << bad;
    }
    void typedAndJsonAlike()
    {
        QFETCH(QString, name);
        QFETCH(QString, language);
        QFETCH(QString, body);
        QFETCH(QString, category);
        QFETCH(QStringList, buttons);
        QFETCH(QString, badField);
        QFETCH(int, kind);
        TemplateChanges typed;
        typed.name = name;
        typed.language = language;
        typed.body = body;
        QJsonObject json{{"name", name}, {"language", language}, {"body", body}};
        if (!category.isEmpty()) {
            typed.category = category;
            json.insert("category", category);
        }
        if (!buttons.isEmpty()) {
            typed.buttons = buttons;
            QJsonArray array;
            for (const QString &b : buttons)
                array.append(QJsonObject{{"type", "quick_reply"}, {"text", b}});
            json.insert("buttons", array);
        }
        QCOMPARE(refusalOf([&] { TemplateRules::check(typed, true); }), qMakePair(badField, kind));
        std::optional<TemplateChanges> parsed;
        QCOMPARE(refusalOf([&] { parsed = TemplateRules::parse(json, true); }), qMakePair(badField, kind));
        if (badField.isEmpty()) {
            TemplateRepository templates(testStore());
            const MessageTemplate a = templates.create(typed);
            parsed->language = QStringLiteral("en_US"); // another language: not a duplicate
            const MessageTemplate b = templates.create(*parsed);
            QCOMPARE(b.body, a.body);
            QCOMPARE(b.buttons, a.buttons);
            QCOMPARE(a.buttons.first().toObject().value("text").toString(), QString("Evet"));
            QCOMPARE(a.category, QString("utility"));
            QCOMPARE(a.status, QString("approved"));
        }
    }

    void placeholdersMustRunWithoutGaps()
    {
        TemplateChanges typed;
        typed.name = QStringLiteral("bosluklu");
        typed.language = QStringLiteral("tr");
        typed.body = QStringLiteral("Merhaba {{2}}");
        QCOMPARE(refusalOf([&] { TemplateRepository(testStore()).create(typed); }),
                 qMakePair(QString("body"), int(DomainError::BadRequest)));
    }
};

QTEST_GUILESS_MAIN(TestTemplateRules)
#include "test_templaterules.moc"
