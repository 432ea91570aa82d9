#pragma once

#include "model/core/store.h"

#include <QDialog>

class ApiKeyRepository;
class ApiKeysPage;
class QListWidget;
class QStackedWidget;

// Settings: a list of pages on the left, the chosen page on the right. "API keys" is built in; the
// main window adds the others (MainWindow::addSettingsPage) and keeps the dialog for its lifetime.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    SettingsDialog(ApiKeyRepository &keys, const Store &store, QWidget *parent = nullptr);

    // Adds a page; its objectName is what showPage() finds it by.
    void addPage(const QString &title, QWidget *page);
    // Shows the page with this objectName ("apiKeysPage"); false when there is none.
    bool showPage(const QString &objectName);

    ApiKeysPage *apiKeysPage() const { return m_apiKeys; }
    // The objectName of the page shown now.
    QString currentPageName() const;

private:
    QListWidget *m_pages = nullptr;
    QStackedWidget *m_stack = nullptr;
    ApiKeysPage *m_apiKeys = nullptr;
};
