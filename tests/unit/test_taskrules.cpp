// Task rules as pure functions: the status transition table, recurrence date arithmetic and body
// validation (which field, which status).
#include "model/core/errors.h"
#include "model/tasks/task.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QtTest>

class TestTaskRules final : public QObject
{
    Q_OBJECT

private slots:
    // What the window's task form fills in meets the rules of a request body: each row is given as
    // JSON (parse) and as the typed changes parse made of a valid body with the value swapped in
    // (check), and both must refuse the same field, or store the same value.
    void checkAppliesTheBodyRulesToTypedChanges_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("badField"); // empty: accepted
        QTest::newRow("ok") << QJsonObject{{"title", " Ara "}, {"dueDate", "2026-12-01T09:00:00+03:00"}} << "";
        QTest::newRow("title too long") << QJsonObject{{"title", QString(501, 't')}} << "title";
        QTest::newRow("unknown type") << QJsonObject{{"title", "x"}, {"type", "lunch"}} << "type";
        QTest::newRow("empty status") << QJsonObject{{"title", "x"}, {"status", ""}} << "status";
        QTest::newRow("bad due date") << QJsonObject{{"title", "x"}, {"dueDate", "yarın"}} << "dueDate";
        QTest::newRow("weekly days") << QJsonObject{{"title", "x"},
                                                    {"recurrence",
                                                     QJsonObject{{"frequency", "weekly"},
                                                                 {"daysOfWeek", QJsonArray{"friday", "monday"}}}}}
                                     << "";
        const auto recurrence = [](const QString &frequency, const QJsonArray &days) {
            return QJsonObject{{"title", "x"},
                               {"recurrence", QJsonObject{{"frequency", frequency}, {"daysOfWeek", days}}}};
        };
        QTest::newRow("days of a daily task") << recurrence("daily", {"monday"}) << "recurrence.daysOfWeek";
        QTest::newRow("unknown day") << recurrence("weekly", {"funday"}) << "recurrence.daysOfWeek";
        // The frequency alone: days cannot be judged against a frequency that is not one.
        QTest::newRow("unknown frequency with days") << recurrence("fortnightly", {"monday"}) << "recurrence.frequency";
    }
    void checkAppliesTheBodyRulesToTypedChanges()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, badField);
        // The typed form of the body: its fields set directly, as the window does.
        TaskChanges typed;
        const auto text = [&](const char *key) -> std::optional<QString> {
            return body.contains(QLatin1String(key)) ? std::optional<QString>(body.value(QLatin1String(key)).toString())
                                                     : std::nullopt;
        };
        typed.title = text("title");
        typed.type = text("type");
        typed.status = text("status");
        typed.dueDate = text("dueDate");
        if (body.contains("recurrence")) {
            const QJsonObject r = body.value("recurrence").toObject();
            TaskRecurrence rec;
            rec.frequency = r.value("frequency").toString();
            for (const QJsonValue &d : r.value("daysOfWeek").toArray())
                rec.daysOfWeek << d.toString();
            typed.recurrence = rec;
        }
        QCOMPARE(refusalOf([&] { TaskRules::check(typed); }).first, badField);
        std::optional<TaskChanges> parsed;
        QCOMPARE(refusalOf([&] { parsed = TaskRules::parse(body); }).first, badField);
        if (badField.isEmpty()) {
            QCOMPARE(typed.title, parsed->title);
            QCOMPARE(typed.dueDate, parsed->dueDate);
            if (typed.recurrence)
                QCOMPARE(typed.recurrence->daysOfWeek, parsed->recurrence->daysOfWeek);
        }
    }

    void transitionTable_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("allowed");
        const QStringList all = TaskRules::Statuses;
        // The whole 4x4 table, so that a change to it shows here.
        const QHash<QString, QStringList> allowed{
            {"pending", {"pending", "in_progress", "completed", "cancelled"}},
            {"in_progress", {"pending", "in_progress", "completed", "cancelled"}},
            {"completed", {"completed", "pending"}},
            {"cancelled", {"cancelled", "pending"}},
        };
        for (const QString &from : all) {
            for (const QString &to : all) {
                QTest::addRow("%s -> %s", qPrintable(from), qPrintable(to))
                    << from << to << allowed.value(from).contains(to);
            }
        }
        QTest::newRow("unknown target") << "pending"
                                        << "done" << false;
    }
    void transitionTable()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, allowed);
        QCOMPARE(TaskRules::canTransition(from, to), allowed);
        if (allowed || !TaskRules::Statuses.contains(to)) {
            return;
        }
        try {
            TaskRules::checkTransition(from, to);
            QFAIL("a refused transition must throw");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
            QCOMPARE(e.code(), QString("INVALID_TRANSITION"));
            QVERIFY2(e.message().contains(from) && e.message().contains(to), qPrintable(e.message()));
        }
    }

    void statusFilterVariants()
    {
        QCOMPARE(TaskRules::normalizeStatusFilter("todo"), QString("pending"));
        QCOMPARE(TaskRules::normalizeStatusFilter("done"), QString("completed"));
        QCOMPARE(TaskRules::normalizeStatusFilter("in_progress"), QString("in_progress"));
        QCOMPARE(TaskRules::normalizeStatusFilter(" DONE "), QString("completed"));
    }

    void recurrenceNext_data()
    {
        QTest::addColumn<QString>("frequency");
        QTest::addColumn<int>("interval");
        QTest::addColumn<QStringList>("days");
        QTest::addColumn<QString>("endDate");
        QTest::addColumn<QDate>("start");
        QTest::addColumn<QDate>("current");
        QTest::addColumn<QDate>("expected"); // invalid: no further occurrence

        const QStringList none;
        QTest::newRow("daily") << "daily" << 1 << none << "" << QDate(2026, 3, 1) << QDate(2026, 3, 1)
                               << QDate(2026, 3, 2);
        QTest::newRow("every 3 days over month end")
            << "daily" << 3 << none << "" << QDate(2026, 1, 30) << QDate(2026, 1, 30) << QDate(2026, 2, 2);
        QTest::newRow("weekly same weekday")
            << "weekly" << 1 << none << "" << QDate(2026, 3, 4) << QDate(2026, 3, 4) << QDate(2026, 3, 11);
        // 2026-03-02 is a Monday.
        QTest::newRow("weekly mon+thu from mon") << "weekly" << 1 << QStringList{"monday", "thursday"} << ""
                                                 << QDate(2026, 3, 2) << QDate(2026, 3, 2) << QDate(2026, 3, 5);
        QTest::newRow("weekly mon+thu from thu") << "weekly" << 1 << QStringList{"monday", "thursday"} << ""
                                                 << QDate(2026, 3, 2) << QDate(2026, 3, 5) << QDate(2026, 3, 9);
        QTest::newRow("every 2 weeks mon+fri from fri") << "weekly" << 2 << QStringList{"monday", "friday"} << ""
                                                        << QDate(2026, 3, 2) << QDate(2026, 3, 6) << QDate(2026, 3, 16);
        QTest::newRow("weekly sunday only from wed") << "weekly" << 1 << QStringList{"sunday"} << ""
                                                     << QDate(2026, 3, 4) << QDate(2026, 3, 4) << QDate(2026, 3, 8);
        QTest::newRow("monthly plain") << "monthly" << 1 << none << "" << QDate(2026, 1, 15) << QDate(2026, 1, 15)
                                       << QDate(2026, 2, 15);
        QTest::newRow("monthly 31 -> feb 28")
            << "monthly" << 1 << none << "" << QDate(2026, 1, 31) << QDate(2026, 1, 31) << QDate(2026, 2, 28);
        QTest::newRow("monthly 31 -> feb 29 leap")
            << "monthly" << 1 << none << "" << QDate(2028, 1, 31) << QDate(2028, 1, 31) << QDate(2028, 2, 29);
        QTest::newRow("monthly back to 31 after feb")
            << "monthly" << 1 << none << "" << QDate(2026, 1, 31) << QDate(2026, 2, 28) << QDate(2026, 3, 31);
        QTest::newRow("monthly 31 -> apr 30")
            << "monthly" << 1 << none << "" << QDate(2026, 3, 31) << QDate(2026, 3, 31) << QDate(2026, 4, 30);
        QTest::newRow("every 3 months over year end")
            << "monthly" << 3 << none << "" << QDate(2026, 11, 30) << QDate(2026, 11, 30) << QDate(2027, 2, 28);
        QTest::newRow("yearly 29 feb -> 28 feb")
            << "yearly" << 1 << none << "" << QDate(2028, 2, 29) << QDate(2028, 2, 29) << QDate(2029, 2, 28);
        QTest::newRow("yearly 29 feb back in leap year")
            << "yearly" << 1 << none << "" << QDate(2028, 2, 29) << QDate(2031, 2, 28) << QDate(2032, 2, 29);
        QTest::newRow("every 4 years 29 feb")
            << "yearly" << 4 << none << "" << QDate(2028, 2, 29) << QDate(2028, 2, 29) << QDate(2032, 2, 29);
        QTest::newRow("endDate reached") << "daily" << 1 << none << "2026-03-01" << QDate(2026, 2, 27)
                                         << QDate(2026, 3, 1) << QDate();
        QTest::newRow("endDate is last occurrence")
            << "daily" << 1 << none << "2026-03-02" << QDate(2026, 2, 27) << QDate(2026, 3, 1) << QDate(2026, 3, 2);
        QTest::newRow("weekly past endDate")
            << "weekly" << 1 << none << "2026-03-10" << QDate(2026, 3, 4) << QDate(2026, 3, 4) << QDate();
        QTest::newRow("monthly fallback past endDate")
            << "monthly" << 1 << none << "2026-02-27" << QDate(2026, 1, 31) << QDate(2026, 1, 31) << QDate();
    }
    void recurrenceNext()
    {
        QFETCH(QString, frequency);
        QFETCH(int, interval);
        QFETCH(QStringList, days);
        QFETCH(QString, endDate);
        QFETCH(QDate, start);
        QFETCH(QDate, current);
        QFETCH(QDate, expected);
        const TaskRecurrence r{frequency, interval, days, endDate};
        const std::optional<QDate> next = Recurrence::next(current, start, r);
        if (!expected.isValid()) {
            QVERIFY2(!next, next ? qPrintable(next->toString(Qt::ISODate)) : "");
            return;
        }
        QVERIFY(next);
        QCOMPARE(*next, expected);
    }

    void recurrenceSkipsMissedOccurrences()
    {
        const TaskRecurrence daily{"daily", 1, {}, {}};
        QCOMPARE(*Recurrence::nextOnOrAfter(QDate(2026, 3, 1), QDate(2026, 3, 1), daily, QDate(2026, 3, 10)),
                 QDate(2026, 3, 10));
        const TaskRecurrence ending{"daily", 1, {}, "2026-03-05"};
        QVERIFY(!Recurrence::nextOnOrAfter(QDate(2026, 3, 1), QDate(2026, 3, 1), ending, QDate(2026, 3, 10)));
    }

    void parseRejectsBadFieldsWith400_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("type") << QJsonObject{{"title", "t"}, {"type", "lunch"}} << "type";
        QTest::newRow("priority") << QJsonObject{{"title", "t"}, {"priority", "asap"}} << "priority";
        QTest::newRow("status") << QJsonObject{{"title", "t"}, {"status", "done"}} << "status";
        QTest::newRow("title number") << QJsonObject{{"title", 5}} << "title";
        QTest::newRow("dueDate text") << QJsonObject{{"title", "t"}, {"dueDate", "tomorrow"}} << "dueDate";
        QTest::newRow("dueDate bad day") << QJsonObject{{"title", "t"}, {"dueDate", "2026-02-30"}} << "dueDate";
        QTest::newRow("dueDate no zone") << QJsonObject{{"title", "t"}, {"dueDate", "2026-02-03T10:00"}} << "dueDate";
        QTest::newRow("reminder string") << QJsonObject{{"title", "t"}, {"reminder", "soon"}} << "reminder";
        QTest::newRow("reminder before negative")
            << QJsonObject{{"title", "t"}, {"reminder", QJsonObject{{"before", -5}}}} << "reminder.before";
        QTest::newRow("reminder before fraction")
            << QJsonObject{{"title", "t"}, {"reminder", QJsonObject{{"before", 1.5}}}} << "reminder.before";
        QTest::newRow("reminder enabled string")
            << QJsonObject{{"title", "t"}, {"reminder", QJsonObject{{"enabled", "yes"}}}} << "reminder.enabled";
        QTest::newRow("recurrence frequency")
            << QJsonObject{{"title", "t"}, {"recurrence", QJsonObject{{"frequency", "hourly"}}}}
            << "recurrence.frequency";
        QTest::newRow("recurrence interval 0")
            << QJsonObject{{"title", "t"}, {"recurrence", QJsonObject{{"frequency", "daily"}, {"interval", 0}}}}
            << "recurrence.interval";
        QTest::newRow("recurrence bad day")
            << QJsonObject{{"title", "t"},
                           {"recurrence", QJsonObject{{"frequency", "weekly"}, {"daysOfWeek", QJsonArray{"funday"}}}}}
            << "recurrence.daysOfWeek";
        QTest::newRow("recurrence days on monthly")
            << QJsonObject{{"title", "t"},
                           {"recurrence", QJsonObject{{"frequency", "monthly"}, {"daysOfWeek", QJsonArray{"monday"}}}}}
            << "recurrence.daysOfWeek";
        QTest::newRow("recurrence endDate")
            << QJsonObject{{"title", "t"},
                           {"recurrence", QJsonObject{{"frequency", "daily"}, {"endDate", "2026-13-01"}}}}
            << "recurrence.endDate";
    }
    void parseRejectsBadFieldsWith400()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        try {
            TaskRules::parse(body);
            QFAIL("expected a refusal");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::BadRequest);
            QVERIFY2(e.details().contains(field), qPrintable(e.message()));
        }
    }

    void parseNormalizesValues()
    {
        const TaskChanges c = TaskRules::parse(
            {{"title", "  Call Ayşe "},
             {"dueDate", "2026-03-05T12:00:00+03:00"},
             {"reminder", QJsonObject{{"before", 30}}},
             {"recurrence", QJsonObject{{"frequency", "weekly"}, {"daysOfWeek", QJsonArray{"Fri", "MONDAY", "mon"}}}}});
        QCOMPARE(*c.title, QString("Call Ayşe"));
        QCOMPARE(*c.dueDate, QString("2026-03-05T09:00:00.000Z"));
        QCOMPARE(*c.reminderEnabled, true);
        QCOMPARE(*c.reminderBefore, 30);
        QCOMPARE(c.recurrence->daysOfWeek, (QStringList{"monday", "friday"}));
        QCOMPARE(c.recurrence->interval, 1);
        QCOMPARE(*TaskRules::parse({{"dueDate", "2026-03-05"}}).dueDate, QString("2026-03-05"));
    }

    void missingRecurrenceFrequencyIs422()
    {
        try {
            TaskRules::parse({{"title", "t"}, {"recurrence", QJsonObject{{"interval", 2}}}});
            QFAIL("expected a refusal");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Unprocessable);
            QVERIFY(e.details().contains("recurrence.frequency"));
        }
    }

    void allDayDueTimeIsStartOfDayInZone()
    {
        Task t;
        t.dueDate = "2026-03-05";
        t.reminder.enabled = true;
        t.reminder.before = 60;
        const QTimeZone istanbul("Europe/Istanbul");
        QCOMPARE(t.dueInstant(istanbul), QDateTime(QDate(2026, 3, 4), QTime(21, 0), QTimeZone::utc()));
        QCOMPARE(t.remindAt(istanbul), QDateTime(QDate(2026, 3, 4), QTime(20, 0), QTimeZone::utc()));
        t.dueDate = "2026-03-04T22:30:00.000Z";
        QCOMPARE(t.dueDay(istanbul), QDate(2026, 3, 5));
    }
};

QTEST_GUILESS_MAIN(TestTaskRules)
#include "test_taskrules.moc"
