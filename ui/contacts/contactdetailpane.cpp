#include "ui/contacts/contactdetailpane.h"
#include "ui/shell/phonetext.h"
#include "ui/shell/uikit.h"

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipeline.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/windowstate.h"
#include "ui/tasks/taskdialog.h"

#include <QDateTime>
#include <QFormLayout>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace {
// How many records a tab lists, kept with the tab for retitleTabs().
void countTab(QTabWidget *tabs, QWidget *page, qsizetype count)
{
    tabs->tabBar()->setTabData(tabs->indexOf(page), count);
}

QLabel *valueLabel(QWidget *parent, const char *name)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // data from outside is never markup
    label->setObjectName(QLatin1String(name));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

QString orDash(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("—") : text;
}

QListWidget *detailList(QWidget *parent, const char *name)
{
    auto *list = new QListWidget(parent);
    list->setObjectName(QLatin1String(name));
    list->setWordWrap(true);
    list->setAlternatingRowColors(true);
    list->setMinimumHeight(60);
    return list;
}

// A tab's page: its list, and under it the button that does the next thing there.
QWidget *listWithAction(QTabWidget *tabs, QListWidget *list, QPushButton *action)
{
    auto *page = new QWidget(tabs);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    list->setParent(page);
    action->setParent(page);
    layout->addWidget(list, 1);
    layout->addWidget(action, 0, Qt::AlignRight);
    return page;
}

QPushButton *actionButton(const QString &text, const char *name)
{
    auto *button = new QPushButton(text);
    button->setObjectName(QLatin1String(name));
    button->setEnabled(false); // until a contact is shown
    return button;
}

} // namespace

void ContactDetailPane::retitleTabs()
{
    // Each tab: its title, with how many records it lists ("Deals (2)"; nothing counted for none);
    // where the full ones would not fit the pane's width, the short titles with their counts, then
    // the short titles alone (a pane beside the contacts on a 1,366-pixel screen, in Turkish too).
    // The tooltip says it in full. Never scroll arrows: the tab bar has none (a title would be
    // elided first, which these steps avoid down to the pane's minimum width).
    struct Title
    {
        QString full, brief;
    };
    const Title titles[] = {
        {tr("Timeline"), tr("Timeline")},
        {tr("Notes"), tr("Note", "a short tab title")},
        {tr("Deals"), tr("Deal", "a short tab title")},
        {tr("Conversations"), tr("Chat", "a short tab title")},
        {tr("Tasks"), tr("Task", "a short tab title")},
    };
    enum Step
    {
        Full,
        Brief,
        Uncounted
    };
    QTabBar *bar = m_tabs->tabBar();
    for (const Step step : {Full, Brief, Uncounted}) {
        for (int i = 0; i < m_tabs->count() && i < int(std::size(titles)); ++i) {
            const QVariant count = bar->tabData(i);
            const QString title = step == Full ? titles[i].full : titles[i].brief;
            const bool counted = step != Uncounted && count.isValid() && count.toLongLong() > 0;
            m_tabs->setTabText(i, counted ? QStringLiteral("%1 (%2)").arg(title).arg(count.toLongLong()) : title);
            m_tabs->setTabToolTip(i, count.isValid()
                                         ? QStringLiteral("%1 (%2)").arg(titles[i].full).arg(count.toLongLong())
                                         : titles[i].full);
        }
        if (bar->sizeHint().width() <= m_tabs->width())
            break;
    }
}

bool ContactDetailPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_tabs && event->type() == QEvent::Resize)
        retitleTabs();
    else if (watched == m_tags && event->type() == QEvent::Resize)
        fitTags();
    return QWidget::eventFilter(watched, event);
}

void ContactDetailPane::showDetails(bool shown)
{
    m_detailsToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    m_details->setVisible(shown);
}

void ContactDetailPane::fitTags()
{
    // The lines the chips take at the list's width (as its style sheet draws them: text, padding,
    // border, spacing), one or two; more scroll. An empty list keeps one line.
    const QFontMetrics metrics = m_tags->fontMetrics();
    const int room = m_tags->width() - 2 * m_tags->frameWidth() - m_tags->spacing();
    int lines = 1;
    int x = 0;
    for (int i = 0; i < m_tags->count(); ++i) {
        const int chip = metrics.horizontalAdvance(m_tags->item(i)->text()) + 2 * 8 + 2 + 2 * m_tags->spacing();
        if (x > 0 && x + chip > room) {
            ++lines;
            x = 0;
        }
        x += chip;
    }
    const int line = metrics.height() + 2 + 2 + 2 * m_tags->spacing();
    m_tags->setFixedHeight(qMin(lines, 2) * line + 2 * m_tags->frameWidth() + 2);
}

void ContactDetailPane::reloadSoon()
{
    if (!m_id.isEmpty())
        m_reloadTimer.start();
}

ContactDetailPane::ContactDetailPane(ContactRepository &contacts, QWidget *parent)
    : QWidget(parent)
    , m_contacts(contacts)
    , m_deals(contacts.store())
    , m_pipelines(contacts.store())
    , m_conversations(contacts.store())
    , m_tasks(contacts.store())
{
    m_stack = new QStackedWidget(this);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);

    auto *empty = new QLabel(tr("Select a contact to see its details."), m_stack);
    empty->setTextFormat(Qt::PlainText); // data from outside is never markup
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    empty->setEnabled(false);
    m_stack->addWidget(empty);

    // No scroll area: word-wrapped labels would make it size the page by its preferred height and
    // scroll; without one the notes list gives way instead.
    auto *page = new QWidget(m_stack);
    m_stack->addWidget(page);

    auto *layout = new QVBoxLayout(page);
    m_title = valueLabel(page, "contactTitle");
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    layout->addWidget(m_title);

    // The card a sales rep reads at a glance, compact so that the tabs under it (the history, the
    // notes) keep the height: how to reach the contact, where they work, the tags; the rest (address,
    // source, score, dates) folds under Details, which the window remembers open or folded.
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setVerticalSpacing(UiKit::Space::XS);
    form->addRow(tr("E-mail:"), m_email = UiKit::wrappingText(page, QStringLiteral("emailValue")));
    form->addRow(tr("Phone:"), m_phone = valueLabel(page, "phoneValue"));
    form->addRow(tr("Company:"), m_company = valueLabel(page, "companyValue"));
    form->addRow(tr("Position:"), m_position = valueLabel(page, "positionValue"));

    // The tags as chips (as many lines as they take, up to two; more scroll), and beside them the
    // field that adds some.
    m_tags = new QListWidget(page);
    m_tags->setObjectName(QStringLiteral("tagList"));
    m_tags->setAccessibleName(tr("Tags"));
    m_tags->setFlow(QListView::LeftToRight);
    m_tags->setWrapping(true);
    m_tags->setResizeMode(QListView::Adjust);
    m_tags->setSpacing(3);
    m_tags->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_tags->setStyleSheet(QStringLiteral(
        "QListWidget::item { border: 1px solid palette(mid); border-radius: 8px; padding: 1px 8px; }"
        "QListWidget::item:selected { background: palette(highlight); color: palette(highlighted-text); }"));
    m_tags->installEventFilter(this); // its width decides how many lines the chips take
    m_removeTag = new QPushButton(tr("Remove tag"), page);
    m_removeTag->setObjectName(QStringLiteral("removeTagButton"));
    m_removeTag->setEnabled(false);
    m_newTag = new QLineEdit(page);
    m_newTag->setObjectName(QStringLiteral("newTagEdit"));
    m_newTag->setAccessibleName(tr("New tags"));
    m_newTag->setPlaceholderText(tr("New tags"));
    m_newTag->setToolTip(tr("New tags, comma separated"));
    m_addTag = new QPushButton(tr("Add tag"), page);
    m_addTag->setObjectName(QStringLiteral("addTagButton"));
    auto *tagsGrid = new QGridLayout;
    tagsGrid->setContentsMargins(0, 0, 0, 0);
    tagsGrid->setSpacing(UiKit::Space::XS);
    tagsGrid->addWidget(m_tags, 0, 0);
    tagsGrid->addWidget(m_removeTag, 0, 1, Qt::AlignTop);
    tagsGrid->addWidget(m_newTag, 1, 0);
    tagsGrid->addWidget(m_addTag, 1, 1);
    tagsGrid->setColumnStretch(0, 1);
    form->addRow(tr("Tags:"), tagsGrid);

    layout->addLayout(form);

    // Details: a form of its own (its long labels do not narrow the fields above).
    m_detailsToggle = new QToolButton(page);
    m_detailsToggle->setObjectName(QStringLiteral("contactDetailsToggle"));
    m_detailsToggle->setText(tr("Details"));
    m_detailsToggle->setToolTip(tr("Address, source, lead score and dates"));
    m_detailsToggle->setCheckable(true);
    m_detailsToggle->setAutoRaise(true);
    m_detailsToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    // A section's heading, not a pressed button while open.
    m_detailsToggle->setStyleSheet(QStringLiteral("QToolButton { border: none; padding: 2px 0px; }"));
    WindowState::keepChecked(m_detailsToggle);
    layout->addWidget(m_detailsToggle, 0, Qt::AlignLeft);
    m_details = new QWidget(page);
    m_details->setObjectName(QStringLiteral("contactDetails"));
    auto *details = new QFormLayout(m_details);
    details->setContentsMargins(0, 0, 0, 0);
    details->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    details->setVerticalSpacing(UiKit::Space::XS);
    details->addRow(tr("Address:"), m_address = valueLabel(m_details, "addressValue"));
    details->addRow(tr("Source:"), m_source = valueLabel(m_details, "sourceValue"));
    details->addRow(tr("Lead score:"), m_leadScore = valueLabel(m_details, "leadScoreValue"));
    details->addRow(tr("Created:"), m_created = valueLabel(m_details, "createdValue"));
    details->addRow(tr("Updated:"), m_updated = valueLabel(m_details, "updatedValue"));
    layout->addWidget(m_details);
    connect(m_detailsToggle, &QToolButton::toggled, this, &ContactDetailPane::showDetails);
    // Open where the screen is tall enough for them beside the tabs (until the user chooses).
    const QScreen *screen = QGuiApplication::primaryScreen();
    m_detailsToggle->setChecked(screen && screen->availableGeometry().height() >= 900);
    showDetails(m_detailsToggle->isChecked());

    // What happened with the contact, its notes, deals, conversations and tasks: one tab each.
    m_tabs = new QTabWidget(page);
    m_tabs->setObjectName(QStringLiteral("detailTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setUsesScrollButtons(false); // every tab in sight (retitleTabs() makes them fit)
    m_tabs->setElideMode(Qt::ElideRight);
    m_tabs->installEventFilter(this); // its width decides between the full and the short titles
    layout->addWidget(m_tabs, 1);

    m_timeline = detailList(m_tabs, "timelineList");
    m_timeline->setAccessibleName(tr("Timeline"));
    m_tabs->addTab(m_timeline, tr("Timeline"));

    auto *notesBox = new QWidget(m_tabs);
    auto *notesLayout = new QVBoxLayout(notesBox);
    notesLayout->setContentsMargins(0, 4, 0, 0);
    m_notes = new QListWidget(notesBox);
    m_notes->setObjectName(QStringLiteral("noteList"));
    m_notes->setWordWrap(true);
    m_notes->setAlternatingRowColors(true);
    m_notes->setSelectionMode(QAbstractItemView::NoSelection);
    m_notes->setMinimumHeight(60);
    notesLayout->addWidget(m_notes, 1);
    m_newNote = new QPlainTextEdit(notesBox);
    m_newNote->setObjectName(QStringLiteral("newNoteEdit"));
    m_newNote->setPlaceholderText(tr("Write a note…"));
    m_newNote->setFixedHeight(3 * fontMetrics().height() + 12);
    notesLayout->addWidget(m_newNote);
    m_addNote = new QPushButton(tr("Add note"), notesBox);
    m_addNote->setObjectName(QStringLiteral("addNoteButton"));
    m_addNote->setEnabled(false);
    notesLayout->addWidget(m_addNote, 0, Qt::AlignRight);
    m_tabs->addTab(notesBox, tr("Notes"));

    m_dealList = detailList(m_tabs, "contactDealList");
    m_dealList->setAccessibleName(tr("Deals"));
    m_newDeal = actionButton(tr("New deal…"), "contactNewDealButton");
    m_newDeal->setToolTip(tr("A deal with this contact, yours unless you give it to someone else"));
    m_tabs->addTab(listWithAction(m_tabs, m_dealList, m_newDeal), tr("Deals"));
    m_conversationList = detailList(m_tabs, "contactConversationList");
    m_conversationList->setAccessibleName(tr("Conversations"));
    m_message = actionButton(tr("Send a message"), "contactMessageButton");
    m_messageMenu = new QMenu(m_message);
    m_messageMenu->setObjectName(QStringLiteral("contactMessageMenu"));
    m_message->setMenu(m_messageMenu);
    m_tabs->addTab(listWithAction(m_tabs, m_conversationList, m_message), tr("Conversations"));
    m_taskList = detailList(m_tabs, "contactTaskList");
    m_taskList->setAccessibleName(tr("Tasks"));
    m_newTask = actionButton(tr("New task…"), "contactNewTaskButton");
    m_newTask->setToolTip(tr("A task about this contact, with a reminder if you want one"));
    m_tabs->addTab(listWithAction(m_tabs, m_taskList, m_newTask), tr("Tasks"));
    connect(m_newDeal, &QPushButton::clicked, this, &ContactDetailPane::newDeal);
    connect(m_newTask, &QPushButton::clicked, this, &ContactDetailPane::newTask);
    connect(m_messageMenu, &QMenu::aboutToShow, this, &ContactDetailPane::fillMessageMenu);
    connect(m_taskList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { openTask(item->data(Qt::UserRole).toString()); });
    // An empty tab says what would be there and how it comes.
    installEmptyHint(m_timeline, tr("Nothing has happened with this contact yet."));
    installEmptyHint(m_notes, tr("No notes yet: write one below."));
    installEmptyHint(m_dealList, tr("No deals with this contact yet: New deal adds one."));
    installEmptyHint(m_conversationList,
                     tr("No conversations yet. Messages from this contact's phone or e-mail appear here; "
                        "Send a message starts one."));
    installEmptyHint(m_taskList, tr("No tasks for this contact yet: New task adds one, with a reminder."));
    connect(m_dealList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { emit dealActivated(item->data(Qt::UserRole).toString()); });
    connect(m_conversationList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { emit conversationActivated(item->data(Qt::UserRole).toString()); });
    m_reloadTimer.setSingleShot(true);
    m_reloadTimer.setInterval(150);
    connect(&m_reloadTimer, &QTimer::timeout, this, &ContactDetailPane::reload);

    m_error = UiKit::errorLabel(page, QStringLiteral("detailError"));
    layout->addWidget(m_error);

    connect(m_addTag, &QPushButton::clicked, this, &ContactDetailPane::addTags);
    connect(m_newTag, &QLineEdit::returnPressed, this, &ContactDetailPane::addTags);
    connect(m_removeTag, &QPushButton::clicked, this, &ContactDetailPane::removeSelectedTag);
    connect(m_tags, &QListWidget::itemSelectionChanged, this,
            [this] { m_removeTag->setEnabled(!m_tags->selectedItems().isEmpty()); });
    auto *removeShortcut = new QShortcut(QKeySequence::Delete, m_tags);
    removeShortcut->setContext(Qt::WidgetShortcut);
    connect(removeShortcut, &QShortcut::activated, this, &ContactDetailPane::removeSelectedTag);
    connect(m_newNote, &QPlainTextEdit::textChanged, this,
            [this] { m_addNote->setEnabled(!m_newNote->toPlainText().trimmed().isEmpty()); });
    connect(m_addNote, &QPushButton::clicked, this, &ContactDetailPane::addNote);

    m_stack->setCurrentIndex(0);
}

void ContactDetailPane::newDeal()
{
    if (m_id.isEmpty())
        return;
    auto *dialog = new DealEditDialog(m_deals, QString(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setContactId(m_id);
    connect(dialog, &DealEditDialog::dealSaved, this, [this] {
        reloadSoon();
        m_tabs->setCurrentWidget(m_dealList->parentWidget());
    });
    dialog->open();
}

void ContactDetailPane::newTask()
{
    if (m_id.isEmpty())
        return;
    auto *dialog = new TaskDialog(m_tasks, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setContactId(m_id);
    connect(dialog, &TaskDialog::taskSaved, this, [this] {
        reloadSoon();
        m_tabs->setCurrentWidget(m_taskList->parentWidget());
    });
    dialog->open();
}

void ContactDetailPane::openTask(const QString &taskId)
{
    std::optional<Task> t;
    try {
        t = m_tasks.find(taskId);
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
    if (!t)
        return;
    auto *dialog = new TaskDialog(m_tasks, *t, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TaskDialog::taskSaved, this, &ContactDetailPane::reloadSoon);
    dialog->open();
}

void ContactDetailPane::fillMessageMenu()
{
    m_messageMenu->clear();
    if (m_id.isEmpty())
        return;
    try {
        const std::optional<Contact> c = m_contacts.find(m_id);
        if (!c)
            return;
        ConversationQuery q;
        q.contactId = m_id;
        q.limit = 20;
        bool hasWhatsApp = false;
        for (const Conversation &v : m_conversations.list(q).items) {
            hasWhatsApp = hasWhatsApp || v.channel == QLatin1String("whatsapp");
            QAction *a = m_messageMenu->addAction(InboxText::channelIcon(v.channel), InboxText::channelName(v.channel),
                                                  this, [this, id = v.id] { emit conversationActivated(id); });
            a->setToolTip(v.externalId);
        }
        if (!hasWhatsApp && !c->phone.isEmpty()) {
            // A first WhatsApp message to the contact's phone: the conversation is made when chosen.
            m_messageMenu->addAction(
                InboxText::channelIcon(QStringLiteral("whatsapp")),
                tr("WhatsApp to %1").arg(PhoneText::display(c->phone)), this, [this, phone = c->phone] {
                    try {
                        const Conversation v = m_conversations.findOrCreate(m_id, QStringLiteral("whatsapp"), phone);
                        emit conversationActivated(v.id);
                    } catch (const std::exception &e) {
                        setError(ErrorText::of(e));
                    }
                });
        }
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
    if (m_messageMenu->isEmpty()) {
        QAction *none = m_messageMenu->addAction(tr("No channel to write on: add a phone number for WhatsApp"));
        none->setEnabled(false);
    }
}

void ContactDetailPane::showContact(const QString &id)
{
    if (id != m_id) {
        m_newTag->clear();
        m_newNote->clear();
        setError({});
    }
    m_id = id;
    reload();
}

void ContactDetailPane::reload()
{
    std::optional<Contact> contact;
    QVector<ContactNote> notes;
    if (!m_id.isEmpty()) {
        try {
            contact = m_contacts.find(m_id);
            if (contact)
                notes = m_contacts.notes(m_id);
        } catch (const std::exception &e) {
            setError(ErrorText::of(e));
        }
    }
    for (QPushButton *b : {m_newDeal, m_newTask, m_message})
        b->setEnabled(contact.has_value());
    if (!contact) {
        m_id.clear();
        m_stack->setCurrentIndex(0);
        emit contactShown(false);
        return;
    }
    const Contact &c = *contact;
    m_title->setText(c.displayName());
    m_email->setPlainText(orDash(c.email));
    m_phone->setText(orDash(PhoneText::display(c.phone)));
    m_company->setText(orDash(c.company));
    m_position->setText(orDash(c.position));
    QStringList address;
    for (const char *key : {"street", "city", "country"}) {
        const QString part = c.address.value(QLatin1String(key)).toString();
        if (!part.isEmpty())
            address << part;
    }
    m_address->setText(orDash(address.join(QLatin1String(", "))));
    m_source->setText(orDash(InboxText::channelName(c.source))); // a channel that brought the contact, by its name
    m_leadScore->setText(QLocale().toString(c.leadScore));
    m_created->setText(UiKit::localTime(c.createdAt));
    m_updated->setText(UiKit::localTime(c.updatedAt));

    const QString selectedTag = m_tags->currentItem() ? m_tags->currentItem()->text() : QString();
    m_tags->clear();
    for (const QString &tag : c.tags) {
        auto *item = new QListWidgetItem(tag, m_tags);
        item->setToolTip(tr("Select and press Remove tag (or Delete) to remove"));
        if (tag == selectedTag)
            m_tags->setCurrentItem(item);
    }
    m_removeTag->setEnabled(!m_tags->selectedItems().isEmpty());
    fitTags();

    m_notes->clear();
    QHash<QString, QString> authors; // actor id -> the name shown (a user's, or an API key's)
    for (const ContactNote &note : notes) {
        QString meta = UiKit::localTime(note.createdAt);
        if (!note.createdBy.isEmpty()) {
            auto author = authors.find(note.createdBy);
            if (author == authors.end()) {
                const QString name = UserRepository::actorName(note.createdBy);
                author = authors.insert(note.createdBy, name.isEmpty() ? note.createdBy : name);
            }
            meta = tr("%1 — %2").arg(meta, *author);
        }
        auto *item = new QListWidgetItem(note.content + QLatin1Char('\n') + meta, m_notes);
        item->setData(Qt::UserRole, note.id);
    }
    if (m_notes->count() > 0)
        m_notes->scrollToBottom();

    struct Event
    {
        QString at; // ISO, UTC
        QString text;
    };
    QVector<Event> timeline;
    timeline.append(
        {c.createdAt,
         tr("Contact created%1")
             .arg(c.source.isEmpty() ? QString() : tr(" (from %1)").arg(InboxText::channelName(c.source)))});
    for (const ContactNote &note : notes)
        timeline.append({note.createdAt, tr("Note: %1").arg(note.content)});

    m_dealList->clear();
    try {
        const QVector<Pipeline> pipelines = m_pipelines.list();
        DealQuery dealQuery;
        dealQuery.contactId = c.id;
        dealQuery.limit = 200;
        const QVector<Deal> contactDeals = m_deals.list(dealQuery).items;
        for (const Deal &d : contactDeals) {
            QString line = tr("%1 — %2 — %3")
                               .arg(d.name, DealText::stageName(pipelines, d.pipelineId, d.stage),
                                    QLocale().toCurrencyString(d.closedValue.value_or(d.value), d.currency));
            if (!d.expectedCloseDate.isEmpty() && d.closedAt.isEmpty())
                line += tr(" · closes %1")
                            .arg(QLocale().toString(QDate::fromString(d.expectedCloseDate, Qt::ISODate),
                                                    QLocale::ShortFormat));
            auto *item = new QListWidgetItem(line, m_dealList);
            item->setData(Qt::UserRole, d.id);
            item->setToolTip(tr("Double-click to open the deal"));
            timeline.append({d.createdAt, tr("Deal created: %1").arg(d.name)});
            for (const DealActivity &a : m_deals.activities(d.id)) {
                QString text;
                if (a.type == QLatin1String("stage_change") && a.from.isEmpty())
                    text = tr("%1 started in %2").arg(d.name, DealText::stageName(pipelines, d.pipelineId, a.to));
                else if (a.type == QLatin1String("stage_change"))
                    text = tr("%1 moved from %2 to %3")
                               .arg(d.name, DealText::stageName(pipelines, d.pipelineId, a.from),
                                    DealText::stageName(pipelines, d.pipelineId, a.to));
                else if (a.type == QLatin1String("call"))
                    text = tr("Call (%1): %2").arg(d.name, a.content);
                else if (a.type == QLatin1String("meeting"))
                    text = tr("Meeting (%1): %2").arg(d.name, a.content);
                else if (a.type == QLatin1String("email"))
                    text = tr("E-mail (%1): %2").arg(d.name, a.content);
                else
                    text = tr("Note on %1: %2").arg(d.name, a.content);
                timeline.append({a.createdAt, text});
            }
        }
        countTab(m_tabs, m_dealList->parentWidget(), contactDeals.size());
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }

    m_conversationList->clear();
    try {
        ConversationQuery conversationQuery;
        conversationQuery.contactId = c.id;
        conversationQuery.limit = 100;
        const QVector<Conversation> conversations = m_conversations.list(conversationQuery).items;
        for (const Conversation &v : conversations) {
            QString line = InboxText::channelName(v.channel) + QStringLiteral(" — ") + InboxText::statusName(v.status);
            if (v.unreadCount > 0)
                line += QStringLiteral(" — ") + tr("%n unread", nullptr, v.unreadCount);
            if (!v.lastMessageAt.isEmpty())
                line += QLatin1Char('\n') + UiKit::localTime(v.lastMessageAt) + QStringLiteral(": ") +
                        v.lastMessageText.left(120).simplified();
            auto *item = new QListWidgetItem(line, m_conversationList);
            item->setData(Qt::UserRole, v.id);
            item->setToolTip(tr("Double-click to open the conversation in the inbox"));
            timeline.append({v.createdAt, tr("Conversation started on %1").arg(InboxText::channelName(v.channel))});
            if (!v.lastMessageAt.isEmpty())
                timeline.append(
                    {v.lastMessageAt,
                     (v.lastMessageDirection == QLatin1String("outgoing") ? tr("Message sent on %1: %2")
                                                                          : tr("Message received on %1: %2"))
                         .arg(InboxText::channelName(v.channel), v.lastMessageText.left(120).simplified())});
        }
        countTab(m_tabs, m_conversationList->parentWidget(), conversations.size());
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }

    m_taskList->clear();
    try {
        TaskQuery taskQuery;
        taskQuery.contactId = c.id;
        taskQuery.openFirst = true;
        taskQuery.limit = 100;
        for (const Task &t : m_tasks.list(taskQuery).items) {
            QString line = t.title;
            if (!t.dueDate.isEmpty())
                line += tr(" — due %1")
                            .arg(t.isAllDay() ? QLocale().toString(QDate::fromString(t.dueDate, Qt::ISODate),
                                                                   QLocale::ShortFormat)
                                              : UiKit::localTime(t.dueDate));
            if (!t.isOpen())
                line += tr(" (%1)").arg(t.status == QLatin1String("completed") ? tr("done") : tr("cancelled"));
            auto *item = new QListWidgetItem(line, m_taskList);
            item->setData(Qt::UserRole, t.id);
            item->setToolTip(tr("Double-click to open the task"));
            timeline.append({t.createdAt, tr("Task created: %1").arg(t.title)});
            if (!t.completedAt.isEmpty())
                timeline.append({t.completedAt, tr("Task done: %1").arg(t.title)});
        }
        countTab(m_tabs, m_taskList->parentWidget(), m_taskList->count());
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
    countTab(m_tabs, m_notes->parentWidget(), notes.size());
    retitleTabs();

    // Newest first; ISO UTC times sort as text.
    std::stable_sort(timeline.begin(), timeline.end(), [](const Event &a, const Event &b) { return a.at > b.at; });
    m_timeline->clear();
    for (const Event &e : std::as_const(timeline).mid(0, 300))
        new QListWidgetItem(UiKit::localTime(e.at) + QStringLiteral("  ") + e.text, m_timeline);
    m_stack->setCurrentIndex(1);
    emit contactShown(true);
}

void ContactDetailPane::addTags()
{
    QStringList tags;
    for (const QString &part : m_newTag->text().split(QLatin1Char(','))) {
        if (!part.trimmed().isEmpty())
            tags << part.trimmed();
    }
    if (m_id.isEmpty() || tags.isEmpty())
        return;
    if (write([&] { m_contacts.addTags(m_id, tags); }))
        m_newTag->clear();
}

void ContactDetailPane::removeSelectedTag()
{
    QListWidgetItem *item = m_tags->currentItem();
    if (m_id.isEmpty() || !item || !item->isSelected())
        return;
    write([&] { m_contacts.removeTag(m_id, item->text()); });
}

void ContactDetailPane::addNote()
{
    const QString content = m_newNote->toPlainText().trimmed();
    if (m_id.isEmpty() || content.isEmpty())
        return;
    if (write([&] { m_contacts.addNote(m_id, content); }))
        m_newNote->clear();
}

bool ContactDetailPane::write(const std::function<void()> &change)
{
    bool done = false;
    try {
        change();
        setError({});
        done = true;
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
    reload();
    return done;
}

void ContactDetailPane::setError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}
