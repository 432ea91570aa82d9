#include "ui/settings/backuppage.h"

#include "ui/shell/errortext.h"

#include <QDateTime>
#include <QDir>
#include <QFileSystemWatcher>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

BackupPage::BackupPage(const Backup::Place &place, int keep, bool teamMode, QWidget *parent)
    : QWidget(parent)
    , m_place(place)
    , m_keepInEffect(keep)
    , m_teamMode(teamMode)
{
    setObjectName(QStringLiteral("backupPage"));
    auto *layout = new QVBoxLayout(this);

    auto *latest = new QGroupBox(tr("Last backup"), this);
    auto *latestLayout = new QVBoxLayout(latest);
    m_last = new QLabel(latest);
    m_last->setObjectName(QStringLiteral("lastBackup"));
    m_last->setTextFormat(Qt::PlainText); // file names are never markup
    m_last->setWordWrap(true);
    m_last->setTextInteractionFlags(Qt::TextSelectableByMouse);
    latestLayout->addWidget(m_last);
    m_folder = new QLabel(latest);
    m_folder->setTextFormat(Qt::PlainText);
    m_folder->setWordWrap(true);
    m_folder->setTextInteractionFlags(Qt::TextSelectableByMouse);
    latestLayout->addWidget(m_folder);
    m_backUpNow = new QPushButton(tr("Back up now"), latest);
    m_backUpNow->setObjectName(QStringLiteral("backUpNow"));
    latestLayout->addWidget(m_backUpNow, 0, Qt::AlignLeft);
    layout->addWidget(latest);

    auto *automatic = new QGroupBox(tr("Automatic backups"), this);
    auto *form = new QFormLayout(automatic);
    m_keep = new QSpinBox(automatic);
    m_keep->setRange(0, 3650);
    m_keep->setValue(keep);
    m_keep->setAccessibleName(tr("Backups to keep"));
    form->addRow(tr("Backups to keep:"), m_keep);
    auto *hint = new QLabel(tr("While Liaison runs it makes one backup a day of the database and the uploaded files "
                               "into the folder above, and deletes the oldest beyond this number. 0 turns the daily "
                               "backup off. Changes take effect at the next start. To restore a backup, close "
                               "Liaison and run: liaison restore FILE"),
                            automatic);
    hint->setWordWrap(true);
    form->addRow(hint);
    m_saveButton = new QPushButton(tr("Save"), automatic);
    form->addRow(m_saveButton);
    layout->addWidget(automatic);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("backupStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    layout->addStretch();

    if (m_teamMode) {
        // The team's database is PostgreSQL's to back up; the window makes no file of it.
        m_last->setText(tr("This data directory uses a team's PostgreSQL database: back it up with pg_dump "
                           "(\"liaison backup FILE\" prints the command to use)."));
        m_folder->hide();
        m_backUpNow->setEnabled(false);
        automatic->setEnabled(false);
    }
    if (!m_teamMode) {
        // The data directory too, for the backups folder's creation by the first backup.
        m_watcher = new QFileSystemWatcher(this);
        m_watcher->addPath(m_place.dataDir);
        if (QFileInfo(m_place.backupsDir()).isDir())
            m_watcher->addPath(m_place.backupsDir());
        connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
            if (!m_watcher->directories().contains(m_place.backupsDir()) && QFileInfo(m_place.backupsDir()).isDir())
                m_watcher->addPath(m_place.backupsDir());
            refresh();
        });
    }
    connect(m_backUpNow, &QPushButton::clicked, this, &BackupPage::backUpNow);
    connect(m_saveButton, &QPushButton::clicked, this, &BackupPage::save);
    refresh();
}

BackupPage::~BackupPage()
{
    // A backup under way ends first (seconds): its thread must not outlive the page it reports to.
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

void BackupPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void BackupPage::refresh()
{
    if (m_teamMode)
        return;
    const QList<QFileInfo> backups = Backup::list(m_place.backupsDir());
    m_folder->setText(tr("Folder: %1 (backups in it: %2)")
                          .arg(QDir::toNativeSeparators(m_place.backupsDir()), QLocale().toString(backups.size())));
    if (backups.isEmpty()) {
        m_last->setText(tr("No backup yet."));
        return;
    }
    const QFileInfo &newest = backups.constFirst();
    m_last->setText(tr("%1 — %2, %3")
                        .arg(QLocale().toString(newest.lastModified(), QLocale::ShortFormat), newest.fileName(),
                             QLocale().formattedDataSize(newest.size())));
}

void BackupPage::backUpNow()
{
    if (m_thread || m_teamMode)
        return;
    m_backUpNow->setEnabled(false);
    m_status->setText(tr("Backing up…"));
    const Backup::Place place = m_place;
    const int keep = m_keepInEffect;
    QPointer<BackupPage> page(this);
    m_thread = QThread::create([place, keep, page] {
        QString file;
        std::exception_ptr failure;
        try {
            file = Backup::createInBackupsDir(place, QDateTime::currentDateTime(), keep).file;
        } catch (...) {
            failure = std::current_exception();
        }
        // The page waits for this thread before it goes, so it is there to be told.
        QMetaObject::invokeMethod(
            page.data(), [page, file, failure] { page->finished(file, failure); }, Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("backupNow"));
    m_thread->start();
}

void BackupPage::finished(const QString &file, std::exception_ptr failure)
{
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    m_backUpNow->setEnabled(true);
    if (isVisible()) // disabled, the button gave its focus away
        m_backUpNow->setFocus();
    refresh();
    if (failure) {
        QString why;
        try {
            std::rethrow_exception(failure);
        } catch (const std::exception &e) {
            why = ErrorText::of(e);
        } catch (...) {
            why = tr("an unknown error");
        }
        m_status->setText(tr("The backup failed: %1").arg(why));
        Q_EMIT backupFinished(false);
        return;
    }
    m_status->setText(tr("Backed up into %1.").arg(QFileInfo(file).fileName()));
    Q_EMIT backupFinished(true);
}

void BackupPage::save()
{
    QString error;
    if (m_save && !m_save({{QStringLiteral("backup/keep"), QString::number(m_keep->value())}}, &error)) {
        m_status->setText(tr("Could not save: %1").arg(error));
        return;
    }
    m_status->setText(tr("Saved. The new settings take effect at the next start."));
}
