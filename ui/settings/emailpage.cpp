#include "ui/settings/emailpage.h"

#include "ui/shell/uikit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
const QString kMailHost = QStringLiteral("mail/smtpHost");
const QString kMailPort = QStringLiteral("mail/smtpPort");
const QString kMailSecurity = QStringLiteral("mail/security");
const QString kMailUser = QStringLiteral("mail/user");
const QString kMailPassword = QStringLiteral("mail.password");
const QString kMailFrom = QStringLiteral("mail/from");
const QString kMailVerifyTls = QStringLiteral("mail/verifyTls");
const QString kMailDkimDomain = QStringLiteral("mail/dkimDomain");
const QString kMailDkimSelector = QStringLiteral("mail/dkimSelector");
const QString kMailDkimKey = QStringLiteral("mail.dkimKey");

bool emailPageLoopback(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    QString bare = host;
    if (bare.startsWith(QLatin1Char('[')) && bare.endsWith(QLatin1Char(']')))
        bare = bare.mid(1, bare.size() - 2);
    // 127.0.0.0/8 and ::1 (the UI library does not link Qt Network's QHostAddress).
    static const QRegularExpression v4(QStringLiteral("^127(\\.\\d{1,3}){3}$"));
    return v4.match(bare).hasMatch() || bare == QLatin1String("::1");
}
} // namespace

EmailPage::EmailPage(QWidget *parent)
    : QWidget(parent)
    , m_form(this,
             tr("The mail server campaigns send e-mail through. The password and the DKIM key are "
                "kept in the system keychain; changes take effect at the next start."),
             QStringLiteral("email"))
{
    setObjectName(QStringLiteral("emailPage"));
    QWidget *content = m_form.content();
    QVBoxLayout *groups = m_form.groups();

    auto *server = new QGroupBox(tr("SMTP server"), content);
    server->setObjectName(QStringLiteral("smtpGroup"));
    auto *serverForm = new QFormLayout(server);
    m_form.addField(serverForm, kMailHost, tr("Host"), tr("e.g. smtp.ornek.com.tr"));
    m_port = new QSpinBox(server);
    m_port->setObjectName(kMailPort);
    m_port->setRange(1, 65535);
    m_port->setValue(DefaultPort);
    auto *portRow = new QHBoxLayout;
    portRow->addWidget(m_port);
    portRow->addStretch(1);
    serverForm->addRow(tr("Port"), portRow);
    m_security = new QComboBox(server);
    m_security->setObjectName(kMailSecurity);
    m_security->addItem(tr("STARTTLS (usually port 587)"), QStringLiteral("starttls"));
    m_security->addItem(tr("TLS from the start (usually port 465)"), QStringLiteral("tls"));
    m_security->addItem(tr("None (only a server on this machine)"), QStringLiteral("none"));
    serverForm->addRow(tr("Security"), m_security);
    m_verifyTls = new QCheckBox(tr("Check the server's certificate"), server);
    m_verifyTls->setObjectName(kMailVerifyTls);
    m_verifyTls->setChecked(true);
    serverForm->addRow(QString(), m_verifyTls);
    m_form.addField(serverForm, kMailUser, tr("User"), tr("empty: no sign-in"));
    m_form.addField(serverForm, kMailPassword, tr("Password"), QString(), true);
    m_form.addField(serverForm, kMailFrom, tr("From"), tr("Örnek Ltd. <bulten@ornek.com.tr>"));
    groups->addWidget(server);
    // The usual port follows the security chosen, unless another one was typed.
    connect(m_security, &QComboBox::currentIndexChanged, this, [this] {
        const QString s = m_security->currentData().toString();
        if (m_port->value() == 587 || m_port->value() == 465 || m_port->value() == 25)
            m_port->setValue(s == QLatin1String("tls") ? 465 : s == QLatin1String("starttls") ? 587 : m_port->value());
    });

    auto *dkim = new QGroupBox(tr("DKIM signing"), content);
    dkim->setObjectName(QStringLiteral("dkimGroup"));
    auto *dkimForm = new QFormLayout(dkim);
    auto *dkimIntro = new QLabel(tr("Signed mail reaches inboxes more often. Publish the public key as a TXT record "
                                    "at <selector>._domainkey.<domain>; leave these empty to send unsigned."),
                                 dkim);
    dkimIntro->setTextFormat(Qt::PlainText);
    dkimIntro->setWordWrap(true);
    dkimForm->addRow(dkimIntro);
    m_form.addField(dkimForm, kMailDkimDomain, tr("Domain"), tr("e.g. ornek.com.tr"));
    m_form.addField(dkimForm, kMailDkimSelector, tr("Selector"), tr("e.g. liaison"));
    m_dkimKey = new QPlainTextEdit(dkim);
    m_dkimKey->setObjectName(kMailDkimKey);
    m_dkimKey->setPlaceholderText(QStringLiteral("-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----"));
    m_dkimKey->setTabChangesFocus(true);
    m_dkimKey->setFixedHeight(fontMetrics().lineSpacing() * 5 + 12);
    dkimForm->addRow(tr("Private key (PEM)"), m_dkimKey);
    auto *keyRow = new QHBoxLayout;
    m_keyState = new QLabel(dkim);
    m_keyState->setObjectName(QStringLiteral("dkimKeyState"));
    m_keyState->setTextFormat(Qt::PlainText);
    m_keyState->setWordWrap(true);
    UiKit::setTone(m_keyState, UiKit::Tone::Muted);
    m_removeKey = new QPushButton(tr("Remove the stored key"), dkim);
    m_removeKey->setObjectName(QStringLiteral("removeDkimKey"));
    keyRow->addWidget(m_keyState, 1);
    keyRow->addWidget(m_removeKey);
    dkimForm->addRow(QString(), keyRow);
    groups->addWidget(dkim);
    groups->addStretch(1);
    connect(m_removeKey, &QPushButton::clicked, this, [this] {
        m_storedKey.clear();
        m_dkimKey->clear();
        updateKeyState();
    });
    connect(m_dkimKey, &QPlainTextEdit::textChanged, this, &EmailPage::updateKeyState);

    connect(m_form.saveButton(), &QPushButton::clicked, this, &EmailPage::save);
    UiKit::nameFormFields(this);
    updateKeyState();
}

QStringList EmailPage::keys()
{
    return {kMailHost, kMailPort,      kMailSecurity,   kMailUser,         kMailPassword,
            kMailFrom, kMailVerifyTls, kMailDkimDomain, kMailDkimSelector, kMailDkimKey};
}

QStringList EmailPage::secretKeys()
{
    return {kMailPassword, kMailDkimKey};
}

QLineEdit *EmailPage::field(const QString &key) const
{
    return m_form.field(key);
}

void EmailPage::setValues(const Values &values)
{
    m_form.setTexts(values);
    bool ok = false;
    const int port = values.value(kMailPort).toInt(&ok);
    m_port->setValue(ok && port > 0 && port <= 65535 ? port : DefaultPort);
    {
        const QSignalBlocker block(m_security); // the port as stored, not the security's usual one
        m_security->setCurrentIndex(qMax(0, m_security->findData(values.value(kMailSecurity).trimmed().toLower())));
    }
    const QString verify = values.value(kMailVerifyTls).trimmed().toLower();
    m_verifyTls->setChecked(!(verify == QLatin1String("false") || verify == QLatin1String("0") ||
                              verify == QLatin1String("no") || verify == QLatin1String("off")));
    m_storedKey = values.value(kMailDkimKey);
    m_dkimKey->clear();
    updateKeyState();
}

EmailPage::Values EmailPage::values() const
{
    Values out = m_form.texts();
    out.insert(kMailPort, QString::number(m_port->value()));
    out.insert(kMailSecurity, m_security->currentData().toString());
    out.insert(kMailVerifyTls, m_verifyTls->isChecked() ? QStringLiteral("true") : QStringLiteral("false"));
    const QString pasted = m_dkimKey->toPlainText().trimmed();
    out.insert(kMailDkimKey, pasted.isEmpty() ? m_storedKey : pasted + QLatin1Char('\n'));
    return out;
}

QString EmailPage::problem() const
{
    const Values v = values();
    const QString host = v.value(kMailHost);
    if (v.value(kMailSecurity) == QLatin1String("none") && !host.isEmpty() && !emailPageLoopback(host))
        return tr("Without encryption the password and the mail would cross the network in clear: choose STARTTLS "
                  "or TLS, or a server on this machine (localhost).");
    if (host.contains(QRegularExpression(QStringLiteral("[\\s/]"))))
        return tr("The host is a name or an address, without spaces or slashes.");
    const QString from = v.value(kMailFrom);
    static const QRegularExpression address(
        QStringLiteral("^(?:[^<>]*<\\s*[^<>@\\s]+@[^<>@\\s]+\\s*>|[^<>@\\s]+@[^<>@\\s]+)$"));
    if (!from.isEmpty() && !address.match(from).hasMatch())
        return tr("Write the From address as Name <address@domain> or address@domain.");
    if (!host.isEmpty() && from.isEmpty())
        return tr("Give the From address the mail is sent from.");
    const bool anyDkim = !v.value(kMailDkimDomain).isEmpty() || !v.value(kMailDkimSelector).isEmpty() ||
                         !v.value(kMailDkimKey).isEmpty();
    const bool allDkim = !v.value(kMailDkimDomain).isEmpty() && !v.value(kMailDkimSelector).isEmpty() &&
                         !v.value(kMailDkimKey).isEmpty();
    if (anyDkim && !allDkim)
        return tr("DKIM needs the domain, the selector and the private key, or none of them.");
    const QString key = v.value(kMailDkimKey);
    if (!key.isEmpty() &&
        !(key.contains(QLatin1String("-----BEGIN")) && key.contains(QLatin1String("PRIVATE KEY-----"))))
        return tr("The DKIM key is a private key in PEM form (-----BEGIN PRIVATE KEY-----).");
    return {};
}

void EmailPage::updateKeyState()
{
    const bool pasted = !m_dkimKey->toPlainText().trimmed().isEmpty();
    m_keyState->setText(pasted                  ? tr("The key pasted above is stored when you save.")
                        : m_storedKey.isEmpty() ? tr("No key is stored.")
                                                : tr("A key is stored; paste another to replace it."));
    m_removeKey->setEnabled(!m_storedKey.isEmpty() || pasted);
}

bool EmailPage::save()
{
    const Values v = values();
    if (!m_form.save(problem(), m_save ? [this, &v](QString *error) { return m_save(v, error); }
                                       : std::function<bool(QString *)>()))
        return false;
    m_storedKey = v.value(kMailDkimKey);
    m_dkimKey->clear();
    updateKeyState();
    return true;
}
