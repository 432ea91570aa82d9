#pragma once

#include "model/inbox/mediarepository.h"

#include <QHash>
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// Settings > Media: the upload settings (largest file, how long files are kept, the public base URL
// of media links), what is stored now (files, size, next expiry, refreshed when media changes), and
// "Delete expired now". Save hands the values, keyed by their settings names ("media/lifetimeDays"),
// to the app's save function (liaison.ini; effective at the next start).
class MediaPage : public QWidget
{
    Q_OBJECT
public:
    using Values = QHash<QString, QString>;
    using SaveFunction = std::function<bool(const Values &values, QString *error)>;

    // mediaDir: DATA/media; current: the settings in effect.
    MediaPage(const QString &mediaDir, const Store &store, const Values &current, QWidget *parent = nullptr);
    void setSaveFunction(SaveFunction save) { m_save = std::move(save); }

    // For tests.
    QSpinBox *maxUploadEdit() const { return m_maxUpload; }
    QSpinBox *lifetimeEdit() const { return m_lifetime; }
    QLineEdit *publicBaseUrlEdit() const { return m_baseUrl; }
    QPushButton *saveButton() const { return m_saveButton; }
    QPushButton *cleanButton() const { return m_cleanButton; }
    QLabel *usageLabel() const { return m_usage; }
    QLabel *statusLabel() const { return m_status; }

public Q_SLOTS:
    void refreshUsage();

private:
    void save();
    void cleanNow();

    MediaRepository m_media;
    SaveFunction m_save;
    QSpinBox *m_maxUpload = nullptr;
    QSpinBox *m_lifetime = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QPushButton *m_saveButton = nullptr;
    QPushButton *m_cleanButton = nullptr;
    QLabel *m_usage = nullptr;
    QLabel *m_status = nullptr;
};
