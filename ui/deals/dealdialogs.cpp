#include "ui/deals/dealdialogs.h"
#include "ui/shell/uikit.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/shell/amountedit.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/tasks/taskdialog.h"

#include <QColor>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace {

void showError(QLabel *label, const QString &text)
{
    label->setText(text);
    label->show();
}

QDialogButtonBox *okCancel(QDialog *dialog, const QString &okText)
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(okText);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return buttons;
}
} // namespace

QString DealText::lostReason(const QString &reason)
{
    if (reason == QLatin1String("price"))
        return QCoreApplication::translate("DealText", "Price");
    if (reason == QLatin1String("competitor"))
        return QCoreApplication::translate("DealText", "Competitor");
    if (reason == QLatin1String("timing"))
        return QCoreApplication::translate("DealText", "Timing");
    if (reason == QLatin1String("budget"))
        return QCoreApplication::translate("DealText", "Budget");
    if (reason == QLatin1String("no_response"))
        return QCoreApplication::translate("DealText", "No response");
    return QCoreApplication::translate("DealText", "Other");
}

QString DealText::stageName(const PipelineStage &stage)
{
    struct BuiltIn
    {
        const char *key;
        const char *name;
        const char *text;
    };
    static const BuiltIn builtIn[] = {
        {"lead", "Lead", QT_TRANSLATE_NOOP("DealText", "Lead")},
        {"contact", "Contact", QT_TRANSLATE_NOOP("DealText", "Contact")},
        {"proposal", "Proposal", QT_TRANSLATE_NOOP("DealText", "Proposal")},
        {"negotiation", "Negotiation", QT_TRANSLATE_NOOP("DealText", "Negotiation")},
        {"won", "Won", QT_TRANSLATE_NOOP("DealText", "Won")},
        {"lost", "Lost", QT_TRANSLATE_NOOP("DealText", "Lost")},
    };
    for (const BuiltIn &b : builtIn) {
        if (stage.key == QLatin1String(b.key) && stage.name == QLatin1String(b.name))
            return QCoreApplication::translate("DealText", b.text);
    }
    return stage.name.isEmpty() ? stage.key : stage.name;
}

QString DealText::stageName(const QVector<Pipeline> &pipelines, const QString &pipelineId, const QString &key)
{
    for (const Pipeline &p : pipelines) {
        if (p.id == pipelineId) {
            if (const PipelineStage *s = p.stage(key))
                return stageName(*s);
        }
    }
    return key;
}

QString DealText::pipelineName(const Pipeline &pipeline)
{
    if (pipeline.id == QLatin1String("pipeline_default") && pipeline.name == QLatin1String("Sales"))
        return QCoreApplication::translate("DealText", "Sales");
    return pipeline.name;
}

QString DealText::activityType(const QString &type)
{
    if (type == QLatin1String("call"))
        return QCoreApplication::translate("DealText", "Call");
    if (type == QLatin1String("meeting"))
        return QCoreApplication::translate("DealText", "Meeting");
    if (type == QLatin1String("email"))
        return QCoreApplication::translate("DealText", "E-mail");
    if (type == QLatin1String("stage_change"))
        return QCoreApplication::translate("DealText", "Stage change");
    return QCoreApplication::translate("DealText", "Note");
}

QStringList DealText::manualActivityTypes()
{
    return {QStringLiteral("note"), QStringLiteral("call"), QStringLiteral("meeting"), QStringLiteral("email")};
}

WonDialog::WonDialog(DealRepository &deals, const QString &dealId, QWidget *parent)
    : QDialog(parent)
    , m_deals(deals)
    , m_dealId(dealId)
{
    setObjectName(QStringLiteral("wonDialog"));
    const Deal d = deals.get(dealId);
    setWindowTitle(tr("Deal won: %1").arg(d.name));
    m_closedValue = new AmountEdit(this);
    m_closedValue->setObjectName(QStringLiteral("closedValueSpin")); // the name of the spin box it replaced
    m_closedValue->setAccessibleName(tr("Closed value"));
    m_closedValue->setCurrency(d.currency);
    m_closedValue->setValue(d.value);
    m_note = new QPlainTextEdit(this);
    m_note->setObjectName(QStringLiteral("noteEdit"));
    m_note->setPlaceholderText(tr("How was it won? (optional)"));
    m_error = UiKit::errorLabel(this);
    auto *form = new QFormLayout;
    auto *valueCell = new QVBoxLayout;
    valueCell->setSpacing(2);
    valueCell->addWidget(m_closedValue);
    valueCell->addWidget(m_closedValue->readingLabel());
    form->addRow(tr("Closed value"), valueCell);
    form->addRow(tr("Note"), m_note);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(okCancel(this, tr("Mark won")));
    // The refusal of OK goes when the amount is typed again; the label under the field tells the rest.
    connect(m_closedValue, &AmountEdit::readingChanged, this, [this] {
        if (m_amountRefused)
            UiKit::showError(m_error, {});
        m_amountRefused = false;
    });
}

WonDialog::~WonDialog()
{
    disconnect(m_closedValue, nullptr, this, nullptr);
}

void WonDialog::accept()
{
    const std::optional<double> closedValue = m_closedValue->value();
    if (!closedValue) { // empty or refused: nothing is stored
        showError(m_error, m_closedValue->refusalText());
        m_amountRefused = true;
        m_closedValue->setFocus();
        return;
    }
    try {
        m_deals.markWon(m_dealId, *closedValue, m_note->toPlainText().trimmed());
        QDialog::accept();
    } catch (const DomainError &e) {
        showError(m_error, ErrorText::of(e));
    }
}

LostDialog::LostDialog(DealRepository &deals, const QString &dealId, QWidget *parent)
    : QDialog(parent)
    , m_deals(deals)
    , m_dealId(dealId)
{
    setObjectName(QStringLiteral("lostDialog"));
    const Deal d = deals.get(dealId);
    setWindowTitle(tr("Deal lost: %1").arg(d.name));
    m_reason = new QComboBox(this);
    m_reason->setObjectName(QStringLiteral("reasonCombo"));
    m_reason->addItem(tr("Choose a reason…"), QString());
    for (const QString &r : DealRules::lostReasons())
        m_reason->addItem(DealText::lostReason(r), r);
    m_competitor = new QLineEdit(this);
    m_competitor->setObjectName(QStringLiteral("competitorEdit"));
    m_competitor->setMaxLength(200);
    m_note = new QPlainTextEdit(this);
    m_note->setObjectName(QStringLiteral("noteEdit"));
    m_error = UiKit::errorLabel(this);
    auto *form = new QFormLayout;
    form->addRow(tr("Reason"), m_reason);
    form->addRow(tr("Competitor"), m_competitor);
    form->addRow(tr("Note"), m_note);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(okCancel(this, tr("Mark lost")));
}

void LostDialog::accept()
{
    const QString reason = m_reason->currentData().toString();
    if (reason.isEmpty()) {
        showError(m_error, tr("Choose why the deal was lost."));
        return;
    }
    try {
        m_deals.markLost(m_dealId, reason, m_competitor->text().trimmed(), m_note->toPlainText().trimmed());
        QDialog::accept();
    } catch (const DomainError &e) {
        showError(m_error, ErrorText::of(e));
    }
}

DealDetailDialog::DealDetailDialog(DealRepository &deals, const Store &store, const QString &dealId, QWidget *parent,
                                   const QTimeZone &tasksTimeZone)
    : QDialog(parent)
    , m_deals(deals)
    , m_tasks(store, tasksTimeZone)
    , m_dealId(dealId)
{
    setObjectName(QStringLiteral("dealDetailDialog"));
    resize(520, 560);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("dealSummaryLabel"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_timeline = new QListWidget(this);
    m_timeline->setObjectName(QStringLiteral("activityList"));
    m_timeline->setWordWrap(true);
    m_timeline->setAlternatingRowColors(true);
    m_note = new QPlainTextEdit(this);
    m_note->setObjectName(QStringLiteral("noteEdit"));
    m_note->setPlaceholderText(tr("A note, or what was said in a call or meeting…"));
    m_note->setMaximumHeight(90);
    m_activityType = new QComboBox(this);
    m_activityType->setObjectName(QStringLiteral("activityTypeCombo"));
    for (const QString &type : DealText::manualActivityTypes())
        m_activityType->addItem(DealText::activityType(type), type);
    m_addNote = new QPushButton(tr("Add to activity"), this);
    m_addNote->setObjectName(QStringLiteral("addNoteButton"));
    m_tasksList = new QListWidget(this);
    m_tasksList->setObjectName(QStringLiteral("dealTaskList"));
    m_tasksList->setMaximumHeight(130);
    m_addTask = new QPushButton(tr("Add task…"), this);
    m_addTask->setObjectName(QStringLiteral("addTaskButton"));
    m_edit = new QPushButton(tr("Edit deal…"), this);
    m_edit->setObjectName(QStringLiteral("editDealButton"));
    m_delete = new QPushButton(tr("Delete deal…"), this);
    m_delete->setObjectName(QStringLiteral("deleteDealButton"));
    m_error = UiKit::errorLabel(this);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_addNote, &QPushButton::clicked, this, &DealDetailDialog::addNote);
    connect(m_addTask, &QPushButton::clicked, this, &DealDetailDialog::addTask);
    connect(m_edit, &QPushButton::clicked, this, &DealDetailDialog::editDeal);
    connect(m_delete, &QPushButton::clicked, this, &DealDetailDialog::deleteDeal);
    connect(m_tasksList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { openTask(item->data(Qt::UserRole).toString()); });

    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    auto *topButtons = new QVBoxLayout;
    topButtons->addWidget(m_edit);
    topButtons->addWidget(m_delete);
    topButtons->addStretch(1);
    top->addLayout(topButtons);
    layout->addLayout(top);
    auto *tasksHeader = new QHBoxLayout;
    tasksHeader->addWidget(new QLabel(tr("Tasks"), this), 1);
    tasksHeader->addWidget(m_addTask);
    layout->addLayout(tasksHeader);
    layout->addWidget(m_tasksList);
    layout->addWidget(new QLabel(tr("Activity"), this));
    layout->addWidget(m_timeline, 1);
    layout->addWidget(m_note);
    layout->addWidget(m_error);
    auto *row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(m_activityType);
    row->addWidget(m_addNote);
    layout->addLayout(row);
    layout->addWidget(close);

    connect(&store.bus(), &EventBus::changed, this,
            [this](EventBus::Entity entity, const QString &id, EventBus::Change) {
                if (entity == EventBus::Entity::Deal && (id == m_dealId || id.isEmpty()))
                    refresh();
                else if (entity == EventBus::Entity::Task)
                    refreshTasks();
            });
    refresh();
}

void DealDetailDialog::refresh()
{
    const std::optional<Deal> d = m_deals.find(m_dealId);
    if (!d) {
        m_summary->setText(tr("This deal was deleted."));
        m_timeline->clear();
        m_tasksList->clear();
        m_addNote->setEnabled(false);
        m_addTask->setEnabled(false);
        m_edit->setEnabled(false);
        m_delete->setEnabled(false);
        return;
    }
    setWindowTitle(tr("Deal: %1").arg(d->name));
    const QLocale locale;
    QStringList lines;
    lines << d->name;
    const QVector<Pipeline> pipelines = PipelineRepository(m_deals.store()).list();
    lines << tr("Stage: %1 · probability %2%")
                 .arg(DealText::stageName(pipelines, d->pipelineId, d->stage))
                 .arg(d->probability);
    // As the cards write it ("1.137 TRY"); cents only when there are some.
    const double value = d->effectiveValue();
    lines << tr("Value: %1")
                 .arg(QStringLiteral("%1 %2").arg(locale.toString(value, 'f', value == std::floor(value) ? 0 : 2),
                                                  d->currency));
    lines << tr("Contact: %1").arg(d->contactName.isEmpty() ? tr("none") : d->contactName);
    lines << tr("Owner: %1").arg(d->assignedName.isEmpty() ? tr("unassigned") : d->assignedName);
    if (!d->expectedCloseDate.isEmpty()) {
        const QDate close = QDate::fromString(d->expectedCloseDate, Qt::ISODate);
        const bool past = d->closedAt.isEmpty() && close < m_deals.store().today();
        lines << (past ? tr("Expected close: %1 (past)") : tr("Expected close: %1"))
                     .arg(locale.toString(close, QLocale::ShortFormat));
    }
    if (!d->lostReason.isEmpty())
        lines << tr("Lost: %1 %2").arg(DealText::lostReason(d->lostReason), d->competitorName);
    if (d->isRotten)
        lines << tr("No activity for a while: this deal is rotting.");
    if (!d->description.isEmpty())
        lines << d->description;
    m_summary->setText(lines.join(QLatin1Char('\n')));

    m_timeline->clear();
    for (const DealActivity &a : m_deals.activities(m_dealId)) {
        const QString when =
            locale.toString(QDateTime::fromString(a.createdAt, Qt::ISODateWithMs).toLocalTime(), QLocale::ShortFormat);
        QString what;
        if (a.type == QLatin1String("stage_change"))
            what = a.from.isEmpty() ? tr("Created in %1").arg(DealText::stageName(pipelines, d->pipelineId, a.to))
                                    : tr("Moved %1 → %2")
                                          .arg(DealText::stageName(pipelines, d->pipelineId, a.from),
                                               DealText::stageName(pipelines, d->pipelineId, a.to));
        else
            what = DealText::activityType(a.type);
        QString text = QStringLiteral("%1 · %2").arg(when, what);
        if (!a.userName.isEmpty())
            text += QStringLiteral(" · ") + a.userName;
        if (!a.content.isEmpty())
            text += QLatin1Char('\n') + a.content;
        auto *item = new QListWidgetItem(text, m_timeline);
        item->setData(Qt::UserRole, a.id);
    }
    refreshTasks();
}

void DealDetailDialog::refreshTasks()
{
    m_tasksList->clear();
    TaskQuery q;
    q.dealId = m_dealId;
    q.limit = 200;
    q.openFirst = true;
    TaskPage page;
    try {
        page = m_tasks.list(q);
    } catch (const std::exception &e) {
        showError(m_error, ErrorText::of(e));
        return;
    }
    const QLocale locale;
    for (const Task &t : std::as_const(page.items)) {
        QString due;
        if (t.isAllDay())
            due = locale.toString(t.dueDay(m_tasks.timeZone()), QLocale::ShortFormat);
        else if (!t.dueDate.isEmpty())
            due =
                locale.toString(t.dueInstant(m_tasks.timeZone()).toTimeZone(m_tasks.timeZone()), QLocale::ShortFormat);
        QString text = t.isOpen() ? t.title : tr("✓ %1").arg(t.title);
        if (!due.isEmpty())
            text = tr("%1 · due %2").arg(text, due);
        auto *item = new QListWidgetItem(text, m_tasksList);
        item->setData(Qt::UserRole, t.id);
        if (t.isOpen() && m_tasks.isOverdue(t))
            item->setForeground(UiKit::color(UiKit::Tone::Danger));
    }
    if (page.items.isEmpty())
        new QListWidgetItem(tr("No tasks yet."), m_tasksList);
}

void DealDetailDialog::addTask()
{
    const std::optional<Deal> d = m_deals.find(m_dealId);
    if (!d)
        return;
    auto *dialog = new TaskDialog(m_tasks, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setDealId(m_dealId);
    if (!d->contactId.isEmpty())
        dialog->setContactId(d->contactId);
    connect(dialog, &TaskDialog::taskSaved, this, &DealDetailDialog::refreshTasks);
    dialog->open();
}

void DealDetailDialog::openTask(const QString &taskId)
{
    if (taskId.isEmpty())
        return;
    const std::optional<Task> t = m_tasks.find(taskId);
    if (!t)
        return;
    auto *dialog = new TaskDialog(m_tasks, *t, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TaskDialog::taskSaved, this, &DealDetailDialog::refreshTasks);
    dialog->open();
}

void DealDetailDialog::deleteDeal()
{
    const std::optional<Deal> d = m_deals.find(m_dealId);
    if (!d)
        return;
    MessageBoxes::confirm(this, tr("Delete deal"),
                          tr("Delete the deal “%1” with its activities? Its tasks are kept, unlinked.").arg(d->name),
                          tr("Delete"), [this] {
                              try {
                                  m_deals.remove(m_dealId);
                                  close();
                              } catch (const std::exception &e) {
                                  showError(m_error, ErrorText::of(e));
                              }
                          });
}

void DealDetailDialog::editDeal()
{
    const std::optional<Deal> d = m_deals.find(m_dealId);
    if (!d)
        return;
    auto *dialog = new DealEditDialog(m_deals, *d, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DealEditDialog::dealSaved, this, &DealDetailDialog::refresh);
    dialog->open();
}

void DealDetailDialog::addNote()
{
    const QString text = m_note->toPlainText().trimmed();
    if (text.isEmpty()) {
        showError(m_error, tr("Write the note first."));
        return;
    }
    try {
        m_deals.addActivity(m_dealId, m_activityType->currentData().toString(), text);
        m_note->clear();
        m_error->hide();
        refresh();
    } catch (const DomainError &e) {
        showError(m_error, ErrorText::of(e));
    }
}
