#pragma once

#include "ui/shell/theme.h"

#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;

// Settings → Appearance (everyone's: a person's own eyes): light or dark windows, or the desktop's
// choice (the default). A choice applies at once and is handed to the save function, which the app
// points at liaison.ini (appearance/theme). Also the window's language (ui/language: the system's,
// English, Türkçe, Deutsch), handed to the language's save function and applied at the next start
// (the translations are loaded before the first dialog).
class AppearancePage : public QWidget
{
    Q_OBJECT
public:
    using SaveFunction = std::function<bool(Theme::Choice choice, QString *error)>;
    // The chosen language's key (UiLanguage::keys()).
    using LanguageSaveFunction = std::function<bool(const QString &language, QString *error)>;

    explicit AppearancePage(QWidget *parent = nullptr);
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }
    void setLanguageSaveFunction(LanguageSaveFunction save) { m_saveLanguage = std::move(save); }
    // The language stored now (a key of UiLanguage::keys(); another reads as "system").
    void setLanguage(const QString &key);

    QComboBox *themeCombo() const { return m_theme; }
    QComboBox *languageCombo() const { return m_language; }
    QLabel *statusLabel() const { return m_status; }

private:
    void choose(int index);
    void chooseLanguage(int index);
    void describe();

    SaveFunction m_save;
    LanguageSaveFunction m_saveLanguage;
    QComboBox *m_theme = nullptr;
    QComboBox *m_language = nullptr;
    QLabel *m_status = nullptr;
};
