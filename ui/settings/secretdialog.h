#pragma once

#include <QDialog>

class QLineEdit;

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
