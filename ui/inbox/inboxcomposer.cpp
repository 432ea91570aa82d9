#include "ui/inbox/inboxcomposer.h"

#include "model/core/errors.h"
#include "model/core/timeutil.h"
#include "model/inbox/mediarepository.h"
#include "model/inbox/templaterepository.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QMimeDatabase>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace {
constexpr qint64 kWindowSeconds = 24 * 3600;
constexpr int kTemplateRole = Qt::UserRole + 1;

// The first local file of a drag, empty when it carries none.
QString droppedFile(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl &url : mime->urls()) {
        if (url.isLocalFile())
            return url.toLocalFile();
    }
    return {};
}
} // namespace

InboxComposer::InboxComposer(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_templates(store)
{
    setObjectName(QStringLiteral("inboxComposer"));
    m_attachButton = new QToolButton(this);
    m_attachButton->setObjectName(QStringLiteral("attachButton"));
    // A word and a standard icon: the paper-clip emoji is missing from common fonts (an empty box).
    m_attachButton->setText(tr("Attach…"));
    m_attachButton->setIcon(style()->standardIcon(QStyle::SP_FileIcon));
    m_attachButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_attachButton->setToolTip(tr("Attach a file (or drop one onto the conversation)"));
    m_attachButton->setAccessibleName(tr("Attach a file"));
    m_templateButton = new QPushButton(tr("Template…"), this);
    m_templateButton->setObjectName(QStringLiteral("templateButton"));
    m_templateButton->setToolTip(tr("Send an approved message template"));

    m_windowHint = new QLabel(tr("Outside the 24-hour window: send a template"), this);
    m_windowHint->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_windowHint->setObjectName(QStringLiteral("windowHint"));
    UiKit::setTone(m_windowHint, UiKit::Tone::Warning);
    m_windowHint->setToolTip(tr("WhatsApp accepts free text only within 24 hours of the customer's last message; "
                                "after that it refuses anything but an approved template."));
    m_windowHint->hide();

    m_attachmentRow = new QWidget(this);
    m_attachmentRow->setObjectName(QStringLiteral("attachmentRow"));
    auto *attachmentLayout = new QHBoxLayout(m_attachmentRow);
    attachmentLayout->setContentsMargins(0, 0, 0, 0);
    m_attachmentLabel = new QLabel(m_attachmentRow);
    m_attachmentLabel->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_attachmentLabel->setObjectName(QStringLiteral("attachmentLabel"));
    m_removeAttachment = new QToolButton(m_attachmentRow);
    m_removeAttachment->setObjectName(QStringLiteral("removeAttachment"));
    m_removeAttachment->setText(tr("✕"));
    m_removeAttachment->setToolTip(tr("Remove the attachment"));
    attachmentLayout->addWidget(m_attachmentLabel, 1);
    attachmentLayout->addWidget(m_removeAttachment);
    m_attachmentRow->hide();

    m_templatePanel = new QWidget(this);
    m_templatePanel->setObjectName(QStringLiteral("templatePanel"));
    auto *templateLayout = new QVBoxLayout(m_templatePanel);
    templateLayout->setContentsMargins(0, 0, 0, 0);
    auto *titleRow = new QHBoxLayout;
    m_templateTitle = new QLabel(m_templatePanel);
    m_templateTitle->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_templateTitle->setObjectName(QStringLiteral("templateTitle"));
    auto *cancelTemplate = new QToolButton(m_templatePanel);
    cancelTemplate->setObjectName(QStringLiteral("templateCancel"));
    cancelTemplate->setText(tr("✕"));
    cancelTemplate->setToolTip(tr("Do not send the template"));
    titleRow->addWidget(m_templateTitle, 1);
    titleRow->addWidget(cancelTemplate);
    templateLayout->addLayout(titleRow);
    m_paramForm = new QFormLayout;
    templateLayout->addLayout(m_paramForm);
    m_preview = new QLabel(m_templatePanel);
    m_preview->setObjectName(QStringLiteral("templatePreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextFormat(Qt::PlainText);
    m_preview->setFrameShape(QFrame::StyledPanel);
    templateLayout->addWidget(m_preview);
    m_buttonsRow = new QWidget(m_templatePanel);
    m_buttonsRow->setObjectName(QStringLiteral("templateButtons"));
    templateLayout->addWidget(m_buttonsRow);
    m_templatePanel->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_windowHint);
    layout->addWidget(m_attachmentRow);
    layout->addWidget(m_templatePanel);

    m_windowTimer.setInterval(60 * 1000);
    connect(&m_windowTimer, &QTimer::timeout, this, &InboxComposer::updateWindowHint);
    connect(m_attachButton, &QToolButton::clicked, this, &InboxComposer::pickFile);
    connect(m_templateButton, &QPushButton::clicked, this, &InboxComposer::openTemplatePicker);
    connect(m_removeAttachment, &QToolButton::clicked, this, &InboxComposer::clearAttachment);
    connect(cancelTemplate, &QToolButton::clicked, this, &InboxComposer::clearTemplate);
    updateButtons();
}

InboxComposer::~InboxComposer() = default;

void InboxComposer::setFileSender(FileSender sender)
{
    m_fileSender = std::move(sender);
    updateButtons();
}

void InboxComposer::setTemplateSender(TemplateSender sender)
{
    m_templateSender = std::move(sender);
    updateButtons();
}

void InboxComposer::watchDrops(QWidget *target)
{
    target->setAcceptDrops(true);
    target->installEventFilter(this);
}

bool InboxComposer::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
        auto *drag = static_cast<QDropEvent *>(event);
        if (droppedFile(drag->mimeData()).isEmpty())
            break; // text drags go on to the widget
        if (m_hasConversation && m_fileSender)
            drag->acceptProposedAction();
        else
            drag->ignore();
        return true;
    }
    case QEvent::Drop: {
        auto *drop = static_cast<QDropEvent *>(event);
        const QString file = droppedFile(drop->mimeData());
        if (file.isEmpty())
            break;
        if (m_hasConversation && m_fileSender) {
            drop->acceptProposedAction();
            attachFile(file);
        } else {
            drop->ignore();
        }
        return true;
    }
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void InboxComposer::pickFile()
{
    auto *dialog = new QFileDialog(this, tr("Attach a file"));
    dialog->setObjectName(QStringLiteral("attachFileDialog"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) { attachFile(file); });
    dialog->open();
}

bool InboxComposer::attachFile(const QString &path)
{
    const QFileInfo info(path);
    const QLocale locale;
    if (!info.isFile() || !info.isReadable()) {
        fail(tr("Cannot attach %1: not a readable file").arg(info.fileName()));
        return false;
    }
    if (info.size() == 0) {
        fail(tr("Cannot attach %1: the file is empty").arg(info.fileName()));
        return false;
    }
    if (m_maxFileBytes > 0 && info.size() > m_maxFileBytes) {
        fail(
            tr("%1 is too large to send (%2): at most %3")
                .arg(info.fileName(), locale.formattedDataSize(info.size()), locale.formattedDataSize(m_maxFileBytes)));
        return false;
    }
    clearTemplate();
    m_filePath = info.absoluteFilePath();
    const QString kind = MediaRules::kindOf(QMimeDatabase().mimeTypeForFile(info).name());
    QString kindName = tr("document");
    if (kind == QLatin1String("image"))
        kindName = tr("image");
    else if (kind == QLatin1String("video"))
        kindName = tr("video");
    else if (kind == QLatin1String("audio"))
        kindName = tr("audio");
    m_attachmentLabel->setText(
        tr("Attachment: %1 · %2 · %3").arg(info.fileName(), locale.formattedDataSize(info.size()), kindName));
    m_attachmentLabel->setToolTip(m_filePath);
    m_attachmentRow->show();
    emit errorCleared();
    return true;
}

void InboxComposer::clearAttachment()
{
    m_filePath.clear();
    m_attachmentLabel->clear();
    m_attachmentRow->hide();
}

void InboxComposer::openTemplatePicker()
{
    if (m_picker)
        m_picker->close();
    QVector<MessageTemplate> templates;
    try {
        templates = m_templates.list(QStringLiteral("approved"));
    } catch (const std::exception &e) {
        fail(ErrorText::of(e));
        return;
    }
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("templatePicker"));
    dialog->setWindowTitle(tr("Choose a template"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *list = new QListWidget(dialog);
    list->setObjectName(QStringLiteral("templateList"));
    list->setWordWrap(true);
    for (const MessageTemplate &t : templates) {
        QString body = t.body.simplified();
        if (body.size() > 80)
            body = body.left(79) + QChar(0x2026);
        auto *item = new QListWidgetItem(tr("%1 (%2)\n%3").arg(t.name, t.language, body), list);
        item->setData(kTemplateRole, t.id);
        item->setToolTip(t.body);
    }
    auto *empty = new QLabel(tr("No approved templates yet: an admin adds them in Settings → Templates."), dialog);
    empty->setTextFormat(Qt::PlainText); // data from outside is never markup
    empty->setObjectName(QStringLiteral("noTemplates"));
    empty->setWordWrap(true);
    empty->setVisible(templates.isEmpty());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Use template"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(empty);
    layout->addWidget(list);
    layout->addWidget(buttons);
    connect(list, &QListWidget::currentRowChanged, dialog,
            [buttons](int row) { buttons->button(QDialogButtonBox::Ok)->setEnabled(row >= 0); });
    connect(list, &QListWidget::itemDoubleClicked, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::accepted, this, [this, list, templates] {
        const int row = list->currentRow();
        if (row >= 0 && row < templates.size())
            chooseTemplate(templates.at(row));
    });
    m_picker = dialog;
    dialog->resize(480, 360);
    dialog->open();
}

void InboxComposer::chooseTemplate(const MessageTemplate &tpl)
{
    clearAttachment();
    clearTemplate();
    m_template = tpl;
    m_templateTitle->setText(tr("Template %1 (%2)").arg(tpl.name, tpl.language));
    for (int i = 1; i <= tpl.parameterCount(); ++i) {
        auto *edit = new QLineEdit(m_templatePanel);
        edit->setObjectName(QStringLiteral("templateParam%1").arg(i));
        edit->setPlaceholderText(tr("Value of {{%1}}").arg(i));
        connect(edit, &QLineEdit::textChanged, this, &InboxComposer::updatePreview);
        m_paramForm->addRow(tr("{{%1}}").arg(i), edit);
        m_paramEdits << edit;
    }
    auto *buttonsLayout = new QHBoxLayout(m_buttonsRow);
    buttonsLayout->setContentsMargins(0, 0, 0, 0);
    if (!tpl.buttons.isEmpty()) {
        buttonsLayout->addWidget(new QLabel(tr("Quick-reply buttons:"), m_buttonsRow));
        for (const QJsonValue &b : tpl.buttons) {
            auto *button = new QPushButton(b.toObject().value(QStringLiteral("text")).toString(), m_buttonsRow);
            button->setEnabled(false); // the customer taps them; here they are a preview
            buttonsLayout->addWidget(button);
        }
    }
    buttonsLayout->addStretch(1);
    m_buttonsRow->setVisible(!tpl.buttons.isEmpty());
    updatePreview();
    m_templatePanel->show();
    if (!m_paramEdits.isEmpty())
        m_paramEdits.first()->setFocus();
    emit errorCleared();
}

void InboxComposer::clearTemplate()
{
    m_template.reset();
    while (m_paramForm->rowCount() > 0)
        m_paramForm->removeRow(0); // deletes the label and the edit
    m_paramEdits.clear();
    delete m_buttonsRow->layout();
    qDeleteAll(m_buttonsRow->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly));
    m_preview->clear();
    m_templatePanel->hide();
}

QString InboxComposer::previewText() const
{
    if (!m_template)
        return {};
    QString text = m_template->body;
    // From the highest number down, so that {{1}} does not eat the start of {{10}}.
    for (int i = m_paramEdits.size(); i >= 1; --i) {
        const QString value = m_paramEdits.at(i - 1)->text().trimmed();
        if (!value.isEmpty())
            text.replace(QStringLiteral("{{%1}}").arg(i), value);
    }
    return text;
}

QStringList InboxComposer::buttonPayloads() const
{
    QStringList payloads;
    if (m_template) {
        for (const QJsonValue &b : m_template->buttons)
            payloads << b.toObject().value(QStringLiteral("text")).toString();
    }
    return payloads;
}

void InboxComposer::updatePreview()
{
    m_preview->setText(previewText());
}

InboxComposer::SendResult InboxComposer::sendPending(const QString &conversationId, const QString &caption)
{
    try {
        if (!m_filePath.isEmpty()) {
            if (!m_fileSender) {
                fail(tr("Sending files is not available here"));
                return SendResult::Refused;
            }
            m_fileSender(conversationId, m_filePath, caption);
            clearAttachment();
            return SendResult::FileSent;
        }
        if (m_template) {
            if (!m_templateSender) {
                fail(tr("Sending templates is not available here"));
                return SendResult::Refused;
            }
            QStringList parameters;
            for (int i = 0; i < m_paramEdits.size(); ++i) {
                const QString value = m_paramEdits.at(i)->text().trimmed();
                if (value.isEmpty()) {
                    fail(tr("Fill in every placeholder of the template: {{%1}} is empty").arg(i + 1));
                    m_paramEdits.at(i)->setFocus();
                    return SendResult::Refused;
                }
                parameters << value;
            }
            m_templateSender(conversationId, m_template->name, m_template->language, parameters, buttonPayloads());
            clearTemplate();
            return SendResult::TemplateSent;
        }
    } catch (const std::exception &e) {
        fail(ErrorText::of(e));
    }
    return SendResult::Refused;
}

void InboxComposer::setConversation(const std::optional<Conversation> &conversation, const QString &lastIncomingAt)
{
    const QString id = conversation ? conversation->id : QString();
    if (id != m_conversationId) {
        // Another conversation: what was attached or chosen for the previous one is dropped.
        clearAttachment();
        clearTemplate();
        if (m_picker)
            m_picker->close();
    }
    m_conversationId = id;
    m_hasConversation = conversation.has_value();
    m_channel = conversation ? conversation->channel : QString();
    const std::optional<QDateTime> last = TimeUtil::parse(lastIncomingAt);
    m_lastIncoming = last ? *last : QDateTime();
    updateWindowHint();
    updateButtons();
}

void InboxComposer::updateWindowHint()
{
    const bool whatsapp = m_hasConversation && m_channel == QLatin1String("whatsapp");
    m_outsideWindow = whatsapp && (!m_lastIncoming.isValid() || m_lastIncoming.secsTo(m_store.now()) > kWindowSeconds);
    m_windowHint->setVisible(m_outsideWindow);
    if (whatsapp && !m_outsideWindow)
        m_windowTimer.start(); // the window closes while the conversation is open
    else
        m_windowTimer.stop();
}

void InboxComposer::updateButtons()
{
    m_attachButton->setEnabled(m_hasConversation && bool(m_fileSender));
    m_templateButton->setEnabled(m_hasConversation && bool(m_templateSender));
}

void InboxComposer::fail(const QString &text)
{
    emit errorOccurred(text);
}
