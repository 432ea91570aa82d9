// JsonWriter and the contact answers written with it: the bytes must be those QJsonDocument writes
// for the same values, so the hot paths and the rest of the API never disagree.
#include "model/contacts/contact.h"
#include "model/core/jsonwriter.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

namespace {
QByteArray compact(const QJsonValue &v)
{
    return v.isObject() ? QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)
                        : QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
}
} // namespace

class TestJsonWriter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void escapesStringsAsQJsonDocument_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("plain") << QStringLiteral("Ayşe Yılmaz");
        QTest::newRow("quote and backslash") << QStringLiteral("say \"hi\" \\ bye");
        QTest::newRow("control characters") << QStringLiteral("a\nb\rc\td\be\ff") + QChar(0x01) + QChar(0x1f);
        QTest::newRow("slash and unicode") << QStringLiteral("a/b ₺ 😀 İıŞş");
        QTest::newRow("quote at the ends") << QStringLiteral("\"x\"");
        QTest::newRow("nul") << QString(QChar(0)) + QStringLiteral("z");
        QTest::newRow("ascii, then escapes after unicode") << QStringLiteral("id \"7\" Çağ\n\"ş\" \\ ") + QChar(0x02);
        QTest::newRow("delete character") << QStringLiteral("a") + QChar(0x7f) + QStringLiteral("b");
        QTest::newRow("lone surrogate") << QStringLiteral("x") + QChar(0xd800) + QStringLiteral("y");
        QTest::newRow("low surrogate first, high at the end")
            << QString(QChar(0xdc00)) + QStringLiteral("😀") + QChar(0xdbff);
        QTest::newRow("two and three byte characters") << QStringLiteral("é ₺ \u07ff \u0800 \uffff");
    }
    void escapesStringsAsQJsonDocument()
    {
        QFETCH(QString, text);
        JsonWriter w;
        w.beginArray().value(text).endArray();
        QCOMPARE(w.bytes(), compact(QJsonArray{text}));
        // And it reads back as the same string.
        QCOMPARE(QJsonDocument::fromJson(w.bytes()).array().at(0).toString(), text);
    }

    void writesNestingCommasAndScalars()
    {
        JsonWriter w;
        w.beginObject();
        w.key("a").beginArray().value(1).value(qint64(5000000000)).null().value(true).value(false).endArray();
        w.key("b").beginObject().endObject();
        w.key("c")
            .beginArray()
            .beginObject()
            .key("x")
            .value(QStringLiteral("y"))
            .endObject()
            .beginArray()
            .endArray()
            .endArray();
        w.key("d").valueOrNull(QString());
        w.key("e").value(QStringList{QStringLiteral("p"), QStringLiteral("q")});
        w.key("f").value(QJsonObject{{QStringLiteral("k"), 1.5}});
        w.key("g").rawJson("[1,2]");
        w.endObject();
        const QJsonObject expected{
            {QStringLiteral("a"), QJsonArray{1, double(5000000000), QJsonValue(), true, false}},
            {QStringLiteral("b"), QJsonObject{}},
            {QStringLiteral("c"), QJsonArray{QJsonObject{{QStringLiteral("x"), QStringLiteral("y")}}, QJsonArray{}}},
            {QStringLiteral("d"), QJsonValue()},
            {QStringLiteral("e"), QJsonArray{QStringLiteral("p"), QStringLiteral("q")}},
            {QStringLiteral("f"), QJsonObject{{QStringLiteral("k"), 1.5}}},
            {QStringLiteral("g"), QJsonArray{1, 2}}};
        QCOMPARE(w.bytes(), compact(expected));
    }

    void contactFieldsAreToJsonsBytes_data()
    {
        QTest::addColumn<bool>("full");
        QTest::newRow("every field") << true;
        QTest::newRow("optional fields empty") << false;
    }
    void contactFieldsAreToJsonsBytes()
    {
        QFETCH(bool, full);
        Contact c;
        c.id = QStringLiteral("contact_01");
        c.firstName = QStringLiteral("Çağla \"Ç\"");
        c.createdAt = c.updatedAt = QStringLiteral("2026-11-26T06:00:00.000Z");
        if (full) {
            c.lastName = QStringLiteral("Öz\\türk");
            c.email = QStringLiteral("cagla@example.com.tr");
            c.phone = QStringLiteral("+90 532 123 45 67");
            c.company = QStringLiteral("Boğaziçi Lojistik");
            c.position = QStringLiteral("Satın alma\nmüdürü");
            c.address = {{QStringLiteral("city"), QStringLiteral("İzmir")},
                         {QStringLiteral("street"), QStringLiteral("Kordon 1")}};
            c.tags = {QStringLiteral("vip"), QStringLiteral("izmir")};
            c.customFields = {{QStringLiteral("plan"), QStringLiteral("gold")}, {QStringLiteral("seats"), 12}};
            c.source = QStringLiteral("whatsapp");
            c.leadScore = 87;
            c.lastMessageAt = QStringLiteral("2026-11-25T10:00:00.000Z");
            c.totalMessages = 14;
            c.sentiment = QStringLiteral("positive");
        }
        QCOMPARE(written(c), compact(c.toJson()));

        ContactNote n{QStringLiteral("note_1"), c.id, QStringLiteral("Aradı \"yarın\""),
                      full ? QStringLiteral("user_1") : QString(), c.createdAt};
        JsonWriter w;
        n.write(w);
        QCOMPARE(w.bytes(), compact(n.toJson()));
    }
};

QTEST_APPLESS_MAIN(TestJsonWriter)
#include "test_jsonwriter.moc"
