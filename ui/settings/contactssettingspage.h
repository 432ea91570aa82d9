#pragma once

#include <QLocale>
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QPushButton;

// Settings > Contacts: the country calling code that phone numbers written without "+" belong to
// (contacts/defaultCallingCode; "0532 123 45 67" is then stored as +905321234567 by the window, the
// API and incoming webhooks alike). An example shows what a local number becomes; a button offers
// the code of the system's country. Save hands the code (empty: "+" required) to the app's save
// function, which writes liaison.ini and applies it at once.
class ContactsSettingsPage : public QWidget
{
    Q_OBJECT
public:
    using SaveFunction = std::function<bool(const QString &callingCode, QString *error)>;

    // system: the machine's locale; its country's code is offered, named in its own language.
    ContactsSettingsPage(const QString &callingCode, const QLocale &system, QWidget *parent = nullptr);
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }

    // The calling code of a country (90 for Türkiye); empty for a territory the table lacks.
    static QString callingCodeOf(QLocale::Territory territory);
    // The locale's country as its own language names it ("Türkiye").
    static QString countryName(const QLocale &locale);

    // For tests.
    QLineEdit *callingCodeEdit() const { return m_code; }
    QLabel *exampleLabel() const { return m_example; }
    QPushButton *suggestionButton() const { return m_suggest; }
    QPushButton *saveButton() const { return m_saveButton; }
    QLabel *statusLabel() const { return m_status; }

private:
    void updateExample();
    void save();

    SaveFunction m_save;
    QLineEdit *m_code = nullptr;
    QLabel *m_example = nullptr;
    QPushButton *m_suggest = nullptr;
    QPushButton *m_saveButton = nullptr;
    QLabel *m_status = nullptr;
};
