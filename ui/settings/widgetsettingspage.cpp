#include "ui/settings/widgetsettingspage.h"
#include "ui/shell/uikit.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace {
bool isLoopback(const QString &baseUrl)
{
    const QString host = QUrl(baseUrl).host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    // (ui does not link QtNetwork: QHostAddress is not at hand)
    return host.startsWith(QLatin1String("127.")) || host == QLatin1String("::1");
}
} // namespace

WidgetSettingsPage::WidgetSettingsPage(const QString &baseUrl, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("widgetSettingsPage"));

    auto *intro = new QLabel(tr("Put a chat button on your web site: paste this line into its pages, just before "
                                "</body>. Visitors' messages arrive in the Inbox on the Web widget channel, and "
                                "your answers appear in their chat at once."),
                             this);
    intro->setWordWrap(true);

    m_address = new QLineEdit(this);
    m_address->setObjectName(QStringLiteral("widgetServerAddress"));
    m_address->setPlaceholderText(tr("https://crm.example.com"));
    m_address->setText(baseUrl);

    m_snippet = new QPlainTextEdit(this);
    m_snippet->setObjectName(QStringLiteral("widgetSnippet"));
    m_snippet->setReadOnly(true);
    m_snippet->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_snippet->setMaximumHeight(80);

    m_copy = new QPushButton(tr("&Copy"), this);
    m_copy->setObjectName(QStringLiteral("copyWidgetSnippet"));
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_status->setObjectName(QStringLiteral("widgetCopyStatus"));

    m_hint = new QLabel(this);
    m_hint->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_hint->setObjectName(QStringLiteral("widgetAddressHint"));
    m_hint->setWordWrap(true);
    UiKit::setTone(m_hint, UiKit::Tone::Warning);

    auto *form = new QFormLayout;
    form->addRow(tr("Server address:"), m_address);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_copy);
    buttons->addWidget(m_status, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_hint);
    layout->addWidget(new QLabel(tr("Embed code:"), this));
    layout->addWidget(m_snippet);
    layout->addLayout(buttons);
    layout->addStretch(1);

    connect(m_address, &QLineEdit::textChanged, this, &WidgetSettingsPage::update);
    connect(m_copy, &QPushButton::clicked, this, &WidgetSettingsPage::copy);
    update();
}

QString WidgetSettingsPage::snippet(const QString &baseUrl)
{
    QString base = baseUrl.trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    if (base.isEmpty())
        base = QStringLiteral("https://YOUR-SERVER");
    return QStringLiteral("<script src=\"%1/widget/embed.js\" async></script>").arg(base.toHtmlEscaped());
}

QString WidgetSettingsPage::currentSnippet() const
{
    return m_snippet->toPlainText();
}

void WidgetSettingsPage::setBaseUrl(const QString &baseUrl)
{
    m_address->setText(baseUrl);
}

void WidgetSettingsPage::update()
{
    const QString address = m_address->text().trimmed();
    m_snippet->setPlainText(snippet(address));
    m_status->clear();
    if (address.isEmpty())
        m_hint->setText(tr("The API server is not running: enter the address where visitors' browsers reach it."));
    else if (isLoopback(address))
        m_hint->setText(tr("This address only works on this computer. For a public site, enter the address "
                           "visitors' browsers reach (and let the server listen on it)."));
    else
        m_hint->clear();
    m_hint->setVisible(!m_hint->text().isEmpty());
}

void WidgetSettingsPage::copy()
{
    QGuiApplication::clipboard()->setText(currentSnippet());
    m_status->setText(tr("Copied to the clipboard."));
}
