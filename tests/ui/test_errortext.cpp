// The window shows the model's refusals in its own language: every refusal a form can get back from
// the model carries a template marked for translation and its arguments, which the window fills in
// translated (ui/shell/errortext.cpp), its field keys read as the form's labels; every template raised
// anywhere has a finished Turkish translation.

#include "model/deals/pipelinerepository.h"
#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipeline.h"
#include "model/tasks/taskrepository.h"
#include "model/webhooks/webhookrepository.h"
#include "tests/support/testsupport.h"
#include "ui/contacts/contactdialog.h"
#include "ui/shell/errortext.h"
#include "ui/shell/fielderrors.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDialog>
#include <QDirIterator>
#include <QFile>
#include <QFormLayout>
#include <QHash>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include <functional>
#include <vector>

namespace {
// Marks every catalogue text it is asked for, so that a test sees which parts went through it.
class MarkingTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        const QString ctx = QString::fromLatin1(context);
        if (ctx == QLatin1String("ModelError"))
            return QStringLiteral("«") + QString::fromUtf8(source) + QStringLiteral("»");
        if (ctx == QLatin1String("FieldName") && QByteArray(source).contains('%'))
            return QStringLiteral("‹") + QString::fromUtf8(source) + QStringLiteral("›");
        if (ctx == QLatin1String("FieldName"))
            return QStringLiteral("‹") + QString::fromUtf8(source) + QStringLiteral("›");
        return {};
    }
    bool isEmpty() const override { return false; }
};

// A language whose error texts are three times as long (Turkish ones run longer than English).
class LongTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (QString::fromLatin1(context) != QLatin1String("ModelError"))
            return {};
        const QString s = QString::fromUtf8(source);
        return s + QLatin1Char(' ') + s + QLatin1Char(' ') + s;
    }
    bool isEmpty() const override { return false; }
};

using Refusal = std::function<void()>;

struct Case
{
    const char *name;
    Refusal refuse;
};

QVector<Case> cases()
{
    return {
        {"contact e-mail",
         [] {
             ContactRepository(testStore())
                 .create(ContactRules::parse({{"firstName", "A"}, {"email", "not-an-address"}}));
         }},
        {"contact phone",
         [] {
             ContactRepository(testStore()).create(ContactRules::parse({{"firstName", "A"}, {"phone", "abc"}}));
         }},
        {"contact without name",
         [] {
             ContactRepository(testStore()).create(ContactRules::parse({{"email", "a@b.co"}}));
         }},
        {"contact long name",
         [] {
             ContactRepository(testStore()).create(ContactRules::parse({{"firstName", QString(300, 'x')}}));
         }},
        {"contact lead score",
         [] {
             ContactRepository(testStore()).create(ContactRules::parse({{"firstName", "A"}, {"leadScore", 500}}));
         }},
        {"contact tags",
         [] {
             ContactRepository(testStore()).create(ContactRules::parse({{"firstName", "A"}, {"tags", "vip"}}));
         }},
        {"contact duplicate e-mail",
         [] {
             ContactRepository(testStore())
                 .create(ContactRules::parse({{"firstName", "A"}, {"email", "dup@ornek.com.tr"}}));
             ContactRepository(testStore())
                 .create(ContactRules::parse({{"firstName", "B"}, {"email", "dup@ornek.com.tr"}}));
         }},
        {"deal currency",
         [] {
             DealRepository(testStore()).create(DealRules::parse({{"name", "D"}, {"value", 5}, {"currency", "lira"}}));
         }},
        {"deal negative value",
         [] {
             DealRepository(testStore()).create(DealRules::parse({{"name", "D"}, {"value", -5}}));
         }},
        {"deal without name",
         [] {
             DealRepository(testStore()).create(DealRules::parse({{"value", 5}}));
         }},
        {"deal unknown stage",
         [] {
             DealRepository(testStore()).create(DealRules::parse({{"name", "D"}, {"stage", "nowhere"}}));
         }},
        {"deal date",
         [] {
             DealRepository(testStore()).create(DealRules::parse({{"name", "D"}, {"expectedCloseDate", "31.12.2026"}}));
         }},
        {"deal won twice",
         [] {
             DealRepository deals(testStore());
             const Deal d = deals.create(DealRules::parse({{"name", "D"}, {"value", 5}}));
             deals.markWon(d.id, std::nullopt);
             deals.markWon(d.id, std::nullopt);
         }},
        {"task without title",
         [] {
             TaskRepository(testStore()).create(TaskRules::parse({{"dueDate", "2026-12-01"}}));
         }},
        {"task priority",
         [] {
             TaskRepository(testStore()).create(TaskRules::parse({{"title", "T"}, {"priority", "urgent!"}}));
         }},
        {"task recurrence",
         [] {
             TaskRepository(testStore()).create(TaskRules::parse({{"title", "T"}, {"recurrence", "weekly"}}));
         }},
        {"task reminder",
         [] {
             TaskRepository(testStore())
                 .create(TaskRules::parse({{"title", "T"},
                                           {"dueDate", "2026-12-01"},
                                           {"reminder", QJsonObject{{"enabled", true}, {"before", -4}}}}));
         }},
        {"task status",
         [] {
             TaskRepository tasks(testStore());
             const Task t = tasks.create(TaskRules::parse({{"title", "T"}}));
             tasks.setStatus(t.id, "cancelled");
             tasks.setStatus(t.id, "in_progress");
         }},
        {"segment rule value",
         [] {
             SegmentRepository(testStore())
                 .create(SegmentRules::parse(
                     {{"name", "S"},
                      {"type", "dynamic"},
                      {"filters",
                       QJsonObject{{"logic", "AND"},
                                   {"rules", QJsonArray{QJsonObject{
                                                 {"field", "firstName"}, {"operator", "equals"}, {"value", 5}}}}}}}));
         }},
        {"segment unknown field",
         [] {
             SegmentRepository(testStore())
                 .create(SegmentRules::parse(
                     {{"name", "S"},
                      {"type", "dynamic"},
                      {"filters",
                       QJsonObject{{"logic", "AND"},
                                   {"rules", QJsonArray{QJsonObject{
                                                 {"field", "shoeSize"}, {"operator", "equals"}, {"value", "42"}}}}}}}));
         }},
        {"segment logic",
         [] {
             SegmentRepository(testStore())
                 .create(SegmentRules::parse({{"name", "S"},
                                              {"type", "dynamic"},
                                              {"filters", QJsonObject{{"logic", "XOR"}, {"rules", QJsonArray{}}}}}));
         }},
        {"segment duplicate name",
         [] {
             SegmentRepository(testStore()).create(SegmentRules::parse({{"name", "Aynı"}, {"type", "static"}}));
             SegmentRepository(testStore()).create(SegmentRules::parse({{"name", "Aynı"}, {"type", "static"}}));
         }},
        {"pipeline default",
         [] { PipelineRepository(testStore()).remove(PipelineRepository(testStore()).defaultPipeline().id); }},
        {"webhook url",
         [] {
             WebhookRepository(testStore())
                 .create(webhookChanges({{"url", "ftp://x"}, {"events", QJsonArray{"contact.created"}}}));
         }},
        {"webhook event",
         [] {
             WebhookRepository(testStore())
                 .create(webhookChanges({{"url", "https://hooks.example.com/x"}, {"events", QJsonArray{"nope"}}}));
         }},
        {"api key scope", [] { ApiKeyRepository(testStore()).create("k", {"everything"}); }},
        {"api key beyond the role",
         [] {
             const User agent = UserRepository(testStore()).create("ajan@ornek.com.tr", "Ajan", "agent", "hash");
             ApiKeyRepository(testStore()).create("k", {"webhooks:write"}, agent.id);
         }},
        {"user role", [] { UserRepository(testStore()).create("u@ornek.com.tr", "U", "boss", "x"); }},
    };
}
struct Shown
{
    const char *name;
    DomainError error;
    QString english;
    QString shown;
};

std::vector<Shown> shownCases()
{
    std::vector<Shown> out;
    out.push_back(
        {"list of fields",
         DomainError::invalid(
             {{"email", ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid e-mail address"))},
              {"phone", ModelText(QT_TRANSLATE_NOOP("ModelError", "must be in international form (+ and digits)"))}}),
         "Invalid data: email is not a valid e-mail address; phone must be in international form (+ and digits)",
         "«Invalid data: «‹E-mail› «is not a valid e-mail address»»; «‹Phone› «must be in international form (+ "
         "and digits)»»»"});
    out.push_back({"argument is a field",
                   DomainError::badRequest(ModelText(QT_TRANSLATE_NOOP("ModelError", "value for %1 must be a string"),
                                                     {ModelTextArg::field("firstName")})),
                   "value for firstName must be a string", "«value for ‹First name› must be a string»"});
    out.push_back({"rule path",
                   DomainError::badRequest(ModelText(
                       QT_TRANSLATE_NOOP("ModelError", "%1: %2"),
                       {ModelTextArg::field("rules[1].rules[0]"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown field %1"), {QStringLiteral("shoeSize")})})),
                   "rules[1].rules[0]: unknown field shoeSize", "«‹Rule 2› › ‹Rule 1›: «unknown field shoeSize»»"});
    out.push_back({"indexed field",
                   DomainError::invalid("tags[2]", ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string"))),
                   "Invalid data: tags[2] must be a string", "«Invalid data: «‹Tags›[2] «must be a string»»»"});
    out.push_back({"missing", DomainError::missingFields({{"title", DomainError::isRequired()}}),
                   "Required field missing: title", "«Required field missing: ‹Title›»"});
    out.push_back({"data stays",
                   DomainError(DomainError::Conflict, "CONFLICT",
                               ModelText(QT_TRANSLATE_NOOP("ModelError", "A contact with e-mail %1 already exists"),
                                         {QStringLiteral("ayse@ornek.com.tr")})),
                   "A contact with e-mail ayse@ornek.com.tr already exists",
                   "«A contact with e-mail ayse@ornek.com.tr already exists»"});
    out.push_back({"an argument that looks like a placeholder stays",
                   DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Deal"), "%2"), "Deal %2 does not exist",
                   "««Deal» %2 does not exist»"});
    return out;
}

} // namespace

class TestErrorText final : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;

private slots:
    void kindsWithDetailsSayMore_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QJsonObject>("data");
        QTest::addColumn<bool>("reason");
        QTest::addColumn<QString>("expected");
        QTest::newRow("too large") << int(DomainError::TooLarge) << QJsonObject{{"maxBytes", 16 * 1024 * 1024}} << false
                                   << "The file is too large: at most 16.00 MiB";
        QTest::newRow("channel down") << int(DomainError::Unavailable) << QJsonObject{{"channel", "whatsapp"}} << true
                                      << "The channel cannot send now (not configured)";
        QTest::newRow("rate limited") << int(DomainError::RateLimited) << QJsonObject{{"retryAfter", 3}} << false
                                      << "Too many messages on this channel: try again in 3 second(s)";
        QTest::newRow("rate limited, no figure") << int(DomainError::RateLimited) << QJsonObject{} << false
                                                 << "Too many messages on this channel: try again in 1 second(s)";
        QTest::newRow("unavailable, not a channel")
            << int(DomainError::Unavailable) << QJsonObject{} << false << "Channel unavailable";
    }

    void kindsWithDetailsSayMore()
    {
        QFETCH(int, kind);
        QFETCH(QJsonObject, data);
        QFETCH(bool, reason);
        QFETCH(QString, expected);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        FieldProblems problems;
        if (reason)
            problems.insert("reason", ModelText(QT_TRANSLATE_NOOP("ModelError", "not configured")));
        const DomainError e(DomainError::Kind(kind), "CODE", ModelText("Channel unavailable"), problems, data);
        QCOMPARE(ErrorText::of(e), expected);
    }

    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void everyRefusalOfTheFormsIsTranslated_data()
    {
        QTest::addColumn<int>("index");
        const QVector<Case> all = cases();
        for (int i = 0; i < all.size(); ++i)
            QTest::newRow(all.at(i).name) << i;
    }

    void everyRefusalOfTheFormsIsTranslated()
    {
        QFETCH(int, index);
        MarkingTranslator marking;
        QCoreApplication::installTranslator(&marking);
        try {
            cases().at(index).refuse();
            QCoreApplication::removeTranslator(&marking);
            QFAIL("the model did not refuse");
        } catch (const DomainError &e) {
            const QString shown = ErrorText::of(e);
            const QJsonObject details = ErrorText::details(e);
            QCoreApplication::removeTranslator(&marking);
            // The text went through the translation: it is marked, and so is each field's problem.
            QVERIFY2(!e.text().isNull(), qPrintable(e.message()));
            QVERIFY2(shown.startsWith(QStringLiteral("«")), qPrintable(e.message() + " -> " + shown));
            for (auto it = e.problems().cbegin(); it != e.problems().cend(); ++it)
                QVERIFY2(details.value(it.key()).toString().startsWith(QStringLiteral("«")),
                         qPrintable(it.key() + ": " + details.value(it.key()).toString()));
            // The API's words are the same template filled in English.
            QCOMPARE(e.message(), e.text().english());
        }
    }

    void argumentsAndFieldsAreKept_data()
    {
        QTest::addColumn<int>("index");
        const std::vector<Shown> all = shownCases();
        for (int i = 0; i < int(all.size()); ++i)
            QTest::newRow(all.at(i).name) << i;
    }

    void argumentsAndFieldsAreKept()
    {
        QFETCH(int, index);
        const Shown c = shownCases().at(index);
        QCOMPARE(c.error.message(), c.english);
        QCOMPARE(QString::fromUtf8(c.error.what()), c.english);
        MarkingTranslator marking;
        QCoreApplication::installTranslator(&marking);
        const QString out = ErrorText::of(c.error);
        QCoreApplication::removeTranslator(&marking);
        QCOMPARE(out, c.shown);
    }

    void aLongErrorDoesNotCoverTheFieldBelow()
    {
        // The contact dialog as the window opens it, with a phone error that wraps.
        ContactRepository contacts(testStore());
        ContactDialog dialog(contacts);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.resize(dialog.minimumSizeHint().width(), dialog.height()); // as narrow as it goes
        auto *phone = dialog.findChild<QLineEdit *>("phoneEdit");
        auto *company = dialog.findChild<QLineEdit *>("companyEdit");
        QVERIFY(phone && company);
        dialog.findChild<QLineEdit *>("firstNameEdit")->setText("Ayşe");
        phone->setText("12");
        LongTranslator longer;
        QCoreApplication::installTranslator(&longer);
        dialog.accept();
        QCoreApplication::removeTranslator(&longer);
        QApplication::processEvents();
        auto *label = dialog.findChild<QLabel *>("phoneError");
        QVERIFY(label && label->isVisible());
        QVERIFY2(label->heightForWidth(label->width()) > label->fontMetrics().height() * 3 / 2,
                 "the error is meant to wrap here");
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(QString("%1 < %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
        QVERIFY2(label->mapTo(&dialog, QPoint(0, label->height())).y() <= company->mapTo(&dialog, QPoint(0, 0)).y(),
                 qPrintable(QString("the error (to %1) runs into the field below (from %2); dialog %3 high, hint %4")
                                .arg(label->mapTo(&dialog, QPoint(0, label->height())).y())
                                .arg(company->mapTo(&dialog, QPoint(0, 0)).y())
                                .arg(dialog.height())
                                .arg(dialog.sizeHint().height())));
    }

    void everyTemplateIsTranslatedIntoTurkish()
    {
        // Every template raised in model/, messaging/ and server/ (QT_TRANSLATE_NOOP("ModelError", …)
        // at its source) has a finished Turkish translation; ui_translations checks the window's own
        // strings.
        const QString dir = qEnvironmentVariable("LIAISON_SOURCE_DIR");
        if (dir.isEmpty())
            QSKIP("LIAISON_SOURCE_DIR is set by ctest");
        QFile ts(dir + "/translations/liaison_tr.ts");
        QVERIFY(ts.open(QIODevice::ReadOnly));
        QHash<QString, QString> turkish; // source -> translation ("" when unfinished)
        QXmlStreamReader xml(&ts);
        QString context, source;
        bool unfinished = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == u"name") {
                context = xml.readElementText();
            } else if (xml.name() == u"source") {
                source = xml.readElementText();
            } else if (xml.name() == u"translation" && context == u"ModelError") {
                unfinished = xml.attributes().value("type") == u"unfinished";
                const QString text = xml.readElementText();
                turkish.insert(source, unfinished ? QString() : text);
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        static const QRegularExpression marked(
            QStringLiteral("QT_TRANSLATE_NOOP\\(\\s*\"ModelError\",\\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"\\s*)+)\\)"));
        static const QRegularExpression piece(QStringLiteral("\"((?:[^\"\\\\]|\\\\.)*)\""));
        int templates = 0;
        for (const char *folder : {"model", "messaging", "server"}) {
            QDirIterator files(dir + '/' + folder, {"*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                QFile f(files.next());
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QString code = QString::fromUtf8(f.readAll());
                for (auto it = marked.globalMatch(code); it.hasNext();) {
                    QString text;
                    const QString literals = it.next().captured(1);
                    for (auto p = piece.globalMatch(literals); p.hasNext();)
                        text += p.next().captured(1);
                    text.replace(QLatin1String("\\\""), QLatin1String("\""));
                    ++templates;
                    QVERIFY2(turkish.contains(text), qPrintable(f.fileName() + ": no Turkish for \"" + text + '"'));
                    QVERIFY2(!turkish.value(text).isEmpty(),
                             qPrintable(f.fileName() + ": unfinished Turkish for \"" + text + '"'));
                }
            }
        }
        QVERIFY2(templates > 150, qPrintable(QString::number(templates))); // the scan found them
    }
};

QTEST_MAIN(TestErrorText)
#include "test_errortext.moc"
