#include "ui/settings/webhookspage.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/settings/secretdialog.h"
#include "ui/settings/webhookdialog.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace UiKit;

WebhooksPage::WebhooksPage(const Store &store, WebhookPolicy policy, QWidget *parent)
    : QWidget(parent)
    , m_repository(store, policy)
{
    setObjectName(QStringLiteral("webhooksPage"));
    auto *intro = new QLabel(tr("Liaison POSTs each event to the subscribed URLs, signed with the subscription's "
                                "secret (X-Service-Signature). Failed deliveries are retried; a subscription whose "
                                "retries all fail is disabled."),
                             this);
    intro->setWordWrap(true);

    m_table = recordTable(ColumnCount, {tr("URL"), tr("Events"), tr("State"), tr("Failures"), tr("Created")},
                          QStringLiteral("webhooksTable"), this);
    installEmptyHint(m_table, tr("No subscriptions yet. Add one with Add… to have Liaison POST its events to your "
                                 "URL."));
    m_add = new QPushButton(tr("Add…"), this);
    m_add->setObjectName(QStringLiteral("addWebhookButton"));
    m_edit = new QPushButton(tr("Edit…"), this);
    m_edit->setObjectName(QStringLiteral("editWebhookButton"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteWebhookButton"));
    m_toggle = new QPushButton(tr("Disable"), this);
    m_toggle->setObjectName(QStringLiteral("toggleWebhookButton"));
    m_testEvent = new QComboBox(this);
    m_testEvent->setObjectName(QStringLiteral("testEventBox"));
    // Each event by what it means, its name (what the receiver gets) beside it.
    for (const QString &event : WebhookEvents::all()) {
        const QString description = WebhookDialog::eventDescription(event);
        m_testEvent->addItem(description.isEmpty() ? event : QStringLiteral("%1 (%2)").arg(description, event), event);
    }
    m_test = new QPushButton(tr("Send test"), this);
    m_test->setObjectName(QStringLiteral("sendTestButton"));
    auto *buttons = new QHBoxLayout;
    for (QWidget *w : {static_cast<QWidget *>(m_add), static_cast<QWidget *>(m_edit), static_cast<QWidget *>(m_delete),
                       static_cast<QWidget *>(m_toggle)})
        buttons->addWidget(w);
    buttons->addStretch(1);
    buttons->addWidget(m_testEvent);
    buttons->addWidget(m_test);

    m_log = recordTable(
        LogColumnCount,
        {tr("Time"), tr("Event"), tr("Attempt"), tr("Status"), tr("Latency"), tr("Next retry"), tr("Response")},
        QStringLiteral("deliveryLogTable"), this);
    m_redeliver = new QPushButton(tr("Redeliver"), this);
    m_redeliver->setObjectName(QStringLiteral("redeliverButton"));
    auto *logButtons = new QHBoxLayout;
    logButtons->addWidget(new QLabel(tr("Delivery log"), this));
    logButtons->addStretch(1);
    logButtons->addWidget(m_redeliver);
    m_error = errorLabel(this);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_table);
    topLayout->addLayout(buttons);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addLayout(logButtons);
    bottomLayout->addWidget(m_log);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(split, 1);
    layout->addWidget(m_error);

    connect(m_add, &QPushButton::clicked, this, &WebhooksPage::addWebhook);
    connect(m_edit, &QPushButton::clicked, this, &WebhooksPage::editWebhook);
    connect(m_table, &QTableWidget::doubleClicked, this, &WebhooksPage::editWebhook);
    connect(m_delete, &QPushButton::clicked, this, &WebhooksPage::deleteWebhook);
    connect(m_toggle, &QPushButton::clicked, this, &WebhooksPage::toggleActive);
    connect(m_test, &QPushButton::clicked, this, &WebhooksPage::sendTest);
    connect(m_redeliver, &QPushButton::clicked, this, &WebhooksPage::redeliver);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        reloadLog();
        updateActions();
    });
    connect(m_log, &QTableWidget::itemSelectionChanged, this, &WebhooksPage::updateActions);
    // The dispatcher (delivery thread) and the API (server thread) report their changes here.
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity) {
        if (entity == EventBus::Entity::Webhook)
            reload();
    });
    reload();
}

QString WebhooksPage::currentWebhookId() const
{
    const int row = m_table->currentRow();
    return row >= 0 && m_table->item(row, 0) ? m_table->item(row, 0)->data(IdRole).toString() : QString();
}

void WebhooksPage::setError(const QString &text)
{
    showError(m_error, text);
}

void WebhooksPage::reload()
{
    const QString selected = currentWebhookId();
    QSignalBlocker block(m_table);
    try {
        const QVector<WebhookSubscription> list = m_repository.list();
        m_table->setRowCount(int(list.size()));
        for (int row = 0; row < list.size(); ++row) {
            const WebhookSubscription &w = list.at(row);
            m_table->setItem(row, UrlColumn, tableItem(w.url, w.id));
            m_table->setItem(row, EventsColumn,
                             tableItem(w.events.contains(QStringLiteral("*")) ? tr("All events")
                                                                              : w.events.join(QStringLiteral(", "))));
            auto *state = tableItem(w.active ? tr("Active") : tr("Disabled: %1").arg(w.disabledReason));
            state->setBackground(w.active ? UiKit::rowColor(UiKit::RowTone::Success)
                                          : UiKit::rowColor(UiKit::RowTone::Failure));
            m_table->setItem(row, StateColumn, state);
            m_table->setItem(row, FailuresColumn, tableItem(QString::number(w.failureCount)));
            m_table->setItem(row, CreatedColumn, tableItem(localTime(w.createdAt)));
        }
        m_table->resizeColumnToContents(StateColumn);
        reselect(m_table, selected);
        setError({});
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
    reloadLog();
    updateActions();
}

void WebhooksPage::reloadLog()
{
    const QString id = currentWebhookId();
    QSignalBlocker block(m_log);
    m_log->setRowCount(0);
    if (id.isEmpty())
        return;
    try {
        const QVector<WebhookAttempt> attempts = m_repository.attempts(id, 1, 200);
        m_log->setRowCount(int(attempts.size()));
        for (int row = 0; row < attempts.size(); ++row) {
            const WebhookAttempt &a = attempts.at(row);
            QString status;
            if (a.finishedAt.isEmpty())
                status = tr("sending…");
            else if (a.statusCode)
                status =
                    a.success ? QString::number(a.statusCode) : QStringLiteral("%1 %2").arg(a.statusCode).arg(a.error);
            else
                status = a.error;
            const QString event = a.kind == QLatin1String("event") ? a.event : tr("%1 (%2)").arg(a.event, a.kind);
            const QList<QTableWidgetItem *> cells{
                tableItem(localTime(a.startedAt), a.deliveryId),
                tableItem(event),
                tableItem(QString::number(a.attempt)),
                tableItem(status),
                tableItem(a.latencyMs >= 0 ? tr("%1 ms").arg(a.latencyMs) : QString()),
                tableItem(localTime(a.nextRetryAt)),
                tableItem(a.responseExcerpt.left(200).simplified()),
            };
            const QColor colour = a.success ? UiKit::rowColor(UiKit::RowTone::Success)
                                  : a.finishedAt.isEmpty() || !a.nextRetryAt.isEmpty()
                                      ? UiKit::rowColor(UiKit::RowTone::Pending)
                                      : UiKit::rowColor(UiKit::RowTone::Failure);
            for (int c = 0; c < cells.size(); ++c) {
                cells.at(c)->setBackground(colour);
                m_log->setItem(row, c, cells.at(c));
            }
        }
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
    updateActions();
}

void WebhooksPage::updateActions()
{
    const bool has = !currentWebhookId().isEmpty();
    m_edit->setEnabled(has);
    m_delete->setEnabled(has);
    m_toggle->setEnabled(has);
    m_test->setEnabled(has);
    m_redeliver->setEnabled(has && m_log->currentRow() >= 0);
    if (has) {
        const QTableWidgetItem *state = m_table->item(m_table->currentRow(), StateColumn);
        const bool active = state && state->text() == tr("Active");
        m_toggle->setText(active ? tr("Disable") : tr("Enable"));
    }
}

void WebhooksPage::showSecret(const QString &secret)
{
    auto *dialog = new SecretDialog(tr("Signing secret"), secret, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void WebhooksPage::addWebhook()
{
    auto *dialog = new WebhookDialog(m_repository, std::nullopt, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &WebhookDialog::secretCreated, this, &WebhooksPage::showSecret, Qt::QueuedConnection);
    dialog->open();
}

void WebhooksPage::editWebhook()
{
    const QString id = currentWebhookId();
    if (id.isEmpty())
        return;
    const std::optional<WebhookSubscription> w = m_repository.find(id);
    if (!w)
        return reload();
    auto *dialog = new WebhookDialog(m_repository, w, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &WebhookDialog::secretCreated, this, &WebhooksPage::showSecret, Qt::QueuedConnection);
    dialog->open();
}

void WebhooksPage::deleteWebhook()
{
    const QString id = currentWebhookId();
    if (id.isEmpty())
        return;
    const QString url = m_table->item(m_table->currentRow(), UrlColumn)->text();
    MessageBoxes::confirm(this, tr("Delete webhook"),
                          tr("Delete the webhook to %1 and its delivery log? Pending deliveries are dropped.").arg(url),
                          tr("Delete"), [this, id] {
                              try {
                                  m_repository.remove(id);
                              } catch (const std::exception &e) {
                                  setError(ErrorText::of(e));
                              }
                          });
}

void WebhooksPage::toggleActive()
{
    const QString id = currentWebhookId();
    if (id.isEmpty())
        return;
    try {
        const WebhookSubscription w = m_repository.get(id);
        m_repository.setActive(id, !w.active);
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
}

void WebhooksPage::sendTest()
{
    const QString id = currentWebhookId();
    if (id.isEmpty())
        return;
    try {
        // The delivery thread sends it; the result appears in the log.
        m_repository.queueTest(id, m_testEvent->currentData().toString());
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
}

void WebhooksPage::redeliver()
{
    const QString id = currentWebhookId();
    const int row = m_log->currentRow();
    if (id.isEmpty() || row < 0)
        return;
    try {
        m_repository.redeliver(id, m_log->item(row, LogTimeColumn)->data(IdRole).toString());
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
}
