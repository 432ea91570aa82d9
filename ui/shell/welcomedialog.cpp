#include "ui/shell/welcomedialog.h"

#include "model/contacts/contact.h"

#include "model/accounts/apikeyrepository.h"
#include "model/core/errors.h"
#include "ui/shell/errortext.h"
#include "ui/shell/fielderrors.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDebug>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QList>
#include <QPushButton>
#include <QShowEvent>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace {
QLabel *heading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 1.35);
    f.setBold(true);
    label->setFont(f);
    return label;
}

QLabel *paragraph(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    return label;
}
} // namespace

WelcomeDialog::WelcomeDialog(ApiKeyRepository &apiKeys, AccountCreator createAccount, QWidget *parent)
    : QDialog(parent)
    , m_apiKeys(apiKeys)
    , m_createAccount(std::move(createAccount))
    , m_errors(std::make_unique<FieldErrors>())
{
    setObjectName(QStringLiteral("welcomeDialog"));
    setWindowTitle(tr("Welcome to Liaison"));
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(accountPage());
    m_pages->addWidget(apiPage());
    m_pages->addWidget(guidePage());
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);
    setMinimumWidth(520);
    setApiAddress({});
}

WelcomeDialog::~WelcomeDialog() = default;

QWidget *WelcomeDialog::accountPage()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("welcomeAccountPage"));
    m_name = new QLineEdit(page);
    m_name->setObjectName(QStringLiteral("welcomeName"));
    m_email = new QLineEdit(page);
    m_email->setObjectName(QStringLiteral("welcomeEmail"));
    m_email->setPlaceholderText(tr("name@company.com"));
    m_password = new QLineEdit(page);
    m_password->setObjectName(QStringLiteral("welcomePassword"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("at least %n characters", nullptr, kMinPasswordLength));
    m_repeat = new QLineEdit(page);
    m_repeat->setObjectName(QStringLiteral("welcomeRepeat"));
    m_repeat->setEchoMode(QLineEdit::Password);

    auto *form = new QFormLayout;
    form->addRow(tr("Your name:"), m_errors->cell(m_name, {QStringLiteral("name")}, page));
    form->addRow(tr("E-mail:"), m_errors->cell(m_email, {QStringLiteral("email")}, page));
    form->addRow(tr("Password:"), m_errors->cell(m_password, {QStringLiteral("password")}, page));
    form->addRow(tr("Repeat it:"), m_errors->cell(m_repeat, {QStringLiteral("repeat")}, page));
    m_callingCode = new QCheckBox(page);
    m_callingCode->setObjectName(QStringLiteral("welcomeCallingCode"));
    m_callingCode->setToolTip(tr("Settings → Contacts changes it later."));
    m_callingCode->hide(); // until offerCallingCode()
    form->addRow(m_callingCode);

    auto *buttons = new QDialogButtonBox(page);
    m_create = buttons->addButton(tr("Create account"), QDialogButtonBox::AcceptRole);
    m_create->setObjectName(QStringLiteral("welcomeCreateButton"));
    m_create->setDefault(true);
    QPushButton *later = buttons->addButton(tr("Later"), QDialogButtonBox::RejectRole);
    later->setObjectName(QStringLiteral("welcomeLaterButton"));
    later->setToolTip(tr("Work without an account for now; this welcome comes back at the next start"));
    connect(m_create, &QPushButton::clicked, this, &WelcomeDialog::createAccount);
    connect(later, &QPushButton::clicked, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(page);
    layout->addWidget(heading(tr("Welcome to Liaison"), page));
    layout->addWidget(paragraph(tr("Create the administrator account. It manages users, API keys, webhooks and "
                                   "channels, and it is the account you sign in with."),
                                page));
    layout->addWidget(m_errors->createFormLabel(page));
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(buttons);
    return page;
}

QWidget *WelcomeDialog::apiPage()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("welcomeApiPage"));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_address = new QLabel(page);
    m_address->setObjectName(QStringLiteral("welcomeApiAddress"));
    m_address->setTextFormat(Qt::PlainText);
    m_address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_address->setFont(mono);
    m_address->setWordWrap(true);
    m_copyAddress = new QPushButton(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Copy"), page);
    m_copyAddress->setObjectName(QStringLiteral("welcomeCopyAddress"));
    connect(m_copyAddress, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_baseUrl + QStringLiteral("/api/v1")); });
    m_makeKey = new QPushButton(tr("Create an API key"), page);
    m_makeKey->setObjectName(QStringLiteral("welcomeCreateKey"));
    connect(m_makeKey, &QPushButton::clicked, this, &WelcomeDialog::createKey);
    m_key = new QLineEdit(page);
    m_key->setObjectName(QStringLiteral("welcomeKey"));
    m_key->setReadOnly(true);
    m_key->setFont(mono);
    m_key->setPlaceholderText(tr("No key yet"));
    m_copyKey = new QPushButton(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Copy"), page);
    m_copyKey->setObjectName(QStringLiteral("welcomeCopyKey"));
    m_copyKey->setEnabled(false);
    connect(m_copyKey, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_secret); });
    m_example = paragraph(QString(), page);
    m_example->setObjectName(QStringLiteral("welcomeExample"));
    m_example->setFont(mono);
    m_example->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *addressRow = new QHBoxLayout;
    addressRow->addWidget(m_address, 1);
    addressRow->addWidget(m_copyAddress);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_makeKey);
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(m_copyKey);

    auto *buttons = new QDialogButtonBox(page);
    QPushButton *tour = buttons->addButton(tr("A short tour"), QDialogButtonBox::ActionRole);
    tour->setObjectName(QStringLiteral("welcomeTourButton"));
    tour->setAutoDefault(false);
    connect(tour, &QPushButton::clicked, this, [this] { showGuide(m_ownerId); });
    QPushButton *start = buttons->addButton(tr("Start working"), QDialogButtonBox::AcceptRole);
    start->setObjectName(QStringLiteral("welcomeStartButton"));
    start->setAutoDefault(false);
    connect(start, &QPushButton::clicked, this, &QDialog::accept);

    auto *layout = new QVBoxLayout(page);
    layout->addWidget(heading(tr("Your local API"), page));
    layout->addWidget(paragraph(tr("Tools on this computer (scripts, automations, other apps) reach the same "
                                   "contacts, deals, tasks and messages through the REST API at:"),
                                page));
    layout->addLayout(addressRow);
    layout->addWidget(paragraph(tr("A tool needs an API key. It is shown only once: copy it now and keep it "
                                   "somewhere safe. Settings → API keys lists and revokes keys."),
                                page));
    layout->addLayout(keyRow);
    layout->addWidget(m_example);
    layout->addStretch(1);
    layout->addWidget(buttons);
    return page;
}

QWidget *WelcomeDialog::guidePage()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("welcomeGuidePage"));
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(heading(tr("Getting started"), page));
    // One short section an area, in the order of the navigation on the left.
    const QList<QPair<QString, QString>> sections{
        {tr("Contacts"),
         tr("Type in the search box to find anyone by name, e-mail, company or phone, with or without the "
            "country code. Choose a contact to see their deals, conversations, tasks, notes and history on the "
            "right. Segments on the left keep lists that follow their rules, such as every VIP in İzmir.")},
        {tr("Deals"),
         tr("Each column of the board is a stage. Drag a card to the next stage as the deal moves on; dropping "
            "it on Won or Lost asks for the closing value or the reason. The chart above the board adds up the "
            "value per stage in one currency at a time.")},
        {tr("Tasks"),
         tr("Write a task in the line at the top, choose Today, Tomorrow or No date, and press Enter. Today, "
            "Overdue, Upcoming and All sort what is due. A reminder shows in the window's corner at its time, "
            "and the notices button at the foot of the window lists what you missed.")},
        {tr("Inbox"),
         tr("WhatsApp, Telegram, Instagram and web chat conversations in one list, newest first. Open one to "
            "answer; Ctrl+1 to Ctrl+9 insert your quick replies, and a conversation you read is marked read.")},
        {tr("Undo"),
         tr("Deleting a contact or a task, or completing a task, can be taken back for a few seconds with Undo "
            "at the foot of the window (Ctrl+Z).")},
    };
    for (const auto &section : sections) {
        auto *title = new QLabel(section.first, page);
        title->setTextFormat(Qt::PlainText);
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        layout->addSpacing(6);
        layout->addWidget(title);
        layout->addWidget(paragraph(section.second, page));
    }
    auto *buttons = new QDialogButtonBox(page);
    QPushButton *api = buttons->addButton(tr("Your local API…"), QDialogButtonBox::ActionRole);
    api->setObjectName(QStringLiteral("welcomeGuideApiButton"));
    api->setAutoDefault(false);
    connect(api, &QPushButton::clicked, this, [this] { showApiPage(m_ownerId); });
    QPushButton *start = buttons->addButton(tr("Start working"), QDialogButtonBox::AcceptRole);
    start->setObjectName(QStringLiteral("welcomeGuideStartButton"));
    connect(start, &QPushButton::clicked, this, &QDialog::accept);
    layout->addStretch(1);
    layout->addWidget(buttons);
    return page;
}

void WelcomeDialog::showGuide(const QString &ownerId)
{
    m_ownerId = ownerId;
    m_pages->setCurrentIndex(2);
    m_create->setDefault(false);
    if (auto *start = findChild<QPushButton *>(QStringLiteral("welcomeGuideStartButton")))
        start->setDefault(true);
    if (isVisible())
        fitCurrentPage();
}

void WelcomeDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    fitCurrentPage();
}

void WelcomeDialog::fitCurrentPage()
{
    QWidget *page = m_pages->currentWidget();
    if (!page || !page->layout() || page->width() <= 0)
        return;
    const int grow = page->layout()->totalHeightForWidth(page->width()) - page->height();
    if (grow > 0)
        resize(width(), height() + grow);
}

void WelcomeDialog::showApiPage(const QString &ownerId)
{
    m_ownerId = ownerId;
    m_pages->setCurrentIndex(1);
    // Enter now means "Start working" (the account page's button is hidden).
    m_create->setDefault(false);
    if (auto *start = findChild<QPushButton *>(QStringLiteral("welcomeStartButton")))
        start->setDefault(true);
    if (isVisible())
        fitCurrentPage();
}

void WelcomeDialog::setApiAddress(const QString &baseUrl, const QString &detail)
{
    m_baseUrl = baseUrl;
    m_detail = detail;
    if (baseUrl.isEmpty())
        m_address->setText(detail.isEmpty() ? tr("The API server is not running.")
                                            : tr("The API server is not running: %1").arg(detail));
    else
        m_address->setText(baseUrl + QStringLiteral("/api/v1"));
    m_copyAddress->setEnabled(!baseUrl.isEmpty());
    const QString url = baseUrl.isEmpty() ? QStringLiteral("https://127.0.0.1:8443") : baseUrl;
    m_example->setText(tr("Try it:") + QStringLiteral("\ncurl -k -H 'Authorization: Bearer %1' %2/api/v1/contacts")
                                           .arg(m_secret.isEmpty() ? QStringLiteral("<key>") : m_secret, url));
}

void WelcomeDialog::offerCallingCode(const QString &country, const QString &code, CallingCodeSaver save)
{
    m_offeredCode = code;
    m_saveCallingCode = std::move(save);
    m_callingCode->setText(tr("Phone numbers written without + are from %1 (+%2)").arg(country, code));
    m_callingCode->setChecked(true);
    m_callingCode->setVisible(bool(m_saveCallingCode));
}

void WelcomeDialog::createAccount()
{
    m_errors->clear();
    QJsonObject details;
    const QString name = m_name->text().trimmed();
    const QString email = m_email->text().trimmed();
    if (name.isEmpty())
        details.insert(QStringLiteral("name"), tr("Enter your name."));
    if (!ContactRules::isValidEmail(email)) // the rule contacts' addresses follow: "selin@ornek" is not one
        details.insert(QStringLiteral("email"), tr("Enter an e-mail address such as name@company.com."));
    if (m_password->text().size() < kMinPasswordLength)
        details.insert(QStringLiteral("password"),
                       tr("The password needs at least %n characters.", nullptr, kMinPasswordLength));
    else if (m_repeat->text() != m_password->text())
        details.insert(QStringLiteral("repeat"), tr("The two passwords differ."));
    if (!details.isEmpty()) {
        m_errors->show(tr("Please check the marked fields."), details);
        return;
    }
    User user;
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor); // the password's key derivation takes a moment
        user = m_createAccount(name, email, m_password->text());
        QApplication::restoreOverrideCursor();
    } catch (const DomainError &e) {
        QApplication::restoreOverrideCursor();
        QJsonObject fieldDetails;
        if (e.kind() == DomainError::Conflict)
            fieldDetails.insert(QStringLiteral("email"), tr("An account with this e-mail address exists already."));
        else if (e.problems().contains(QStringLiteral("email")))
            fieldDetails.insert(QStringLiteral("email"), tr("Enter an e-mail address such as name@company.com."));
        m_errors->show(fieldDetails.isEmpty() ? ErrorText::of(e) : tr("Please check the marked fields."), fieldDetails);
        return;
    } catch (const std::exception &e) {
        QApplication::restoreOverrideCursor();
        m_errors->show(tr("The account could not be saved: %1").arg(ErrorText::of(e)), {});
        return;
    }
    m_password->clear();
    m_repeat->clear();
    if (m_saveCallingCode && m_callingCode->isChecked()) {
        QString why;
        if (!m_saveCallingCode(m_offeredCode, &why))
            qWarning().noquote() << "the country calling code was not saved:" << why;
    }
    emit accountCreated(user);
    showApiPage(user.id);
}

void WelcomeDialog::createKey()
{
    try {
        const NewApiKey key = m_apiKeys.create(tr("First key"), {}, m_ownerId);
        m_secret = key.secret;
    } catch (const std::exception &e) {
        m_key->setText(QString());
        m_key->setPlaceholderText(tr("The key could not be made: %1").arg(ErrorText::of(e)));
        return;
    }
    m_key->setText(m_secret);
    m_key->selectAll();
    m_copyKey->setEnabled(true);
    m_makeKey->setEnabled(false); // one here; more in Settings → API keys
    setApiAddress(m_baseUrl, m_detail);
}
