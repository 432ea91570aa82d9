#include "mainwindow.h"

#include "apikeyspage.h"
#include "contactsview.h"
#include "pipelineboard.h"
#include "segmentspanel.h"
#include "settingsdialog.h"
#include "webhookspage.h"
#include "widgetsettingspage.h"

#include <QAction>
#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>

MainWindow::MainWindow(ContactRepository &contacts, ApiKeyRepository &apiKeys, EventBus &bus, QWidget *parent)
    : QMainWindow(parent)
    , m_apiKeys(apiKeys)
    , m_bus(bus)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Liaison"));

    m_navigation = new QListWidget(this);
    m_navigation->setObjectName(QStringLiteral("navigation"));
    m_navigation->setFixedWidth(150);
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setStyleSheet(QStringLiteral("QListWidget { background: palette(window); }"
                                               "QListWidget::item { padding: 8px 12px; }"));
    QFont navFont = m_navigation->font();
    navFont.setPointSizeF(navFont.pointSizeF() * 1.1);
    m_navigation->setFont(navFont);

    m_stack = new QStackedWidget(this);
    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_navigation);
    auto *line = new QFrame(central);
    line->setFrameShape(QFrame::VLine);
    line->setFrameShadow(QFrame::Sunken);
    layout->addWidget(line);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    connect(m_navigation, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);

    m_contacts = new ContactsView(contacts, bus, m_stack);
    addArea(tr("Contacts"), SegmentsPanel::besideContacts(m_contacts, bus, m_stack));
    addArea(tr("Deals"), new PipelineBoard(bus, m_stack));
    m_navigation->setCurrentRow(0);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *settings = menuBar()->addMenu(tr("&Settings"));
    QAction *apiKeysAction = settings->addAction(tr("&API keys…"), this, &MainWindow::showApiKeys);
    apiKeysAction->setObjectName(QStringLiteral("apiKeysAction"));
    settings->addAction(tr("&Webhooks…"), this, &MainWindow::showWebhooks)
        ->setObjectName(QStringLiteral("webhooksAction"));
    settings->addAction(tr("&Incoming webhooks…"), this, &MainWindow::showIncomingWebhooks)
        ->setObjectName(QStringLiteral("incomingWebhooksAction"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Liaison"), this, [this] {
        auto *box = new QMessageBox(
            QMessageBox::Information, tr("About Liaison"),
            tr("Liaison %1\nA desktop CRM with a local REST API.").arg(QCoreApplication::applicationVersion()),
            QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });

    m_serverStatus = new QLabel(this);
    m_serverStatus->setObjectName(QStringLiteral("serverStatusLabel"));
    m_serverStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addPermanentWidget(m_serverStatus);
    m_serverStatus->setText(tr("API: not started"));

    resize(1200, 720);
}

int MainWindow::addArea(const QString &title, QWidget *view)
{
    const int index = m_stack->addWidget(view);
    m_navigation->addItem(title);
    return index;
}

void MainWindow::setServerStatus(const QString &address, bool running, const QString &detail)
{
    m_serverAddress = running ? address : QString();
    if (running) {
        m_serverStatus->setText(tr("API: %1 — running").arg(address));
        m_serverStatus->setStyleSheet({});
    } else {
        m_serverStatus->setText(detail.isEmpty() ? tr("API server stopped") : tr("API server stopped: %1").arg(detail));
        m_serverStatus->setStyleSheet(QStringLiteral("color: #c0392b;"));
    }
    m_serverStatus->setToolTip(detail.isEmpty() ? address : detail);
}

void MainWindow::showApiKeys()
{
    if (!m_settings) {
        m_settings = new SettingsDialog(m_apiKeys, m_bus, this);
        m_settings->setAttribute(Qt::WA_DeleteOnClose);
        m_settings->addPage(tr("Webhooks"), new WebhooksPage(m_bus, m_webhooksInsecureLocal, m_settings));
        m_settings->addPage(tr("Incoming webhooks"), new IncomingWebhooksPage(m_bus, m_serverAddress, m_settings));
        m_settings->addPage(tr("Web widget"), new WidgetSettingsPage(m_serverAddress, m_settings));
    }
    m_settings->showPage(QStringLiteral("apiKeysPage"));
    m_settings->open();
    m_settings->raise();
}

void MainWindow::showWebhooks()
{
    showApiKeys();
    m_settings->showPage(QStringLiteral("webhooksPage"));
}

void MainWindow::showIncomingWebhooks()
{
    showApiKeys();
    m_settings->showPage(QStringLiteral("incomingWebhooksPage"));
}
