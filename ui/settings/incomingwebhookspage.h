#pragma once

#include "model/core/store.h"
#include "model/webhooks/incomingwebhookrepository.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

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
    IncomingWebhooksPage(const Store &store, const QString &baseUrl = {}, QWidget *parent = nullptr);

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
