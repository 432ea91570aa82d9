#pragma once

// What model tests share, on top of liaison_model alone (library liaison_modeltestsupport): the
// store of a test, a throwaway database (SQLite, or a schema of the test run's PostgreSQL cluster
// for the <name>_pg pass), refusals read as their fields and kind, and running a program. The fakes
// of the layers above (the HTTPS server and its clients, the channels' providers) are in
// tests/support/testsupport.h (liaison_testsupport).

#include "model/core/databaseurl.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "model/webhooks/webhookchanges.h"
#include "tests/support/fakeclock.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <functional>
#include <memory>

struct Contact;

// The store of a test that neither watches the bus nor moves the clock: one bus of the test
// process (nothing listens to it unless the test connects) and the system clock.
Store testStore();

// What a call refused: the fields its DomainError names (joined by ",") and its kind; an empty
// string and -1 when it went through. For tests that hold two ways of writing (typed changes, a
// request body) to the same rules.
QPair<QString, int> refusalOf(const std::function<void()> &call);

// A contact's answer object as the hot paths write it (JsonWriter, Contact::writeFields), for tests
// that hold those bytes to the ones QJsonDocument writes for Contact::toJson().
QByteArray written(const Contact &c);

// A campaign audience: `count` contacts "Müşteri <offset+i>" <m<offset+i>@ornek.com.tr> of company
// Doğa Gıda tagged `tag`, made in one transaction, and the segment of that tag (named after it);
// returns the segment's id.
QString campaignAudience(const Store &store, int count, const QString &tag = QStringLiteral("kasim"), int offset = 0);

// A subscription's body read as the API reads it, but with every receiver address allowed: the
// repository's own check then holds it to the repository's policy.
WebhookChanges webhookChanges(const QJsonObject &body);

// What a run of a program gave (the real liaison executable, for the end-to-end tests).
struct ProgramRun
{
    bool finished = false;
    int exitCode = -1;
    QString out;
    QString err;

    QStringList outLines() const { return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }
    QStringList errLines() const { return err.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }
    QByteArray describe() const;
};
// Runs program with args, feeding stdinData; killed after timeoutMs.
ProgramRun runProgram(const QString &program, const QStringList &args, const QByteArray &stdinData = {},
                      int timeoutMs = 60000);

// A throwaway data directory with a migrated database that this thread uses.
class TempPostgresSchema;
class TempDatabase
{
public:
    TempDatabase();
    ~TempDatabase();
    QString dir() const { return m_dir.path(); }
    QString file() const;

private:
    QTemporaryDir m_dir;
    std::unique_ptr<TempPostgresSchema> m_pg;
    bool m_reusedPg = false;
};

// A schema of its own on the test run's PostgreSQL cluster (LIAISON_TEST_POSTGRES_URL, set by
// CTest's "postgres" fixture), which this thread's database then uses; dropped afterwards.
// available() is false, with why(), when no cluster was given.
// Ends the PostgreSQL session whose server process is pid on the test run's cluster
// (pg_terminate_backend), as an administrator, a failover or a restart does; true when it was ended.
bool endPostgresSession(qint64 pid);
// Lets a database of the test run's cluster take new connections again, or refuses them (as a
// server that is starting or out of reach does), as an administrator; true when done.
bool allowPostgresConnections(const QString &database, bool allow);

class TempPostgresSchema
{
public:
    TempPostgresSchema();
    ~TempPostgresSchema();
    bool available() const { return !m_name.isEmpty(); }
    QString why() const { return m_why; }
    QString name() const { return m_name; }

private:
    QString m_name;
    QString m_why;
};

// An empty database of its own on the test run's cluster, for programs started by a test (several
// `liaison serve` on one database); dropped afterwards with whatever connected to it.
class TempPostgresDatabase
{
public:
    explicit TempPostgresDatabase(const QString &prefix);
    // The same on another cluster than the test run's (one a test starts and stops itself).
    TempPostgresDatabase(const QString &prefix, const DatabaseUrl &cluster);
    ~TempPostgresDatabase();
    bool available() const { return !m_name.isEmpty(); }
    QString why() const { return m_why; }
    // postgresql://user@host:port/<name>, for database/url.
    QString url() const;
    // Ends every session on the database (pg_terminate_backend), as a server's administrator or a
    // failover does; returns how many were ended, -1 on an error (a warning says why).
    int endSessions();

private:
    void create(const QString &prefix, const DatabaseUrl &cluster);
    DatabaseUrl m_cluster;
    QString m_name;
    QString m_why;
};
