#include "ui/shell/settingsdialog.h"

#include "ui/settings/apikeyspage.h"
#include "ui/shell/navigationdelegate.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QListWidget>
#include <QStackedWidget>
#include <QVBoxLayout>

SettingsDialog::SettingsDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));

    m_pages = new QListWidget(this);
    m_pages->setObjectName(QStringLiteral("settingsPages"));
    // A side list like the window's navigation.
    m_pages->setFrameShape(QFrame::NoFrame);
    m_pages->setItemDelegate(new NavigationDelegate(m_pages));
    m_pages->setMouseTracking(true);
    m_pages->setFixedWidth(184);
    UiKit::styleSidebar(m_pages);
    connect(&Theme::instance(), &Theme::schemeChanged, m_pages, [this] { UiKit::styleSidebar(m_pages); });
    m_stack = new QStackedWidget(this);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *row = new QHBoxLayout;
    row->addWidget(m_pages);
    row->addWidget(m_stack, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row, 1);
    layout->addWidget(buttons);

    connect(m_pages, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);

    resize(820, 480);
}

void SettingsDialog::addPage(const QString &title, QWidget *page)
{
    m_stack->addWidget(page);
    m_pages->addItem(title);
    if (m_pages->count() == 1)
        m_pages->setCurrentRow(0);
}

ApiKeysPage *SettingsDialog::apiKeysPage() const
{
    return m_stack->findChild<ApiKeysPage *>(QString(), Qt::FindDirectChildrenOnly);
}

QString SettingsDialog::currentPageName() const
{
    return m_stack->currentWidget() ? m_stack->currentWidget()->objectName() : QString();
}

bool SettingsDialog::showPage(const QString &objectName)
{
    for (int i = 0; i < m_stack->count(); ++i) {
        if (m_stack->widget(i)->objectName() == objectName) {
            m_pages->setCurrentRow(i);
            return true;
        }
    }
    return false;
}
