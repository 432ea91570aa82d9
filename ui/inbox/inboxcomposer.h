#pragma once

#include "model/inbox/conversation.h"
#include "model/inbox/message.h"
#include "model/inbox/messagetemplate.h"
#include "model/inbox/templaterepository.h"

#include <QDateTime>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <functional>
#include <optional>

class QDialog;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QToolButton;

// The attachment and template part of the Inbox composer (InboxView puts its buttons into the
// composer row and the panel above it):
// - a paperclip button, or a file dropped onto the thread or the composer, attaches one file: a
//   preview row (name, size, kind, remove button); Send then sends the file with the composer's
//   text as its caption;
// - "Template…" opens a picker of the approved templates (name, language, body preview); the chosen
//   one shows a line edit per {{n}} placeholder, a live preview of the filled body and its
//   quick-reply buttons; Send sends it as a template message;
// - on WhatsApp, when the customer's last message is older than 24 hours (or there is none), the
//   hint "Outside the 24-hour window: send a template" (text sends stay allowed).
// Sending goes through the functions the app sets (the server's media and channel path); they throw
// (std::exception) with the message to show, which is shown inline (errorOccurred).
class InboxComposer : public QWidget
{
    Q_OBJECT
public:
    // Stores the file as media and sends it with the caption.
    using FileSender =
        std::function<Message(const QString &conversationId, const QString &filePath, const QString &caption)>;
    // Sends an approved template with its body parameters ({{1}}…) and one payload per quick-reply button.
    using TemplateSender =
        std::function<Message(const QString &conversationId, const QString &templateName, const QString &language,
                              const QStringList &parameters, const QStringList &buttonPayloads)>;

    // store: the templates offered, and the clock of the 24-hour hint.
    explicit InboxComposer(const Store &store, QWidget *parent = nullptr);
    ~InboxComposer() override;

    void setFileSender(FileSender sender);
    void setTemplateSender(TemplateSender sender);
    // The largest file the media store takes (media/maxUploadBytes); a larger one is refused when
    // attached. 0: no check here (the sender still checks).
    void setMaxFileBytes(qint64 bytes) { m_maxFileBytes = bytes; }

    QToolButton *attachButton() const { return m_attachButton; }
    QPushButton *templateButton() const { return m_templateButton; }
    QLabel *windowHint() const { return m_windowHint; }
    // Accept file drops on this widget (the thread's viewport, the composer line).
    void watchDrops(QWidget *target);

    // Attaches a file (replacing an attachment or a chosen template); false, with an error shown,
    // when it is not a readable file or is larger than the limit.
    bool attachFile(const QString &path);
    void clearAttachment();
    QString attachedFile() const { return m_filePath; }
    QLabel *attachmentLabel() const { return m_attachmentLabel; }

    // Opens the template picker (window-modal, open(): never blocks).
    void openTemplatePicker();
    QDialog *templatePicker() const { return m_picker; }
    // Shows the parameter form of a template (replacing an attachment).
    void chooseTemplate(const MessageTemplate &tpl);
    void clearTemplate();
    std::optional<MessageTemplate> chosenTemplate() const { return m_template; }
    QVector<QLineEdit *> parameterEdits() const { return m_paramEdits; }
    QString previewText() const;
    QStringList buttonPayloads() const;

    // Whether Send sends an attachment or a template instead of the text.
    bool hasPending() const { return !m_filePath.isEmpty() || m_template.has_value(); }
    enum class SendResult
    {
        Refused,     // nothing sent; the error is shown
        FileSent,    // the composer's text went as the caption
        TemplateSent // the composer's text was not used
    };
    SendResult sendPending(const QString &conversationId, const QString &caption);

    // The selected conversation (nullopt: none) and when its customer last wrote (ISO; empty: never
    // or not among the loaded messages).
    void setConversation(const std::optional<Conversation> &conversation, const QString &lastIncomingAt);
    bool outsideWindow() const { return m_outsideWindow; }

public slots:
    // Looks at the store's clock again for the 24-hour hint (a timer does it every minute while the
    // window of an open conversation is open).
    void updateWindowHint();

signals:
    void errorOccurred(const QString &text);
    // Hide an error shown before (a new attachment or template).
    void errorCleared();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void pickFile();
    void updatePreview();
    void updateButtons();
    void fail(const QString &text);

    FileSender m_fileSender;
    TemplateSender m_templateSender;
    qint64 m_maxFileBytes = 0;
    Store m_store;
    TemplateRepository m_templates;
    bool m_hasConversation = false;
    QString m_conversationId;
    QString m_channel;
    QDateTime m_lastIncoming;
    bool m_outsideWindow = false;
    QString m_filePath;
    std::optional<MessageTemplate> m_template;

    QToolButton *m_attachButton = nullptr;
    QPushButton *m_templateButton = nullptr;
    QLabel *m_windowHint = nullptr;
    QWidget *m_attachmentRow = nullptr;
    QLabel *m_attachmentLabel = nullptr;
    QToolButton *m_removeAttachment = nullptr;
    QWidget *m_templatePanel = nullptr;
    QLabel *m_templateTitle = nullptr;
    QFormLayout *m_paramForm = nullptr;
    QVector<QLineEdit *> m_paramEdits;
    QLabel *m_preview = nullptr;
    QLabel *m_buttonsLabel = nullptr;
    QWidget *m_buttonsRow = nullptr;
    QPointer<QDialog> m_picker;
    QTimer m_windowTimer;
};
