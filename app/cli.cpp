#include "app/cli.h"

#include "app/appsettings.h"
#include "app/datadirlock.h"
#include "app/deliverythread.h"
#include "app/secrets/secretstore.h"
#include "app/serverthread.h"
#include "app/startfailure.h"
#include "app/uiwalk.h"
#include "app/unixsignals.h"
#include "app/windowcontents.h"
#include "app/windowsession.h"
#include "messaging/assistant/assistantautoreply.h"
#include "messaging/assistant/assistantsettingsrules.h"
#include "messaging/campaigns/campaignsender.h"
#include "messaging/channels/bulkexpander.h"
#include "messaging/channels/channeldispatcher.h"
#include "messaging/channels/channelregistry.h"
#include "messaging/channels/telegrampoller.h"
#include "messaging/webhooks/webhookdispatcher.h"
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/passwordhasher.h"
#include "model/accounts/signingkeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/assistant/knowledgeindex.h"
#include "model/backup/backup.h"
#include "model/backup/dailybackup.h"
#include "model/contacts/contact.h"
#include "model/contacts/contactrepository.h"
#include "model/core/changefeed.h"
#include "model/core/database.h"
#include "model/core/databasecheck.h"
#include "model/core/databasecopy.h"
#include "model/core/databaseurl.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/migrations.h"
#include "model/core/store.h"
#include "model/core/timeutil.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/mediacleaner.h"
#include "model/inbox/mediarepository.h"
#include "model/tasks/taskrepository.h"
#include "model/tasks/taskscheduler.h"
#include "server/apiserver.h"
#include "ui/shell/desktopscheme.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/theme.h"
#include "ui/shell/uilanguage.h"
#include "ui/shell/windowstate.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QLockFile>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSslSocket>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <memory>

#include <sys/resource.h>
#include <unistd.h>

// resources/liaison.qrc is compiled into this static library: naming it here (outside any namespace,
// as Q_INIT_RESOURCE requires) keeps the linker from dropping it.
static void initResources()
{
    Q_INIT_RESOURCE(liaison);
}

namespace {
enum Exit
{
    Ok = 0,
    Failure = 1,
    Usage = 2
};

// One whole line on stderr with one write().
void writeStderr(const QByteArray &line)
{
    const char *p = line.constData();
    qsizetype left = line.size();
    while (left > 0) {
        const ssize_t n = ::write(STDERR_FILENO, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // nowhere to log to
        p += n;
        left -= n;
    }
}

// The log: "category: message" a line on stderr, as Qt's default handler writes it with its default
// pattern, but with one write() a line and no pattern machinery. The default handler cost a third
// of the throughput of GET /contacts/:id (one line a request). QT_MESSAGE_PATTERN, when set, keeps
// Qt's own handler. The API's request lines come here directly (ApiServer::setRequestLogSink).
void writeLogLine(const char *category, QByteArrayView message)
{
    QByteArray line;
    line.reserve(message.size() + 40);
    if (category && qstrcmp(category, "default") != 0)
        line.append(category).append(": ");
    line.append(message).append('\n');
    writeStderr(line);
}

void handleMessage(QtMsgType, const QMessageLogContext &context, const QString &message)
{
    writeLogLine(context.category, message.toUtf8());
}

void err(const QString &line)
{
    fprintf(stderr, "liaison: %s\n", qPrintable(line));
}

void out(const QString &text)
{
    fprintf(stdout, "%s\n", qPrintable(text));
    fflush(stdout);
}

struct Command
{
    QStringList words; // {"apikey", "create"}
    QString summary;
    QList<QCommandLineOption> options;
    QString positional; // name of a required positional argument, if any
};

QList<Command> commands()
{
    return {
        {{}, QStringLiteral("Start the desktop app (and its embedded API server per settings)."), {}, {}},
        {{QStringLiteral("serve")},
         QStringLiteral("Run the API server without a window until SIGINT/SIGTERM."),
         {QCommandLineOption(QStringLiteral("listen"), QStringLiteral("Address to listen on (default 127.0.0.1:8443)."),
                             QStringLiteral("HOST:PORT"))},
         {}},
        {{QStringLiteral("user"), QStringLiteral("add")},
         QStringLiteral("Add a user who can sign in; the password is read from standard input."),
         {QCommandLineOption(QStringLiteral("email"), QStringLiteral("E-mail address (the login)."),
                             QStringLiteral("E")),
          QCommandLineOption(QStringLiteral("name"), QStringLiteral("Display name."), QStringLiteral("N")),
          QCommandLineOption(QStringLiteral("role"), QStringLiteral("admin or agent (default agent)."),
                             QStringLiteral("ROLE"), QStringLiteral("agent"))},
         {}},
        {{QStringLiteral("user"), QStringLiteral("deactivate")},
         QStringLiteral("Stop a user from signing in; their tokens and API keys stop working, their records stay."),
         {QCommandLineOption(QStringLiteral("email"), QStringLiteral("E-mail address of the user."),
                             QStringLiteral("E"))},
         {}},
        {{QStringLiteral("user"), QStringLiteral("activate")},
         QStringLiteral("Let a deactivated user sign in again."),
         {QCommandLineOption(QStringLiteral("email"), QStringLiteral("E-mail address of the user."),
                             QStringLiteral("E"))},
         {}},
        {{QStringLiteral("apikey"), QStringLiteral("create")},
         QStringLiteral("Create an API key; the key is printed once, as the last line."),
         {QCommandLineOption(QStringLiteral("name"), QStringLiteral("Name of the key."), QStringLiteral("N")),
          QCommandLineOption(
              QStringLiteral("scope"),
              QStringLiteral("A scope such as contacts:read, contacts:write or * (repeatable; default: all the "
                             "owner's role allows)."),
              QStringLiteral("S")),
          QCommandLineOption(QStringLiteral("user"),
                             QStringLiteral("The e-mail of the user who owns the key (default: the first admin)."),
                             QStringLiteral("EMAIL"))},
         {}},
        {{QStringLiteral("apikey"), QStringLiteral("list")}, QStringLiteral("List API keys."), {}, {}},
        {{QStringLiteral("apikey"), QStringLiteral("revoke")},
         QStringLiteral("Revoke an API key."),
         {},
         QStringLiteral("ID")},
        {{QStringLiteral("jwt"), QStringLiteral("rotate")},
         QStringLiteral("Replace the key that signs access tokens. Team mode: every copy signs with the new key "
                        "two minutes later and accepts the old one until the last token it signed has expired, so "
                        "no client is refused. Alone: the new key is used from the next start, and access tokens "
                        "signed before are refused then (clients refresh them)."),
         {},
         {}},
        {{QStringLiteral("db"), QStringLiteral("check")},
         QStringLiteral("Print where the database is, its schema version and the rows of each table."),
         {},
         {}},
        {{QStringLiteral("db"), QStringLiteral("migrate-to")},
         QStringLiteral("Copy this data directory's SQLite database into an empty PostgreSQL database (team mode) "
                        "in one transaction, checked by the rows of each table; the password comes from "
                        "secrets/database.password."),
         {},
         QStringLiteral("URL")},
        {{QStringLiteral("backup")},
         QStringLiteral("Write a backup of the database and the uploaded media into one file (a .tar.gz; a folder: "
                        "a new file in it), consistent while Liaison runs. Team mode (PostgreSQL): prints the "
                        "pg_dump command to use instead and exits 2."),
         {QCommandLineOption(QStringLiteral("force"), QStringLiteral("Replace FILE if it exists."))},
         QStringLiteral("FILE")},
        {{QStringLiteral("restore")},
         QStringLiteral("Put a backup back into the data directory, after checking all of it. Refuses while Liaison "
                        "runs with the data directory, and a data directory that holds data unless --force (the "
                        "replaced database and media are moved into DATA/replaced-…)."),
         {QCommandLineOption(QStringLiteral("force"),
                             QStringLiteral("Replace the database and media the data directory holds."))},
         QStringLiteral("FILE")},
    };
}

// The data directory's default as the help names it: the path itself in --help, its rule in the
// manual page, which is written once at build time for every user.
QString defaultDataDirText()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}
const QString kManDataDirText = QStringLiteral("$XDG_DATA_HOME/liaison, that is ~/.local/share/liaison");

QList<QCommandLineOption> commonOptions(const QString &dataDirDefault = defaultDataDirText())
{
    return {QCommandLineOption(QStringLiteral("data-dir"),
                               QStringLiteral("Data directory (default: %1).").arg(dataDirDefault),
                               QStringLiteral("DIR")),
            QCommandLineOption(QStringLiteral("set"),
                               QStringLiteral("Override a setting of liaison.ini for this run (repeatable)."),
                               QStringLiteral("section/key=value"))};
}

// The help of one command as --help prints it and the manual page (liaison(1), --help-man) lists
// it: both are rendered from this, so that they cannot disagree (e2e_cli checks it).
struct CommandHelp
{
    QString usage; // "liaison apikey revoke [options] ID"
    QString summary;
    QList<std::pair<QString, QString>> options; // the command's own: {"--listen HOST:PORT", description}
    QList<std::pair<QString, QString>> common;  // --data-dir, --set, --help, --version
};

CommandHelp helpOf(const Command &c, const QString &dataDirDefault)
{
    CommandHelp help;
    help.usage = QStringLiteral("liaison");
    if (!c.words.isEmpty())
        help.usage += QLatin1Char(' ') + c.words.join(QLatin1Char(' '));
    help.usage += QStringLiteral(" [options]");
    if (!c.positional.isEmpty())
        help.usage += QLatin1Char(' ') + c.positional;
    help.summary = c.summary;
    const auto named = [](const QCommandLineOption &o) {
        QString name = QStringLiteral("--") + o.names().constFirst();
        if (!o.valueName().isEmpty())
            name += QLatin1Char(' ') + o.valueName();
        return std::pair<QString, QString>{name, o.description()};
    };
    for (const QCommandLineOption &o : c.options)
        help.options.append(named(o));
    for (const QCommandLineOption &o : commonOptions(dataDirDefault))
        help.common.append(named(o));
    help.common.append({QStringLiteral("-h, --help"), QStringLiteral("Show this help.")});
    help.common.append({QStringLiteral("-v, --version"), QStringLiteral("Show the version.")});
    return help;
}

const QString kCommandHelpHint = QStringLiteral("Run liaison COMMAND --help for a command's options.");

QString usageOf(const Command &c)
{
    const CommandHelp help = helpOf(c, defaultDataDirText());
    QString text = QStringLiteral("Usage: ") + help.usage + QLatin1Char('\n') + help.summary + QLatin1Char('\n');
    if (c.words.isEmpty()) {
        text += QStringLiteral("\nCommands:\n");
        for (const Command &other : commands()) {
            if (!other.words.isEmpty())
                text += QStringLiteral("  %1  %2\n").arg(other.words.join(QLatin1Char(' ')), -15).arg(other.summary);
        }
        text += kCommandHelpHint + QLatin1Char('\n');
    }
    text += QStringLiteral("\nOptions:\n");
    for (const auto &[name, description] : help.options + help.common)
        text += QStringLiteral("  %1  %2\n").arg(name, -28).arg(description);
    return text;
}

// Text as roff reads it: a backslash is written \e, a line may not start with a control character,
// and the dashes of options are minus signs.
QString roffText(QString text, bool dashesAreMinus = false)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    if (dashesAreMinus)
        text.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    if (text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('\'')))
        text.prepend(QStringLiteral("\\&"));
    return text;
}

void appendRoffOptions(QString &page, const QList<std::pair<QString, QString>> &options)
{
    for (const auto &[name, description] : options) {
        // "--listen HOST:PORT": the flag in bold, its value's name in italics; "-h, --help": no value.
        const qsizetype space = name.lastIndexOf(QLatin1Char(' '));
        const bool hasValue = space > 0 && name.at(space + 1) != QLatin1Char('-');
        const QString flag = hasValue ? name.left(space) : name;
        const QString value = hasValue ? name.mid(space + 1) : QString();
        if (value.isEmpty())
            page += QStringLiteral(".TP\n.B \"%1\"\n").arg(roffText(flag, true));
        else
            page += QStringLiteral(".TP\n.BI \"%1 \" \"%2\"\n").arg(roffText(flag, true), roffText(value));
        page += roffText(description) + QLatin1Char('\n');
    }
}

// The manual page liaison(1) in roff, from the same commands and options as --help (the build
// writes it with the hidden `liaison --help-man`; installer/ installs it).
QString manPage()
{
    const QList<Command> all = commands();
    QString page =
        QStringLiteral(".TH LIAISON 1 \"\" \"liaison %1\" \"User Commands\"\n").arg(QStringLiteral(LIAISON_VERSION));
    page += QStringLiteral(".nh\n.ad l\n"); // no hyphens in paths and options, a ragged right edge
    page +=
        QStringLiteral(".SH NAME\nliaison \\- customer relationship manager: a desktop app and an HTTPS REST API\n");
    page += QStringLiteral(".SH SYNOPSIS\n");
    for (const Command &c : all) {
        const CommandHelp help = helpOf(c, kManDataDirText);
        page += QStringLiteral(".B \"%1\"\n.br\n").arg(roffText(help.usage));
    }
    const CommandHelp top = helpOf(all.first(), kManDataDirText);
    page += QStringLiteral(".SH DESCRIPTION\n") + roffText(top.summary) + QLatin1Char('\n');
    page += QStringLiteral(".PP\n") + roffText(kCommandHelpHint) + QLatin1Char('\n');
    page += QStringLiteral(".SH OPTIONS\n");
    page += QStringLiteral("These options apply to every command.\n");
    appendRoffOptions(page, top.common);
    page += QStringLiteral(".SH COMMANDS\n");
    for (const Command &c : all) {
        if (c.words.isEmpty())
            continue;
        const CommandHelp help = helpOf(c, kManDataDirText);
        page += QStringLiteral(".SS \"%1\"\n").arg(roffText(c.words.join(QLatin1Char(' '))));
        page += QStringLiteral(".B \"%1\"\n.PP\n").arg(roffText(help.usage));
        page += roffText(help.summary) + QLatin1Char('\n');
        appendRoffOptions(page, help.options);
    }
    page += QStringLiteral(".SH FILES\n.TP\n.I /usr/lib/systemd/user/liaison.service\n"
                           "The systemd user unit that runs \\fBliaison serve\\fR for its user: "
                           "\\fBsystemctl \\-\\-user enable \\-\\-now liaison\\fR.\n"
                           ".SH SEE ALSO\n.BR systemctl (1)\n");
    return page;
}

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

// Opens the data directory, the database (migrated) and the secret store; prints what is wrong.
struct Environment
{
    std::unique_ptr<AppSettings> settings;
    std::unique_ptr<SecretStore> secrets;

    QString error;            // what open() refused
    bool printsErrors = true; // false: the window prints it with its dialog (showStartFailure)
    // What open() checks before it migrates the SQLite file (DatabaseCheck): always that the data
    // directory can be written and the file is not an existing empty one; with startCheck, SQLite's
    // check too: AtStart for the window, serve and migrate-to, the whole integrity_check for db check.
    std::optional<DatabaseCheck::Depth> startCheck;
    DatabaseFault fault;               // what it found
    DatabaseCheck::Report checkReport; // the check's findings and time (db check prints them)

    // sqliteOnly: the data directory's own SQLite file whatever database/url says (db migrate-to
    // copies from it).
    bool open(const QString &dataDir, const QStringList &assignments, bool sqliteOnly = false)
    {
        if (!QDir().mkpath(dataDir)) {
            return fail(QStringLiteral("cannot create data directory %1").arg(dataDir));
        }
        if ((fault = DatabaseCheck::writableDirectory(dataDir)))
            return fail(fault.sentence());
        QFile::setPermissions(dataDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        settings = std::make_unique<AppSettings>(dataDir);
        for (const QString &a : assignments) {
            QString error;
            if (!settings->addOverride(a, &error))
                return fail(error);
        }
        // contacts/defaultCallingCode: phone numbers without "+" are national numbers of that country.
        const QString callingCode = settings->value(QStringLiteral("contacts/defaultCallingCode")).toString().trimmed();
        if (!callingCode.isEmpty() && !ContactRules::isCallingCode(callingCode)) {
            return fail(QStringLiteral("setting contacts/defaultCallingCode: '%1' is not a country calling code (1 "
                                       "to 3 digits, e.g. 90)")
                            .arg(callingCode));
        }
        ContactRules::setDefaultCallingCode(callingCode);
        // database/url: a team's PostgreSQL server; empty: the embedded SQLite file.
        const QString urlText = settings->value(QStringLiteral("database/url")).toString().trimmed();
        if (urlText.isEmpty() || sqliteOnly) {
            const QString file = settings->databasePath();
            // How long the start's check may take (database/startCheckSeconds): past it the start
            // goes on, with a warning that only `liaison db check` checks the whole file
            // (docs/performance.md: a 1 GB file's quick_check took 17 s from a cold disk).
            int checkSeconds = 0;
            QString error;
            if (!settings->startCheckSeconds(&checkSeconds, &error))
                return fail(error);
            // Damaged, empty or read-only: refused before anything opens (or migrates) it. A start
            // checks a file of up to 64 MiB whole (integrity_check), a larger one page by page
            // (quick_check, about 17 s a GB from a cold disk: docs/performance.md).
            fault = startCheck ? DatabaseCheck::atStart(
                                     file, *startCheck,
                                     *startCheck == DatabaseCheck::Depth::AtStart ? qint64(checkSeconds) * 1000 : 0,
                                     &checkReport)
                               : DatabaseCheck::beforeOpen(file);
            if (fault)
                return fail(fault.sentence());
            Database::setPath(file);
        } else {
            QString error;
            const std::optional<DatabaseUrl> url = DatabaseUrl::parse(urlText, &error);
            if (!url)
                return fail(QStringLiteral("setting database/url: %1").arg(error));
            Database::setPostgres(*url, databasePassword());
        }
        try {
            Database::migrate();
        } catch (const std::exception &e) {
            return fail(QStringLiteral("database: %1").arg(QString::fromUtf8(e.what())));
        }
        return true;
    }

    bool fail(const QString &line)
    {
        error = line;
        if (printsErrors)
            err(line);
        return false;
    }

    // The secret store's entry of the window's remembered session: one per data directory and
    // database, since the keychain is shared by every data directory of the account.
    QString sessionSecretName() const
    {
        const QByteArray where = QDir(settings->dataDir()).absolutePath().toUtf8() + '\n' +
                                 settings->value(QStringLiteral("database/url")).toString().trimmed().toUtf8();
        return QStringLiteral("window-session/") +
               QString::fromLatin1(QCryptographicHash::hash(where, QCryptographicHash::Sha256).toHex().left(16));
    }

    // The PostgreSQL password: secrets/database.password (--set it for a headless run); none: the
    // server's other ways (a trusted address, ~/.pgpass).
    QString databasePassword()
    {
        const std::optional<QByteArray> v = secretStore().read(QStringLiteral("database.password"));
        return v ? QString::fromUtf8(*v) : QString();
    }

    // The secret store: the keychain, or the owner-only fallback file; --set secrets/<name>=… overrides.
    SecretStore &secretStore()
    {
        if (!secrets) {
            secrets = std::make_unique<SecretStore>(QStringLiteral("liaison"),
                                                    QDir(settings->dataDir()).filePath(QStringLiteral("secrets.json")));
            for (auto it = settings->overrides().begin(); it != settings->overrides().end(); ++it) {
                if (it.key().startsWith(QLatin1String("secrets/")))
                    secrets->setOverride(it.key().mid(8), it.value().toUtf8());
            }
            secrets->open();
        }
        return *secrets;
    }

    // The mail password and DKIM key: from the secret store (--set secrets/mail.password=… for a
    // headless run).
    void fillMailSecrets(MailConfig *m)
    {
        if (const std::optional<QByteArray> v = secretStore().read(QStringLiteral("mail.password")))
            m->password = QString::fromUtf8(*v);
        if (const std::optional<QByteArray> v = secretStore().read(QStringLiteral("mail.dkimKey")))
            m->dkimKeyPem = *v;
    }

    // The assistant's language model key (secret ai.llmApiKey).
    void fillLanguageModelSecrets(LanguageModelConfig *c)
    {
        if (const std::optional<QByteArray> v = secretStore().read(AssistantSettingsRules::apiKeySecret()))
            c->apiKey = QString::fromUtf8(*v).trimmed();
    }

    // The SMS provider's auth token: the secret channels/sms/authToken (--set
    // secrets/channels/sms/authToken=… for a headless run).
    void fillSmsSecrets(SmsConfig *s)
    {
        if (const std::optional<QByteArray> v = secretStore().read(QStringLiteral("channels/sms/authToken")))
            s->authToken = QString::fromUtf8(*v).trimmed();
    }

    // The channel secrets not given in the settings (--set): from the secret store.
    void fillChannelSecrets(ChannelsConfig *c)
    {
        const QHash<QString, QString *> fields{
            {QStringLiteral("channels/whatsapp/accessToken"), &c->whatsapp.accessToken},
            {QStringLiteral("channels/whatsapp/appSecret"), &c->whatsapp.appSecret},
            {QStringLiteral("channels/whatsapp/verifyToken"), &c->whatsapp.verifyToken},
            {QStringLiteral("channels/telegram/botToken"), &c->telegram.botToken},
            {QStringLiteral("channels/telegram/secretToken"), &c->telegram.secretToken},
            {QStringLiteral("channels/instagram/accessToken"), &c->instagram.accessToken},
            {QStringLiteral("channels/instagram/appSecret"), &c->instagram.appSecret},
            {QStringLiteral("channels/instagram/verifyToken"), &c->instagram.verifyToken}};
        for (auto it = fields.begin(); it != fields.end(); ++it) {
            if (!it.value()->isEmpty())
                continue;
            if (const std::optional<QByteArray> v = secretStore().read(it.key()))
                *it.value() = QString::fromUtf8(*v).trimmed();
        }
    }

    // The JWT signing key of a data directory on SQLite (team mode: SigningKeyRepository): from the
    // keychain (or the owner-only fallback file), made at first start.
    QString jwtKeyName() const
    {
        return QStringLiteral("jwt-signing-key/") +
               QString::fromLatin1(QCryptographicHash::hash(QDir(settings->dataDir()).absolutePath().toUtf8(),
                                                            QCryptographicHash::Sha256)
                                       .toHex()
                                       .left(16));
    }
    QByteArray jwtKey()
    {
        secretStore();
        return secrets->getOrCreate(jwtKeyName(), 32);
    }
    // liaison jwt rotate on SQLite: a new key in the secret store, used from the next start.
    bool replaceJwtKey()
    {
        secretStore();
        QByteArray key(32, Qt::Uninitialized);
        QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(key.data()), key.size() / 4);
        return secrets->write(jwtKeyName(), key);
    }
};

// The window's language (ui/language, Settings → Appearance; UiLanguage): the system's (LANGUAGE,
// LC_MESSAGES, LANG) or the one chosen, applied at start. Qt's own strings (dialog buttons, context
// menus) come from Qt's translations directory (qtbase_<language>.qm, Debian's qt6-translations-l10n),
// Liaison's from the resources (:/i18n/liaison_<language>.qm). A chosen language other than the
// system's becomes the default locale too, so that dates and numbers read as in that language.
void loadTranslations(QCoreApplication &app, const QString &language)
{
    bool known = true;
    const QString key = UiLanguage::keyOf(language, &known);
    if (!known)
        err(QStringLiteral("ui/language: '%1' is none of system, en, tr, de: following the system").arg(language));
    const QLocale locale = UiLanguage::localeOf(key);
    if (key != QLatin1String("system") && locale.language() != QLocale::system().language())
        QLocale::setDefault(locale);
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app.installTranslator(qt);
    auto *own = new QTranslator(&app);
    if (own->load(locale, QStringLiteral("liaison"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        app.installTranslator(own);
}

// Every connection is a file descriptor: the soft limit (often 1024) would refuse connections long
// before the server's own cap. Raises the soft limit to the hard one; when even that cannot hold
// every thread's connections plus a reserve for the database, logs and the rest, lowers the
// per-thread cap to fit.
int fitConnectionsToFileLimit(int maxConnectionsPerThread, int threads)
{
    constexpr rlim_t kReserve = 256;
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return maxConnectionsPerThread;
    if (limit.rlim_cur != limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    const rlim_t needed = rlim_t(maxConnectionsPerThread) * rlim_t(threads) + kReserve;
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= needed)
        return maxConnectionsPerThread;
    const int fitted = int(std::max<rlim_t>(16, (limit.rlim_cur > kReserve ? limit.rlim_cur - kReserve : 0) / threads));
    qWarning("open files are limited to %llu: at most %d connections per server thread instead of %d",
             static_cast<unsigned long long>(limit.rlim_cur), fitted, maxConnectionsPerThread);
    return fitted;
}

bool prepareServer(Environment &env, const QString &listen, ServerConfig *config)
{
    QString error;
    if (!listen.isEmpty())
        env.settings->addOverride(QStringLiteral("server/listen=") + listen, &error);
    if (!env.settings->serverConfig(config, &error)) {
        err(error);
        return false;
    }
    if (!config->tls)
        qWarning("server/tls=false: the API is served over plain HTTP; credentials cross the network unencrypted");
    else if (!QSslSocket::supportsSsl()) {
        err(QStringLiteral("TLS is not available (OpenSSL backend missing): %1").arg(QSslSocket::activeBackend()));
        return false;
    }
    config->limits.maxConnections = fitConnectionsToFileLimit(config->limits.maxConnections, config->threadCount());
    // Team mode: every copy signs with the keys of the shared database (a token from one copy is
    // good at the others); alone: with the key of the data directory's secret store.
    config->jwtKeysInDatabase = Database::dialect() == Database::Dialect::PostgreSQL;
    if (!config->jwtKeysInDatabase)
        config->jwtKey = env.jwtKey();
    env.fillChannelSecrets(&config->channels);
    // The SMS status callback's signatures (POST /webhooks/sms/status).
    CampaignsConfig campaigns;
    if (env.settings->campaignsConfig(&campaigns, &error) && !campaigns.smsApi.accountSid.isEmpty()) {
        env.fillSmsSecrets(&campaigns.smsApi);
        config->smsAuthToken = campaigns.smsApi.authToken;
        config->smsPublicBaseUrl = campaigns.publicBaseUrl;
    }
    config->channels.mediaDir = QDir(env.settings->dataDir()).filePath(QStringLiteral("media"));
    config->channelRegistry = std::make_shared<ChannelRegistry>(config->channels);
    // The assistant's index of the knowledge base: one for the process, shared by the server
    // threads, the window and the delivery thread's auto-reply.
    config->knowledgeIndex = std::make_shared<KnowledgeIndex>();
    env.fillLanguageModelSecrets(&config->languageModel);
    return true;
}

void printServerHelp(const QString &url, const QString &dataDir)
{
    out(QStringLiteral("Liaison API listening on %1/api/v1").arg(url));
    out(QStringLiteral("Data directory: %1").arg(dataDir));
    out(QStringLiteral(
            "Create an API key with: liaison apikey create --data-dir %1 --name NAME [--scope contacts:read]")
            .arg(dataDir));
    out(QStringLiteral("Then call: curl -k -H 'Authorization: Bearer <key>' %1/api/v1/contacts").arg(url));
}

// The services of the delivery thread. A new scheduler or dispatcher adds its factory here.
// serverUrl: the API server's own URL, the default base of campaign links (empty: no server).
void addDeliveryServices(DeliveryThread &delivery, Environment &env, const Store &store,
                         const std::shared_ptr<ChannelRegistry> &channels, const QString &serverUrl,
                         const ServerConfig &server)
{
    CampaignsConfig campaigns;
    QString campaignsError;
    if (!env.settings->campaignsConfig(&campaigns, &campaignsError)) {
        qWarning("%s; campaigns are not sent", qPrintable(campaignsError));
        campaigns.mail = MailConfig(); // not usable: e-mail and SMS campaigns pause with the reason
        campaigns.smsApi = SmsConfig();
    } else {
        env.fillSmsSecrets(&campaigns.smsApi);
    }
    if (campaigns.publicBaseUrl.isEmpty())
        campaigns.publicBaseUrl = serverUrl;
    env.fillMailSecrets(&campaigns.mail);
    campaigns.whatsapp = channels && channels->isConfigured(QStringLiteral("whatsapp"));
    delivery.addService(CampaignSender::factory(campaigns, store));
    if (channels)
        delivery.addService(ChannelDispatcher::factory(channels, store));
    delivery.addService(BulkExpander::factory(store));
    if (channels && channels->config().telegram.configured()) // getUpdates polling, or setWebhook once
        delivery.addService(
            TelegramPoller::factory(channels->config().telegram, channels->config().timeoutSeconds, store));
    delivery.addService(WebhookDispatcher::factory(env.settings->webhookConfig(), store));
    delivery.addService(TaskScheduler::factory(store, env.settings->tasksTimeZone()));
    delivery.addService(MediaCleaner::factory(store, QDir(env.settings->dataDir()).filePath(QStringLiteral("media"))));
    // The daily backup into DATA/backups (SQLite; a team's PostgreSQL is backed up with pg_dump).
    if (Database::dialect() == Database::Dialect::SQLite)
        delivery.addService(DailyBackup::factory(env.settings->backupPlace(), env.settings->backupKeep()));
    // The inbox's auto-reply, when a channel has one (ai/autoReply/<channel>).
    AutoReplyConfig autoReply;
    QString autoReplyError;
    if (!env.settings->autoReplyConfig(&autoReply, &autoReplyError)) {
        qWarning("%s; the assistant does not answer in the inbox", qPrintable(autoReplyError));
    } else if (std::any_of(autoReply.modes.cbegin(), autoReply.modes.cend(),
                           [](const QString &mode) { return mode != QLatin1String("off"); })) {
        delivery.addService(AssistantAutoReply::factory(
            store, server.knowledgeIndex ? server.knowledgeIndex : std::make_shared<KnowledgeIndex>(), server.assistant,
            server.languageModel, autoReply, channels ? channels : ChannelRegistry::defaults()));
    }
}

// While a restore replaces the data directory's files, nothing may open them.
bool useDataDirectory(DataDirLock &lock, const QString &dataDir)
{
    if (lock.share())
        return true;
    err(QStringLiteral("a restore is replacing the data in %1: start Liaison again when it has finished").arg(dataDir));
    return false;
}

int runServe(Environment &env, const QString &listen)
{
    DataDirLock inUse(env.settings->dataDir());
    if (!useDataDirectory(inUse, env.settings->dataDir()))
        return Failure;
    ServerConfig config;
    if (!prepareServer(env, listen, &config))
        return Failure;
    // Before the listener opens: a client may answer its "listening" line with SIGTERM at once, while
    // the delivery services are still being set up. The request is kept and honoured: reading the
    // secret store runs a local event loop, where the signal arrives and quit() alone (no
    // QCoreApplication::exec() yet) would be lost.
    UnixSignals unixSignals;
    bool terminating = false;
    QObject::connect(&unixSignals, &UnixSignals::terminationRequested, QCoreApplication::instance(),
                     [&terminating](int signal) {
                         qInfo("signal %d: stopping", signal);
                         terminating = true;
                         QCoreApplication::quit();
                     });
    EventBus bus;
    const Store store(bus);
    ChangeFeed otherCopies(bus); // team mode: the changes of the copies sharing the database
    ServerThread server(config, store);
    if (!server.startAndWait()) {
        err(server.errorString());
        return Failure;
    }
    printServerHelp(server.baseUrl(), env.settings->dataDir());
    DeliveryThread delivery;
    addDeliveryServices(delivery, env, store, config.channelRegistry, server.baseUrl(), config);
    delivery.start();
    const int rc = terminating ? 0 : QCoreApplication::exec();
    server.stop();
    delivery.stop();
    Database::closeThreadConnection();
    out(QStringLiteral("Liaison stopped."));
    return rc;
}

// A message before any window: shown until the user closes it (SIGTERM closes it too), then exit
// code 1. The line goes to stderr once SIGTERM is handled, so that whoever reads it may stop the
// program.
int showAndFail(QMessageBox &box, const QString &line)
{
    UnixSignals unixSignals;
    QObject::connect(&unixSignals, &UnixSignals::terminationRequested, &box, [&box] { box.done(QMessageBox::Close); });
    err(line);
    box.exec();
    return Failure;
}

// The window could not open its data (a wrong database/url, a refused connection, a server too old,
// a damaged, empty or read-only SQLite file): the same line as on the command line, in a dialog a
// user sees, then exit code 1.
int showStartFailure(const QString &why, const DatabaseFault &fault, const QString &language)
{
    loadTranslations(*QCoreApplication::instance(), language);
    const StartFailureText words = startFailureText(why, fault);
    QMessageBox box(QMessageBox::Critical, words.title, words.text, QMessageBox::Close);
    box.setObjectName(QStringLiteral("startFailureBox"));
    box.setInformativeText(words.informative);
    return showAndFail(box, why);
}

int runDesktop(Environment &env)
{
    QApplication &app = *qApp;
    initResources();
    QIcon icon;
    for (int size : {16, 32, 48, 64, 256})
        icon.addFile(QStringLiteral(":/icons/liaison-%1.png").arg(size), QSize(size, size));
    app.setWindowIcon(icon);
    app.setDesktopFileName(QStringLiteral("liaison"));
    loadTranslations(app, env.settings->value(QStringLiteral("ui/language")).toString());
    // The look: light or dark as the desktop says (its settings portal, else its GTK theme), unless
    // appearance/theme (Settings → Appearance) fixes one. Before any dialog, the sign-in's too.
    Theme::instance().followDesktop(new DesktopColorScheme(&app));
    bool knownTheme = true;
    const QString themeKey = env.settings->value(QStringLiteral("appearance/theme")).toString();
    Theme::instance().setChoice(Theme::choiceFromKey(themeKey, &knownTheme));
    if (!knownTheme)
        err(QStringLiteral("appearance/theme: '%1' is none of system, light, dark: following the desktop")
                .arg(themeKey));
    // One window a data directory: a second would take the first one's session (a sign-in token
    // is used once) and its API port. It says so and leaves.
    QLockFile windowLock(QDir(env.settings->dataDir()).filePath(QStringLiteral("window.lock")));
    windowLock.setStaleLockTime(0); // never stale by age; the lock of a process that is gone is taken over
    if (!windowLock.tryLock(200)) {
        qint64 pid = 0;
        QString host;
        QString application;
        windowLock.getLockInfo(&pid, &host, &application);
        QMessageBox box(QMessageBox::Information, QCoreApplication::translate("Startup", "Liaison is already open"),
                        QCoreApplication::translate("Startup", "Liaison is already open with this data directory "
                                                               "(%1). Use the window that is open.")
                            .arg(env.settings->dataDir()),
                        QMessageBox::Close);
        box.setObjectName(QStringLiteral("alreadyOpenBox"));
        return showAndFail(box, QStringLiteral("Liaison is already open with the data directory %1 (process %2)")
                                    .arg(env.settings->dataDir())
                                    .arg(pid));
    }
    DataDirLock inUse(env.settings->dataDir());
    if (!useDataDirectory(inUse, env.settings->dataDir()))
        return Failure;
    // SIGTERM and SIGINT end the program cleanly from here on, also while it starts (a session
    // ending, `systemctl stop`): the sign-in dialog closes, and a request that comes before the
    // event loop runs is kept and honoured then. (Taken only once the window was up, a SIGTERM
    // during a slow start killed the program.)
    UnixSignals unixSignals;
    bool terminating = false;
    QObject::connect(&unixSignals, &UnixSignals::terminationRequested, &app, [&app, &terminating] {
        terminating = true;
        // A dialog's own loop ends first (the sign-in before the window, a modal one in it): quit()
        // does nothing before app.exec() runs, and the sign-in would wait for ever.
        for (QWidget *top : QApplication::topLevelWidgets()) {
            if (auto *dialog = qobject_cast<QDialog *>(top); dialog && dialog->isVisible())
                dialog->reject();
        }
        app.quit();
    });
    ServerConfig config;
    const bool configured = prepareServer(env, {}, &config);
    EventBus bus;
    const Store store(bus);      // the server's and the delivery thread's: they name their actors
    ChangeFeed otherCopies(bus); // team mode: the changes of the copies sharing the database
    // Who works in the window (sign-in); the window's store writes as them (notes' createdBy, deal
    // activities, task authors, key owners).
    WindowSession session(store, env.secretStore(), env.sessionSecretName(), config.refreshTokenDays);
    const Store desk = store.actingAs(session.actor());
    const bool onPostgres = Database::dialect() == Database::Dialect::PostgreSQL;
    // Which data the sign-in opens, named: a person with two data folders (or servers) tells them apart.
    const QString where = onPostgres
                              ? QCoreApplication::translate("Startup", "Database: %1")
                                    .arg(env.settings->value(QStringLiteral("database/url")).toString().trimmed())
                              : QCoreApplication::translate("Startup", "Data folder: %1").arg(env.settings->dataDir());
    // The embedded SQLite file with one user signs them in without asking (README, "Signing in").
    if (!signInAtStart(session, where, !onPostgres))
        return Ok;
    ContactRepository contacts(desk);
    ApiKeyRepository apiKeys(desk);
    TaskRepository tasks(desk, env.settings->tasksTimeZone());
    ConversationRepository conversations(desk);
    MainWindow window(apiKeys, desk);
    followSession(window, session, where);
    std::unique_ptr<ServerThread> server;
    // The assistant's knowledge index: one for the process (the server threads', the window's and the
    // auto-reply's), read in memory by whoever asks it.
    if (!config.knowledgeIndex)
        config.knowledgeIndex = std::make_shared<KnowledgeIndex>();
    const std::shared_ptr<KnowledgeIndex> knowledgeIndex = config.knowledgeIndex;
    // What the window holds: app/windowcontents.cpp.
    composeWindow(window, {desk, contacts, apiKeys, tasks, conversations, *env.settings, env.secretStore(),
                           config.channels, config.channelRegistry, config.media,
                           [&config, &server] {
                               return !config.media.publicBaseUrl.isEmpty() ? config.media.publicBaseUrl
                                      : server                              ? server->baseUrl()
                                                                            : QString();
                           },
                           knowledgeIndex});
    // The arrangement the user left: size, splitters, columns (DATA/window.ini).
    (new WindowState(&window, QDir(env.settings->dataDir()).filePath(QStringLiteral("window.ini"))))->restore();
    window.show();
    if (configured) {
        server = std::make_unique<ServerThread>(config, store);
        if (server->startAndWait()) {
            window.setServerStatus(server->baseUrl(), true);
            printServerHelp(server->baseUrl(), env.settings->dataDir());
        } else {
            window.setServerStatus(QString(), false, server->errorString());
            err(server->errorString());
        }
    }
    // An empty data directory (no account yet): the welcome, over the window.
    if (UserRepository(desk).list().isEmpty())
        window.showWelcome();
    DeliveryThread delivery;
    addDeliveryServices(delivery, env, store, config.channelRegistry, server ? server->baseUrl() : QString(), config);
    delivery.start();
    Database::startSnapshotWatchdog(&window);
    if (const QString walkDir = qEnvironmentVariable("LIAISON_UI_WALK"); !walkDir.isEmpty())
        startUiWalk(window, walkDir);
    const int rc = terminating ? 0 : app.exec();
    if (server)
        server->stop();
    delivery.stop();
    Database::closeThreadConnection();
    return rc;
}

int runUserAdd(const QCommandLineParser &p)
{
    const QString email = p.value(QStringLiteral("email"));
    const QString name = p.value(QStringLiteral("name"));
    if (email.isEmpty() || name.isEmpty()) {
        err(QStringLiteral("user add needs --email and --name"));
        return Usage;
    }
    QTextStream in(stdin);
    const QString password = in.readLine();
    if (password.size() < 8) {
        err(QStringLiteral("the password (read from standard input) must have at least 8 characters"));
        return Failure;
    }
    try {
        EventBus bus; // no one listens in this process
        const User u = UserRepository(Store(bus))
                           .create(email, name, p.value(QStringLiteral("role")), PasswordHasher::hash(password));
        out(QStringLiteral("Added user %1 <%2> (%3) as %4").arg(u.name, u.email, u.role, u.id));
        return Ok;
    } catch (const DomainError &e) {
        err(e.message());
        return Failure;
    }
}

int runUserActive(const QCommandLineParser &p, bool active)
{
    const QString email = p.value(QStringLiteral("email"));
    EventBus bus; // no one listens in this process
    UserRepository users{Store(bus)};
    const std::optional<User> found = users.findByEmail(email);
    if (!found) {
        err(QStringLiteral("no user with the e-mail %1").arg(email));
        return Failure;
    }
    try {
        const User u = users.setActive(found->id, active);
        out(QStringLiteral("%1 <%2> is %3")
                .arg(u.name, u.email,
                     u.isActive() ? QStringLiteral("active: they can sign in")
                                  : QStringLiteral("deactivated: sign-in, tokens and "
                                                   "API keys are refused")));
        return Ok;
    } catch (const DomainError &e) {
        err(e.message());
        return Failure;
    }
}

int runApiKey(const QString &verb, const QCommandLineParser &p)
{
    EventBus bus; // no one listens in this process
    const Store store(bus);
    ApiKeyRepository keys(store);
    try {
        if (verb == QLatin1String("create")) {
            if (p.value(QStringLiteral("name")).isEmpty()) {
                err(QStringLiteral("apikey create needs --name"));
                return Usage;
            }
            // The key belongs to a user and acts with that user's role.
            const UserRepository users(store);
            const QString email = p.value(QStringLiteral("user"));
            const std::optional<User> owner = email.isEmpty() ? users.firstAdmin() : users.findByEmail(email);
            if (!email.isEmpty() && !owner) {
                err(QStringLiteral("no user with the e-mail %1 (liaison user add makes one)").arg(email));
                return Failure;
            }
            const NewApiKey k = keys.create(p.value(QStringLiteral("name")), p.values(QStringLiteral("scope")),
                                            owner ? owner->id : QString());
            out(QStringLiteral("Created API key %1 \"%2\" with scopes %3, owned by %4.")
                    .arg(k.key.id, k.key.name, k.key.scopes.join(QLatin1Char(' ')),
                         owner ? QStringLiteral("%1 <%2> (%3)").arg(owner->name, owner->email, owner->role)
                               : QStringLiteral("no user (there is no admin yet): it acts as an admin")));
            out(QStringLiteral("Store it now: it is not shown again."));
            out(k.secret);
        } else if (verb == QLatin1String("list")) {
            out(QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                    .arg(QStringLiteral("ID"), -34)
                    .arg(QStringLiteral("NAME"), -20)
                    .arg(QStringLiteral("PREFIX"), -12)
                    .arg(QStringLiteral("STATE"), -8)
                    .arg(QStringLiteral("CREATED"), -25)
                    .arg(QStringLiteral("OWNER"), -32)
                    .arg(QStringLiteral("SCOPES")));
            for (const ApiKey &k : keys.list()) {
                out(QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                        .arg(k.id, -34)
                        .arg(k.name, -20)
                        .arg(k.prefix + QStringLiteral("…"), -12)
                        .arg(k.isRevoked() ? QStringLiteral("revoked") : QStringLiteral("active"), -8)
                        .arg(k.createdAt, -25)
                        .arg(k.createdBy.isEmpty() ? QStringLiteral("-") : k.createdBy, -32)
                        .arg(k.scopes.join(QLatin1Char(' '))));
            }
        } else {
            keys.revoke(p.positionalArguments().value(2));
            out(QStringLiteral("Revoked %1").arg(p.positionalArguments().value(2)));
        }
        return Ok;
    } catch (const DomainError &e) {
        err(e.message());
        return Failure;
    }
}
} // namespace

int runJwtRotate(Environment &env)
{
    try {
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            ServerConfig config;
            QString error;
            if (!env.settings->serverConfig(&config, &error)) {
                err(error);
                return Failure;
            }
            EventBus bus; // no one listens in this process
            const QDateTime now = Store(bus).now();
            SigningKeyRepository::load(now); // the first key, if no copy has started yet
            const qint64 grace = ApiServer::replacedKeyGraceSeconds(config.accessTokenMinutes);
            const SigningKey k = SigningKeyRepository::rotate(now, grace);
            out(QStringLiteral("New signing key %1: every copy signs access tokens with it from %2; the keys it "
                               "replaces are accepted until %3.")
                    .arg(k.id, TimeUtil::iso(k.notBefore), TimeUtil::iso(k.notBefore.addSecs(grace))));
            return Ok;
        }
        env.secretStore();
        if (!env.replaceJwtKey()) {
            err(QStringLiteral("the new signing key could not be written to the secret store"));
            return Failure;
        }
        out(QStringLiteral("New signing key stored: it is used from the next start of Liaison; access tokens signed "
                           "before are refused then (clients get new ones with their refresh tokens)."));
        return Ok;
    } catch (const std::exception &e) {
        err(QString::fromUtf8(e.what()));
        return Failure;
    }
}

int runDbCheck(const Environment &env)
{
    try {
        // SQLite: integrity_check ran before the database was opened (a damaged file stops there).
        if (env.checkReport.ran)
            out(QStringLiteral("%1: ok (%2 ms)").arg(env.checkReport.check).arg(env.checkReport.elapsedMs));
        const int version = Database::schemaVersion();
        const int latest = migrations().constLast().version;
        out(QStringLiteral("database: %1 %2")
                .arg(Database::dialect() == Database::Dialect::PostgreSQL ? QStringLiteral("PostgreSQL")
                                                                          : QStringLiteral("SQLite"),
                     Database::location()));
        out(QStringLiteral("schema version: %1 (this program: %2)").arg(version).arg(latest));
        for (const QString &table : Database::tables())
            out(QStringLiteral("  %1 %2").arg(table, -24).arg(Database::rowCount(table)));
        if (version > latest) {
            err(QStringLiteral("the database was migrated by a newer Liaison (schema %1); update this copy")
                    .arg(version));
            return Failure;
        }
    } catch (const std::exception &e) {
        err(QStringLiteral("database: %1").arg(QString::fromUtf8(e.what())));
        return Failure;
    }
    return Ok;
}

int runDbMigrateTo(Environment &env, const QString &urlText)
{
    QString error;
    const std::optional<DatabaseUrl> url = DatabaseUrl::parse(urlText, &error);
    if (!url) {
        err(QStringLiteral("db migrate-to: %1").arg(error));
        return Usage;
    }
    const QString file = Database::path();
    try {
        QElapsedTimer timer;
        timer.start();
        // What PostgreSQL holds and the file does not: the search words, and the uploads' bytes
        // (DATA/media), so that every copy on the database serves them.
        const QString mediaDir = QDir(env.settings->dataDir()).filePath(QStringLiteral("media"));
        int mediaFiles = 0;
        const QVector<DatabaseCopy::TableRows> copied =
            DatabaseCopy::sqliteToPostgres(file, *url, env.databasePassword(), [&mediaDir, &mediaFiles] {
                ContactRepository::rebuildSearch();
                mediaFiles = MediaRepository::copyFilesIntoDatabase(mediaDir);
            });
        qint64 rows = 0;
        for (const DatabaseCopy::TableRows &t : copied) {
            out(QStringLiteral("  %1 %2").arg(t.table, -24).arg(t.rows));
            rows += t.rows;
        }
        out(QStringLiteral("copied %1 rows of %2 tables and %3 media files from %4 to %5 in %6 s; every table's "
                           "rows match")
                .arg(rows)
                .arg(copied.size())
                .arg(mediaFiles)
                .arg(file, url->toString())
                .arg(timer.elapsed() / 1000.0, 0, 'f', 1));
        out(QStringLiteral("to use it, set database/url=%1 (and secrets/database.password) on every copy")
                .arg(url->toString()));
    } catch (const std::exception &e) {
        err(QStringLiteral("db migrate-to: %1").arg(QString::fromUtf8(e.what())));
        return Failure;
    }
    return Ok;
}

// Team mode's backups are PostgreSQL's own: the words to use for the database of database/url
// (the media are in the database there). Nothing is opened; exit code 2 tells a script that no file
// was written.
int printPostgresBackupCommand(const QString &urlText, const QString &file, bool restore)
{
    QString error;
    const std::optional<DatabaseUrl> url = DatabaseUrl::parse(urlText, &error);
    if (!url) {
        err(QStringLiteral("setting database/url: %1").arg(error));
        return Failure;
    }
    auto quoted = [](QString text) {
        return QLatin1Char('\'') + text.replace(QLatin1Char('\''), QLatin1String("'\\''")) + QLatin1Char('\'');
    };
    if (restore) {
        err(QStringLiteral("this data directory uses PostgreSQL (team mode): restore its database with pg_restore, "
                           "with every copy of Liaison stopped (the password as for pg_dump):"));
        out(QStringLiteral("pg_restore --clean --if-exists --no-owner --dbname=%1 %2")
                .arg(quoted(url->toString()), quoted(file)));
    } else {
        err(QStringLiteral("this data directory uses PostgreSQL (team mode): back its database up with pg_dump, which "
                           "holds the uploaded media too (the password from ~/.pgpass or PGPASSWORD):"));
        out(QStringLiteral("pg_dump --format=custom --file=%1 --dbname=%2").arg(quoted(file), quoted(url->toString())));
    }
    return Usage;
}

int runBackup(const AppSettings &settings, const QString &target, bool force)
{
    const QString url = settings.value(QStringLiteral("database/url")).toString().trimmed();
    if (!url.isEmpty())
        return printPostgresBackupCommand(url, target, false);
    QString file = QFileInfo(target).absoluteFilePath();
    if (QFileInfo(file).isDir())
        file =
            QDir(file).filePath(QStringLiteral("liaison-%1.tar.gz")
                                    .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd-HHmmss"))));
    else if (QFileInfo::exists(file) && !force) {
        err(QStringLiteral("%1 exists: choose another name, or add --force to replace it").arg(file));
        return Failure;
    }
    try {
        const Backup::Made m = Backup::create(settings.backupPlace(), file);
        out(QStringLiteral("Backed up the database (%1, schema %2) and %3 media files (%4) into %5 (%6) in %7 s.")
                .arg(QLocale::c().formattedDataSize(m.databaseBytes))
                .arg(m.schemaVersion)
                .arg(m.mediaFiles)
                .arg(QLocale::c().formattedDataSize(m.mediaBytes), m.file, QLocale::c().formattedDataSize(m.bytes))
                .arg(m.elapsedMs / 1000.0, 0, 'f', 1));
        return Ok;
    } catch (const DomainError &e) {
        err(e.message());
        return Failure;
    } catch (const std::exception &e) {
        err(QStringLiteral("backup: %1").arg(QString::fromUtf8(e.what())));
        return Failure;
    }
}

int runRestore(const AppSettings &settings, const QString &archive, bool force)
{
    const QString url = settings.value(QStringLiteral("database/url")).toString().trimmed();
    if (!url.isEmpty())
        return printPostgresBackupCommand(url, archive, true);
    if (!QFileInfo(archive).isFile()) {
        err(QStringLiteral("%1 is not a file").arg(archive));
        return Failure;
    }
    const QString dataDir = settings.dataDir();
    if (!QDir().mkpath(dataDir)) {
        err(QStringLiteral("cannot create data directory %1").arg(dataDir));
        return Failure;
    }
    DataDirLock lock(dataDir);
    if (!lock.takeExclusive()) {
        err(lock.error().isEmpty() ? QStringLiteral("Liaison is running with the data directory %1: stop it (close "
                                                    "the window, stop liaison serve), then restore")
                                         .arg(dataDir)
                                   : lock.error());
        return Failure;
    }
    try {
        const Backup::Restored r =
            Backup::restore(QFileInfo(archive).absoluteFilePath(), settings.backupPlace(), force);
        out(QStringLiteral("Restored %1 (made %2, schema %3): the database (%4) and %5 media files, into %6.")
                .arg(archive, r.manifest.createdAt)
                .arg(r.manifest.schemaVersion)
                .arg(QLocale::c().formattedDataSize(r.databaseBytes))
                .arg(r.mediaFiles)
                .arg(dataDir));
        if (!r.replacedDir.isEmpty())
            out(QStringLiteral("The database and media it replaced are in %1; delete that folder once you no longer "
                               "need them.")
                    .arg(r.replacedDir));
        return Ok;
    } catch (const DomainError &e) {
        err(e.message());
        return Failure;
    } catch (const std::exception &e) {
        err(QStringLiteral("restore: %1").arg(QString::fromUtf8(e.what())));
        return Failure;
    }
}

int liaisonMain(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("liaison"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LIAISON_VERSION));
    if (qEnvironmentVariableIsEmpty("QT_MESSAGE_PATTERN")) {
        qInstallMessageHandler(handleMessage);
        ApiServer::setRequestLogSink(writeLogLine);
    }
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    // Hidden: the manual page in roff, which the build installs as liaison(1).
    if (args.size() == 2 && args.at(1) == QLatin1String("--help-man")) {
        fputs(manPage().toUtf8().constData(), stdout);
        return Ok;
    }

    // The command is the leading words that are not options (or option values).
    QStringList words;
    for (int i = 1; i < args.size() && words.size() < 2; ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--data-dir") || a == QLatin1String("--set") || a == QLatin1String("--listen") ||
            a == QLatin1String("--email") || a == QLatin1String("--name") || a == QLatin1String("--role") ||
            a == QLatin1String("--scope") || a == QLatin1String("--user")) {
            ++i;
            continue;
        }
        if (a.startsWith(QLatin1Char('-')))
            continue;
        words << a;
    }
    const QList<Command> all = commands();
    const Command *command = nullptr;
    for (const Command &c : all) {
        if (!c.words.isEmpty() && words.mid(0, c.words.size()) == c.words)
            command = &c;
    }
    if (!command) {
        if (!words.isEmpty() && words.first() != QLatin1String("apikey") && words.first() != QLatin1String("user") &&
            words.first() != QLatin1String("db") && words.first() != QLatin1String("jwt")) {
            err(QStringLiteral("unknown command '%1' (see liaison --help)").arg(words.first()));
            return Usage;
        }
        if (!words.isEmpty()) {
            const bool help = args.contains(QLatin1String("--help")) || args.contains(QLatin1String("-h"));
            if (help) {
                for (const Command &c : all) {
                    if (c.words.value(0) == words.first())
                        out(usageOf(c));
                }
                return Ok;
            }
            const QString first = words.first();
            err(QStringLiteral("'%1' needs a subcommand: %2")
                    .arg(first, first == QLatin1String("user")  ? QStringLiteral("add, deactivate or activate")
                                : first == QLatin1String("db")  ? QStringLiteral("check or migrate-to")
                                : first == QLatin1String("jwt") ? QStringLiteral("rotate")
                                                                : QStringLiteral("create, list or revoke")));
            return Usage;
        }
        command = &all.first();
    }

    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(command->options);
    parser.addOptions(commonOptions());
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")});
    const QCommandLineOption version(QStringList{QStringLiteral("v"), QStringLiteral("version")});
    parser.addOption(help);
    parser.addOption(version);
    if (!parser.parse(args)) {
        err(parser.errorText());
        return Usage;
    }
    if (parser.isSet(help)) {
        out(usageOf(*command));
        return Ok;
    }
    if (parser.isSet(version)) {
        out(QStringLiteral("liaison " LIAISON_VERSION));
        return Ok;
    }
    const qsizetype expected = command->words.size() + (command->positional.isEmpty() ? 0 : 1);
    if (parser.positionalArguments().size() != expected) {
        if (parser.positionalArguments().size() < expected)
            err(QStringLiteral("%1 needs %2").arg(command->words.join(QLatin1Char(' ')), command->positional));
        else
            err(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().value(expected)));
        return Usage;
    }

    QString dataDir = parser.value(QStringLiteral("data-dir"));
    if (dataDir.isEmpty())
        dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    dataDir = QDir(dataDir).absolutePath();

    // Usage errors are found before anything is created in the data directory.
    if (command->words == QStringList{QStringLiteral("user"), QStringLiteral("add")} &&
        (parser.value(QStringLiteral("email")).isEmpty() || parser.value(QStringLiteral("name")).isEmpty())) {
        err(QStringLiteral("user add needs --email and --name"));
        return Usage;
    }
    if (command->words.value(0) == QLatin1String("user") && command->words.value(1) != QLatin1String("add") &&
        parser.value(QStringLiteral("email")).isEmpty()) {
        err(QStringLiteral("user %1 needs --email").arg(command->words.value(1)));
        return Usage;
    }
    if (command->words == QStringList{QStringLiteral("apikey"), QStringLiteral("create")} &&
        parser.value(QStringLiteral("name")).isEmpty()) {
        err(QStringLiteral("apikey create needs --name"));
        return Usage;
    }

    const QString first = command->words.value(0);
    const bool migrateTo = command->words == QStringList{QStringLiteral("db"), QStringLiteral("migrate-to")};
    const bool window = first.isEmpty() && hasDisplay();
    // The application object comes first: the secret store reaches the keychain through it (the
    // PostgreSQL password is read while the database opens).
    const std::unique_ptr<QCoreApplication> app =
        window ? std::make_unique<QApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    if (first == QLatin1String("backup") || first == QLatin1String("restore")) {
        // Neither opens the database through Database: a backup copies it as it is (a running
        // server migrated it), a restore replaces it.
        AppSettings settings(dataDir);
        for (const QString &a : parser.values(QStringLiteral("set"))) {
            QString error;
            if (!settings.addOverride(a, &error)) {
                err(error);
                return Usage;
            }
        }
        const bool force = parser.isSet(QStringLiteral("force"));
        return first == QLatin1String("backup") ? runBackup(settings, parser.positionalArguments().constLast(), force)
                                                : runRestore(settings, parser.positionalArguments().constLast(), force);
    }
    Environment env;
    env.printsErrors = !window;
    if (first == QLatin1String("db"))
        env.startCheck = migrateTo ? DatabaseCheck::Depth::AtStart : DatabaseCheck::Depth::Integrity;
    else if (first.isEmpty() || first == QLatin1String("serve"))
        env.startCheck = DatabaseCheck::Depth::AtStart;
    if (!env.open(dataDir, parser.values(QStringLiteral("set")), migrateTo))
        return window ? showStartFailure(env.error, env.fault,
                                         env.settings ? env.settings->value(QStringLiteral("ui/language")).toString()
                                                      : QString())
                      : Failure;
    if (first == QLatin1String("db"))
        return migrateTo ? runDbMigrateTo(env, parser.positionalArguments().constLast()) : runDbCheck(env);
    if (first.isEmpty()) {
        if (!window) {
            fprintf(stderr, "liaison: no display found (DISPLAY/WAYLAND_DISPLAY unset): running the server only, "
                            "as 'liaison serve'\n");
            return runServe(env, {});
        }
        return runDesktop(env);
    }
    if (first == QLatin1String("serve"))
        return runServe(env, parser.value(QStringLiteral("listen")));
    if (first == QLatin1String("jwt"))
        return runJwtRotate(env);
    if (first == QLatin1String("user"))
        return command->words.value(1) == QLatin1String("add")
                   ? runUserAdd(parser)
                   : runUserActive(parser, command->words.value(1) == QLatin1String("activate"));
    return runApiKey(command->words.value(1), parser);
}
