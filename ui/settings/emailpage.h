#pragma once

#include "ui/settings/settingsform.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

// Settings > E-mail: how campaigns send e-mail. The SMTP server (host, port, security: STARTTLS,
// TLS from the start, or none on this machine only), the account (user, password), the From address
// ("Name <address>"), whether the server's certificate is checked, and DKIM signing (domain,
// selector, private key). Save writes the settings keys (mail/…) to liaison.ini and the password
// and the key to the secret store (mail.password, mail.dkimKey); they take effect at the next start.
//
// Values are keyed by their settings names ("mail/smtpHost") and, for the secrets, by their secret
// names ("mail.password"). The UI library does not know the files or the keychain: the app gives
// the page a function that saves.
class EmailPage : public QWidget
{
    Q_OBJECT
public:
    using Values = QHash<QString, QString>;
    // Writes the values; false with a message to show (the secret store refused).
    using SaveFunction = std::function<bool(const Values &values, QString *error)>;

    explicit EmailPage(QWidget *parent = nullptr);

    static QStringList keys();       // every key of the form, the secrets' included
    static QStringList secretKeys(); // mail.password, mail.dkimKey
    static constexpr int DefaultPort = 587;

    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }
    // Fills the form (the password shows masked; a stored key only as "stored").
    void setValues(const Values &values);
    // The form's values. The DKIM key: the key pasted, else the stored one unless removed.
    Values values() const;
    // Why the values cannot be saved (empty: they can), in the window's language.
    QString problem() const;

    QLineEdit *field(const QString &key) const;
    QSpinBox *portBox() const { return m_port; }
    QComboBox *securityBox() const { return m_security; }
    QCheckBox *verifyTlsBox() const { return m_verifyTls; }
    QPlainTextEdit *dkimKeyEdit() const { return m_dkimKey; }
    QPushButton *removeKeyButton() const { return m_removeKey; }
    QPushButton *saveButton() const { return m_form.saveButton(); }
    QLabel *saveResultLabel() const { return m_form.saveResultLabel(); }

public slots:
    bool save();

private:
    void updateKeyState();

    SettingsForm m_form;
    QSpinBox *m_port = nullptr;
    QComboBox *m_security = nullptr;
    QCheckBox *m_verifyTls = nullptr;
    QPlainTextEdit *m_dkimKey = nullptr;
    QLabel *m_keyState = nullptr;
    QPushButton *m_removeKey = nullptr;
    QString m_storedKey;
    SaveFunction m_save;
};
