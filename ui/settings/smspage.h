#pragma once

#include "model/core/errors.h"
#include "ui/settings/settingsform.h"
#include "ui/shell/fielderrors.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// Settings > SMS (an admin's page): the provider SMS campaigns send through, the Twilio Messages API
// shape (API base URL, account SID, auth token, the sender: an E.164 number or an alphanumeric
// sender id, the request timeout), the campaigns' pace (messages per second, at once, at most per
// hour), and a test send to a number typed here. Save writes the settings keys (channels/sms/…,
// campaigns/sms/…) to liaison.ini and the auth token to the secret store (channels/sms/authToken);
// they take effect at the next start. The stored token is never shown: the page says whether one is
// stored, and one typed replaces it.
//
// The UI library does not know the settings' rules, the files or the provider: the app gives the
// page functions that check (the rules the settings file is read with, each problem shown under
// its field), save, and test-send (in a worker thread; the outcome comes back in the GUI thread).
class SmsPage : public QWidget
{
    Q_OBJECT
public:
    using Values = QHash<QString, QString>;
    using CheckFunction = std::function<FieldProblems(const Values &values)>;
    // Writes the values; false with a message to show (the secret store refused).
    using SaveFunction = std::function<bool(const Values &values, QString *error)>;
    // What the provider answered a test send.
    struct TestOutcome
    {
        bool reached = false;   // an HTTP answer came (else networkError says why not)
        int status = 0;         // its HTTP status
        QString sid;            // the message's sid when accepted
        QString providerStatus; // "queued", "sent", … when accepted
        int providerCode = 0;   // the provider's error code when refused
        QString providerMessage;
        QString networkError;
    };
    using TestDone = std::function<void(const TestOutcome &outcome)>;
    // Sends body to the number `to` with these values; calls done once, later, in the GUI thread.
    using TestFunction =
        std::function<void(const Values &values, const QString &to, const QString &body, TestDone done)>;

    explicit SmsPage(QWidget *parent = nullptr);

    static QStringList keys();  // every key of the form, the secret's included
    static QString secretKey(); // channels/sms/authToken

    void setCheckFunction(CheckFunction check) { m_check = std::move(check); }
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }
    void setTestFunction(TestFunction test) { m_test = std::move(test); }
    // Fills the form (the token only as "stored" or not).
    void setValues(const Values &values);
    // The form's values. The token: the one typed, else the stored one unless removed.
    Values values() const;
    // Checks the form, shows each problem under its field; true when there is none.
    bool check();

    QLineEdit *field(const QString &key) const;
    QSpinBox *numberBox(const QString &key) const { return m_numbers.value(key); }
    QLabel *errorLabel(const QString &key) const;
    QLabel *tokenStateLabel() const { return m_tokenState; }
    QPushButton *removeTokenButton() const { return m_removeToken; }
    QLineEdit *testNumberField() const { return m_testTo; }
    QPushButton *testButton() const { return m_testButton; }
    QLabel *testResultLabel() const { return m_testResult; }
    QPushButton *saveButton() const { return m_form.saveButton(); }
    QLabel *saveResultLabel() const { return m_form.saveResultLabel(); }

public slots:
    bool save();
    void sendTest();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QSpinBox *addNumber(QFormLayout *form, const QString &key, const QString &label, const QString &suffix,
                        const QString &zero);
    void updateTokenState();
    void showTestResult(const QString &text, bool ok);

    SettingsForm m_form;
    FieldErrors m_errors;
    QHash<QString, QSpinBox *> m_numbers;
    QLabel *m_tokenState = nullptr;
    QPushButton *m_removeToken = nullptr;
    QString m_storedToken;
    QLineEdit *m_testTo = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    CheckFunction m_check;
    SaveFunction m_save;
    TestFunction m_test;
};
