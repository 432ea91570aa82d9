// Settings > Webhooks and Settings > Incoming webhooks, offscreen, over the real repositories and a
// temporary database: add/edit with event checkboxes and field errors, secret shown once and
// rotated, disable/enable, Send test queued, delivery log colours and Redeliver, incoming URL copy
// and call log; and the Settings menu entries of the main window.

#include "tests/ui/uilayout.h"
#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/webhooks/webhook.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/settings/incomingwebhookdialog.h"
#include "ui/settings/incomingwebhookspage.h"
#include "ui/settings/secretdialog.h"
#include "ui/settings/webhookdialog.h"
#include "ui/settings/webhookspage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

#include <memory>

using namespace UiTest;

namespace {
template<typename T>
T *child(QObject *parent, const char *name)
{
    T *found = parent->findChild<T *>(QLatin1String(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

// Checks the event of this name; the list shows it with what it means ("deal.won — A deal is won").
void check(QListWidget *list, const QString &event)
{
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->data(Qt::UserRole).toString() == event) {
            QVERIFY2(list->item(i)->text().startsWith(event + QStringLiteral(" — ")),
                     qPrintable(list->item(i)->text()));
            list->item(i)->setCheckState(Qt::Checked);
            return;
        }
    }
    QFAIL(qPrintable(event));
}
} // namespace

class TestWebhooksPages final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_page = std::make_unique<WebhooksPage>(Store(*m_bus));
        m_page->resize(900, 600);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
    }

    void cleanup()
    {
        while (QWidget *w = QApplication::activeModalWidget())
            delete w;
        m_page.reset();
        m_bus.reset();
        m_db.reset();
    }

    void everyColumnTitleIsWholeInTurkish()
    {
        // The delivery log's "Sonraki deneme" (Next retry) was cut at the default column width.
        const UiTest::ScopedTurkish turkish;
        QVERIFY2(turkish.ok(), UiTest::ScopedTurkish::missing);
        WebhooksPage page{Store(*m_bus)};
        page.resize(900, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        for (const char *name : {"webhooksTable", "deliveryLogTable"}) {
            auto *table = page.findChild<QTableWidget *>(name);
            QVERIFY2(table, name);
            const QHeaderView *header = table->horizontalHeader();
            for (int i = 0; i < header->count(); ++i)
                QVERIFY2(header->sectionSize(i) >= header->sectionSizeHint(i),
                         qPrintable(QStringLiteral("%1: '%2' %3 of %4 pixels")
                                        .arg(name, table->horizontalHeaderItem(i)->text())
                                        .arg(header->sectionSize(i))
                                        .arg(header->sectionSizeHint(i))));
        }
    }

    void listsSubscriptionsWithState()
    {
        WebhookRepository repo{Store(*m_bus)};
        const QString a =
            repo.create(webhookChanges({{"url", "https://a.example.com/h"}, {"events", QJsonArray{"*"}}})).webhook.id;
        repo.create(webhookChanges({{"url", "https://b.example.com/h"}, {"events", QJsonArray{"deal.won"}}}));
        repo.setActive(a, false, "the receiver answered 410 Gone");
        QTRY_COMPARE(m_page->table()->rowCount(), 2);
        QCOMPARE(m_page->table()->item(0, WebhooksPage::StateColumn)->text(), tr("Active"));
        QVERIFY(m_page->table()->item(1, WebhooksPage::StateColumn)->text().contains("410"));
        QCOMPARE(m_page->table()->item(1, WebhooksPage::EventsColumn)->text(), QString("All events"));
        QCOMPARE(m_page->table()->item(0, WebhooksPage::FailuresColumn)->text(), QString("0"));
    }

    void addShowsFieldErrorsThenCreatesAndShowsTheSecretOnce()
    {
        click(child<QPushButton>(m_page.get(), "addWebhookButton"));
        auto *dialog = modal<WebhookDialog>();
        QVERIFY(dialog);
        dialog->urlEdit()->setText("http://example.com/hook");
        // Every event says what it means beside its name.
        QCOMPARE(dialog->eventList()->count(), WebhookEvents::all().size());
        for (int i = 0; i < dialog->eventList()->count(); ++i)
            QVERIFY2(dialog->eventList()->item(i)->text().contains(" — "),
                     qPrintable(dialog->eventList()->item(i)->text()));
        check(dialog->eventList(), "contact.created");
        check(dialog->eventList(), "deal.won");
        click(dialogButton(dialog, QDialogButtonBox::Save));
        QCOMPARE(modal<WebhookDialog>(), dialog); // stays open
        auto *urlError = child<QLabel>(dialog, "urlError");
        QVERIFY(urlError->isVisible());
        QVERIFY(urlError->text().contains("https"));
        dialog->urlEdit()->setText("https://example.com/hook");
        click(dialogButton(dialog, QDialogButtonBox::Save));
        QTRY_VERIFY(modal<SecretDialog>() != nullptr);
        const QString secret = modal<SecretDialog>()->secretEdit()->text();
        QVERIFY(secret.startsWith("whsec_"));
        QCOMPARE(m_page->table()->rowCount(), 1);
        const WebhookSubscription w = m_page->repository().list().first();
        QCOMPARE(w.events, QStringList({"contact.created", "deal.won"}));
        QCOMPARE(w.secret, secret);
        // The table shows no secret.
        for (int c = 0; c < m_page->table()->columnCount(); ++c)
            QVERIFY(!m_page->table()->item(0, c)->text().contains(secret));
        click(dialogButton(modal<SecretDialog>(), QDialogButtonBox::Close));
        QTRY_VERIFY(!modal<SecretDialog>());
    }

    void editRotatesTheSecret()
    {
        const auto saved = m_page->repository().create(
            webhookChanges({{"url", "https://example.com/hook"}, {"events", QJsonArray{"contact.created"}}}));
        QTRY_COMPARE(m_page->table()->rowCount(), 1);
        m_page->table()->selectRow(0);
        click(child<QPushButton>(m_page.get(), "editWebhookButton"));
        auto *dialog = modal<WebhookDialog>();
        QVERIFY(dialog);
        QCOMPARE(dialog->urlEdit()->text(), QString("https://example.com/hook"));
        QCOMPARE(dialog->checkedEvents(), QStringList{"contact.created"});
        child<QCheckBox>(dialog, "rotateSecretBox")->setChecked(true);
        click(dialogButton(dialog, QDialogButtonBox::Save));
        QTRY_VERIFY(modal<SecretDialog>() != nullptr);
        const QString rotated = modal<SecretDialog>()->secretEdit()->text();
        QVERIFY(rotated != saved.secret);
        QCOMPARE(m_page->repository().get(saved.webhook.id).secret, rotated);
    }

    void disablesAndEnables()
    {
        m_page->repository().create(webhookChanges({{"url", "https://example.com/hook"}, {"events", QJsonArray{"*"}}}));
        QTRY_COMPARE(m_page->table()->rowCount(), 1);
        m_page->table()->selectRow(0);
        auto *toggle = child<QPushButton>(m_page.get(), "toggleWebhookButton");
        QCOMPARE(toggle->text(), QString("Disable"));
        click(toggle);
        QTRY_VERIFY(m_page->table()->item(0, WebhooksPage::StateColumn)->text().startsWith("Disabled"));
        QCOMPARE(toggle->text(), QString("Enable"));
        click(toggle);
        QTRY_COMPARE(m_page->table()->item(0, WebhooksPage::StateColumn)->text(), QString("Active"));
    }

    void sendTestQueuesADeliveryAndTheLogShowsColours()
    {
        WebhookRepository &repo = m_page->repository();
        const QString id =
            repo.create(webhookChanges({{"url", "https://example.com/hook"}, {"events", QJsonArray{"*"}}})).webhook.id;
        QTRY_COMPARE(m_page->table()->rowCount(), 1);
        m_page->table()->selectRow(0);
        m_page->testEventBox()->setCurrentIndex(m_page->testEventBox()->findData("deal.won"));
        QCOMPARE(m_page->testEventBox()->currentText(), QString("A deal is won (deal.won)"));
        click(child<QPushButton>(m_page.get(), "sendTestButton"));
        QSqlQuery q = Database::exec("SELECT kind, event, state FROM webhook_deliveries WHERE webhook_id = ?", {id});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("test"));
        QCOMPARE(q.value(1).toString(), QString("deal.won"));
        QCOMPARE(q.value(2).toString(), QString("pending"));
        // Played as the dispatcher would: one failure with a retry, then a success.
        const QList<qint64> due = repo.dueDeliveries(QDateTime::currentDateTimeUtc(), 1, {}, 10);
        QCOMPARE(due.size(), 1);
        auto claim = repo.claim(due.first(), QDateTime::currentDateTimeUtc());
        QVERIFY(claim);
        repo.finish(*claim, {503, "HTTP 503", 12, "busy", false}, {60}, QDateTime::currentDateTimeUtc());
        repo.redeliver(id, claim->deliveryId);
        claim = repo.claim(repo.dueDeliveries(QDateTime::currentDateTimeUtc(), 1, {}, 10).first(),
                           QDateTime::currentDateTimeUtc());
        QVERIFY(claim);
        repo.finish(*claim, {200, {}, 8, "{\"ok\":true}", true}, {60}, QDateTime::currentDateTimeUtc());
        QTRY_COMPARE(m_page->logTable()->rowCount(), 2);
        QTableWidget *log = m_page->logTable();
        QCOMPARE(log->item(0, WebhooksPage::LogStatusColumn)->text(), QString("200"));
        QCOMPARE(log->item(1, WebhooksPage::LogStatusColumn)->text(), QString("503 HTTP 503"));
        QVERIFY(log->item(0, 0)->background().color() != log->item(1, 0)->background().color());
        QCOMPARE(log->item(0, WebhooksPage::LogLatencyColumn)->text(), QString("8 ms"));
        // Redeliver the selected log line.
        auto *redeliver = child<QPushButton>(m_page.get(), "redeliverButton");
        QVERIFY(!redeliver->isEnabled());
        log->selectRow(1);
        click(redeliver);
        QSqlQuery n = Database::exec("SELECT count(*) FROM webhook_deliveries WHERE kind = 'redelivery'");
        QVERIFY(n.next());
        QCOMPARE(n.value(0).toInt(), 2);
    }

    void deleteAsksFirst()
    {
        m_page->repository().create(webhookChanges({{"url", "https://example.com/hook"}, {"events", QJsonArray{"*"}}}));
        QTRY_COMPARE(m_page->table()->rowCount(), 1);
        m_page->table()->selectRow(0);
        click(child<QPushButton>(m_page.get(), "deleteWebhookButton"));
        auto *box = modal<QMessageBox>();
        QVERIFY(box);
        click(box->button(QMessageBox::Yes));
        QTRY_COMPARE(m_page->table()->rowCount(), 0);
    }

    void incomingPageCreatesCopiesAndLogs()
    {
        IncomingWebhooksPage page(Store(*m_bus), "https://127.0.0.1:8443");
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        click(child<QPushButton>(&page, "addIncomingButton"));
        auto *dialog = modal<IncomingWebhookDialog>();
        QVERIFY(dialog);
        click(dialogButton(dialog, QDialogButtonBox::Save));
        QVERIFY(child<QLabel>(dialog, "errorLabel")->isVisible()); // no name
        dialog->nameEdit()->setText("Web form");
        dialog->actionBox()->setCurrentIndex(dialog->actionBox()->findData("contact.upsert"));
        dialog->signedBox()->setChecked(true);
        click(dialogButton(dialog, QDialogButtonBox::Save));
        QTRY_VERIFY(modal<SecretDialog>() != nullptr);
        const QString secret = modal<SecretDialog>()->secretEdit()->text();
        click(dialogButton(modal<SecretDialog>(), QDialogButtonBox::Close));
        QTRY_COMPARE(page.table()->rowCount(), 1);
        page.table()->selectRow(0);
        const QString id = page.currentEndpointId();
        QCOMPARE(page.table()->item(0, IncomingWebhooksPage::UrlColumn)->text(),
                 "https://127.0.0.1:8443/webhooks/incoming/" + id);
        QCOMPARE(page.table()->item(0, IncomingWebhooksPage::SignedColumn)->text(), QString("Yes"));
        click(child<QPushButton>(&page, "copyUrlButton"));
        QCOMPARE(QGuiApplication::clipboard()->text(), "https://127.0.0.1:8443/webhooks/incoming/" + id);
        const QByteArray body = R"({"event":"lead","data":{"firstName":"Ece","email":"ece@example.com"}})";
        // Two calls as the server records them: one refused for its signature, one processed.
        const IncomingWebhook endpoint = page.repository().get(id);
        page.repository().recordCall(endpoint, "lead", "rejected", 401, "X-Service-Signature does not match the body",
                                     {}, body);
        page.repository().recordCall(endpoint, "lead", "processed", 200, {}, {}, body);
        Q_UNUSED(secret);
        QTRY_COMPARE(page.callTable()->rowCount(), 2);
        QCOMPARE(page.callTable()->item(0, 2)->text(), QString("processed"));
        QCOMPARE(page.callTable()->item(1, 2)->text(), QString("rejected"));
        QCOMPARE(page.callTable()->item(1, 3)->text(), QString("401"));
        QCOMPARE(page.table()->item(0, IncomingWebhooksPage::CallsColumn)->text(), QString("2"));
    }

    void settingsMenuOpensThePages()
    {
        ContactRepository contacts{Store(*m_bus)};
        ApiKeyRepository keys{Store(*m_bus)};
        ComposedWindow window(contacts, keys, Store(*m_bus));
        window.setServerStatus("https://127.0.0.1:8443", true);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.findChild<QAction *>("webhooksAction")->trigger();
        QTRY_VERIFY(window.settingsDialog() && window.settingsDialog()->isVisible());
        QVERIFY(window.settingsDialog()->findChild<WebhooksPage *>("webhooksPage")->isVisible());
        window.findChild<QAction *>("incomingWebhooksAction")->trigger();
        QTRY_VERIFY(window.settingsDialog()->findChild<IncomingWebhooksPage *>("incomingWebhooksPage")->isVisible());
        window.settingsDialog()->close();
    }

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<WebhooksPage> m_page;
};

QTEST_MAIN(TestWebhooksPages)
#include "test_webhookspages.moc"
