#pragma once

#include "model/accounts/userrepository.h"

#include <QDialog>

#include <functional>
#include <memory>

class ApiKeyRepository;
class FieldErrors;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;

// The first start of an empty data directory: a welcome that creates the first administrator
// account (name, e-mail, password), then shows where the local API listens and offers an API key
// with a copy button. Help → Getting started shows the API page again later.
class WelcomeDialog : public QDialog
{
    Q_OBJECT
public:
    // Creates the account (the app hashes the password); throws DomainError when the model refuses.
    using AccountCreator = std::function<User(const QString &name, const QString &email, const QString &password)>;

    static constexpr int kMinPasswordLength = 8;
    // Saves the country calling code that phone numbers without + are read with; false and why
    // when it cannot.
    using CallingCodeSaver = std::function<bool(const QString &code, QString *why)>;

    WelcomeDialog(ApiKeyRepository &apiKeys, AccountCreator createAccount, QWidget *parent = nullptr);
    ~WelcomeDialog() override;

    // Starts on the API page (an account exists already); keys are then made for `owner`.
    void showApiPage(const QString &ownerId = {});
    // A short tour of the window for a sales rep (Help → Getting started), with a way on to the API
    // page; ownerId as for showApiPage.
    void showGuide(const QString &ownerId = {});
    // The API's base URL ("https://127.0.0.1:8443"); empty: the server does not run (`detail` says why).
    void setApiAddress(const QString &baseUrl, const QString &detail = {});
    // Offers on the account page, ticked, to read phone numbers written without + as numbers of
    // `country` (+code), saved with the account (the system's country, while none is set).
    void offerCallingCode(const QString &country, const QString &code, CallingCodeSaver save);
    // The secret of the key made here (empty until one is made).
    QString createdKey() const { return m_secret; }

signals:
    void accountCreated(const User &user);

protected:
    void showEvent(QShowEvent *event) override;

private:
    // Grows the dialog until the page in front has the height its wrapped paragraphs need at the
    // dialog's width (a stacked widget does not pass height-for-width on; German and Turkish texts
    // are longer than English).
    void fitCurrentPage();
    void createAccount();
    void createKey();
    QWidget *accountPage();
    QWidget *apiPage();
    QWidget *guidePage();

    ApiKeyRepository &m_apiKeys;
    AccountCreator m_createAccount;
    std::unique_ptr<FieldErrors> m_errors;
    QStackedWidget *m_pages = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_email = nullptr;
    QLineEdit *m_password = nullptr;
    QLineEdit *m_repeat = nullptr;
    QCheckBox *m_callingCode = nullptr;
    QString m_offeredCode;
    CallingCodeSaver m_saveCallingCode;
    QPushButton *m_create = nullptr;
    QLabel *m_address = nullptr;
    QPushButton *m_copyAddress = nullptr;
    QPushButton *m_makeKey = nullptr;
    QLineEdit *m_key = nullptr;
    QPushButton *m_copyKey = nullptr;
    QLabel *m_example = nullptr;
    QString m_baseUrl;
    QString m_detail;
    QString m_ownerId;
    QString m_secret;
};
