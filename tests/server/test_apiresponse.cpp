// The API's envelopes around bytes written with JsonWriter (okJson, pageJson) are the bytes of the
// same envelopes around QJsonDocument's values (ok, page): the hot paths and the rest of the API
// never disagree.
#include "model/contacts/contact.h"
#include "model/core/jsonwriter.h"
#include "server/api/apirequest.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QtTest>

class TestApiResponse : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void answersAreTheEnvelopesBytes()
    {
        Contact a;
        a.id = QStringLiteral("contact_a");
        a.firstName = QStringLiteral("A");
        Contact b = a;
        b.id = QStringLiteral("contact_b");
        b.tags = {QStringLiteral("x")};
        QCOMPARE(ApiResponse::okJson(written(a)).body, ApiResponse::ok(a.toJson()).body);

        JsonWriter items;
        items.beginArray();
        for (const Contact &c : {a, b}) {
            items.beginObject();
            c.writeFields(items);
            items.endObject();
        }
        items.endArray();
        const ApiResponse written = ApiResponse::pageJson(items.bytes(), 3, 20, 45);
        QCOMPARE(written.body, ApiResponse::page(QJsonArray{a.toJson(), b.toJson()}, 3, 20, 45).body);
        QCOMPARE(written.status, 200);
        QCOMPARE(ApiResponse::pageJson("[]", 1, 20, 0).body, ApiResponse::page(QJsonArray{}, 1, 20, 0).body);
    }
};

QTEST_APPLESS_MAIN(TestApiResponse)
#include "test_apiresponse.moc"
