#pragma once

#include "model/core/store.h"
#include "model/webhooks/webhookrepository.h"

#include <QWidget>

class QComboBox;
class QLabel;
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

    WebhooksPage(const Store &store, WebhookPolicy policy = {}, QWidget *parent = nullptr);

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
