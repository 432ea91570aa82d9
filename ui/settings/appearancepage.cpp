#include "ui/settings/appearancepage.h"

#include "ui/shell/uikit.h"
#include "ui/shell/uilanguage.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

AppearancePage::AppearancePage(QWidget *parent)
    : QWidget(parent)
{
    auto *intro =
        new QLabel(tr("How the window looks. Following the desktop, Liaison turns dark and light with it."), this);
    intro->setWordWrap(true);
    m_theme = new QComboBox(this);
    m_theme->setObjectName(QStringLiteral("themeCombo"));
    m_theme->setAccessibleName(tr("Theme"));
    m_theme->addItem(QString(), int(Theme::Choice::System)); // describe() names it
    m_theme->addItem(tr("Light"), int(Theme::Choice::Light));
    m_theme->addItem(tr("Dark"), int(Theme::Choice::Dark));
    m_theme->setCurrentIndex(m_theme->findData(int(Theme::instance().choice())));
    m_status = UiKit::errorLabel(this, QStringLiteral("appearanceStatus"));
    m_theme->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // The languages by their own names (a person who cannot read the current one still finds theirs);
    // the first is the desktop's, named in the language it stands for.
    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_language->setAccessibleName(tr("Language"));
    const QStringList desktopLanguages = QLocale::system().uiLanguages();
    const QLocale desktop(desktopLanguages.isEmpty() ? QLocale::system().name() : desktopLanguages.constFirst());
    for (const QString &key : UiLanguage::keys()) {
        m_language->addItem(key == QLatin1String("system")
                                ? tr("The system's language (%1)").arg(desktop.nativeLanguageName())
                                : UiLanguage::nativeName(key),
                            key);
    }
    m_language->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *languageNote = new QLabel(tr("A new language applies at the next start."), this);
    languageNote->setObjectName(QStringLiteral("languageNote"));
    UiKit::setTone(languageNote, UiKit::Tone::Muted);
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    form->addRow(tr("&Theme:"), m_theme);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(QString(), languageNote);
    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(UiKit::Space::M);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addStretch(1);
    connect(m_theme, &QComboBox::activated, this, &AppearancePage::choose);
    connect(m_language, &QComboBox::activated, this, &AppearancePage::chooseLanguage);
    connect(&Theme::instance(), &Theme::schemeChanged, this, &AppearancePage::describe);
    describe();
}

void AppearancePage::choose(int index)
{
    const auto choice = Theme::Choice(m_theme->itemData(index).toInt());
    Theme::instance().setChoice(choice);
    QString error;
    if (m_save && !m_save(choice, &error))
        UiKit::showError(m_status, tr("The choice applies now but was not saved: %1").arg(error));
    else
        UiKit::showError(m_status, {});
}

void AppearancePage::setLanguage(const QString &key)
{
    m_language->setCurrentIndex(qMax(0, m_language->findData(UiLanguage::keyOf(key))));
}

void AppearancePage::chooseLanguage(int index)
{
    QString error;
    if (m_saveLanguage && !m_saveLanguage(m_language->itemData(index).toString(), &error))
        UiKit::showError(m_status, tr("The language was not saved: %1").arg(error));
    else
        UiKit::showError(m_status, {});
}

void AppearancePage::describe()
{
    // The first entry says what the desktop wants now.
    m_theme->setItemText(0, Theme::instance().desktopScheme() == UiKit::Scheme::Dark
                                ? tr("Follow the desktop (dark now)")
                                : tr("Follow the desktop (light now)"));
}
