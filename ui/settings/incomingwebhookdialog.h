#pragma once

#include "model/webhooks/incomingwebhookrepository.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

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
