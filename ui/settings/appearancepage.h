#pragma once

#include "ui/shell/theme.h"

#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;

// Settings → Appearance (everyone's: a person's own eyes): light or dark windows, or the desktop's
// choice (the default). A choice applies at once and is handed to the save function, which the app
// points at liaison.ini (appearance/theme).
class AppearancePage : public QWidget
{
    Q_OBJECT
public:
    using SaveFunction = std::function<bool(Theme::Choice choice, QString *error)>;

    explicit AppearancePage(QWidget *parent = nullptr);
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }

    QComboBox *themeCombo() const { return m_theme; }
    QLabel *statusLabel() const { return m_status; }

private:
    void choose(int index);
    void describe();

    SaveFunction m_save;
    QComboBox *m_theme = nullptr;
    QLabel *m_status = nullptr;
};
