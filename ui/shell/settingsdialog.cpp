#include "ui/shell/settingsdialog.h"

#include "ui/settings/apikeyspage.h"
#include "ui/shell/navigationdelegate.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QListWidget>
#include <QScrollBar>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace {
// The page list's width unless a page's title needs more (a long German or Turkish word).
constexpr int kSettingsListWidth = 184;
} // namespace

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
    m_pages->setFixedWidth(kSettingsListWidth);
    m_pages->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
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
    // As wide as the longest title in bold (the current page's) with the delegate's margins and the
    // scroll bar beside it, so that none is elided or scrolls sideways.
    QFont bold = m_pages->font();
    bold.setBold(true);
    const int needed = QFontMetrics(bold).horizontalAdvance(title) + 2 * UiKit::Space::M + 2 * UiKit::Space::S +
                       m_pages->verticalScrollBar()->sizeHint().width() + 2 * m_pages->frameWidth();
    if (needed > m_pages->width())
        m_pages->setFixedWidth(needed);
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
