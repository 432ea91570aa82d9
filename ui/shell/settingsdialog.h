#pragma once

#include <QDialog>

class ApiKeysPage;
class QListWidget;
class QStackedWidget;

// Settings: a list of pages on the left, the chosen page on the right. The main window adds the
// pages it was given (MainWindow::addSettingsPage, from the app's composition root) and keeps the
// dialog for its lifetime.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget *parent = nullptr);

    // Adds a page; its objectName is what showPage() finds it by. The first one added is shown.
    void addPage(const QString &title, QWidget *page);
    // Shows the page with this objectName ("apiKeysPage"); false when there is none.
    bool showPage(const QString &objectName);

    // The API keys page, when the dialog has one.
    ApiKeysPage *apiKeysPage() const;
    // The objectName of the page shown now.
    QString currentPageName() const;

private:
    QListWidget *m_pages = nullptr;
    QStackedWidget *m_stack = nullptr;
};
