#pragma once

#include "model/campaigns/campaignrepository.h"

#include <QTimer>
#include <QWidget>

class PagerBar;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

// The unsubscribe list: the addresses no campaign sends to on a channel (unsubscribed, hard
// bounced, or added by hand), a page at a time, filtered by channel and a search. Anyone who sends
// campaigns adds an address; only an administrator removes one (the API's rule), with a question
// first.
class UnsubscribeList : public QWidget
{
    Q_OBJECT
public:
    static constexpr int PageSize = 100;
    static constexpr int SearchDelayMs = 200;
    UnsubscribeList(const Store &store, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QComboBox *channelFilter() const { return m_channel; }
    QLineEdit *searchField() const { return m_search; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *removeButton() const { return m_remove; }
    QLabel *statusLabel() const { return m_status; }
    PagerBar *pager() const { return m_pager; }

public slots:
    void refresh();
    // Asks for a channel and an address and adds it.
    void addAddress();
    // Adds without asking (the dialog's OK); false with the refusal in the status line.
    bool add(const QString &channel, const QString &address);
    // Removes the selected entry after a question (admins only).
    void removeSelected();
    void updateActions();

private:
    bool mayRemove() const;
    void showMessage(const QString &text, bool error);

    Store m_store;
    SuppressionRepository m_list;
    QComboBox *m_channel = nullptr;
    QLineEdit *m_search = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    PagerBar *m_pager = nullptr;
    QLabel *m_status = nullptr;
    QTimer m_searchTimer;
};
