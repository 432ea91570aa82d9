#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

// Settings > Web widget: the snippet a site owner pastes into their pages to get the chat button
// (<script src="https://HOST/widget/embed.js" async></script>), built from the address of our server,
// with a Copy button. The address starts as the running API server's URL and can be edited (the
// address visitors' browsers reach may differ from the one this computer listens on).
class WidgetSettingsPage : public QWidget
{
    Q_OBJECT
public:
    explicit WidgetSettingsPage(const QString &baseUrl, QWidget *parent = nullptr);

    // The embed snippet for a server address ("https://crm.example.com:8443"); a placeholder host
    // when the address is empty.
    static QString snippet(const QString &baseUrl);
    QString currentSnippet() const;

public slots:
    void setBaseUrl(const QString &baseUrl);

private:
    void update();
    void copy();

    QLineEdit *m_address = nullptr;
    QPlainTextEdit *m_snippet = nullptr;
    QPushButton *m_copy = nullptr;
    QLabel *m_hint = nullptr;
    QLabel *m_status = nullptr;
};
