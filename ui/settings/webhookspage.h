#pragma once

#include "model/webhooks/incomingwebhookrepository.h"
#include "model/webhooks/webhookrepository.h"

#include <QDialog>
#include <QWidget>

#include <optional>

class EventBus;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

// Settings > Webhooks: every outgoing subscription with its state (active, disabled and why,
// failure count); Add…/Edit… (URL, event checkboxes, secret generate/rotate), Delete, Disable/
// Enable, Send test (queued for the delivery thread, its result shows in the log), and the
// delivery log of the selected subscription with status colours and Redeliver.
class WebhooksPage : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        UrlColumn,
        EventsColumn,
        StateColumn,
        FailuresColumn,
        CreatedColumn,
        ColumnCount
    };
    enum LogColumn
    {
        LogTimeColumn,
        LogEventColumn,
        LogAttemptColumn,
        LogStatusColumn,
        LogLatencyColumn,
        LogNextRetryColumn,
        LogResponseColumn,
        LogColumnCount
    };

    WebhooksPage(EventBus &bus, WebhookPolicy policy = {}, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QTableWidget *logTable() const { return m_log; }
    QComboBox *testEventBox() const { return m_testEvent; }
    QString currentWebhookId() const;
    WebhookRepository &repository() { return m_repository; }

public Q_SLOTS:
    void reload();
    void reloadLog();
    void addWebhook();
    void editWebhook();
    void deleteWebhook();
    void toggleActive();
    void sendTest();
    void redeliver();

private:
    void updateActions();
    void showSecret(const QString &secret);
    void setError(const QString &text);

    WebhookRepository m_repository;
    QTableWidget *m_table = nullptr;
    QTableWidget *m_log = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_toggle = nullptr;
    QComboBox *m_testEvent = nullptr;
    QPushButton *m_test = nullptr;
    QPushButton *m_redeliver = nullptr;
    QLabel *m_error = nullptr;
};

// Add or edit a subscription. Validation messages of the repository appear under their fields;
// the dialog stays open on a refusal.
class WebhookDialog : public QDialog
{
    Q_OBJECT
public:
    WebhookDialog(WebhookRepository &repository, std::optional<WebhookSubscription> existing,
                  QWidget *parent = nullptr);

    QLineEdit *urlEdit() const { return m_url; }
    QListWidget *eventList() const { return m_events; }
    QLineEdit *secretEdit() const { return m_secret; }
    QStringList checkedEvents() const;
    void accept() override;

Q_SIGNALS:
    // A secret to show once: generated on create, or the rotated one.
    void secretCreated(const QString &secret);

private:
    WebhookRepository &m_repository;
    std::optional<WebhookSubscription> m_existing;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_description = nullptr;
    QCheckBox *m_all = nullptr;
    QListWidget *m_events = nullptr;
    QLineEdit *m_secret = nullptr;
    QCheckBox *m_rotate = nullptr;
    QLabel *m_urlError = nullptr;
    QLabel *m_eventsError = nullptr;
    QLabel *m_secretError = nullptr;
    QLabel *m_error = nullptr;
};

// Settings > Incoming webhooks: the endpoints with their copyable URL, Add… (name, action,
// optional signature secret shown once), Delete, and the call log of the selected endpoint.
class IncomingWebhooksPage : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        ActionColumn,
        UrlColumn,
        SignedColumn,
        CallsColumn,
        LastCallColumn,
        ColumnCount
    };

    // baseUrl: the API server's address ("https://127.0.0.1:8443"); empty when it does not run.
    IncomingWebhooksPage(EventBus &bus, const QString &baseUrl = {}, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QTableWidget *callTable() const { return m_calls; }
    QString currentEndpointId() const;
    QString urlOf(const QString &endpointId) const;
    IncomingWebhookRepository &repository() { return m_repository; }
    void setBaseUrl(const QString &baseUrl);

public Q_SLOTS:
    void reload();
    void reloadCalls();
    void addEndpoint();
    void deleteEndpoint();
    void copyUrl();

private:
    IncomingWebhookRepository m_repository;
    QString m_baseUrl;
    QTableWidget *m_table = nullptr;
    QTableWidget *m_calls = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_copy = nullptr;
    QLabel *m_error = nullptr;
};

// Name, action and "require a signature" of a new incoming endpoint.
class IncomingWebhookDialog : public QDialog
{
    Q_OBJECT
public:
    explicit IncomingWebhookDialog(IncomingWebhookRepository &repository, QWidget *parent = nullptr);

    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *actionBox() const { return m_action; }
    QCheckBox *signedBox() const { return m_signed; }
    void accept() override;

Q_SIGNALS:
    void created(const QString &id, const QString &secret);

private:
    IncomingWebhookRepository &m_repository;
    QLineEdit *m_name = nullptr;
    QComboBox *m_action = nullptr;
    QCheckBox *m_signed = nullptr;
    QLabel *m_error = nullptr;
};

// Shows a secret once, read-only, with a Copy button.
class SecretDialog : public QDialog
{
    Q_OBJECT
public:
    SecretDialog(const QString &title, const QString &secret, QWidget *parent = nullptr);
    QLineEdit *secretEdit() const { return m_secret; }

private:
    QLineEdit *m_secret = nullptr;
};
