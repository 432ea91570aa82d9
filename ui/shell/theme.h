#pragma once

#include "ui/shell/uikit.h"

#include <QObject>
#include <QPointer>

class DesktopColorScheme;

// The window's light or dark look: the user's choice (Settings → Appearance: follow the desktop,
// light or dark; appearance/theme in liaison.ini) over what the desktop says (DesktopColorScheme).
// apply() sets the application's palette (UiKit::palette) on the Fusion style, re-tones the
// widgets marked with UiKit::setTone and tells the views that paint colours of their own.
class Theme : public QObject
{
    Q_OBJECT
public:
    enum class Choice
    {
        System,
        Light,
        Dark
    };
    Q_ENUM(Choice)

    // The application's one theme (made on first use, a child of the application).
    static Theme &instance();

    // "system", "light", "dark" (appearance/theme); anything else reads as System (*ok false).
    static Choice choiceFromKey(const QString &key, bool *ok = nullptr);
    static QString keyOf(Choice choice);

    // Follows the desktop's scheme while the choice is System (the desktop's changes apply at once).
    void followDesktop(DesktopColorScheme *desktop);
    void setChoice(Choice choice);
    Choice choice() const { return m_choice; }
    // The scheme in force.
    UiKit::Scheme scheme() const;
    // What the desktop wants (light without a DesktopColorScheme).
    UiKit::Scheme desktopScheme() const;
    // Sets the style, palette and fonts on the application (again: after a change).
    void apply();

signals:
    void schemeChanged(UiKit::Scheme scheme);

private:
    using QObject::QObject;

    Choice m_choice = Choice::System;
    QPointer<DesktopColorScheme> m_desktop;
    bool m_applied = false;
};
