#pragma once

#include "model/backup/backup.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

#include <exception>
#include <functional>

class QLabel;
class QPushButton;
class QSpinBox;
class QFileSystemWatcher;
class QThread;

// Settings > Backups: the newest backup of DATA/backups (when, which file, how large; followed as
// the folder changes, so a daily backup made while the page is open shows), "Back up now"
// (made in a thread of its own, the window goes on; a failure such as a full disk said in the
// window's language) and how many backups are kept (backup/keep; Save hands it to the app's save
// function: liaison.ini, effective at the next start). In team mode (PostgreSQL) it says to use
// pg_dump instead and makes none.
class BackupPage : public QWidget
{
    Q_OBJECT
public:
    using Values = QHash<QString, QString>;
    using SaveFunction = std::function<bool(const Values &values, QString *error)>;

    // place: the data directory's database and uploads; keep: backup/keep in effect; teamMode: the
    // database is a team's PostgreSQL.
    BackupPage(const Backup::Place &place, int keep, bool teamMode, QWidget *parent = nullptr);
    ~BackupPage() override;
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }

    // For tests.
    QLabel *lastBackupLabel() const { return m_last; }
    QLabel *folderLabel() const { return m_folder; }
    QPushButton *backUpNowButton() const { return m_backUpNow; }
    QSpinBox *keepEdit() const { return m_keep; }
    QPushButton *saveButton() const { return m_saveButton; }
    QLabel *statusLabel() const { return m_status; }
    bool isBackingUp() const { return m_thread != nullptr; }

public Q_SLOTS:
    // Reads DATA/backups again.
    void refresh();
    void backUpNow();

Q_SIGNALS:
    // After "Back up now": ok, or not (the status label says why).
    void backupFinished(bool ok);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void save();
    void finished(const QString &file, std::exception_ptr failure);

    Backup::Place m_place;
    int m_keepInEffect;
    bool m_teamMode;
    SaveFunction m_save;
    QThread *m_thread = nullptr;
    QFileSystemWatcher *m_watcher = nullptr;
    QLabel *m_last = nullptr;
    QLabel *m_folder = nullptr;
    QPushButton *m_backUpNow = nullptr;
    QSpinBox *m_keep = nullptr;
    QPushButton *m_saveButton = nullptr;
    QLabel *m_status = nullptr;
};
