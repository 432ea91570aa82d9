#pragma once

#include "model/webhooks/webhookrepository.h"

#include <QDialog>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;

// Add or edit a subscription. Validation messages of the repository appear under their fields;
// the dialog stays open on a refusal.
class WebhookDialog : public QDialog
{
    Q_OBJECT
public:
    WebhookDialog(WebhookRepository &repository, std::optional<WebhookSubscription> existing,
                  QWidget *parent = nullptr);

    QLineEdit *urlEdit() const { return m_url; }
    QListWidget *eventList() const { return m_events; }
    QLineEdit *secretEdit() const { return m_secret; }
    QStringList checkedEvents() const;
    // What an event means, in the window's language ("A deal is won"); empty for an unknown name.
    static QString eventDescription(const QString &event);
    void accept() override;

Q_SIGNALS:
    // A secret to show once: generated on create, or the rotated one.
    void secretCreated(const QString &secret);

private:
    WebhookRepository &m_repository;
    std::optional<WebhookSubscription> m_existing;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_description = nullptr;
    QCheckBox *m_all = nullptr;
    QListWidget *m_events = nullptr;
    QLineEdit *m_secret = nullptr;
    QCheckBox *m_rotate = nullptr;
    QLabel *m_urlError = nullptr;
    QLabel *m_eventsError = nullptr;
    QLabel *m_secretError = nullptr;
    QLabel *m_error = nullptr;
};
