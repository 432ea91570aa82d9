#include "contactdetailpane.h"

#include "contactrepository.h"
#include "errors.h"
#include "taskrepository.h"

#include <QDateTime>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace {
QString localTime(const QString &iso)
{
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : iso;
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
} // namespace

ContactDetailPane::ContactDetailPane(ContactRepository &contacts, QWidget *parent)
    : QWidget(parent)
    , m_contacts(contacts)
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

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("E-mail:"), m_email = valueLabel(page, "emailValue"));
    form->addRow(tr("Phone:"), m_phone = valueLabel(page, "phoneValue"));
    form->addRow(tr("Company:"), m_company = valueLabel(page, "companyValue"));
    form->addRow(tr("Position:"), m_position = valueLabel(page, "positionValue"));
    form->addRow(tr("Address:"), m_address = valueLabel(page, "addressValue"));
    form->addRow(tr("Source:"), m_source = valueLabel(page, "sourceValue"));
    form->addRow(tr("Lead score:"), m_leadScore = valueLabel(page, "leadScoreValue"));
    form->addRow(tr("Created:"), m_created = valueLabel(page, "createdValue"));
    form->addRow(tr("Updated:"), m_updated = valueLabel(page, "updatedValue"));
    layout->addLayout(form);

    auto *tagsBox = new QGroupBox(tr("Tags"), page);
    auto *tagsLayout = new QVBoxLayout(tagsBox);
    m_tags = new QListWidget(tagsBox);
    m_tags->setObjectName(QStringLiteral("tagList"));
    m_tags->setFlow(QListView::LeftToRight);
    m_tags->setWrapping(true);
    m_tags->setResizeMode(QListView::Adjust);
    m_tags->setSpacing(3);
    // Room for about two lines of chips; more scroll.
    m_tags->setFixedHeight(2 * (fontMetrics().height() + 12) + 8);
    m_tags->setStyleSheet(QStringLiteral(
        "QListWidget::item { border: 1px solid palette(mid); border-radius: 8px; padding: 1px 8px; }"
        "QListWidget::item:selected { background: palette(highlight); color: palette(highlighted-text); }"));
    tagsLayout->addWidget(m_tags);
    m_removeTag = new QPushButton(tr("Remove tag"), tagsBox);
    m_removeTag->setObjectName(QStringLiteral("removeTagButton"));
    m_removeTag->setEnabled(false);
    tagsLayout->addWidget(m_removeTag, 0, Qt::AlignRight);
    auto *tagRow = new QHBoxLayout;
    m_newTag = new QLineEdit(tagsBox);
    m_newTag->setObjectName(QStringLiteral("newTagEdit"));
    m_newTag->setPlaceholderText(tr("New tags, comma separated"));
    m_addTag = new QPushButton(tr("Add tag"), tagsBox);
    m_addTag->setObjectName(QStringLiteral("addTagButton"));
    tagRow->addWidget(m_newTag, 1);
    tagRow->addWidget(m_addTag);
    tagsLayout->addLayout(tagRow);
    layout->addWidget(tagsBox);

    auto *notesBox = new QGroupBox(tr("Notes"), page);
    auto *notesLayout = new QVBoxLayout(notesBox);
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
    layout->addWidget(notesBox, 1);

    auto *tasksBox = new QGroupBox(tr("Tasks"), page);
    auto *tasksLayout = new QVBoxLayout(tasksBox);
    m_taskList = new QListWidget(tasksBox);
    m_taskList->setObjectName(QStringLiteral("contactTaskList"));
    m_taskList->setSelectionMode(QAbstractItemView::NoSelection);
    m_taskList->setMaximumHeight(5 * (fontMetrics().height() + 6));
    tasksLayout->addWidget(m_taskList);
    layout->addWidget(tasksBox);

    m_error = new QLabel(page);
    m_error->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_error->setObjectName(QStringLiteral("detailError"));
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->setWordWrap(true);
    m_error->hide();
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
            setError(QString::fromStdString(e.what()));
        }
    }
    if (!contact) {
        m_id.clear();
        m_stack->setCurrentIndex(0);
        return;
    }
    const Contact &c = *contact;
    m_title->setText(c.displayName());
    m_email->setText(orDash(c.email));
    m_phone->setText(orDash(c.phone));
    m_company->setText(orDash(c.company));
    m_position->setText(orDash(c.position));
    QStringList address;
    for (const char *key : {"street", "city", "country"}) {
        const QString part = c.address.value(QLatin1String(key)).toString();
        if (!part.isEmpty())
            address << part;
    }
    m_address->setText(orDash(address.join(QLatin1String(", "))));
    m_source->setText(orDash(c.source));
    m_leadScore->setText(QLocale().toString(c.leadScore));
    m_created->setText(localTime(c.createdAt));
    m_updated->setText(localTime(c.updatedAt));

    const QString selectedTag = m_tags->currentItem() ? m_tags->currentItem()->text() : QString();
    m_tags->clear();
    for (const QString &tag : c.tags) {
        auto *item = new QListWidgetItem(tag, m_tags);
        item->setToolTip(tr("Select and press Remove tag (or Delete) to remove"));
        if (tag == selectedTag)
            m_tags->setCurrentItem(item);
    }
    m_removeTag->setEnabled(!m_tags->selectedItems().isEmpty());

    m_notes->clear();
    for (const ContactNote &note : notes) {
        QString meta = localTime(note.createdAt);
        if (!note.createdBy.isEmpty())
            meta = tr("%1 — %2").arg(meta, note.createdBy);
        auto *item = new QListWidgetItem(note.content + QLatin1Char('\n') + meta, m_notes);
        item->setData(Qt::UserRole, note.id);
    }
    if (m_notes->count() > 0)
        m_notes->scrollToBottom();

    m_taskList->clear();
    try {
        TaskQuery taskQuery;
        taskQuery.contactId = c.id;
        taskQuery.openFirst = true;
        taskQuery.limit = 100;
        for (const Task &t : TaskRepository().list(taskQuery).items) {
            QString line = t.title;
            if (!t.dueDate.isEmpty())
                line += tr(" — due %1")
                            .arg(t.isAllDay() ? QLocale().toString(QDate::fromString(t.dueDate, Qt::ISODate),
                                                                   QLocale::ShortFormat)
                                              : localTime(t.dueDate));
            if (!t.isOpen())
                line += tr(" (%1)").arg(t.status == QLatin1String("completed") ? tr("done") : tr("cancelled"));
            auto *item = new QListWidgetItem(line, m_taskList);
            item->setData(Qt::UserRole, t.id);
        }
    } catch (const std::exception &e) {
        setError(QString::fromStdString(e.what()));
    }
    m_stack->setCurrentIndex(1);
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
    try {
        m_contacts.addTags(m_id, tags);
        m_newTag->clear();
        setError({});
    } catch (const DomainError &e) {
        setError(e.message());
    } catch (const std::exception &e) {
        setError(QString::fromStdString(e.what()));
    }
    reload();
}

void ContactDetailPane::removeSelectedTag()
{
    QListWidgetItem *item = m_tags->currentItem();
    if (m_id.isEmpty() || !item || !item->isSelected())
        return;
    try {
        m_contacts.removeTag(m_id, item->text());
        setError({});
    } catch (const DomainError &e) {
        setError(e.message());
    } catch (const std::exception &e) {
        setError(QString::fromStdString(e.what()));
    }
    reload();
}

void ContactDetailPane::addNote()
{
    const QString content = m_newNote->toPlainText().trimmed();
    if (m_id.isEmpty() || content.isEmpty())
        return;
    try {
        m_contacts.addNote(m_id, content);
        m_newNote->clear();
        setError({});
    } catch (const DomainError &e) {
        setError(e.message());
    } catch (const std::exception &e) {
        setError(QString::fromStdString(e.what()));
    }
    reload();
}

void ContactDetailPane::setError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}
