#include "ui/settings/webhookdialog.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

using namespace UiKit;

// What an event means ("deal.won — A deal is won"); the name itself is what subscribers receive
// and stays as it is.
QString WebhookDialog::eventDescription(const QString &event)
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
        {QStringLiteral("contacts.imported"),
         QT_TRANSLATE_NOOP("WebhookEvent", "Contacts are imported from a CSV file (one event a batch of 500 rows)")},
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
        {QStringLiteral("campaign.started"), QT_TRANSLATE_NOOP("WebhookEvent", "A campaign starts sending")},
        {QStringLiteral("campaign.completed"), QT_TRANSLATE_NOOP("WebhookEvent", "A campaign has been sent")},
        {QStringLiteral("campaign.failed"), QT_TRANSLATE_NOOP("WebhookEvent", "A campaign could deliver nothing")},
    };
    const char *text = texts.value(event);
    return text ? QCoreApplication::translate("WebhookEvent", text) : QString();
}

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
    WebhookChanges changes;
    changes.url = m_url->text();
    changes.events = events;
    changes.description = m_description->text();
    const bool rotate = m_rotate && m_rotate->isChecked();
    if (rotate)
        changes.rotateSecret = true;
    else if (!m_secret->text().isEmpty())
        changes.secret = m_secret->text();
    try {
        const WebhookRepository::Saved saved =
            m_existing ? m_repository.update(m_existing->id, changes) : m_repository.create(changes);
        // A secret the user typed is known to them; a generated one is shown once.
        if (!saved.secret.isEmpty() && (rotate || m_secret->text().isEmpty()))
            Q_EMIT secretCreated(saved.secret);
        QDialog::accept();
    } catch (const DomainError &e) {
        const QJsonObject details = ErrorText::details(e);
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
