#pragma once

#include "model/campaigns/campaignrepository.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "ui/campaigns/campaigneditor.h"

#include <QHash>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class CampaignContactsPanel;
class CampaignRecipientsPanel;
class CampaignStatsPanel;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableWidget;
class QTabWidget;
class UnsubscribeList;

// The Campaigns area: the campaigns (name, channel, type, status, progress, delivery, open and
// click rates, when scheduled or started; a running DRIP or TRIGGERED campaign's progress is its
// contacts, active of entered) filtered by status and channel and searched by name;
// New, Edit, Delete and the moves (Send now, Schedule…, Pause, Resume, Cancel, Retry failed), each
// offered only when the campaign's state allows it, Send and Cancel after a question; under the
// list the selected campaign's statistics (figures and a funnel chart), its recipients and, for a
// DRIP or TRIGGERED campaign, its contacts and the steps each was sent; and the
// unsubscribe list in a tab of its own. It follows the event bus: a campaign, a recipient's send or
// an unsubscribe anywhere (the senders, the API, the tracking links) refreshes it shortly after, at
// most every RefreshDelayMs while a campaign sends.
class CampaignsView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshDelayMs = 300;
    static constexpr int SearchDelayMs = 200;
    static constexpr int ListLimit = 500;
    enum Column
    {
        NameColumn,
        ChannelColumn,
        TypeColumn,
        StatusColumn,
        ProgressColumn,
        DeliveryColumn,
        OpenColumn,
        ClickColumn,
        WhenColumn,
        ColumnCount
    };

    explicit CampaignsView(const Store &store, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    QTableWidget *table() const { return m_table; }
    QComboBox *statusFilter() const { return m_statusFilter; }
    QComboBox *channelFilter() const { return m_channelFilter; }
    QLineEdit *searchField() const { return m_search; }
    // "new", "edit", "delete", "send", "schedule", "pause", "resume", "cancel", "retry".
    QPushButton *button(const QString &action) const { return m_buttons.value(action); }
    QLabel *statusLabel() const { return m_status; }
    CampaignStatsPanel *statsPanel() const { return m_stats; }
    CampaignRecipientsPanel *recipientsPanel() const { return m_recipients; }
    // A DRIP or TRIGGERED campaign's contacts (its tab shown only for those).
    CampaignContactsPanel *contactsPanel() const { return m_contacts; }
    QTabWidget *detailTabs() const { return m_detailTabs; }
    UnsubscribeList *unsubscribeList() const { return m_unsubscribes; }
    CampaignEditor *openEditor() const { return m_editor; }
    // News came while the view was out of sight: it refreshes when shown again.
    bool isStale() const { return m_stale; }
    QString currentCampaignId() const;
    bool selectCampaign(const QString &id);

public slots:
    void focusSearch();
    void newCampaign();
    void editCampaign();
    void openCampaign(const QString &id);
    void deleteCampaign();
    void sendNow();
    void schedule();
    void pause();
    void resume();
    void cancel();
    void retryFailed();
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void updateActions();
    void showSelected();
    void showMessage(const QString &text, bool error = false);
    // Runs a move on the selected campaign, showing `done` or the refusal.
    void move(const std::function<Campaign(const QString &id)> &action, const QString &done);
    void openEditorFor(CampaignEditor *editor);
    std::optional<Campaign> selected() const;

    Store m_store;
    CampaignRepository m_campaigns;
    QVector<Campaign> m_rows;
    QHash<QString, CampaignStats> m_rowStats;
    QHash<QString, EnrolmentCounts> m_rowContacts; // the DRIP and TRIGGERED rows'
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_table = nullptr;
    QComboBox *m_statusFilter = nullptr;
    QComboBox *m_channelFilter = nullptr;
    QLineEdit *m_search = nullptr;
    QHash<QString, QPushButton *> m_buttons;
    QLabel *m_status = nullptr;
    QLabel *m_emptyHint = nullptr;
    QSplitter *m_splitter = nullptr;
    QTabWidget *m_detailTabs = nullptr;
    CampaignStatsPanel *m_stats = nullptr;
    CampaignRecipientsPanel *m_recipients = nullptr;
    CampaignContactsPanel *m_contacts = nullptr;
    UnsubscribeList *m_unsubscribes = nullptr;
    QPointer<CampaignEditor> m_editor;
    QTimer m_refreshTimer;
    QTimer m_unsubscribeTimer;
    QTimer m_searchTimer;
    QString m_selectAfterRefresh;
    bool m_stale = false; // news came while out of sight
};
