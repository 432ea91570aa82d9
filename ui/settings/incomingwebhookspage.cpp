#include "ui/settings/incomingwebhookspage.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/settings/incomingwebhookdialog.h"
#include "ui/settings/secretdialog.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace UiKit;

namespace {
// The outcome of an incoming call, as the log shows it.
QString outcomeName(const QString &outcome)
{
    if (outcome == QLatin1String("processed"))
        return QCoreApplication::translate("WebhookEvent", "processed");
    if (outcome == QLatin1String("failed"))
        return QCoreApplication::translate("WebhookEvent", "failed");
    if (outcome == QLatin1String("rejected"))
        return QCoreApplication::translate("WebhookEvent", "rejected");
    return outcome;
}
} // namespace

IncomingWebhooksPage::IncomingWebhooksPage(const Store &store, const QString &baseUrl, QWidget *parent)
    : QWidget(parent)
    , m_repository(store)
    , m_baseUrl(baseUrl)
{
    setObjectName(QStringLiteral("incomingWebhooksPage"));
    auto *intro = new QLabel(tr("External systems POST {\"event\": …, \"data\": {…}} to an endpoint's URL (no API "
                                "key). Each endpoint runs one action; every call is logged below."),
                             this);
    intro->setWordWrap(true);
    m_table =
        recordTable(ColumnCount, {tr("Name"), tr("Action"), tr("URL"), tr("Signed"), tr("Calls"), tr("Last call")},
                    QStringLiteral("incomingTable"), this);
    installEmptyHint(m_table, tr("No incoming webhooks yet. Add one with Add… and give its URL to the service that "
                                 "should create contacts or deals here."));
    auto *add = new QPushButton(tr("Add…"), this);
    add->setObjectName(QStringLiteral("addIncomingButton"));
    m_copy = new QPushButton(tr("Copy URL"), this);
    m_copy->setObjectName(QStringLiteral("copyUrlButton"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteIncomingButton"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_copy);
    buttons->addWidget(m_delete);
    buttons->addStretch(1);
    m_calls = recordTable(5, {tr("Time"), tr("Event"), tr("Outcome"), tr("Status"), tr("Error")},
                          QStringLiteral("callLogTable"), this);
    m_error = errorLabel(this);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(new QLabel(tr("Call log"), this));
    layout->addWidget(m_calls, 1);
    layout->addWidget(m_error);

    connect(add, &QPushButton::clicked, this, &IncomingWebhooksPage::addEndpoint);
    connect(m_copy, &QPushButton::clicked, this, &IncomingWebhooksPage::copyUrl);
    connect(m_delete, &QPushButton::clicked, this, &IncomingWebhooksPage::deleteEndpoint);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &IncomingWebhooksPage::reloadCalls);
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity) {
        if (entity == EventBus::Entity::IncomingWebhook)
            reload();
    });
    reload();
}

QString IncomingWebhooksPage::currentEndpointId() const
{
    const int row = m_table->currentRow();
    return row >= 0 && m_table->item(row, 0) ? m_table->item(row, 0)->data(IdRole).toString() : QString();
}

QString IncomingWebhooksPage::urlOf(const QString &endpointId) const
{
    const QString path = QStringLiteral("/webhooks/incoming/") + endpointId;
    return m_baseUrl.isEmpty() ? path : m_baseUrl + path;
}

void IncomingWebhooksPage::setBaseUrl(const QString &baseUrl)
{
    m_baseUrl = baseUrl;
    reload();
}

void IncomingWebhooksPage::reload()
{
    const QString selected = currentEndpointId();
    {
        QSignalBlocker block(m_table);
        try {
            const QVector<IncomingWebhook> list = m_repository.list();
            m_table->setRowCount(int(list.size()));
            for (int row = 0; row < list.size(); ++row) {
                const IncomingWebhook &e = list.at(row);
                m_table->setItem(row, NameColumn, tableItem(e.name, e.id));
                m_table->setItem(row, ActionColumn, tableItem(e.action));
                m_table->setItem(row, UrlColumn, tableItem(urlOf(e.id)));
                m_table->setItem(row, SignedColumn, tableItem(e.secret.isEmpty() ? tr("No") : tr("Yes")));
                m_table->setItem(row, CallsColumn, tableItem(QString::number(e.callCount)));
                m_table->setItem(row, LastCallColumn, tableItem(localTime(e.lastCallAt)));
            }
            reselect(m_table, selected);
            showError(m_error, {});
        } catch (const std::exception &e) {
            showError(m_error, ErrorText::of(e));
        }
    }
    reloadCalls();
}

void IncomingWebhooksPage::reloadCalls()
{
    const QString id = currentEndpointId();
    m_delete->setEnabled(!id.isEmpty());
    m_copy->setEnabled(!id.isEmpty());
    m_calls->setRowCount(0);
    if (id.isEmpty())
        return;
    try {
        const QVector<IncomingWebhookCall> calls = m_repository.calls(id, 1, 200);
        m_calls->setRowCount(int(calls.size()));
        for (int row = 0; row < calls.size(); ++row) {
            const IncomingWebhookCall &c = calls.at(row);
            const QColor colour = c.statusCode < 300 ? UiKit::rowColor(UiKit::RowTone::Success)
                                                     : UiKit::rowColor(UiKit::RowTone::Failure);
            const QList<QTableWidgetItem *> cells{tableItem(localTime(c.receivedAt), c.id), tableItem(c.event),
                                                  tableItem(outcomeName(c.outcome)),
                                                  tableItem(QString::number(c.statusCode)), tableItem(c.error)};
            for (int col = 0; col < cells.size(); ++col) {
                cells.at(col)->setBackground(colour);
                m_calls->setItem(row, col, cells.at(col));
            }
        }
    } catch (const std::exception &e) {
        showError(m_error, ErrorText::of(e));
    }
}

void IncomingWebhooksPage::addEndpoint()
{
    auto *dialog = new IncomingWebhookDialog(m_repository, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        dialog, &IncomingWebhookDialog::created, this,
        [this](const QString &id, const QString &secret) {
            reload();
            reselect(m_table, id);
            if (!secret.isEmpty()) {
                auto *shown = new SecretDialog(tr("Signing secret of the incoming webhook"), secret, this);
                shown->setAttribute(Qt::WA_DeleteOnClose);
                shown->open();
            }
        },
        Qt::QueuedConnection);
    dialog->open();
}

void IncomingWebhooksPage::deleteEndpoint()
{
    const QString id = currentEndpointId();
    if (id.isEmpty())
        return;
    MessageBoxes::confirm(this, tr("Delete incoming webhook"),
                          tr("Delete \"%1\"? Calls to its URL will be answered 404.")
                              .arg(m_table->item(m_table->currentRow(), NameColumn)->text()),
                          tr("Delete"), [this, id] {
                              try {
                                  m_repository.remove(id);
                              } catch (const std::exception &e) {
                                  showError(m_error, ErrorText::of(e));
                              }
                          });
}

void IncomingWebhooksPage::copyUrl()
{
    const QString id = currentEndpointId();
    if (!id.isEmpty())
        QApplication::clipboard()->setText(urlOf(id));
}
