#pragma once

#include "model/core/errors.h"
#include "ui/settings/settingsform.h"
#include "ui/shell/fielderrors.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// Settings > Assistant (an admin's page): the optional language model that phrases the assistant's
// answers (an OpenAI-compatible server's base URL, the model, the API key, the timeout) with a
// "Try the model" that asks it one question, the two thresholds of the assistant's decision, each
// channel's auto-reply in the Inbox (off, suggest, on) and the name the assistant's messages carry.
// Save writes the settings keys (ai/…) to liaison.ini and the key to the secret store
// (ai.llmApiKey); they take effect at the next start. The stored key is never shown: the page says
// whether one is stored, and one typed replaces it.
//
// The UI library does not know the settings' rules, the files or the model's client: the app gives
// the page functions that check (the rules the settings file is read with, each problem under its
// field), save, and try the model (in a worker thread; the outcome comes back in the GUI thread).
class AssistantPage : public QWidget
{
    Q_OBJECT
public:
    using Values = QHash<QString, QString>;
    using CheckFunction = std::function<FieldProblems(const Values &values)>;
    // Writes the values; false with a message to show (the secret store refused).
    using SaveFunction = std::function<bool(const Values &values, QString *error)>;
    // The question the model is tried with: a customer's question and the one entry it may answer
    // from, in the window's language.
    struct TestQuestion
    {
        QString question;
        QString language; // tr, en
        QString entryQuestion;
        QString entryAnswer;
    };
    // What the model made of it.
    struct TestOutcome
    {
        enum Kind
        {
            Answered, // text is its answer
            Declined, // it replied that the entry does not answer (HANDOFF)
            Failed    // no usable answer: error says why
        };
        Kind kind = Failed;
        QString text;
        QString error;
        int latencyMs = 0;
    };
    using TestDone = std::function<void(const TestOutcome &outcome)>;
    // Asks the model with these values; calls done once, later, in the GUI thread.
    using TestFunction = std::function<void(const Values &values, const TestQuestion &question, TestDone done)>;

    explicit AssistantPage(QWidget *parent = nullptr);

    static QString secretKey(); // ai.llmApiKey
    // The question "Try the model" asks.
    static TestQuestion testQuestion();

    void setCheckFunction(CheckFunction check) { m_check = std::move(check); }
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }
    void setTestFunction(TestFunction test) { m_test = std::move(test); }
    // Fills the form (the key only as "stored" or not).
    void setValues(const Values &values);
    // The form's values, numbers written as the settings file writes them ("0.3"). The key: the one
    // typed, else the stored one unless removed.
    Values values() const;
    // Checks the form, shows each problem under its field; true when there is none.
    bool check();

    QLineEdit *field(const QString &key) const { return m_form.field(key); }
    QSpinBox *timeoutBox() const { return m_timeout; }
    QDoubleSpinBox *thresholdBox(const QString &key) const { return m_thresholds.value(key); }
    // The auto-reply of a channel (whatsapp, instagram, telegram, widget): off, suggest, on as data.
    QComboBox *autoReplyBox(const QString &channel) const { return m_autoReply.value(channel); }
    QLabel *errorLabel(const QString &key) const;
    QLabel *keyStateLabel() const { return m_keyState; }
    QPushButton *removeKeyButton() const { return m_removeKey; }
    QPushButton *testButton() const { return m_testButton; }
    QLabel *testResultLabel() const { return m_testResult; }
    QPushButton *saveButton() const { return m_form.saveButton(); }
    QLabel *saveResultLabel() const { return m_form.saveResultLabel(); }

public slots:
    bool save();
    void tryModel();

private:
    QDoubleSpinBox *addThreshold(QFormLayout *form, const QString &key, const QString &label, const QString &meaning);
    void updateKeyState();
    void showTestResult(const QString &text, bool ok);

    SettingsForm m_form;
    FieldErrors m_errors;
    QSpinBox *m_timeout = nullptr;
    QHash<QString, QDoubleSpinBox *> m_thresholds;
    QHash<QString, QComboBox *> m_autoReply;
    QLabel *m_keyState = nullptr;
    QPushButton *m_removeKey = nullptr;
    QString m_storedKey;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    CheckFunction m_check;
    SaveFunction m_save;
    TestFunction m_test;
};
