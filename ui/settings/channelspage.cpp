#include "ui/settings/channelspage.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace {
QString key(const QString &channel, const char *name)
{
    return QStringLiteral("channels/") + channel + QLatin1Char('/') + QLatin1String(name);
}
} // namespace

ChannelsPage::ChannelsPage(QWidget *parent)
    : QWidget(parent)
    , m_form(this,
             tr("Connect the messaging channels. Tokens and secrets are kept in the system "
                "keychain; changes take effect at the next start."),
             QStringLiteral("channels"))
{
    setObjectName(QStringLiteral("channelsPage"));
    QVBoxLayout *groups = m_form.groups();
    groups->addWidget(channelGroup(QStringLiteral("whatsapp"), tr("WhatsApp Cloud API")));
    groups->addWidget(channelGroup(QStringLiteral("telegram"), tr("Telegram bot")));
    groups->addWidget(channelGroup(QStringLiteral("instagram"), tr("Instagram messaging")));
    groups->addStretch(1);
    connect(m_form.saveButton(), &QPushButton::clicked, this, &ChannelsPage::save);
    setServerBaseUrl({});
    refreshStatus();
    // A provider going down or coming back shows without reopening Settings.
    auto *timer = new QTimer(this);
    timer->setInterval(5000);
    connect(timer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refreshStatus();
    });
    timer->start();
}

QStringList ChannelsPage::channels()
{
    return {QStringLiteral("whatsapp"), QStringLiteral("telegram"), QStringLiteral("instagram")};
}

QStringList ChannelsPage::keys()
{
    return {key(QStringLiteral("whatsapp"), "apiBaseUrl"),  key(QStringLiteral("whatsapp"), "phoneNumberId"),
            key(QStringLiteral("whatsapp"), "accessToken"), key(QStringLiteral("whatsapp"), "appSecret"),
            key(QStringLiteral("whatsapp"), "verifyToken"), key(QStringLiteral("whatsapp"), "sendPerSecond"),
            key(QStringLiteral("telegram"), "apiBaseUrl"),  key(QStringLiteral("telegram"), "botToken"),
            key(QStringLiteral("telegram"), "mode"),        key(QStringLiteral("telegram"), "secretToken"),
            key(QStringLiteral("telegram"), "webhookUrl"),  key(QStringLiteral("instagram"), "apiBaseUrl"),
            key(QStringLiteral("instagram"), "accountId"),  key(QStringLiteral("instagram"), "accessToken"),
            key(QStringLiteral("instagram"), "appSecret"),  key(QStringLiteral("instagram"), "verifyToken")};
}

QStringList ChannelsPage::secretKeys()
{
    return {key(QStringLiteral("whatsapp"), "accessToken"), key(QStringLiteral("whatsapp"), "appSecret"),
            key(QStringLiteral("whatsapp"), "verifyToken"), key(QStringLiteral("telegram"), "botToken"),
            key(QStringLiteral("telegram"), "secretToken"), key(QStringLiteral("instagram"), "accessToken"),
            key(QStringLiteral("instagram"), "appSecret"),  key(QStringLiteral("instagram"), "verifyToken")};
}

QLineEdit *ChannelsPage::addField(QFormLayout *form, const QString &settingsKey, const QString &label, bool secret,
                                  const QString &placeholder)
{
    return m_form.addField(form, settingsKey, label, placeholder, secret);
}

QWidget *ChannelsPage::channelGroup(const QString &channel, const QString &title)
{
    auto *box = new QGroupBox(title);
    box->setObjectName(channel + QStringLiteral("Group"));
    auto *form = new QFormLayout(box);
    if (channel == QLatin1String("whatsapp")) {
        addField(form, key(channel, "apiBaseUrl"), tr("API base URL"), false,
                 QStringLiteral("https://graph.facebook.com/v19.0"));
        addField(form, key(channel, "phoneNumberId"), tr("Phone number ID"), false);
        addField(form, key(channel, "accessToken"), tr("Access token"), true);
        addField(form, key(channel, "appSecret"), tr("App secret"), true);
        addField(form, key(channel, "verifyToken"), tr("Verify token"), true);
        m_whatsAppRate = new QSpinBox(box);
        m_whatsAppRate->setObjectName(key(channel, "sendPerSecond"));
        m_whatsAppRate->setRange(0, 100000);
        m_whatsAppRate->setValue(80);
        m_whatsAppRate->setSpecialValueText(tr("Unlimited"));
        m_whatsAppRate->setSuffix(tr(" messages/s"));
        form->addRow(tr("Send per second"), m_whatsAppRate);
    } else if (channel == QLatin1String("telegram")) {
        addField(form, key(channel, "apiBaseUrl"), tr("API base URL"), false,
                 QStringLiteral("https://api.telegram.org"));
        addField(form, key(channel, "botToken"), tr("Bot token"), true, tr("from @BotFather"));
        m_mode = new QComboBox(box);
        m_mode->setObjectName(key(channel, "mode"));
        m_mode->addItem(tr("Long polling (works behind NAT)"), QStringLiteral("polling"));
        m_mode->addItem(tr("Webhook"), QStringLiteral("webhook"));
        form->addRow(tr("Receive by"), m_mode);
        addField(form, key(channel, "secretToken"), tr("Webhook secret token"), true, tr("A-Z, a-z, 0-9, _ and -"));
        addField(form, key(channel, "webhookUrl"), tr("Register webhook at"), false,
                 tr("optional: our public https URL, registered with setWebhook at start"));
    } else {
        addField(form, key(channel, "apiBaseUrl"), tr("API base URL"), false,
                 QStringLiteral("https://graph.facebook.com/v19.0"));
        addField(form, key(channel, "accountId"), tr("Account ID"), false, QStringLiteral("me"));
        addField(form, key(channel, "accessToken"), tr("Access token"), true);
        addField(form, key(channel, "appSecret"), tr("App secret"), true);
        addField(form, key(channel, "verifyToken"), tr("Verify token"), true);
    }
    auto *webhook = new QLineEdit(box);
    webhook->setObjectName(channel + QStringLiteral("WebhookUrl"));
    webhook->setReadOnly(true);
    m_webhookUrls.insert(channel, webhook);
    form->addRow(tr("Webhook URL for the provider"), webhook);

    auto *status = new QLabel(box);
    status->setTextFormat(Qt::PlainText); // data from outside is never markup
    status->setObjectName(channel + QStringLiteral("Status"));
    status->setWordWrap(true);
    m_statusLabels.insert(channel, status);
    form->addRow(tr("Status"), status);

    auto *testRow = new QHBoxLayout;
    auto *test = new QPushButton(tr("Test connection"), box);
    test->setObjectName(channel + QStringLiteral("Test"));
    auto *result = new QLabel(box);
    result->setTextFormat(Qt::PlainText); // data from outside is never markup
    result->setObjectName(channel + QStringLiteral("TestResult"));
    result->setWordWrap(true);
    result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testRow->addWidget(test);
    testRow->addWidget(result, 1);
    form->addRow(testRow);
    m_testButtons.insert(channel, test);
    m_testResults.insert(channel, result);
    connect(test, &QPushButton::clicked, this, [this, channel] { testConnection(channel); });
    return box;
}

void ChannelsPage::setStatusFunction(StatusFunction status)
{
    m_status = std::move(status);
    refreshStatus();
}

void ChannelsPage::setServerBaseUrl(const QString &url)
{
    m_serverBaseUrl = url.endsWith(QLatin1Char('/')) ? url.chopped(1) : url;
    for (auto it = m_webhookUrls.begin(); it != m_webhookUrls.end(); ++it) {
        if (m_serverBaseUrl.isEmpty()) {
            it.value()->clear();
            it.value()->setPlaceholderText(tr("the API server is not running"));
        } else {
            it.value()->setText(m_serverBaseUrl + QStringLiteral("/webhooks/") + it.key());
        }
    }
}

void ChannelsPage::setValues(const Values &values)
{
    m_form.setTexts(values);
    const int mode = m_mode->findData(values.value(key(QStringLiteral("telegram"), "mode"), QStringLiteral("polling")));
    m_mode->setCurrentIndex(qMax(0, mode));
    bool ok = false;
    const int rate = values.value(key(QStringLiteral("whatsapp"), "sendPerSecond")).toInt(&ok);
    m_whatsAppRate->setValue(ok ? rate : 80);
}

ChannelsPage::Values ChannelsPage::values() const
{
    Values out = m_form.texts();
    out.insert(key(QStringLiteral("telegram"), "mode"), m_mode->currentData().toString());
    out.insert(key(QStringLiteral("whatsapp"), "sendPerSecond"), QString::number(m_whatsAppRate->value()));
    return out;
}

QLineEdit *ChannelsPage::field(const QString &settingsKey) const
{
    return m_form.field(settingsKey);
}

QPushButton *ChannelsPage::testButton(const QString &channel) const
{
    return m_testButtons.value(channel);
}

QLabel *ChannelsPage::testResultLabel(const QString &channel) const
{
    return m_testResults.value(channel);
}

QLabel *ChannelsPage::statusLabel(const QString &channel) const
{
    return m_statusLabels.value(channel);
}

QLineEdit *ChannelsPage::webhookUrlField(const QString &channel) const
{
    return m_webhookUrls.value(channel);
}

void ChannelsPage::refreshStatus()
{
    for (const QString &channel : channels()) {
        QLabel *label = m_statusLabels.value(channel);
        if (!label)
            continue;
        const Status s = m_status ? m_status(channel) : Status{};
        if (!s.configured)
            label->setText(tr("Not configured"));
        else if (s.down)
            label->setText(tr("Provider down: %1").arg(s.reason.isEmpty() ? tr("no answer") : s.reason));
        else
            label->setText(tr("Configured"));
    }
}

void ChannelsPage::testConnection(const QString &channel)
{
    QPushButton *button = m_testButtons.value(channel);
    QLabel *result = m_testResults.value(channel);
    if (!button || !result)
        return;
    if (!m_probe) {
        result->setText(tr("Testing is not available here."));
        return;
    }
    button->setEnabled(false);
    result->setText(tr("Testing…"));
    QPointer<ChannelsPage> self(this);
    m_probe(channel, values(), [self, channel](bool ok, const QString &detail) {
        if (!self)
            return;
        self->m_testButtons.value(channel)->setEnabled(true);
        self->m_testResults.value(channel)->setText(ok ? tr("Connection works: %1").arg(detail)
                                                       : tr("Connection failed: %1").arg(detail));
    });
}

bool ChannelsPage::save()
{
    const Values v = values();
    return m_form.save({}, m_save ? [this, &v](QString *error) { return m_save(v, error); }
                                  : std::function<bool(QString *)>());
}
