// The command line (README, "Command line"), run as the built executable
// ($LIAISON_BINARY) with QProcess: help, bad options and commands (exit 2, one line on stderr),
// --set, apikey create|list|revoke and user add. Every run uses a throwaway --data-dir.
#include "tests/support/testsupport.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using Run = ProgramRun;

class TestCli : public QObject
{
    Q_OBJECT

private:
    QString m_binary;
    std::unique_ptr<QTemporaryDir> m_dataDir;

    // Runs liaison with args (after --data-dir unless withDataDir is false), feeding stdinData.
    Run run(QStringList args, const QByteArray &stdinData = {}, bool withDataDir = true, int timeoutMs = 60000)
    {
        if (withDataDir)
            args = QStringList{QStringLiteral("--data-dir"), m_dataDir->path()} + args;
        return runProgram(m_binary, args, stdinData, timeoutMs);
    }

    static QString keyIdIn(const QString &text)
    {
        static const QRegularExpression id(QStringLiteral("\\b(apikey_[0-9a-z]+)\\b"));
        return id.match(text).captured(1);
    }

    static QString listLineOf(const Run &list, const QString &id)
    {
        for (const QString &line : list.outLines()) {
            if (line.contains(id))
                return line;
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(!m_binary.isEmpty(), "LIAISON_BINARY is not set (CTest sets it)");
        QVERIFY2(QFileInfo(m_binary).isExecutable(), qPrintable(m_binary));
    }

    void init()
    {
        m_dataDir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dataDir->isValid());
    }

    void cleanup() { m_dataDir.reset(); }

    // ----- help -----

    void helpListsTheCommands()
    {
        const Run r = run({QStringLiteral("--help")});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        for (const char *command : {"serve", "user add", "apikey create", "apikey list", "apikey revoke"})
            QVERIFY2(r.out.contains(QLatin1String(command)), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("--data-dir")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("--set")), r.describe());
        QVERIFY2(r.err.isEmpty(), r.describe());
        // -h is the same
        const Run shortForm = run({QStringLiteral("-h")});
        QCOMPARE(shortForm.exitCode, 0);
        QCOMPARE(shortForm.out, r.out);
    }

    void serveHelpMentionsListen()
    {
        const Run r = run({QStringLiteral("serve"), QStringLiteral("--help")});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QLatin1String("--listen")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("HOST:PORT")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("--data-dir")), r.describe());
        // help does not start a server: the process is already gone and bound nothing
        QVERIFY2(!r.out.contains(QLatin1String("listening")), r.describe());
    }

    void subcommandHelp_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("mentions");
        QTest::newRow("apikey create") << QStringList{"apikey", "create", "--help"} << QStringList{"--name", "--scope"};
        QTest::newRow("apikey list") << QStringList{"apikey", "list", "--help"} << QStringList{"--data-dir"};
        QTest::newRow("apikey revoke") << QStringList{"apikey", "revoke", "--help"} << QStringList{"ID"};
        QTest::newRow("user add") << QStringList{"user", "add", "--help"}
                                  << QStringList{"--email", "--name", "--role", "standard input"};
        QTest::newRow("apikey") << QStringList{"apikey", "--help"} << QStringList{"create", "list", "revoke"};
        QTest::newRow("backup") << QStringList{"backup", "--help"} << QStringList{"FILE", "--force", "pg_dump"};
        QTest::newRow("restore") << QStringList{"restore", "--help"} << QStringList{"FILE", "--force", "replaced"};
        QTest::newRow("jwt rotate") << QStringList{"jwt", "rotate", "--help"}
                                    << QStringList{"team mode", "two minutes", "next start"};
    }
    void subcommandHelp()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, mentions);
        const Run r = run(args);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        for (const QString &m : mentions)
            QVERIFY2(r.out.contains(m, Qt::CaseInsensitive), qPrintable(m + QLatin1Char('\n') + r.describe()));
    }

    void versionPrintsTheProjectVersion()
    {
        const Run r = run({QStringLiteral("--version")}, {}, false);
        QVERIFY2(r.finished && r.exitCode == 0 && r.err.isEmpty(), r.describe());
        // the version of project() in CMakeLists.txt
        QFile cmake(qEnvironmentVariable("LIAISON_SOURCE_DIR") + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(cmake.open(QIODevice::ReadOnly));
        const QString project = QRegularExpression(QStringLiteral("project\\(Liaison VERSION ([0-9.]+)"))
                                    .match(QString::fromUtf8(cmake.readAll()))
                                    .captured(1);
        QVERIFY(!project.isEmpty());
        QCOMPARE(r.out, QStringLiteral("liaison %1\n").arg(project));
        QCOMPARE(run({QStringLiteral("serve"), QStringLiteral("-v")}).out, r.out);
    }

    // The manual page (liaison(1), written by the build with --help-man) says what --help says: the
    // same commands, usage lines, summaries and options with the same descriptions.
    void manualPageAgreesWithHelp()
    {
        const Run man = run({QStringLiteral("--help-man")}, {}, false);
        QVERIFY2(man.finished && man.exitCode == 0 && man.err.isEmpty(), man.describe());
        QVERIFY2(man.out.startsWith(QLatin1String(".TH LIAISON 1 ")), man.describe());
        // Each roff line as man shows its words: no request, quotes or escapes.
        QStringList lines;
        static const QRegularExpression request(QStringLiteral("^\\.(B|BI|SS) "));
        for (QString line : man.out.split(QLatin1Char('\n'))) {
            if (line.contains(request))
                line = line.remove(request).remove(QLatin1Char('"')).simplified();
            line.replace(QLatin1String("\\-"), QLatin1String("-"))
                .replace(QLatin1String("\\&"), QString())
                .replace(QLatin1String("\\e"), QLatin1String("\\"));
            lines << line;
        }
        const auto inPage = [&lines](const QString &text) { return lines.contains(text); };

        const Run top = run({QStringLiteral("--help")}, {}, false);
        QVERIFY2(top.exitCode == 0, top.describe());
        QList<QStringList> commands{{}};
        bool inCommands = false;
        for (const QString &line : top.outLines()) {
            if (line == QLatin1String("Commands:"))
                inCommands = true;
            else if (!line.startsWith(QLatin1String("  ")))
                inCommands = false;
            else if (inCommands) {
                const QString words = line.trimmed().section(QStringLiteral("  "), 0, 0);
                QVERIFY2(inPage(words), qPrintable(QStringLiteral("no section for '%1' in the page").arg(words)));
                commands << words.split(QLatin1Char(' '));
            }
        }
        QVERIFY2(commands.size() >= 10, top.describe());
        QCOMPARE(man.out.count(QLatin1String("\n.SS ")), commands.size() - 1);

        int optionsInPage = int(man.out.count(QLatin1String("\n.TP\n.B"))); // .B or .BI: an option
        int optionsInHelp = 0;
        QStringList common;
        for (const QStringList &words : commands) {
            const Run help = run(words + QStringList{QStringLiteral("--help")}, {}, false);
            QVERIFY2(help.exitCode == 0, help.describe());
            const QStringList out = help.outLines();
            QVERIFY2(out.value(0).startsWith(QLatin1String("Usage: ")), help.describe());
            QVERIFY2(inPage(out.value(0).mid(7)), qPrintable(out.value(0)));
            QVERIFY2(inPage(out.value(1)), qPrintable(out.value(1))); // the summary
            static const QRegularExpression option(QStringLiteral("^  (\\S.*?)  +(\\S.*)$"));
            for (const QString &line : out.mid(out.indexOf(QStringLiteral("Options:")) + 1)) {
                const QRegularExpressionMatch m = option.match(line);
                QVERIFY2(m.hasMatch(), qPrintable(line));
                const QString name = m.captured(1);
                QString description = m.captured(2);
                QVERIFY2(inPage(name), qPrintable(name));
                if (name == QLatin1String("--data-dir DIR")) {
                    // the page names the rule, --help the path it gives here
                    QVERIFY2(description.endsWith(QLatin1String("/liaison).")), qPrintable(description));
                    description = QStringLiteral("Data directory (default: $XDG_DATA_HOME/liaison, that is "
                                                 "~/.local/share/liaison).");
                }
                QVERIFY2(inPage(description), qPrintable(name + QLatin1String(": ") + description));
                // the options of every command are listed once, in the page's OPTIONS
                if (words.isEmpty())
                    common << name;
                if (!common.contains(name) || words.isEmpty())
                    ++optionsInHelp;
            }
        }
        QVERIFY(common.contains(QStringLiteral("-v, --version")));
        QCOMPARE(optionsInPage, optionsInHelp);
    }

    // ----- bad usage: exit 2, one clear line on stderr -----

    void badUsageExits2WithOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown option") << QStringList{"--bogus"} << "bogus";
        QTest::newRow("unknown serve option") << QStringList{"serve", "--nope"} << "nope";
        QTest::newRow("unknown apikey option") << QStringList{"apikey", "list", "--frob"} << "frob";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "frobnicate";
        QTest::newRow("unknown subcommand") << QStringList{"apikey", "explode"} << "apikey";
        QTest::newRow("missing subcommand") << QStringList{"user"} << "add";
        QTest::newRow("missing jwt subcommand") << QStringList{"jwt"} << "rotate";
        QTest::newRow("listen without value") << QStringList{"serve", "--listen"} << "listen";
        QTest::newRow("revoke without id") << QStringList{"apikey", "revoke"} << "ID";
        QTest::newRow("extra argument") << QStringList{"apikey", "list", "extra"} << "extra";
        QTest::newRow("backup without a file") << QStringList{"backup"} << "FILE";
        QTest::newRow("restore without a file") << QStringList{"restore", "--force"} << "FILE";
    }
    void badUsageExits2WithOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const Run r = run(args);
        QVERIFY2(r.finished, r.describe());
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.errLines().size() == 1, r.describe());
        QVERIFY2(r.err.contains(mentions), r.describe());
        QVERIFY2(r.out.isEmpty(), r.describe());
    }

    // A missing required option is a usage error too (exit 2); its message is the last line on stderr.
    // (The check runs after the database was opened, so a first run also logs the migration.)
    void missingRequiredOptionExits2()
    {
        const Run r = run({QStringLiteral("apikey"), QStringLiteral("create")});
        QVERIFY2(r.finished && r.exitCode == 2, r.describe());
        QVERIFY2(r.errLines().constLast().contains(QLatin1String("--name")), r.describe());
        QVERIFY2(!r.out.contains(QLatin1String("lk_")), r.describe());
        const Run user =
            run({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("--name"), QStringLiteral("B")},
                "a-long-enough-password\n");
        QVERIFY2(user.finished && user.exitCode == 2, user.describe());
        QVERIFY2(user.errLines().constLast().contains(QLatin1String("--email")), user.describe());
    }

    void badSetFailsClearly_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::newRow("no equals") << "badformat";
        QTest::newRow("no section") << "key=value";
        QTest::newRow("empty key") << "=value";
    }
    void badSetFailsClearly()
    {
        QFETCH(QString, assignment);
        const Run r = run({QStringLiteral("apikey"), QStringLiteral("list"), QStringLiteral("--set"), assignment});
        QVERIFY2(r.finished, r.describe());
        QVERIFY2(r.exitCode != 0, r.describe());
        QVERIFY2(r.errLines().size() == 1, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("section/key=value")), r.describe());
        QVERIFY2(r.err.contains(assignment), r.describe());
    }

    void badSettingValueFailsServeClearly()
    {
        const Run r = run({QStringLiteral("serve"), QStringLiteral("--set"), QStringLiteral("server/tls=maybe")});
        QVERIFY2(r.finished, r.describe());
        QVERIFY2(r.exitCode != 0, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("server/tls")), r.describe());
        const Run listen = run({QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("nowhere")});
        QVERIFY2(listen.finished, listen.describe());
        QVERIFY2(listen.exitCode != 0, listen.describe());
        QVERIFY2(listen.err.contains(QLatin1String("HOST:PORT")), listen.describe());
    }

    // ----- apikey -----

    void apiKeyCreateListRevoke()
    {
        const Run created = run({QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"),
                                 QStringLiteral("t"), QStringLiteral("--scope"), QStringLiteral("contacts:read")});
        QVERIFY2(created.finished && created.exitCode == 0, created.describe());
        const QString key = created.outLines().value(created.outLines().size() - 1).trimmed();
        QVERIFY2(key.startsWith(QLatin1String("lk_")), created.describe());
        QVERIFY2(key.size() >= 40, created.describe()); // 256 random bits
        QVERIFY2(!key.contains(QLatin1Char(' ')), created.describe());
        const QString id = keyIdIn(created.out);
        QVERIFY2(!id.isEmpty(), created.describe());
        QVERIFY2(created.out.contains(QLatin1String("contacts:read")), created.describe());

        // a second key, to see that revoking touches one only
        const Run second = run({QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"),
                                QStringLiteral("other"), QStringLiteral("--scope"), QStringLiteral("contacts:write"),
                                QStringLiteral("--scope"), QStringLiteral("contacts:read")});
        QVERIFY2(second.finished && second.exitCode == 0, second.describe());
        const QString secondKey = second.outLines().constLast().trimmed();
        const QString secondId = keyIdIn(second.out);
        QVERIFY(secondKey != key);
        QVERIFY(secondId != id);

        Run list = run({QStringLiteral("apikey"), QStringLiteral("list")});
        QVERIFY2(list.finished && list.exitCode == 0, list.describe());
        QString line = listLineOf(list, id);
        QVERIFY2(!line.isEmpty(), list.describe());
        QVERIFY2(line.contains(key.left(10)), list.describe()); // the prefix, to recognise it
        QVERIFY2(line.contains(QLatin1String("active")), list.describe());
        QVERIFY2(line.contains(QLatin1String("contacts:read")), list.describe());
        QVERIFY2(!list.out.contains(key), list.describe()); // never the full key
        QVERIFY2(!list.out.contains(secondKey), list.describe());
        QVERIFY2(!list.out.contains(key.mid(12)), list.describe());

        const Run revoked = run({QStringLiteral("apikey"), QStringLiteral("revoke"), id});
        QVERIFY2(revoked.finished && revoked.exitCode == 0, revoked.describe());
        list = run({QStringLiteral("apikey"), QStringLiteral("list")});
        QVERIFY2(list.finished && list.exitCode == 0, list.describe());
        line = listLineOf(list, id);
        QVERIFY2(line.contains(QLatin1String("revoked")), list.describe());
        QVERIFY2(listLineOf(list, secondId).contains(QLatin1String("active")), list.describe());

        // revoking again is harmless
        const Run again = run({QStringLiteral("apikey"), QStringLiteral("revoke"), id});
        QVERIFY2(again.finished && again.exitCode == 0, again.describe());
    }

    void aKeyBelongsToAUser()
    {
        const QByteArray password = "gizli-parola-1\n";
        QVERIFY(run({"user", "add", "--email", "selin@ornek.com.tr", "--name", "Selin", "--role", "admin"}, password)
                    .exitCode == 0);
        QVERIFY(run({"user", "add", "--email", "ali@ornek.com.tr", "--name", "Ali", "--role", "agent"}, password)
                    .exitCode == 0);
        // Default: the first admin's key, with everything.
        const Run admin = run({"apikey", "create", "--name", "script"});
        QVERIFY2(admin.exitCode == 0, admin.describe());
        QVERIFY2(admin.out.contains("owned by Selin <selin@ornek.com.tr> (admin)"), admin.describe());
        // --user: the agent's, with every area but the admin-only ones.
        const Run agent = run({"apikey", "create", "--name", "ali-script", "--user", "ali@ornek.com.tr"});
        QVERIFY2(agent.exitCode == 0, agent.describe());
        QVERIFY2(agent.out.contains("owned by Ali <ali@ornek.com.tr> (agent)"), agent.describe());
        QVERIFY2(!agent.out.contains("webhooks:") && agent.out.contains("contacts:*"), agent.describe());
        // An agent's key never carries an admin scope; an unknown user is named.
        const Run refused = run({"apikey", "create", "--name", "x", "--user", "ali@ornek.com.tr", "--scope", "*"});
        QVERIFY2(refused.exitCode != 0 && refused.err.contains("admin role"), refused.describe());
        const Run nobody = run({"apikey", "create", "--name", "x", "--user", "kimse@ornek.com.tr"});
        QVERIFY2(nobody.exitCode != 0 && nobody.err.contains("kimse@ornek.com.tr"), nobody.describe());
        const Run list = run({"apikey", "list"});
        QVERIFY2(listLineOf(list, keyIdIn(agent.out)).contains("user_"), list.describe());
    }

    void aUserIsDeactivatedAndBack()
    {
        const QByteArray password = "gizli-parola-1\n";
        QVERIFY(run({"user", "add", "--email", "selin@ornek.com.tr", "--name", "Selin", "--role", "admin"}, password)
                    .exitCode == 0);
        QVERIFY(run({"user", "add", "--email", "ali@ornek.com.tr", "--name", "Ali"}, password).exitCode == 0);
        const Run off = run({"user", "deactivate", "--email", "ali@ornek.com.tr"});
        QVERIFY2(off.exitCode == 0 && off.out.contains("deactivated"), off.describe());
        const Run on = run({"user", "activate", "--email", "ali@ornek.com.tr"});
        QVERIFY2(on.exitCode == 0 && on.out.contains("active"), on.describe());
        // Someone must still be able to configure: the last admin stays.
        const Run last = run({"user", "deactivate", "--email", "selin@ornek.com.tr"});
        QVERIFY2(last.exitCode != 0 && last.err.contains("last active admin"), last.describe());
        const Run nobody = run({"user", "deactivate", "--email", "kimse@ornek.com.tr"});
        QVERIFY2(nobody.exitCode != 0 && nobody.err.contains("kimse@ornek.com.tr"), nobody.describe());
        const Run usage = run({"user", "deactivate"});
        QVERIFY2(usage.exitCode == 2 && usage.err.contains("--email"), usage.describe());
    }

    // Alone (SQLite), jwt rotate writes a new key to the secret store, used from the next start.
    void jwtRotateOnSqlite()
    {
        const Run r = run({QStringLiteral("jwt"), QStringLiteral("rotate")});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QLatin1String("used from the next start")), r.describe());
    }

    void revokeUnknownIdFails()
    {
        const Run r = run({QStringLiteral("apikey"), QStringLiteral("revoke"), QStringLiteral("apikey_doesnotexist")});
        QVERIFY2(r.finished, r.describe());
        QVERIFY2(r.exitCode != 0, r.describe());
        QVERIFY2(!r.err.trimmed().isEmpty(), r.describe());
    }

    void createWithUnknownScopeFails()
    {
        const Run r = run({QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"),
                           QStringLiteral("bad"), QStringLiteral("--scope"), QStringLiteral("nonsense")});
        QVERIFY2(r.finished, r.describe());
        QVERIFY2(r.exitCode != 0, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("nonsense")), r.describe());
        QVERIFY2(!r.out.contains(QLatin1String("lk_")), r.describe());
        // and nothing was stored
        const Run list = run({QStringLiteral("apikey"), QStringLiteral("list")});
        QVERIFY2(list.finished && list.exitCode == 0, list.describe());
        QVERIFY2(!list.out.contains(QLatin1String("apikey_")), list.describe());
    }

    void createWithoutScopeGivesEverything()
    {
        const Run r =
            run({QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("all")});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY2(r.outLines().constLast().startsWith(QLatin1String("lk_")), r.describe());
        const Run list = run({QStringLiteral("apikey"), QStringLiteral("list")});
        QVERIFY2(listLineOf(list, keyIdIn(r.out)).contains(QLatin1Char('*')), list.describe());
    }

    // ----- user add -----

    void userAdd()
    {
        const QStringList add{QStringLiteral("user"),          QStringLiteral("add"),    QStringLiteral("--email"),
                              QStringLiteral("a@example.com"), QStringLiteral("--name"), QStringLiteral("A")};
        const Run r = run(add, "a-long-enough-password\n");
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QLatin1String("a@example.com")), r.describe());
        QVERIFY2(!r.out.contains(QLatin1String("a-long-enough-password")), r.describe());
        QVERIFY2(!r.err.contains(QLatin1String("a-long-enough-password")), r.describe());

        // the same e-mail again (in other case) is refused
        QStringList dup = add;
        dup[3] = QStringLiteral("A@Example.com");
        const Run duplicate = run(dup, "another-long-password\n");
        QVERIFY2(duplicate.finished, duplicate.describe());
        QVERIFY2(duplicate.exitCode != 0, duplicate.describe());
        QVERIFY2(!duplicate.err.trimmed().isEmpty(), duplicate.describe());

        // a role other than admin or agent is refused
        QStringList badRole{QStringLiteral("user"),          QStringLiteral("add"),    QStringLiteral("--email"),
                            QStringLiteral("c@example.com"), QStringLiteral("--name"), QStringLiteral("C"),
                            QStringLiteral("--role"),        QStringLiteral("wizard")};
        const Run role = run(badRole, "a-long-enough-password\n");
        QVERIFY2(role.finished && role.exitCode != 0, role.describe());
        badRole[7] = QStringLiteral("admin");
        const Run admin = run(badRole, "a-long-enough-password\n");
        QVERIFY2(admin.finished && admin.exitCode == 0, admin.describe());
    }

    void userAddRefusesShortOrMissingPassword_data()
    {
        QTest::addColumn<QByteArray>("stdinData");
        QTest::newRow("short") << QByteArray("short\n");
        QTest::newRow("empty line") << QByteArray("\n");
        QTest::newRow("nothing") << QByteArray();
    }
    void userAddRefusesShortOrMissingPassword()
    {
        QFETCH(QByteArray, stdinData);
        const Run r = run({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("--email"),
                           QStringLiteral("b@example.com"), QStringLiteral("--name"), QStringLiteral("B")},
                          stdinData);
        QVERIFY2(r.finished, r.describe());
        QVERIFY2(r.exitCode != 0, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("password")), r.describe());
        // nothing stored: adding the user now works
        const Run ok = run({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("--email"),
                            QStringLiteral("b@example.com"), QStringLiteral("--name"), QStringLiteral("B")},
                           "a-long-enough-password\n");
        QVERIFY2(ok.finished && ok.exitCode == 0, ok.describe());
    }

    void userAddRefusesBadEmail()
    {
        const Run badEmail = run({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("--email"),
                                  QStringLiteral("not-an-email"), QStringLiteral("--name"), QStringLiteral("B")},
                                 "a-long-enough-password\n");
        QVERIFY2(badEmail.finished && badEmail.exitCode != 0, badEmail.describe());
    }

    // ----- data directory -----

    void dataDirHoldsTheDatabase()
    {
        const QString nested = m_dataDir->filePath(QStringLiteral("a/b"));
        const Run r = run({QStringLiteral("apikey"), QStringLiteral("list"), QStringLiteral("--data-dir"), nested}, {},
                          /*withDataDir*/ false);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY(QFileInfo::exists(nested + QStringLiteral("/liaison.db")));
        // owner-only
        QCOMPARE(QFileInfo(nested).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteOther),
                 QFileDevice::Permissions());
        QCOMPARE(fileMode(nested + QStringLiteral("/liaison.db")), 0600);
    }

    // The database holds password hashes and webhook secrets: 0600 also outside the data directory
    // (whose 0700 does not protect it there), and an existing file readable by others is restricted.
    void aDatabaseOutsideTheDataDirIsOwnerOnly()
    {
        QTemporaryDir elsewhere;
        QVERIFY(elsewhere.isValid());
        QVERIFY(QFile::setPermissions(elsewhere.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                            QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                                            QFile::ExeOther));
        const QString db = elsewhere.filePath(QStringLiteral("team.db"));
        const QStringList set{QStringLiteral("--set"), QStringLiteral("database/path=") + db};
        Run r = run(QStringList{QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"),
                                QStringLiteral("k")} +
                    set);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QCOMPARE(fileMode(db), 0600);
        for (const char *suffix : {"-wal", "-shm"}) {
            if (QFileInfo::exists(db + QLatin1String(suffix)))
                QCOMPARE(fileMode(db + QLatin1String(suffix)), 0600);
        }
        QVERIFY(QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        r = run(QStringList{QStringLiteral("apikey"), QStringLiteral("list")} + set);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QCOMPARE(fileMode(db), 0600);
        QVERIFY2(r.err.contains(QLatin1String("restricted it to its owner")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("k")), r.describe());
    }

    // ----- backup and restore (README, "Backups") -----

    void backupAndRestoreRoundTrip()
    {
        Run r =
            run({QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("b")});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        const QString id = keyIdIn(r.out);
        const QString media = m_dataDir->filePath(QStringLiteral("media/media_upload1"));
        QVERIFY(QDir().mkpath(QFileInfo(media).path()));
        {
            QFile f(media);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("an uploaded picture");
        }
        QTemporaryDir elsewhere;
        const QString file = elsewhere.filePath(QStringLiteral("copy.tar.gz"));
        r = run({QStringLiteral("backup"), file});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QLatin1String("1 media files")), r.describe());
        QVERIFY(QFileInfo(file).size() > 0);
        // An existing file is not replaced without --force; a folder gets a new file.
        r = run({QStringLiteral("backup"), file});
        QVERIFY2(r.finished && r.exitCode == 1 && r.err.contains(QLatin1String("--force")), r.describe());
        r = run({QStringLiteral("backup"), elsewhere.path()});
        QVERIFY2(r.finished && r.exitCode == 0 && r.out.contains(QLatin1String("liaison-")), r.describe());

        // Into a new data directory: the key and the upload are there.
        QTemporaryDir restored;
        r = run({QStringLiteral("restore"), file, QStringLiteral("--data-dir"), restored.path()}, {}, false);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        r = run({QStringLiteral("apikey"), QStringLiteral("list"), QStringLiteral("--data-dir"), restored.path()}, {},
                false);
        QVERIFY2(r.finished && r.exitCode == 0 && r.out.contains(id), r.describe());
        QFile copied(QDir(restored.path()).filePath(QStringLiteral("media/media_upload1")));
        QVERIFY(copied.open(QIODevice::ReadOnly));
        QCOMPARE(copied.readAll(), QByteArray("an uploaded picture"));

        // Again into it: it holds data now.
        r = run({QStringLiteral("restore"), file, QStringLiteral("--data-dir"), restored.path()}, {}, false);
        QVERIFY2(r.finished && r.exitCode == 1, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("already holds")) && r.err.contains(QLatin1String("--force")),
                 r.describe());
        r = run(
            {QStringLiteral("restore"), file, QStringLiteral("--force"), QStringLiteral("--data-dir"), restored.path()},
            {}, false);
        QVERIFY2(r.finished && r.exitCode == 0 && r.out.contains(QLatin1String("replaced-")), r.describe());
        QCOMPARE(QDir(restored.path()).entryList({QStringLiteral("replaced-*")}, QDir::Dirs).size(), 1);
    }

    void restoreRefusesADamagedBackup()
    {
        Run r =
            run({QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("b")});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QTemporaryDir elsewhere;
        const QString file = elsewhere.filePath(QStringLiteral("copy.tar.gz"));
        r = run({QStringLiteral("backup"), file});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.resize(f.size() * 2 / 3));
        f.close();
        QTemporaryDir target;
        r = run({QStringLiteral("restore"), file, QStringLiteral("--data-dir"), target.path()}, {}, false);
        QVERIFY2(r.finished && r.exitCode == 1, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("is damaged")) && r.err.contains(QLatin1String("Nothing was restored")),
                 r.describe());
        QVERIFY2(!QFileInfo::exists(QDir(target.path()).filePath(QStringLiteral("liaison.db"))), r.describe());
    }

    // Team mode: the words for pg_dump, exit 2, nothing written and no connection tried.
    void backupOnPostgresPrintsPgDump()
    {
        QTemporaryDir elsewhere;
        const QString file = elsewhere.filePath(QStringLiteral("team.dump"));
        const QStringList set{QStringLiteral("--set"),
                              QStringLiteral("database/url=postgresql://crm@db.example.com:5433/liaison")};
        Run r = run(QStringList{QStringLiteral("backup"), file} + set);
        QVERIFY2(r.finished && r.exitCode == 2, r.describe());
        QVERIFY2(r.out.startsWith(QLatin1String("pg_dump --format=custom")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("postgresql://crm@db.example.com:5433/liaison")), r.describe());
        QVERIFY2(r.out.contains(file), r.describe());
        QVERIFY(!QFileInfo::exists(file));
        r = run(QStringList{QStringLiteral("restore"), file} + set);
        QVERIFY2(r.finished && r.exitCode == 2 && r.out.startsWith(QLatin1String("pg_restore")), r.describe());
    }

private:
    static int fileMode(const QString &path)
    {
        struct stat st;
        if (::stat(QFile::encodeName(path).constData(), &st) != 0)
            return -1;
        return int(st.st_mode & 07777);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
