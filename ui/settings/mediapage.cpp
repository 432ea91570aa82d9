#include "ui/settings/mediapage.h"

#include "model/core/eventbus.h"
#include "model/inbox/mediarepository.h"
#include "ui/shell/errortext.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

namespace {
constexpr int kMiB = 1024 * 1024;
}

MediaPage::MediaPage(const QString &mediaDir, const Store &store, const Values &current, QWidget *parent)
    : QWidget(parent)
    , m_media(store, mediaDir)
{
    setObjectName(QStringLiteral("mediaPage"));
    auto *layout = new QVBoxLayout(this);

    auto *uploads = new QGroupBox(tr("Uploads"), this);
    auto *form = new QFormLayout(uploads);
    m_maxUpload = new QSpinBox(uploads);
    m_maxUpload->setRange(1, 1024);
    m_maxUpload->setSuffix(tr(" MiB"));
    m_maxUpload->setValue(int(qMax<qint64>(
        1, current.value(QStringLiteral("media/maxUploadBytes"), QString::number(16 * kMiB)).toLongLong() / kMiB)));
    form->addRow(tr("Largest file:"), m_maxUpload);
    m_lifetime = new QSpinBox(uploads);
    m_lifetime->setRange(1, 3650);
    m_lifetime->setSuffix(tr(" days"));
    m_lifetime->setValue(current.value(QStringLiteral("media/lifetimeDays"), QStringLiteral("30")).toInt());
    form->addRow(tr("Keep files for:"), m_lifetime);
    m_baseUrl = new QLineEdit(current.value(QStringLiteral("media/publicBaseUrl")), uploads);
    m_baseUrl->setPlaceholderText(tr("The server's own address, e.g. https://crm.example.com"));
    form->addRow(tr("Public base URL of media links:"), m_baseUrl);
    auto *hint = new QLabel(tr("Channel providers download sent files from this address. Changes take effect at the "
                               "next start."),
                            uploads);
    hint->setWordWrap(true);
    form->addRow(hint);
    m_saveButton = new QPushButton(tr("Save"), uploads);
    form->addRow(m_saveButton);
    layout->addWidget(uploads);

    auto *storage = new QGroupBox(tr("Stored files"), this);
    auto *storageLayout = new QVBoxLayout(storage);
    m_usage = new QLabel(storage);
    m_usage->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_usage->setWordWrap(true);
    storageLayout->addWidget(m_usage);
    m_cleanButton = new QPushButton(tr("Delete expired now"), storage);
    storageLayout->addWidget(m_cleanButton, 0, Qt::AlignLeft);
    layout->addWidget(storage);

    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    layout->addStretch();

    connect(m_saveButton, &QPushButton::clicked, this, &MediaPage::save);
    connect(m_cleanButton, &QPushButton::clicked, this, &MediaPage::cleanNow);
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity) {
        if (entity == EventBus::Entity::Media)
            refreshUsage();
    });
    refreshUsage();
}

void MediaPage::refreshUsage()
{
    MediaRepository::Usage u;
    try {
        u = MediaRepository::usage();
    } catch (const std::exception &) {
        m_usage->setText(tr("The database cannot be read."));
        return;
    }
    if (u.files == 0) {
        m_usage->setText(tr("No files are stored."));
        return;
    }
    const QDateTime next = QDateTime::fromString(u.nextExpiry, Qt::ISODateWithMs).toLocalTime();
    m_usage->setText(tr("Files: %1, %2 in all; the next one expires %3.")
                         .arg(QLocale().toString(u.files), QLocale().formattedDataSize(u.bytes),
                              QLocale().toString(next, QLocale::ShortFormat)));
}

void MediaPage::save()
{
    const QString base = m_baseUrl->text().trimmed();
    if (!base.isEmpty()) {
        const QUrl url(base, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) ||
            url.host().isEmpty() || url.hasQuery() || url.hasFragment()) {
            m_status->setText(tr("The public base URL must be an http(s) address such as https://crm.example.com."));
            m_baseUrl->setFocus();
            return;
        }
    }
    const Values values{{QStringLiteral("media/maxUploadBytes"), QString::number(qint64(m_maxUpload->value()) * kMiB)},
                        {QStringLiteral("media/lifetimeDays"), QString::number(m_lifetime->value())},
                        {QStringLiteral("media/publicBaseUrl"), base}};
    QString error;
    if (m_save && !m_save(values, &error)) {
        m_status->setText(tr("Could not save: %1").arg(error));
        return;
    }
    m_status->setText(tr("Saved. The new settings take effect at the next start."));
}

void MediaPage::cleanNow()
{
    try {
        const int deleted = m_media.deleteExpired();
        m_status->setText(tr("Expired files deleted: %1.").arg(deleted));
    } catch (const std::exception &e) {
        m_status->setText(tr("Could not delete expired files: %1").arg(ErrorText::of(e)));
    }
    refreshUsage();
}
