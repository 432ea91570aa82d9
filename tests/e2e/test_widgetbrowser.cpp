// The web widget in a real browser: Debian's headless Chromium opens the chat page of a TestServer
// (HTTPS, its throwaway certificate accepted with --ignore-certificate-errors), the visitor starts a
// chat and sends a message through the page's own UI code (input filled, buttons clicked), the test
// checks over the API that the conversation got it, answers through the API, and checks that the page
// shows the answer live (escaped, not as HTML); a reload continues the same conversation; the embed
// script puts its button on a page and opens the chat in an iframe.
//
// The test drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in,
// fd 4 out, NUL-terminated JSON), so it needs no extra port and no WebSocket client. Every wait is
// bounded; Chromium is closed (or killed) at the end. Without the chromium binary the test FAILS.
#include "server/controllers/widgetevents.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QProcess>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

#include <memory>

namespace {

QString findChromium()
{
    const QString fromEnv = qEnvironmentVariable("LIAISON_CHROMIUM");
    if (!fromEnv.isEmpty())
        return QStandardPaths::findExecutable(fromEnv).isEmpty() ? fromEnv : QStandardPaths::findExecutable(fromEnv);
    for (const char *name : {"chromium", "chromium-browser"}) {
        const QString path = QStandardPaths::findExecutable(QLatin1String(name));
        if (!path.isEmpty())
            return path;
    }
    return {};
}

// Chromium with its DevTools protocol on a pipe.
class Browser
{
public:
    ~Browser() { stop(); }

    bool start(const QString &binary, const QString &profileDir, QString *error)
    {
        int toChrome[2];
        int fromChrome[2];
        if (::pipe2(toChrome, O_CLOEXEC) != 0 || ::pipe2(fromChrome, O_CLOEXEC) != 0) {
            *error = QStringLiteral("pipe() failed");
            return false;
        }
        m_write = toChrome[1];
        m_read = fromChrome[0];
        const int childRead = toChrome[0];
        const int childWrite = fromChrome[1];
        // In the child: the protocol pipe on fds 3 and 4 (copies without FD_CLOEXEC).
        m_process.setChildProcessModifier([childRead, childWrite] {
            const int r = ::fcntl(childRead, F_DUPFD, 10);
            const int w = ::fcntl(childWrite, F_DUPFD, 10);
            ::dup2(r, 3);
            ::dup2(w, 4);
        });
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_process, &QProcess::readyRead, [this] {
            m_log += m_process.readAll();
            if (m_log.size() > 64 * 1024)
                m_log = m_log.right(32 * 1024);
        });
        m_process.start(binary, {QStringLiteral("--headless=new"), QStringLiteral("--no-sandbox"),
                                 QStringLiteral("--disable-gpu"), QStringLiteral("--user-data-dir=") + profileDir,
                                 QStringLiteral("--ignore-certificate-errors"),
                                 QStringLiteral("--remote-debugging-pipe"), QStringLiteral("--no-first-run"),
                                 QStringLiteral("--no-default-browser-check"), QStringLiteral("--disable-extensions"),
                                 QStringLiteral("--disable-sync"), QStringLiteral("--disable-background-networking"),
                                 QStringLiteral("--disable-component-update"), QStringLiteral("--mute-audio"),
                                 QStringLiteral("--password-store=basic"), QStringLiteral("about:blank")});
        const bool started = m_process.waitForStarted(10000);
        ::close(childRead);
        ::close(childWrite);
        if (!started) {
            *error = QStringLiteral("chromium did not start: %1").arg(m_process.errorString());
            return false;
        }
        ::fcntl(m_read, F_SETFL, ::fcntl(m_read, F_GETFL) | O_NONBLOCK);
        m_notifier = std::make_unique<QSocketNotifier>(m_read, QSocketNotifier::Read);
        QObject::connect(m_notifier.get(), &QSocketNotifier::activated, [this] { readPipe(); });
        return true;
    }

    void stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            if (m_write >= 0)
                send(QStringLiteral("Browser.close"), {}, {});
            if (!m_process.waitForFinished(5000)) {
                m_process.kill();
                m_process.waitForFinished(5000);
            }
        }
        m_notifier.reset();
        if (m_write >= 0)
            ::close(m_write);
        if (m_read >= 0)
            ::close(m_read);
        m_write = m_read = -1;
    }

    QString log() const { return QString::fromLocal8Bit(m_log.right(4000)); }

    // Sends a command; returns its id.
    int send(const QString &method, const QJsonObject &params, const QString &sessionId)
    {
        const int id = m_nextId++;
        QJsonObject message{
            {QStringLiteral("id"), id}, {QStringLiteral("method"), method}, {QStringLiteral("params"), params}};
        if (!sessionId.isEmpty())
            message.insert(QStringLiteral("sessionId"), sessionId);
        QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
        bytes.append('\0');
        qsizetype done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::write(m_write, bytes.constData() + done, size_t(bytes.size() - done));
            if (n <= 0)
                break;
            done += n;
        }
        return id;
    }

    // A command's result (the "result" object); nullopt on an error answer or after timeoutMs.
    std::optional<QJsonObject> call(const QString &method, const QJsonObject &params = {},
                                    const QString &sessionId = {}, int timeoutMs = 10000)
    {
        const int id = send(method, params, sessionId);
        (void)QTest::qWaitFor([&] { return m_answers.contains(id) || m_process.state() == QProcess::NotRunning; },
                              timeoutMs);
        if (!m_answers.contains(id))
            return std::nullopt;
        const QJsonObject answer = m_answers.take(id);
        if (answer.contains(QLatin1String("error"))) {
            qWarning() << method << "failed:" << answer.value(QLatin1String("error")).toObject();
            return std::nullopt;
        }
        return answer.value(QLatin1String("result")).toObject();
    }

private:
    void readPipe()
    {
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(m_read, buf, sizeof buf);
            if (n <= 0)
                break;
            m_in.append(buf, n);
        }
        qsizetype end;
        while ((end = m_in.indexOf('\0')) >= 0) {
            const QJsonObject message = QJsonDocument::fromJson(m_in.left(end)).object();
            m_in.remove(0, end + 1);
            if (message.contains(QLatin1String("id")))
                m_answers.insert(message.value(QLatin1String("id")).toInt(), message);
        }
    }

    QProcess m_process;
    int m_write = -1;
    int m_read = -1;
    std::unique_ptr<QSocketNotifier> m_notifier;
    QByteArray m_in;
    QByteArray m_log;
    QHash<int, QJsonObject> m_answers;
    int m_nextId = 1;
};

// One page (tab) of the browser.
class Page
{
public:
    Page(Browser &browser, QString sessionId)
        : m_browser(browser)
        , m_session(std::move(sessionId))
    {
    }

    // Evaluates a JS expression (promises awaited) and returns its value.
    QJsonValue eval(const QString &expression)
    {
        const std::optional<QJsonObject> r = m_browser.call(QStringLiteral("Runtime.evaluate"),
                                                            {{QStringLiteral("expression"), expression},
                                                             {QStringLiteral("returnByValue"), true},
                                                             {QStringLiteral("awaitPromise"), true},
                                                             {QStringLiteral("userGesture"), true}},
                                                            m_session);
        if (!r)
            return QJsonValue::Undefined;
        if (r->contains(QLatin1String("exceptionDetails")))
            return QJsonValue::Undefined;
        return r->value(QLatin1String("result")).toObject().value(QLatin1String("value"));
    }

    // Polls the expression until it is true; false after timeoutMs.
    bool waitUntil(const QString &expression, int timeoutMs = 10000)
    {
        return QTest::qWaitFor([&] { return eval(expression).toBool(); }, timeoutMs);
    }

private:
    Browser &m_browser;
    QString m_session;
};

QString jsString(const QString &s)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

} // namespace

class TestWidgetBrowser final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Page> open(Browser &browser, const QString &url)
    {
        const std::optional<QJsonObject> target =
            browser.call(QStringLiteral("Target.createTarget"), {{QStringLiteral("url"), url}});
        if (!target)
            return nullptr;
        const std::optional<QJsonObject> attached =
            browser.call(QStringLiteral("Target.attachToTarget"),
                         {{QStringLiteral("targetId"), target->value(QLatin1String("targetId"))},
                          {QStringLiteral("flatten"), true}});
        if (!attached)
            return nullptr;
        return std::make_unique<Page>(browser, attached->value(QLatin1String("sessionId")).toString());
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void visitorChatsWithAnAgentLive()
    {
        const QString chromium = findChromium();
        if (chromium.isEmpty())
            QFAIL("The chromium binary is missing: install Debian's `chromium` package (listed in "
                  "scripts/debian-packages.txt; `make test` installs it) or set LIAISON_CHROMIUM.");

        TempDatabase db;
        TestServer server(db.dir());
        ApiClient agent(server.baseUrl(), server.certificate());
        agent.setToken(server.createApiKey());
        const QString base = server.baseUrl();

        QTemporaryDir profile;
        QVERIFY(profile.isValid());
        Browser browser;
        QString error;
        QVERIFY2(browser.start(chromium, profile.path(), &error), qPrintable(error));
        std::unique_ptr<Page> page = open(browser, base + QStringLiteral("/widget"));
        QVERIFY2(page, qPrintable(QStringLiteral("no DevTools session; chromium said:\n") + browser.log()));

        // The start form: an optional name, then "Start chat".
        QVERIFY2(page->waitUntil(QStringLiteral("document.readyState === 'complete' && "
                                                "!document.getElementById('start').hidden")),
                 qPrintable(browser.log()));
        QVERIFY(page->eval(QStringLiteral("document.getElementById('name').value = 'Browser Visitor';"
                                          "document.getElementById('start-button').click(); true"))
                    .toBool());
        QVERIFY(page->waitUntil(QStringLiteral("!document.getElementById('chat').hidden")));
        QVERIFY(page->eval(QStringLiteral("!!localStorage.getItem('liaison.widget.token')")).toBool());
        // its event stream is open before the agent answers
        QTRY_VERIFY_WITH_TIMEOUT(server.server().shared().widget.streams.open() >= 1, 10000);

        // The visitor writes and presses Send.
        const QString visitorText = QStringLiteral("Hello from Chromium <i>really</i>");
        QVERIFY(page->eval(QStringLiteral("document.getElementById('text').value = %1;"
                                          "document.getElementById('send').click(); true")
                               .arg(jsString(visitorText)))
                    .toBool());
        QVERIFY(page->waitUntil(QStringLiteral("document.querySelectorAll('#thread .msg.own').length === 1")));
        QCOMPARE(
            page->eval(QStringLiteral("document.querySelector('#thread .msg.own .bubble').textContent")).toString(),
            visitorText);

        // Over the API: one widget conversation, holding the visitor's message.
        HttpResult r = agent.get(QStringLiteral("/api/v1/conversations?channel=widget"));
        QCOMPARE(r.status, 200);
        const QJsonArray conversations = r.json.value(QLatin1String("data")).toArray();
        QCOMPARE(conversations.size(), 1);
        const QString conv = conversations.first().toObject().value(QLatin1String("id")).toString();
        r = agent.get(QStringLiteral("/api/v1/conversations/%1/messages").arg(conv));
        QCOMPARE(r.status, 200);
        const QJsonArray messages = r.json.value(QLatin1String("data")).toArray();
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.first().toObject().value(QLatin1String("text")).toString(), visitorText);
        QCOMPARE(messages.first().toObject().value(QLatin1String("direction")).toString(), QStringLiteral("incoming"));

        // The agent answers through the API; the page shows it live, as text.
        const QString answer = QStringLiteral("Hi! <img src=x onerror=\"document.title='pwned'\"> How can I help?");
        r = agent.post(QStringLiteral("/api/v1/conversations/%1/messages").arg(conv),
                       {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), answer}});
        QCOMPARE(r.status, 201);
        QVERIFY2(page->waitUntil(QStringLiteral("[...document.querySelectorAll('#thread .msg.agent .bubble')]"
                                                ".some(b => b.textContent === %1)")
                                     .arg(jsString(answer)),
                                 10000),
                 "the agent's answer did not appear on the page");
        QCOMPARE(page->eval(QStringLiteral("document.querySelectorAll('#thread img').length")).toInt(-1), 0);
        QVERIFY(page->eval(QStringLiteral("document.title")).toString() != QLatin1String("pwned"));
        // shown to the visitor: delivered
        r = agent.get(QStringLiteral("/api/v1/messages/%1/status").arg(r.data().value(QLatin1String("id")).toString()));
        QCOMPARE(r.data().value(QLatin1String("status")).toString(), QStringLiteral("delivered"));

        // A reload continues the same conversation (the token is kept in localStorage).
        page->eval(QStringLiteral("location.reload(); true"));
        QVERIFY(page->waitUntil(QStringLiteral("document.readyState === 'complete' && "
                                               "!document.getElementById('chat').hidden && "
                                               "document.querySelectorAll('#thread .msg').length === 2")));
        r = agent.get(QStringLiteral("/api/v1/conversations?channel=widget"));
        QCOMPARE(r.json.value(QLatin1String("data")).toArray().size(), 1);

        // The embed script on another page: a chat button that opens the widget in an iframe.
        std::unique_ptr<Page> site = open(browser, QStringLiteral("about:blank"));
        QVERIFY(site);
        QVERIFY(site->eval(QStringLiteral("const s = document.createElement('script'); s.async = true;"
                                          "s.src = %1; document.head.appendChild(s); true")
                               .arg(jsString(base + QStringLiteral("/widget/embed.js"))))
                    .toBool());
        QVERIFY(site->waitUntil(QStringLiteral("!!document.querySelector('button[aria-label=\"Open chat\"]')")));
        site->eval(QStringLiteral("document.querySelector('button[aria-label=\"Open chat\"]').click(); true"));
        QVERIFY(site->waitUntil(QStringLiteral("!!document.querySelector('iframe') && "
                                               "document.querySelector('iframe').src === %1")
                                    .arg(jsString(base + QStringLiteral("/widget")))));

        browser.stop();
    }

    void anAnonymousVisitorSaysWhoTheyAreLater()
    {
        const QString chromium = findChromium();
        if (chromium.isEmpty())
            QFAIL("The chromium binary is missing: install Debian's `chromium` package or set LIAISON_CHROMIUM.");
        TempDatabase db;
        TestServer server(db.dir());
        ApiClient agent(server.baseUrl(), server.certificate());
        agent.setToken(server.createApiKey());
        QTemporaryDir profile;
        QVERIFY(profile.isValid());
        Browser browser;
        QString error;
        QVERIFY2(browser.start(chromium, profile.path(), &error), qPrintable(error));
        std::unique_ptr<Page> page = open(browser, server.baseUrl() + QStringLiteral("/widget"));
        QVERIFY2(page, qPrintable(browser.log()));
        QVERIFY(page->waitUntil(QStringLiteral("document.readyState === 'complete' && "
                                               "!document.getElementById('start').hidden")));
        // Started without a name or e-mail: no contact, and the page offers to say who they are.
        page->eval(QStringLiteral("document.getElementById('start-button').click(); true"));
        QVERIFY(page->waitUntil(QStringLiteral("!document.getElementById('chat').hidden")));
        QVERIFY(page->waitUntil(QStringLiteral("!document.getElementById('identify').hidden")));
        auto contacts = [&] {
            return agent.get(QStringLiteral("/api/v1/contacts"))
                .json.value(QLatin1String("pagination"))
                .toObject()
                .value(QLatin1String("total"))
                .toInt(-1);
        };
        QCOMPARE(contacts(), 0);
        HttpResult r = agent.get(QStringLiteral("/api/v1/conversations?channel=widget"));
        const QJsonObject item = r.json.value(QLatin1String("data")).toArray().first().toObject();
        QVERIFY(item.value(QLatin1String("contactId")).isNull());
        const QString conv = item.value(QLatin1String("id")).toString();

        // A phone that is no phone number is refused on the page; then name and e-mail are saved.
        page->eval(QStringLiteral("document.getElementById('identify').open = true;"
                                  "document.getElementById('identify-phone').value = '12';"
                                  "document.getElementById('identify-button').click(); true"));
        QVERIFY(page->waitUntil(QStringLiteral("document.getElementById('identify-error').textContent !== ''")));
        page->eval(QStringLiteral("document.getElementById('identify-phone').value = '';"
                                  "document.getElementById('identify-name').value = 'Deniz Kaya';"
                                  "document.getElementById('identify-email').value = 'deniz@example.com';"
                                  "document.getElementById('identify-button').click(); true"));
        QVERIFY(page->waitUntil(QStringLiteral("document.getElementById('identify').hidden")));
        QCOMPARE(contacts(), 1);
        r = agent.get(QStringLiteral("/api/v1/conversations/") + conv);
        QCOMPARE(r.data().value(QLatin1String("contact")).toObject().value(QLatin1String("firstName")).toString(),
                 QStringLiteral("Deniz Kaya"));
        // A reload keeps it said.
        page->eval(QStringLiteral("location.reload(); true"));
        QVERIFY(page->waitUntil(QStringLiteral("document.readyState === 'complete' && "
                                               "!document.getElementById('chat').hidden")));
        QVERIFY(page->eval(QStringLiteral("document.getElementById('identify').hidden")).toBool());
        browser.stop();
    }
};

QTEST_GUILESS_MAIN(TestWidgetBrowser)
#include "test_widgetbrowser.moc"
