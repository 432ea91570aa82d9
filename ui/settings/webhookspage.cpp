#include "ui/settings/webhookspage.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
constexpr int IdRole = Qt::UserRole + 1;
const QColor kSuccess(0xd4, 0xef, 0xdf);
const QColor kFailure(0xf8, 0xd7, 0xda);
const QColor kPending(0xfd, 0xeb, 0xc8);

// What an event means, for the subscription dialog ("deal.won — A deal is marked won"); the name
// itself is what subscribers receive and stays as it is.
QString eventDescription(const QString &event)
{
    static const QHash<QString, const char *> texts = {
        {QStringLiteral("message.received"), QT_TRANSLATE_NOOP("WebhookEvent", "A customer's message arrives")},
        {QStringLiteral("message.sent"), QT_TRANSLATE_NOOP("WebhookEvent", "A reply leaves for the customer")},
        {QStringLiteral("message.delivered"), QT_TRANSLATE_NOOP("WebhookEvent", "A reply reaches the customer")},
        {QStringLiteral("message.read"), QT_TRANSLATE_NOOP("WebhookEvent", "The customer reads a reply")},
        {QStringLiteral("message.failed"), QT_TRANSLATE_NOOP("WebhookEvent", "A reply cannot be delivered")},
        {QStringLiteral("conversation.created"), QT_TRANSLATE_NOOP("WebhookEvent", "A conversation starts")},
        {QStringLiteral("conversation.updated"), QT_TRANSLATE_NOOP("WebhookEvent", "A conversation changes")},
        {QStringLiteral("conversation.assigned"), QT_TRANSLATE_NOOP("WebhookEvent", "A conversation is assigned")},
        {QStringLiteral("conversation.closed"), QT_TRANSLATE_NOOP("WebhookEvent", "A conversation is closed")},
        {QStringLiteral("contact.created"), QT_TRANSLATE_NOOP("WebhookEvent", "A contact is added")},
        {QStringLiteral("contact.updated"), QT_TRANSLATE_NOOP("WebhookEvent", "A contact changes")},
        {QStringLiteral("contact.deleted"), QT_TRANSLATE_NOOP("WebhookEvent", "A contact is deleted")},
        {QStringLiteral("deal.created"), QT_TRANSLATE_NOOP("WebhookEvent", "A deal is added")},
        {QStringLiteral("deal.updated"), QT_TRANSLATE_NOOP("WebhookEvent", "A deal changes")},
        {QStringLiteral("deal.stage_changed"), QT_TRANSLATE_NOOP("WebhookEvent", "A deal moves to another stage")},
        {QStringLiteral("deal.won"), QT_TRANSLATE_NOOP("WebhookEvent", "A deal is won")},
        {QStringLiteral("deal.lost"), QT_TRANSLATE_NOOP("WebhookEvent", "A deal is lost")},
        {QStringLiteral("deal.deleted"), QT_TRANSLATE_NOOP("WebhookEvent", "A deal is deleted")},
        {QStringLiteral("task.created"), QT_TRANSLATE_NOOP("WebhookEvent", "A task is added")},
        {QStringLiteral("task.updated"), QT_TRANSLATE_NOOP("WebhookEvent", "A task changes")},
        {QStringLiteral("task.completed"), QT_TRANSLATE_NOOP("WebhookEvent", "A task is done")},
        {QStringLiteral("task.overdue"), QT_TRANSLATE_NOOP("WebhookEvent", "A task becomes overdue")},
        {QStringLiteral("task.reminder"), QT_TRANSLATE_NOOP("WebhookEvent", "A task's reminder is due")},
        {QStringLiteral("segment.created"), QT_TRANSLATE_NOOP("WebhookEvent", "A segment is added")},
        {QStringLiteral("segment.updated"), QT_TRANSLATE_NOOP("WebhookEvent", "A segment changes")},
        {QStringLiteral("segment.deleted"), QT_TRANSLATE_NOOP("WebhookEvent", "A segment is deleted")},
        {QStringLiteral("segment.contacts_added"), QT_TRANSLATE_NOOP("WebhookEvent", "Contacts join a segment")},
        {QStringLiteral("segment.contacts_removed"), QT_TRANSLATE_NOOP("WebhookEvent", "Contacts leave a segment")},
    };
    const char *text = texts.value(event);
    return text ? QCoreApplication::translate("WebhookEvent", text) : QString();
}

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

QString localTime(const QString &iso)
{
    if (iso.isEmpty())
        return {};
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : iso;
}

QLabel *errorLabel(QWidget *parent, const QString &name = QStringLiteral("errorLabel"))
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // data from outside is never markup
    label->setObjectName(name);
    label->setStyleSheet(QStringLiteral("color: #c0392b;"));
    label->setWordWrap(true);
    label->hide();
    return label;
}

void showError(QLabel *label, const QString &message)
{
    label->setText(message);
    label->setVisible(!message.isEmpty());
}

QTableWidget *makeTable(int columns, const QStringList &headers, const QString &name, QWidget *parent)
{
    auto *t = new QTableWidget(0, columns, parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

QTableWidgetItem *item(const QString &text, const QString &id = {})
{
    auto *i = new QTableWidgetItem(text);
    i->setToolTip(text);
    if (!id.isEmpty())
        i->setData(IdRole, id);
    return i;
}

void reselect(QTableWidget *t, const QString &id)
{
    for (int row = 0; row < t->rowCount(); ++row) {
        if (t->item(row, 0)->data(IdRole).toString() == id) {
            t->selectRow(row);
            return;
        }
    }
    if (t->rowCount() > 0)
        t->selectRow(0);
}
} // namespace

// ---------------------------------------------------------------------------------------------

WebhooksPage::WebhooksPage(EventBus &bus, WebhookPolicy policy, QWidget *parent)
    : QWidget(parent)
    , m_repository(&bus, policy)
{
    setObjectName(QStringLiteral("webhooksPage"));
    auto *intro = new QLabel(tr("Liaison POSTs each event to the subscribed URLs, signed with the subscription's "
                                "secret (X-Service-Signature). Failed deliveries are retried; a subscription whose "
                                "retries all fail is disabled."),
                             this);
    intro->setWordWrap(true);

    m_table = makeTable(ColumnCount, {tr("URL"), tr("Events"), tr("State"), tr("Failures"), tr("Created")},
                        QStringLiteral("webhooksTable"), this);
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
    m_testEvent->addItems(WebhookEvents::all());
    m_test = new QPushButton(tr("Send test"), this);
    m_test->setObjectName(QStringLiteral("sendTestButton"));
    auto *buttons = new QHBoxLayout;
    for (QWidget *w : {static_cast<QWidget *>(m_add), static_cast<QWidget *>(m_edit), static_cast<QWidget *>(m_delete),
                       static_cast<QWidget *>(m_toggle)})
        buttons->addWidget(w);
    buttons->addStretch(1);
    buttons->addWidget(m_testEvent);
    buttons->addWidget(m_test);

    m_log = makeTable(
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
    connect(&bus, &EventBus::changed, this, [this](const QString &entity) {
        if (entity == QLatin1String("webhook"))
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
            m_table->setItem(row, UrlColumn, item(w.url, w.id));
            m_table->setItem(
                row, EventsColumn,
                item(w.events.contains(QStringLiteral("*")) ? tr("All events") : w.events.join(QStringLiteral(", "))));
            auto *state = item(w.active ? tr("Active") : tr("Disabled: %1").arg(w.disabledReason));
            state->setBackground(w.active ? kSuccess : kFailure);
            m_table->setItem(row, StateColumn, state);
            m_table->setItem(row, FailuresColumn, item(QString::number(w.failureCount)));
            m_table->setItem(row, CreatedColumn, item(localTime(w.createdAt)));
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
                item(localTime(a.startedAt), a.deliveryId),
                item(event),
                item(QString::number(a.attempt)),
                item(status),
                item(a.latencyMs >= 0 ? tr("%1 ms").arg(a.latencyMs) : QString()),
                item(localTime(a.nextRetryAt)),
                item(a.responseExcerpt.left(200).simplified()),
            };
            const QColor colour = a.success                                            ? kSuccess
                                  : a.finishedAt.isEmpty() || !a.nextRetryAt.isEmpty() ? kPending
                                                                                       : kFailure;
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
        m_repository.queueTest(id, m_testEvent->currentText());
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

// ---------------------------------------------------------------------------------------------

WebhookDialog::WebhookDialog(WebhookRepository &repository, std::optional<WebhookSubscription> existing,
                             QWidget *parent)
    : QDialog(parent)
    , m_repository(repository)
    , m_existing(std::move(existing))
{
    setObjectName(QStringLiteral("webhookDialog"));
    setWindowTitle(m_existing ? tr("Edit webhook") : tr("Add webhook"));
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(QStringLiteral("https://example.com/hooks/liaison"));
    m_urlError = errorLabel(this, QStringLiteral("urlError"));
    m_description = new QLineEdit(this);
    m_description->setObjectName(QStringLiteral("descriptionEdit"));
    m_all = new QCheckBox(tr("All events, including ones added later"), this);
    m_all->setObjectName(QStringLiteral("allEventsBox"));
    m_events = new QListWidget(this);
    m_events->setObjectName(QStringLiteral("eventList"));
    for (const QString &e : WebhookEvents::all()) {
        const QString description = eventDescription(e);
        auto *i =
            new QListWidgetItem(description.isEmpty() ? e : QStringLiteral("%1 — %2").arg(e, description), m_events);
        i->setData(Qt::UserRole, e);
        i->setFlags(i->flags() | Qt::ItemIsUserCheckable);
        i->setCheckState(Qt::Unchecked);
    }
    m_eventsError = errorLabel(this, QStringLiteral("eventsError"));
    m_secret = new QLineEdit(this);
    m_secret->setObjectName(QStringLiteral("secretEdit"));
    auto *generate = new QPushButton(tr("Generate"), this);
    generate->setObjectName(QStringLiteral("generateSecretButton"));
    m_secretError = errorLabel(this, QStringLiteral("secretError"));
    auto *secretRow = new QHBoxLayout;
    secretRow->addWidget(m_secret, 1);
    secretRow->addWidget(generate);
    m_error = errorLabel(this);

    auto *form = new QFormLayout;
    form->addRow(tr("URL"), m_url);
    form->addRow(QString(), m_urlError);
    form->addRow(tr("Description"), m_description);
    form->addRow(tr("Events"), m_all);
    form->addRow(QString(), m_events);
    form->addRow(QString(), m_eventsError);
    if (m_existing) {
        m_secret->setPlaceholderText(tr("Unchanged (%1)").arg(m_existing->secretHint()));
        m_rotate = new QCheckBox(tr("Rotate: generate a new secret"), this);
        m_rotate->setObjectName(QStringLiteral("rotateSecretBox"));
        form->addRow(tr("Secret"), secretRow);
        form->addRow(QString(), m_rotate);
        connect(m_rotate, &QCheckBox::toggled, m_secret, &QLineEdit::setDisabled);
    } else {
        m_secret->setPlaceholderText(tr("Leave empty to generate one (at least 16 characters)"));
        form->addRow(tr("Secret"), secretRow);
    }
    form->addRow(QString(), m_secretError);
    connect(generate, &QPushButton::clicked, this, [this] { m_secret->setText(WebhookRules::generateSecret()); });
    connect(m_all, &QCheckBox::toggled, m_events, &QWidget::setDisabled);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &WebhookDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    if (m_existing) {
        m_url->setText(m_existing->url);
        m_description->setText(m_existing->description);
        const bool all = m_existing->events.contains(QStringLiteral("*"));
        m_all->setChecked(all);
        for (int i = 0; i < m_events->count(); ++i)
            m_events->item(i)->setCheckState(
                m_existing->events.contains(m_events->item(i)->data(Qt::UserRole).toString()) ? Qt::Checked
                                                                                              : Qt::Unchecked);
    }
    resize(520, 560);
}

QStringList WebhookDialog::checkedEvents() const
{
    if (m_all->isChecked())
        return {QStringLiteral("*")};
    QStringList out;
    for (int i = 0; i < m_events->count(); ++i) {
        if (m_events->item(i)->checkState() == Qt::Checked)
            out << m_events->item(i)->data(Qt::UserRole).toString();
    }
    return out;
}

void WebhookDialog::accept()
{
    for (QLabel *l : {m_urlError, m_eventsError, m_secretError, m_error})
        showError(l, {});
    const QStringList events = checkedEvents();
    if (events.isEmpty()) {
        showError(m_eventsError, tr("Choose at least one event."));
        return;
    }
    QJsonObject body{{QStringLiteral("url"), m_url->text().trimmed()},
                     {QStringLiteral("events"), QJsonArray::fromStringList(events)},
                     {QStringLiteral("description"), m_description->text().trimmed()}};
    const bool rotate = m_rotate && m_rotate->isChecked();
    if (rotate)
        body.insert(QStringLiteral("rotateSecret"), true);
    else if (!m_secret->text().isEmpty())
        body.insert(QStringLiteral("secret"), m_secret->text());
    try {
        const WebhookRepository::Saved saved =
            m_existing ? m_repository.update(m_existing->id, body) : m_repository.create(body);
        // A secret the user typed is known to them; a generated one is shown once.
        if (!saved.secret.isEmpty() && (rotate || m_secret->text().isEmpty()))
            Q_EMIT secretCreated(saved.secret);
        QDialog::accept();
    } catch (const DomainError &e) {
        const QJsonObject details = ErrorText::details(e.details());
        bool shown = false;
        const QList<QPair<QString, QLabel *>> fields{{QStringLiteral("url"), m_urlError},
                                                     {QStringLiteral("events"), m_eventsError},
                                                     {QStringLiteral("secret"), m_secretError}};
        for (const auto &f : fields) {
            if (details.contains(f.first)) {
                showError(f.second, details.value(f.first).toString());
                shown = true;
            }
        }
        if (!shown)
            showError(m_error, ErrorText::of(e));
    } catch (const std::exception &e) {
        showError(m_error, ErrorText::of(e));
    }
}

// ---------------------------------------------------------------------------------------------

IncomingWebhooksPage::IncomingWebhooksPage(EventBus &bus, const QString &baseUrl, QWidget *parent)
    : QWidget(parent)
    , m_repository(&bus)
    , m_baseUrl(baseUrl)
{
    setObjectName(QStringLiteral("incomingWebhooksPage"));
    auto *intro = new QLabel(tr("External systems POST {\"event\": …, \"data\": {…}} to an endpoint's URL (no API "
                                "key). Each endpoint runs one action; every call is logged below."),
                             this);
    intro->setWordWrap(true);
    m_table = makeTable(ColumnCount, {tr("Name"), tr("Action"), tr("URL"), tr("Signed"), tr("Calls"), tr("Last call")},
                        QStringLiteral("incomingTable"), this);
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
    m_calls = makeTable(5, {tr("Time"), tr("Event"), tr("Outcome"), tr("Status"), tr("Error")},
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
    connect(&bus, &EventBus::changed, this, [this](const QString &entity) {
        if (entity == QLatin1String("incoming_webhook"))
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
                m_table->setItem(row, NameColumn, item(e.name, e.id));
                m_table->setItem(row, ActionColumn, item(e.action));
                m_table->setItem(row, UrlColumn, item(urlOf(e.id)));
                m_table->setItem(row, SignedColumn, item(e.secret.isEmpty() ? tr("No") : tr("Yes")));
                m_table->setItem(row, CallsColumn, item(QString::number(e.callCount)));
                m_table->setItem(row, LastCallColumn, item(localTime(e.lastCallAt)));
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
            const QColor colour = c.statusCode < 300 ? kSuccess : kFailure;
            const QList<QTableWidgetItem *> cells{item(localTime(c.receivedAt), c.id), item(c.event),
                                                  item(outcomeName(c.outcome)), item(QString::number(c.statusCode)),
                                                  item(c.error)};
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

// ---------------------------------------------------------------------------------------------

IncomingWebhookDialog::IncomingWebhookDialog(IncomingWebhookRepository &repository, QWidget *parent)
    : QDialog(parent)
    , m_repository(repository)
{
    setObjectName(QStringLiteral("incomingWebhookDialog"));
    setWindowTitle(tr("Add incoming webhook"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_action = new QComboBox(this);
    m_action->setObjectName(QStringLiteral("actionBox"));
    const QStringList actions = IncomingActions::all();
    const QStringList labels{tr("Create or update a contact"), tr("Create or update a deal"), tr("Create a task"),
                             tr("Receive a message")};
    for (int i = 0; i < actions.size(); ++i)
        m_action->addItem(QStringLiteral("%1 (%2)").arg(labels.value(i), actions.at(i)), actions.at(i));
    m_signed = new QCheckBox(tr("Require a signature (X-Service-Signature)"), this);
    m_signed->setObjectName(QStringLiteral("signedBox"));
    m_error = errorLabel(this);
    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Action"), m_action);
    form->addRow(QString(), m_signed);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &IncomingWebhookDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

void IncomingWebhookDialog::accept()
{
    QJsonObject body{{QStringLiteral("name"), m_name->text().trimmed()},
                     {QStringLiteral("action"), m_action->currentData().toString()}};
    if (m_signed->isChecked())
        body.insert(QStringLiteral("secret"), true);
    try {
        const IncomingWebhookRepository::Saved saved = m_repository.create(body);
        Q_EMIT created(saved.endpoint.id, saved.secret);
        QDialog::accept();
    } catch (const DomainError &e) {
        showError(m_error, e.details().isEmpty()
                               ? ErrorText::of(e)
                               : ErrorText::translate(e.details().begin().key() + QLatin1String(": ") +
                                                      e.details().begin().value().toString()));
    } catch (const std::exception &e) {
        showError(m_error, ErrorText::of(e));
    }
}

// ---------------------------------------------------------------------------------------------

SecretDialog::SecretDialog(const QString &title, const QString &secret, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("secretDialog"));
    setWindowTitle(title);
    auto *warning = new QLabel(tr("Copy this secret now: it is not shown again. Receivers use it to check the "
                                  "X-Service-Signature header."),
                               this);
    warning->setWordWrap(true);
    m_secret = new QLineEdit(secret, this);
    m_secret->setObjectName(QStringLiteral("secretValue"));
    m_secret->setReadOnly(true);
    auto *copy = new QPushButton(tr("Copy"), this);
    copy->setObjectName(QStringLiteral("copySecretButton"));
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_secret->text()); });
    auto *row = new QHBoxLayout;
    row->addWidget(m_secret, 1);
    row->addWidget(copy);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(warning);
    layout->addLayout(row);
    layout->addWidget(buttons);
    resize(520, 160);
}
