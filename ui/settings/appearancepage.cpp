#include "ui/settings/appearancepage.h"

#include "ui/shell/uikit.h"

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
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    form->addRow(tr("&Theme:"), m_theme);
    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(UiKit::Space::M);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addStretch(1);
    connect(m_theme, &QComboBox::activated, this, &AppearancePage::choose);
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

void AppearancePage::describe()
{
    // The first entry says what the desktop wants now.
    m_theme->setItemText(0, Theme::instance().desktopScheme() == UiKit::Scheme::Dark
                                ? tr("Follow the desktop (dark now)")
                                : tr("Follow the desktop (light now)"));
}
