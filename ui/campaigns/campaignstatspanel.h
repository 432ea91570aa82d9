#pragma once

#include "model/campaigns/campaignrepository.h"

#include <QHash>
#include <QTimer>
#include <QWidget>

class PagerBar;
class QCheckBox;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

// A campaign's statistics: its figures (the audience, sent, delivered, opened, clicked, bounced,
// unsubscribed, skipped and why, failed, waiting, and the three rates with their denominators in
// the tooltips) and a funnel chart (QtCharts) from the audience down to the clicks. A DRIP or
// TRIGGERED campaign counts messages (one per contact and step) instead of an audience, and says
// how many contacts entered and where they are.
class CampaignStatsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CampaignStatsPanel(CampaignRepository &campaigns, QWidget *parent = nullptr);

    // Shows this campaign (empty: none) as stored now.
    void showCampaign(const QString &campaignId);
    void refresh();
    QString campaignId() const { return m_id; }
    // The value label of a figure: "total", "sent", "delivered", "opened", "clicked", "bounced",
    // "unsubscribed", "skipped", "failed", "pending", "deliveryRate", "openRate", "clickRate".
    QLabel *figure(const QString &name) const { return m_figures.value(name); }
    QChartView *chart() const { return m_chart; }
    // The funnel's bars as drawn (the audience, sent, delivered, opened, clicked).
    QList<qint64> funnel() const { return m_funnel; }

private:
    void drawFunnel(const CampaignStats &s, const QString &first);

    CampaignRepository &m_campaigns;
    QString m_id;
    QHash<QString, QLabel *> m_figures;
    QHash<QString, QLabel *> m_names; // the figures' names
    QLabel *m_title = nullptr;
    QLabel *m_reason = nullptr;
    QChartView *m_chart = nullptr;
    QList<qint64> m_funnel;
};

// A campaign's recipients, a page at a time: address, name, the step (a DRIP or TRIGGERED
// campaign's rows), status, sent, opened and clicked times and the error; filtered by status and a
// search (address or name), the test sends apart.
class CampaignRecipientsPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int PageSize = 50;
    static constexpr int SearchDelayMs = 200;
    enum Column
    {
        AddressColumn,
        NameColumn,
        StepColumn, // shown when a row of the page is a drip's step
        StatusColumn,
        SentColumn,
        OpenedColumn,
        ClickedColumn,
        ErrorColumn,
        ColumnCount
    };
    explicit CampaignRecipientsPanel(CampaignRepository &campaigns, QWidget *parent = nullptr);
    // A recipient's status as the table shows it: "Skipped (no address)", "Bounced (hard)".
    static QString statusText(const CampaignRecipient &r);

    void showCampaign(const QString &campaignId);
    void refresh();
    QTableWidget *table() const { return m_table; }
    QComboBox *statusFilter() const { return m_status; }
    QLineEdit *searchField() const { return m_search; }
    QCheckBox *testToggle() const { return m_test; }
    PagerBar *pager() const { return m_pager; }
    qint64 total() const { return m_total; }

private:
    CampaignRepository &m_campaigns;
    QString m_id;
    qint64 m_total = 0;
    QComboBox *m_status = nullptr;
    QLineEdit *m_search = nullptr;
    QCheckBox *m_test = nullptr;
    QTableWidget *m_table = nullptr;
    PagerBar *m_pager = nullptr;
    QTimer m_searchTimer;
};
