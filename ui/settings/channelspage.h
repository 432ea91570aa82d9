#pragma once

#include "ui/settings/settingsform.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// Settings > Channels: one group per provider channel (WhatsApp, Telegram, Instagram) with its
// settings, the webhook URL to give the provider (our server's base URL + /webhooks/<channel>), a
// status line (configured / not configured / provider down and why, for the running process), a
// "Test connection" button that probes the provider with the form's values, and Save (non-secret
// keys to liaison.ini, secrets to the secret store; effective at the next start).
//
// The UI library does not know the server or the keychain: the app gives the page functions for
// probing, the status and saving. Values are keyed by their settings names
// ("channels/telegram/botToken").
class ChannelsPage : public QWidget
{
    Q_OBJECT
public:
    using Values = QHash<QString, QString>;
    struct Status
    {
        bool configured = false;
        bool down = false;
        QString reason; // why the provider is down
    };
    using ProbeDone = std::function<void(bool ok, const QString &detail)>;
    // Probes `channel` with these values; calls done once, later, in the GUI thread.
    using ProbeFunction = std::function<void(const QString &channel, const Values &values, ProbeDone done)>;
    using StatusFunction = std::function<Status(const QString &channel)>;
    // Writes the values; false with a message to show (a malformed URL, a secret store failure).
    using SaveFunction = std::function<bool(const Values &values, QString *error)>;

    explicit ChannelsPage(QWidget *parent = nullptr);

    static QStringList channels(); // whatsapp, telegram, instagram
    static QStringList keys();     // every settings key of the form
    static QStringList secretKeys();

    void setProbeFunction(ProbeFunction probe) { m_probe = std::move(probe); }
    void setStatusFunction(StatusFunction status);
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }
    // The public base URL of our server ("https://crm.example.com"); empty: the server is off.
    void setServerBaseUrl(const QString &url);
    // Fills the form (secrets included: they show masked).
    void setValues(const Values &values);
    Values values() const;

    QLineEdit *field(const QString &key) const;
    QComboBox *modeBox() const { return m_mode; }
    QSpinBox *whatsAppRateBox() const { return m_whatsAppRate; }
    QPushButton *testButton(const QString &channel) const;
    QLabel *testResultLabel(const QString &channel) const;
    QLabel *statusLabel(const QString &channel) const;
    QLineEdit *webhookUrlField(const QString &channel) const;
    QPushButton *saveButton() const { return m_form.saveButton(); }
    QLabel *saveResultLabel() const { return m_form.saveResultLabel(); }

public Q_SLOTS:
    void refreshStatus();
    void testConnection(const QString &channel);
    bool save();

private:
    QWidget *channelGroup(const QString &channel, const QString &title);
    QLineEdit *addField(QFormLayout *form, const QString &key, const QString &label, bool secret,
                        const QString &placeholder = {});

    SettingsForm m_form;
    QHash<QString, QPushButton *> m_testButtons;
    QHash<QString, QLabel *> m_testResults;
    QHash<QString, QLabel *> m_statusLabels;
    QHash<QString, QLineEdit *> m_webhookUrls;
    QComboBox *m_mode = nullptr;
    QSpinBox *m_whatsAppRate = nullptr;
    QString m_serverBaseUrl;
    ProbeFunction m_probe;
    StatusFunction m_status;
    SaveFunction m_save;
};
