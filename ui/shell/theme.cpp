#include "ui/shell/theme.h"

#include "ui/shell/desktopscheme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

Theme &Theme::instance()
{
    static QPointer<Theme> theme;
    if (!theme)
        theme = new Theme(qApp);
    return *theme;
}

Theme::Choice Theme::choiceFromKey(const QString &key, bool *ok)
{
    const QString k = key.trimmed().toLower();
    if (ok)
        *ok = k.isEmpty() || k == QLatin1String("system") || k == QLatin1String("light") || k == QLatin1String("dark");
    if (k == QLatin1String("light"))
        return Choice::Light;
    if (k == QLatin1String("dark"))
        return Choice::Dark;
    return Choice::System;
}

QString Theme::keyOf(Choice choice)
{
    switch (choice) {
    case Choice::Light:
        return QStringLiteral("light");
    case Choice::Dark:
        return QStringLiteral("dark");
    case Choice::System:
        break;
    }
    return QStringLiteral("system");
}

void Theme::followDesktop(DesktopColorScheme *desktop)
{
    if (m_desktop)
        disconnect(m_desktop, nullptr, this, nullptr);
    m_desktop = desktop;
    if (desktop)
        connect(desktop, &DesktopColorScheme::schemeChanged, this, [this] {
            // Applied again also under a fixed choice: Settings names what the desktop wants now.
            if (m_applied)
                apply();
        });
    if (m_applied)
        apply();
}

void Theme::setChoice(Choice choice)
{
    m_choice = choice;
    apply();
}

UiKit::Scheme Theme::scheme() const
{
    switch (m_choice) {
    case Choice::Light:
        return UiKit::Scheme::Light;
    case Choice::Dark:
        return UiKit::Scheme::Dark;
    case Choice::System:
        break;
    }
    return desktopScheme();
}

UiKit::Scheme Theme::desktopScheme() const
{
    return m_desktop && m_desktop->scheme() == DesktopColorScheme::Scheme::Dark ? UiKit::Scheme::Dark
                                                                                : UiKit::Scheme::Light;
}

void Theme::apply()
{
    // Fusion draws every control from the palette, so that both schemes look alike on every desktop
    // (a desktop's own style may ignore a dark palette).
    if (!m_applied) {
        if (QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion")))
            QApplication::setStyle(fusion);
        QFont body = QApplication::font();
        if (body.pointSizeF() > 0 && body.pointSizeF() < UiKit::kMinBodyPoints) {
            body.setPointSizeF(UiKit::kMinBodyPoints);
            QApplication::setFont(body);
        }
    }
    m_applied = true;
    const UiKit::Scheme s = scheme();
    const bool changed = s != UiKit::scheme();
    UiKit::setScheme(s);
    QApplication::setPalette(UiKit::palette(s));
    UiKit::retoneAll();
    if (changed) {
        // Views that paint with colours of their own (cards, bubbles, badges) paint again.
        for (QWidget *w : QApplication::allWidgets())
            w->update();
    }
    emit schemeChanged(s);
}
