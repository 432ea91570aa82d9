#pragma once

#include "model/campaigns/campaignrepository.h"

#include <QTimer>
#include <QWidget>

class PagerBar;
class QComboBox;
class QLineEdit;
class QLabel;
class QTableWidget;

// A DRIP or TRIGGERED campaign's contacts (CampaignRepository::enrolments), a page at a time, the
// newest first: the name, where the contact is (active, completed, or left and why), its next step
// and when that is due, where it came from (the audience or the trigger's event) and how many
// steps it was sent; filtered by state. Beside them the selected contact's steps: each one's status
// and when it was sent, opened and clicked. Above, how many entered and where they are now. Read
// as the statistics and the recipients are, again on every refresh of the Campaigns area.
class CampaignContactsPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int PageSize = 50;
    static constexpr int SearchDelayMs = 250; // a search waits this long after the last key
    enum Column
    {
        NameColumn,
        StatusColumn,
        NextStepColumn, // the step and when it is due
        SourceColumn,
        StepsColumn,
        ColumnCount
    };
    enum StepColumn
    {
        StepNumberColumn,
        StepStatusColumn,
        StepSentColumn,
        StepOpenedColumn,
        StepClickedColumn,
        StepColumnCount
    };
    explicit CampaignContactsPanel(CampaignRepository &campaigns, QWidget *parent = nullptr);

    void showCampaign(const QString &campaignId);
    void refresh();
    QTableWidget *table() const { return m_table; }
    QTableWidget *stepsTable() const { return m_stepsTable; }
    QComboBox *statusFilter() const { return m_status; }
    QLineEdit *searchField() const { return m_search; }
    QLabel *summary() const { return m_summary; }
    PagerBar *pager() const { return m_pager; }
    qint64 total() const { return m_total; }

private:
    void showSteps();

    CampaignRepository &m_campaigns;
    QString m_id;
    Campaign m_campaign;
    QVector<CampaignEnrolment> m_rows;
    qint64 m_total = 0;
    QLabel *m_summary = nullptr;
    QComboBox *m_status = nullptr;
    QLineEdit *m_search = nullptr;
    QTimer m_searchTimer;
    QTableWidget *m_table = nullptr;
    QLabel *m_stepsTitle = nullptr;
    QTableWidget *m_stepsTable = nullptr;
    QLabel *m_stepsHint = nullptr;
    PagerBar *m_pager = nullptr;
};
