#include "ui/settings/smspage.h"

#include "model/contacts/contact.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
const QString kSmsBaseUrl = QStringLiteral("channels/sms/apiBaseUrl");
const QString kSmsAccountSid = QStringLiteral("channels/sms/accountSid");
const QString kSmsAuthToken = QStringLiteral("channels/sms/authToken");
const QString kSmsFrom = QStringLiteral("channels/sms/from");
const QString kSmsTimeout = QStringLiteral("channels/sms/timeoutSeconds");
const QString kSmsPerSecond = QStringLiteral("campaigns/sms/messagesPerSecond");
const QString kSmsConcurrency = QStringLiteral("campaigns/sms/concurrency");
const QString kSmsMaxPerHour = QStringLiteral("campaigns/sms/maxPerHour");
const QString kSmsTestTo = QStringLiteral("smsTestTo");
} // namespace

SmsPage::SmsPage(QWidget *parent)
    : QWidget(parent)
    , m_form(this,
             tr("The SMS provider campaigns send text messages through (the Twilio Messages API or a "
                "compatible one). The auth token is kept in the system keychain; changes take effect at "
                "the next start."),
             QStringLiteral("sms"))
{
    setObjectName(QStringLiteral("smsPage"));
    QWidget *content = m_form.content();
    // A field with its error label under it.
    auto addField = [this](QFormLayout *form, const QString &key, const QString &label, const QString &placeholder,
                           bool secret = false) {
        return m_form.addField(form, key, label, placeholder, secret, &m_errors);
    };

    auto *provider = new QGroupBox(tr("SMS provider"), content);
    provider->setObjectName(QStringLiteral("smsProviderGroup"));
    auto *providerForm = new QFormLayout(provider);
    addField(providerForm, kSmsBaseUrl, tr("API base URL"), QStringLiteral("https://api.twilio.com"));
    addField(providerForm, kSmsAccountSid, tr("Account SID"), tr("AC and 32 hex digits"));
    addField(providerForm, kSmsAuthToken, tr("Auth token"), QString(), true);
    auto *tokenRow = new QHBoxLayout;
    m_tokenState = new QLabel(provider);
    m_tokenState->setObjectName(QStringLiteral("smsTokenState"));
    m_tokenState->setTextFormat(Qt::PlainText);
    m_tokenState->setWordWrap(true);
    UiKit::setTone(m_tokenState, UiKit::Tone::Muted);
    m_removeToken = new QPushButton(tr("Remove the stored token"), provider);
    m_removeToken->setObjectName(QStringLiteral("removeSmsToken"));
    tokenRow->addWidget(m_tokenState, 1);
    tokenRow->addWidget(m_removeToken);
    providerForm->addRow(QString(), tokenRow);
    addField(providerForm, kSmsFrom, tr("From"), tr("+908501234567 or a sender name such as ORNEK"));
    addNumber(providerForm, kSmsTimeout, tr("Timeout"), tr(" s"), {});
    m_form.groups()->addWidget(provider);
    connect(m_removeToken, &QPushButton::clicked, this, [this] {
        m_storedToken.clear();
        field(kSmsAuthToken)->clear();
        updateTokenState();
    });
    connect(field(kSmsAuthToken), &QLineEdit::textChanged, this, &SmsPage::updateTokenState);

    auto *pace = new QGroupBox(tr("Campaign pace"), content);
    pace->setObjectName(QStringLiteral("smsPaceGroup"));
    auto *paceForm = new QFormLayout(pace);
    auto *paceIntro = new QLabel(tr("Keep within what the provider allows for the account and the sender; "
                                    "messages over its rate are refused."),
                                 pace);
    paceIntro->setWordWrap(true);
    paceForm->addRow(paceIntro);
    addNumber(paceForm, kSmsPerSecond, tr("Messages per second"), tr(" a second"), tr("No limit"));
    addNumber(paceForm, kSmsConcurrency, tr("Messages at once"), QString(), {});
    addNumber(paceForm, kSmsMaxPerHour, tr("At most per hour"), tr(" an hour"), tr("No cap"));
    m_form.groups()->addWidget(pace);

    auto *test = new QGroupBox(tr("Send a test SMS"), content);
    test->setObjectName(QStringLiteral("smsTestGroup"));
    auto *testForm = new QFormLayout(test);
    auto *testIntro =
        new QLabel(tr("Sends one message with the values above (saved or not) to the number you type."), test);
    testIntro->setWordWrap(true);
    testForm->addRow(testIntro);
    m_testTo = new QLineEdit(test);
    m_testTo->setObjectName(kSmsTestTo);
    m_testTo->setPlaceholderText(QStringLiteral("+905321234567"));
    testForm->addRow(tr("To"), m_errors.cell(m_testTo, {kSmsTestTo}, test));
    auto *testRow = new QHBoxLayout;
    m_testButton = new QPushButton(tr("Send a test SMS"), test);
    m_testButton->setObjectName(QStringLiteral("smsTestSend"));
    m_testResult = new QLabel(test);
    m_testResult->setObjectName(QStringLiteral("smsTestResult"));
    m_testResult->setTextFormat(Qt::PlainText); // the provider's words are never markup
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testRow->addWidget(m_testButton);
    testRow->addWidget(m_testResult, 1);
    testForm->addRow(testRow);
    m_form.groups()->addWidget(test);
    m_form.groups()->addStretch(1);
    connect(m_testButton, &QPushButton::clicked, this, &SmsPage::sendTest);
    m_testTo->installEventFilter(this); // Return in the number sends (the dialog's default button stays put)

    connect(m_form.saveButton(), &QPushButton::clicked, this, &SmsPage::save);
    UiKit::nameFormFields(this);
    updateTokenState();
}

QSpinBox *SmsPage::addNumber(QFormLayout *form, const QString &key, const QString &label, const QString &suffix,
                             const QString &zero)
{
    auto *box = new QSpinBox(form->parentWidget());
    box->setObjectName(key);
    // Any whole number: the settings' rules (the check function) say which are allowed, under the field.
    box->setRange(0, 1000000000);
    box->setSuffix(suffix);
    box->setSpecialValueText(zero);
    box->setGroupSeparatorShown(true);
    form->addRow(label, m_errors.cell(FieldErrors::row({box}, form->parentWidget()), {key}, form->parentWidget()));
    m_numbers.insert(key, box);
    return box;
}

bool SmsPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_testTo && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            sendTest();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QStringList SmsPage::keys()
{
    return {kSmsBaseUrl, kSmsAccountSid, kSmsAuthToken,   kSmsFrom,
            kSmsTimeout, kSmsPerSecond,  kSmsConcurrency, kSmsMaxPerHour};
}

QString SmsPage::secretKey()
{
    return kSmsAuthToken;
}

QLineEdit *SmsPage::field(const QString &key) const
{
    return m_form.field(key);
}

QLabel *SmsPage::errorLabel(const QString &key) const
{
    return findChild<QLabel *>(key + QLatin1String("Error"));
}

void SmsPage::setValues(const Values &values)
{
    Values texts = values;
    texts.remove(kSmsAuthToken); // never shown
    m_form.setTexts(texts);
    for (auto it = m_numbers.begin(); it != m_numbers.end(); ++it) {
        bool ok = false;
        const int v = values.value(it.key()).toInt(&ok);
        it.value()->setValue(ok ? v : 0);
    }
    m_storedToken = values.value(kSmsAuthToken);
    updateTokenState();
    m_errors.clear();
}

SmsPage::Values SmsPage::values() const
{
    Values out = m_form.texts();
    for (auto it = m_numbers.begin(); it != m_numbers.end(); ++it)
        out.insert(it.key(), QString::number(it.value()->value()));
    const QString typed = out.value(kSmsAuthToken);
    out.insert(kSmsAuthToken, typed.isEmpty() ? m_storedToken : typed);
    return out;
}

bool SmsPage::check()
{
    m_errors.clear();
    if (!m_check)
        return true;
    return !SettingsForm::showProblems(this, m_errors, m_check(values()));
}

void SmsPage::updateTokenState()
{
    const bool typed = !field(kSmsAuthToken)->text().trimmed().isEmpty();
    m_tokenState->setText(typed                     ? tr("The token typed above is stored when you save.")
                          : m_storedToken.isEmpty() ? tr("No token is stored.")
                                                    : tr("A token is stored; type another to replace it."));
    m_removeToken->setEnabled(!m_storedToken.isEmpty() || typed);
}

bool SmsPage::save()
{
    const QString problem = check() ? QString() : tr("correct the fields marked above.");
    const Values v = values();
    if (!m_form.save(problem, m_save ? [this, &v](QString *error) { return m_save(v, error); }
                                     : std::function<bool(QString *)>()))
        return false;
    m_storedToken = v.value(kSmsAuthToken);
    field(kSmsAuthToken)->clear();
    updateTokenState();
    return true;
}

void SmsPage::showTestResult(const QString &text, bool ok)
{
    m_testResult->setText(text);
    UiKit::setTone(m_testResult, ok ? UiKit::Tone::Normal : UiKit::Tone::Danger);
}

void SmsPage::sendTest()
{
    if (!m_testButton->isEnabled())
        return; // one test at a time
    if (!check()) {
        showTestResult(tr("Not sent: correct the fields marked above."), false);
        return;
    }
    const Values v = values();
    if (v.value(kSmsAccountSid).isEmpty() || v.value(kSmsAuthToken).isEmpty() || v.value(kSmsFrom).isEmpty()) {
        showTestResult(tr("Not sent: fill in the account SID, the auth token and the sender first."), false);
        return;
    }
    const QString to = ContactRules::toE164(m_testTo->text().trimmed());
    if (to.isEmpty()) {
        QJsonObject details;
        details.insert(kSmsTestTo, tr("Type the number in international form, such as +905321234567."));
        m_errors.show(QString(), details);
        m_testTo->setFocus();
        showTestResult(QString(), false);
        return;
    }
    if (!m_test) {
        showTestResult(tr("Testing is not available here."), false);
        return;
    }
    m_testButton->setEnabled(false);
    showTestResult(tr("Sending…"), true);
    QPointer<SmsPage> self(this);
    m_test(v, to, tr("Liaison test message: SMS campaigns can be sent from this account."),
           [self, to](const TestOutcome &o) {
               if (!self)
                   return;
               self->m_testButton->setEnabled(true);
               if (!o.reached)
                   self->showTestResult(tr("Not sent: no answer from the provider (%1).")
                                            .arg(o.networkError.isEmpty() ? tr("no connection") : o.networkError),
                                        false);
               else if (o.status >= 200 && o.status < 300)
                   self->showTestResult(tr("Sent to %1. The provider accepted it as %2 (status: %3).")
                                            .arg(to, o.sid.isEmpty() ? tr("a message without a sid") : o.sid,
                                                 o.providerStatus.isEmpty() ? QStringLiteral("-") : o.providerStatus),
                                        true);
               else if (o.providerCode)
                   self->showTestResult(tr("Not sent: the provider answered %1 with error %2: %3")
                                            .arg(o.status)
                                            .arg(o.providerCode)
                                            .arg(o.providerMessage),
                                        false);
               else
                   self->showTestResult(
                       tr("Not sent: the provider answered %1: %2").arg(o.status).arg(o.providerMessage), false);
           });
}
