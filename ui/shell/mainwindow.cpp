#include "ui/shell/mainwindow.h"

#include "model/accounts/userrepository.h"
#include "model/core/storagehealth.h"
#include "ui/shell/navigationdelegate.h"
#include "ui/shell/notificationcenter.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/shortcutsdialog.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"
#include "ui/shell/undobar.h"

#include <QAction>
#include <QApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>

MainWindow::MainWindow(ApiKeyRepository &apiKeys, const Store &store, QWidget *parent)
    : QMainWindow(parent)
    , m_apiKeys(apiKeys)
    , m_store(store)
    , m_users(store)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Liaison"));

    m_navigation = new QListWidget(this);
    m_navigation->setObjectName(QStringLiteral("navigation"));
    m_navigation->setAccessibleName(tr("Navigation"));
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setItemDelegate(new NavigationDelegate(m_navigation));
    m_navigation->setMouseTracking(true); // the hovered entry is tinted
    m_navigation->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_navigation->setSpacing(0);
    UiKit::setType(m_navigation, UiKit::Type::Emphasis);
    // Room for "Gelen kutusu" and a count of "99+" beside its icon.
    // (NavigationDelegate: margins, icon, gaps and a badge of "99+" take about 98 pixels.)
    QFont bold = m_navigation->font(); // the selected entry's
    bold.setWeight(QFont::DemiBold);
    m_navigation->setFixedWidth(qMax(176, QFontMetrics(bold).horizontalAdvance(QStringLiteral("Gelen kutusu")) + 100));
    styleNavigation();
    connect(&Theme::instance(), &Theme::schemeChanged, this, &MainWindow::styleNavigation);

    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(QStringLiteral("areaStack"));
    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_navigation);
    auto *line = new QWidget(central); // one pixel in the palette's border colour
    line->setFixedWidth(1);
    line->setBackgroundRole(QPalette::Mid);
    line->setAutoFillBackground(true);
    layout->addWidget(line);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    connect(m_navigation, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_changePassword = file->addAction(tr("&Change password…"), this, &MainWindow::changePasswordRequested);
    m_changePassword->setObjectName(QStringLiteral("changePasswordAction"));
    m_changePassword->setVisible(false);
    m_signOut = file->addAction(tr("Sign &out"), this, &MainWindow::signOutRequested);
    m_signOut->setObjectName(QStringLiteral("signOutAction"));
    m_signOut->setVisible(false);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    m_settingsMenu = menuBar()->addMenu(tr("&Settings"));
    m_settingsMenu->setObjectName(QStringLiteral("settingsMenu"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *welcome = help->addAction(tr("&Getting started…"), this, &MainWindow::showWelcome);
    welcome->setObjectName(QStringLiteral("welcomeAction"));
    QAction *keys = help->addAction(tr("&Keyboard shortcuts…"), this, &MainWindow::showShortcuts);
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    help->addAction(tr("&About Liaison"), this, [this] {
        auto *box = new QMessageBox(
            QMessageBox::Information, tr("About Liaison"),
            tr("Liaison %1\nA desktop CRM with a local REST API.").arg(QCoreApplication::applicationVersion()),
            QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });

    m_serverStatus = new QLabel(this);
    m_serverStatus->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_serverStatus->setObjectName(QStringLiteral("serverStatusLabel"));
    m_serverStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_userLabel = new QLabel(this);
    m_userLabel->setTextFormat(Qt::PlainText);
    m_userLabel->setObjectName(QStringLiteral("signedInUserLabel"));
    statusBar()->addPermanentWidget(m_userLabel);
    statusBar()->addPermanentWidget(m_serverStatus);
    m_serverStatus->setText(tr("API: not started"));
    // A full disk under the database (StorageHealth): shown until a write commits again.
    auto *storageFull = new QLabel(tr("Disk full: changes are not being saved; reading still works"), this);
    storageFull->setObjectName(QStringLiteral("storageFullLabel"));
    storageFull->setToolTip(tr("Free space on the disk that holds the data folder; saving resumes by itself."));
    storageFull->setStyleSheet(QStringLiteral("QLabel { color: palette(bright-text); background: #b3261e; "
                                              "padding: 1px 6px; border-radius: 3px; }"));
    statusBar()->addPermanentWidget(storageFull);
    storageFull->setVisible(StorageHealth::isFull());
    connect(&StorageHealth::instance(), &StorageHealth::changed, storageFull, &QLabel::setVisible);
    m_notifications = new NotificationCenter(this, store.clock());
    new UndoBar(this); // "… deleted. Undo" at the window's foot (UndoBar::of)

    // The window's keys: active wherever the focus is inside the window (a field, a table, the
    // composer), never while a dialog is in front (a dialog is a window of its own).
    auto windowKey = [this](const QKeySequence &keys, const QString &name, auto slot) {
        auto *s = new QShortcut(keys, this);
        s->setContext(Qt::WindowShortcut);
        s->setObjectName(name);
        connect(s, &QShortcut::activated, this, slot);
        m_windowKeys << keys;
        return s;
    };
    windowKey(QKeySequence(Qt::CTRL | Qt::Key_K), QStringLiteral("jumpShortcut"), [this] { showJumpBox(); });
    windowKey(QKeySequence::Find, QStringLiteral("findShortcut"), [this] {
        const size_t area = size_t(m_navigation->currentRow());
        if (area < m_areaKeys.size() && m_areaKeys[area].focusSearch)
            m_areaKeys[area].focusSearch();
    });
    windowKey(QKeySequence::New, QStringLiteral("newShortcut"), [this] {
        const size_t area = size_t(m_navigation->currentRow());
        if (area < m_areaKeys.size() && m_areaKeys[area].newRecord)
            m_areaKeys[area].newRecord();
    });
    for (int i = 0; i < 9; ++i) {
        QShortcut *s = windowKey(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)),
                                 QStringLiteral("areaShortcut%1").arg(i + 1), [this, i] { setCurrentArea(i); });
        s->setEnabled(i < m_navigation->count());
        m_areaShortcuts.push_back(s);
    }
    qApp->installEventFilter(this);

    // Most of the screen at first (the board's columns and the contact's tabs need the room),
    // never more than a comfortable 1440 × 900; a laptop's screen (up to 1,366 pixels) whole in
    // width, as the contacts' table and detail pane need all of it.
    QSize size(1200, 720);
    if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        const QRect available = screen->availableGeometry();
        const int width = available.width() <= 1366 ? available.width() : available.width() * 9 / 10;
        size = QSize(qBound(qMin(960, available.width()), width, 1440),
                     qBound(qMin(600, available.height()), available.height() * 9 / 10, 900));
    }
    resize(size);
}

MainWindow::~MainWindow()
{
    if (UndoBar *bar = UndoBar::of(this))
        bar->commitPending();
}

int MainWindow::addArea(const QString &title, QWidget *view, AreaKeys keys, const QString &iconName)
{
    const int index = m_stack->addWidget(view);
    auto *item = new QListWidgetItem(title, m_navigation);
    item->setData(NavigationDelegate::IconRole, iconName);
    item->setData(Qt::AccessibleTextRole, title);
    if (index == 0)
        m_navigation->setCurrentRow(0); // the first area is in front until another is chosen
    m_areaKeys.push_back(std::move(keys));
    if (size_t(index) < m_areaShortcuts.size())
        m_areaShortcuts[size_t(index)]->setEnabled(true);
    return index;
}

void MainWindow::setAreaCount(QWidget *view, int count, CountKind kind)
{
    QListWidgetItem *item = m_navigation->item(m_stack->indexOf(view));
    if (!item)
        return;
    count = qMax(0, count);
    item->setData(NavigationDelegate::CountRole, count);
    item->setData(NavigationDelegate::CountToneRole,
                  int(kind == CountKind::Overdue ? UiKit::Tone::Danger : UiKit::Tone::Accent));
    const QString what = count == 0                  ? QString()
                         : kind == CountKind::Unread ? tr("%n unread", nullptr, count)
                                                     : tr("%n overdue", nullptr, count);
    const QString name = what.isEmpty() ? item->text() : tr("%1, %2").arg(item->text(), what);
    item->setData(Qt::AccessibleTextRole, name);
    item->setToolTip(what.isEmpty() ? QString() : name);
}

int MainWindow::areaCount(QWidget *view) const
{
    const QListWidgetItem *item = m_navigation->item(m_stack->indexOf(view));
    return item ? item->data(NavigationDelegate::CountRole).toInt() : 0;
}

void MainWindow::styleNavigation()
{
    UiKit::styleSidebar(m_navigation);
    m_navigation->viewport()->update();
}

QShortcut *MainWindow::shortcut(const QString &objectName) const
{
    return findChild<QShortcut *>(objectName, Qt::FindDirectChildrenOnly);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride && watched->isWidgetType() &&
        static_cast<QWidget *>(watched)->window() == this) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const QKeySequence pressed(key->keyCombination());
        if (m_windowKeys.contains(pressed))
            return true; // not accepted by the field: the window's shortcut takes it
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::setRecordOpener(JumpBox::Kind kind, std::function<void(const QString &)> open)
{
    m_openers.insert(int(kind), std::move(open));
}

void MainWindow::showJumpBox()
{
    if (!m_jump) {
        m_jump = new JumpBox(m_store, this);
        connect(m_jump, &JumpBox::chosen, this, &MainWindow::openRecord);
    }
    m_jump->reset();
    // Over the upper part of the window, as wide as it comfortably reads.
    const QSize size(qMin(620, width() - 40), qMin(440, height() - 80));
    m_jump->resize(size);
    m_jump->move(mapToGlobal(QPoint((width() - size.width()) / 2, qMin(80, height() / 8))));
    m_jump->open();
    m_jump->field()->setFocus();
}

void MainWindow::showShortcuts()
{
    auto native = [](const QKeySequence &keys) { return keys.toString(QKeySequence::NativeText); };
    const QString window = tr("Everywhere");
    QVector<ShortcutsDialog::Row> rows{
        {window, native(QKeySequence(Qt::CTRL | Qt::Key_K)), tr("Jump to a contact, deal, conversation or task")},
        {window, native(QKeySequence::Find), tr("Search in the area in front")},
        {window, native(QKeySequence::New),
         tr("New record in the area in front (contact, deal, task; in the Inbox, a reply)")},
    };
    for (int i = 0; i < m_navigation->count() && i < 9; ++i)
        rows.append({window, native(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i))),
                     tr("Go to %1").arg(m_navigation->item(i)->text())});
    rows.append({window, native(QKeySequence::Quit), tr("Quit")});
    const QString contacts = tr("Contacts");
    rows.append({contacts, tr("Down or Enter (in the search)"), tr("Move to the results, the first one selected")});
    rows.append({contacts, tr("Enter (in the results)"), tr("Open the selected contact")});
    rows.append({contacts, tr("Escape (in the results)"), tr("Back to the search")});
    rows.append({contacts, native(QKeySequence::Delete), tr("Delete the selected contact")});
    const QString deals = tr("Deals");
    rows.append({deals, tr("Enter (in the list)"), tr("Open the selected deal")});
    const QString tasks = tr("Tasks");
    rows.append({tasks, tr("Enter (in the quick-add line)"), tr("Add the task")});
    rows.append({tasks, native(QKeySequence::Delete), tr("Delete the selected task")});
    const QString inbox = tr("Inbox");
    rows.append(
        {inbox,
         tr("%1 … %2").arg(native(QKeySequence(Qt::CTRL | Qt::Key_1)), native(QKeySequence(Qt::CTRL | Qt::Key_9))),
         tr("Insert quick reply 1 to 9")});
    rows.append({inbox, tr("Enter"), tr("Send the reply")});
    rows.append({inbox, tr("Shift+Enter"), tr("New line in the reply")});
    rows.append({inbox, tr("/ (in an empty reply)"), tr("Choose a quick reply")});
    const QString jump = tr("Jump to");
    rows.append({jump, tr("Up, Down"), tr("Choose a match")});
    rows.append({jump, tr("Enter"), tr("Open it in its area")});
    rows.append({jump, tr("Escape"), tr("Close")});
    auto *dialog = new ShortcutsDialog(rows, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::openRecord(JumpBox::Kind kind, const QString &id)
{
    const auto open = m_openers.constFind(int(kind));
    if (open != m_openers.cend() && *open)
        (*open)(id);
}

void MainWindow::showWelcome()
{
    if (m_welcome) {
        m_welcome->raise();
        m_welcome->activateWindow();
        return;
    }
    m_welcome = new WelcomeDialog(m_apiKeys, m_accountCreator, this);
    m_welcome->setAttribute(Qt::WA_DeleteOnClose);
    m_welcome->setApiAddress(m_serverAddress, m_serverDetail);
    if (m_saveCallingCode)
        m_welcome->offerCallingCode(m_offeredCountry, m_offeredCode, m_saveCallingCode);
    // With an account (or no way to make one): the tour, which leads on to the API page.
    const QVector<User> users = m_users.list();
    if (!users.isEmpty() || !m_accountCreator)
        m_welcome->showGuide(users.isEmpty() ? QString() : users.first().id);
    connect(m_welcome, &WelcomeDialog::accountCreated, this, &MainWindow::accountCreated);
    m_welcome->open();
}

void MainWindow::showArea(QWidget *view)
{
    const int index = m_stack->indexOf(view);
    if (index >= 0)
        m_navigation->setCurrentRow(index);
}

int MainWindow::currentArea() const
{
    return m_navigation->currentRow();
}

void MainWindow::setCurrentArea(int index)
{
    if (index >= 0 && index < m_navigation->count())
        m_navigation->setCurrentRow(index);
}

void MainWindow::setServerStatus(const QString &address, bool running, const QString &detail)
{
    m_serverAddress = running ? address : QString();
    m_serverDetail = detail;
    if (m_welcome)
        m_welcome->setApiAddress(m_serverAddress, detail);
    if (running) {
        m_serverStatus->setText(tr("API: %1 — running").arg(address));
        UiKit::setTone(m_serverStatus, UiKit::Tone::Normal);
    } else {
        m_serverStatus->setText(detail.isEmpty() ? tr("API server stopped") : tr("API server stopped: %1").arg(detail));
        UiKit::setTone(m_serverStatus, UiKit::Tone::Danger);
    }
    m_serverStatus->setToolTip(detail.isEmpty() ? address : detail);
}

void MainWindow::addSettingsPage(const QString &title, const QString &menuText, const QString &objectName,
                                 SettingsPageFactory factory, SettingsAccess access)
{
    QAction *action = m_settingsMenu->addAction(menuText, this, [this, objectName] { showSettings(objectName); });
    QString actionName = objectName;
    if (actionName.endsWith(QLatin1String("Page")))
        actionName.chop(4);
    action->setObjectName(actionName + QStringLiteral("Action"));
    action->setData(objectName); // the page it opens
    m_settingsPages.push_back({title, objectName, std::move(factory), access, action});
    action->setVisible(mayOpen(m_settingsPages.back()));
    if (m_settings) // already made: the page joins it now
        addToDialog(m_settingsPages.back());
}

void MainWindow::setSignedInUser(const User &user)
{
    const bool roleChanged = user.id != m_user.id || user.role != m_user.role;
    // Another person at the window: not the last one's "password changed" or "contact deleted" (the
    // areas start over on signedInUserChanged).
    if (!m_user.id.isEmpty() && user.id != m_user.id)
        statusBar()->clearMessage();
    m_user = user;
    m_userLabel->setText(user.id.isEmpty()                     ? QString()
                         : user.role == QLatin1String("admin") ? tr("%1 (admin)").arg(user.name)
                                                               : tr("%1 (agent)").arg(user.name));
    m_userLabel->setToolTip(user.email);
    m_signOut->setVisible(!user.id.isEmpty());
    m_changePassword->setVisible(!user.id.isEmpty());
    if (roleChanged) {
        for (const SettingsPageEntry &entry : m_settingsPages)
            entry.action->setVisible(mayOpen(entry));
        // The dialog is made again, with the pages this user may open, when Settings next opens.
        if (m_settings) {
            m_settings->hide();
            m_settings->deleteLater();
            m_settings = nullptr;
        }
    }
    emit signedInUserChanged(user);
}

void MainWindow::addToDialog(const SettingsPageEntry &entry)
{
    if (!mayOpen(entry))
        return;
    QWidget *page = entry.factory(m_settings);
    page->setObjectName(entry.objectName);
    m_settings->addPage(entry.title, page);
}

SettingsDialog *MainWindow::settingsDialog()
{
    if (!m_settings) {
        m_settings = new SettingsDialog(this);
        for (const SettingsPageEntry &entry : m_settingsPages)
            addToDialog(entry);
    }
    return m_settings;
}

void MainWindow::showSettings(const QString &pageObjectName)
{
    SettingsDialog *settings = settingsDialog();
    settings->showPage(pageObjectName);
    settings->open();
    settings->raise();
}

void MainWindow::showApiKeys()
{
    showSettings(QStringLiteral("apiKeysPage"));
}

void MainWindow::showWebhooks()
{
    showSettings(QStringLiteral("webhooksPage"));
}

void MainWindow::showIncomingWebhooks()
{
    showSettings(QStringLiteral("incomingWebhooksPage"));
}
