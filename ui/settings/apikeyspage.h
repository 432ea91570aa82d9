#pragma once

#include "model/accounts/userrepository.h"
#include "model/core/store.h"

#include <QDialog>
#include <QWidget>

class ApiKeyRepository;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

// Settings > API keys: every key (newest first, revoked ones included) with its prefix, scopes and
// use; Create… (name and scopes) shows the new key once; Revoke asks first. The secret is never
// stored or listed: only the repository's hash exists after the "new key" dialog closes.
class ApiKeysPage : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        KeyColumn,
        ScopesColumn,
        CreatedColumn,
        LastUsedColumn,
        StateColumn,
        ColumnCount
    };

    ApiKeysPage(ApiKeyRepository &keys, const Store &store, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    // The id of the selected key; empty when none.
    QString currentKeyId() const;

public slots:
    void reload();
    void createKey();
    void revokeKey();

private:
    void updateActions();

    ApiKeyRepository &m_keys;
    QTableWidget *m_table = nullptr;
    QPushButton *m_create = nullptr;
    QPushButton *m_revoke = nullptr;
    QLabel *m_error = nullptr;
};

// Asks for the name and scopes of a new key and creates it; stays open on a refusal.
class CreateApiKeyDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CreateApiKeyDialog(ApiKeyRepository &keys, QWidget *parent = nullptr);

    QStringList checkedScopes() const;
    void accept() override;

signals:
    // The secret travels only in this signal, to the dialog that shows it once.
    void keyCreated(const QString &id, const QString &name, const QString &secret);

private:
    ApiKeyRepository &m_keys;
    UserRepository m_users;
    QLineEdit *m_name = nullptr;
    QListWidget *m_scopes = nullptr;
    QLabel *m_error = nullptr;
};

// Shows a new key once, read-only, with a Copy button and the warning that it will not be shown again.
class NewApiKeyDialog : public QDialog
{
    Q_OBJECT
public:
    NewApiKeyDialog(const QString &name, const QString &secret, QWidget *parent = nullptr);

private:
    QLineEdit *m_secret = nullptr;
};
