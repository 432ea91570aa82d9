#include "ui/settings/apikeyspage.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/uikit.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
// A scope as what it lets a key do, its name (what the API checks) beside it: "Contacts: read
// (contacts:read)".
QString scopeText(const QString &scope)
{
    if (scope == QLatin1String("*"))
        return CreateApiKeyDialog::tr("Everything (*)");
    static const QHash<QString, const char *> areas = {
        {QStringLiteral("contacts"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Contacts")},
        {QStringLiteral("deals"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Deals")},
        {QStringLiteral("tasks"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Tasks")},
        {QStringLiteral("conversations"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Conversations")},
        {QStringLiteral("messages"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Messages")},
        {QStringLiteral("campaigns"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Campaigns")},
        {QStringLiteral("ai"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Assistant")},
        {QStringLiteral("webhooks"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Webhooks")},
        {QStringLiteral("settings"), QT_TRANSLATE_NOOP("CreateApiKeyDialog", "Settings")},
    };
    const QString area = scope.section(QLatin1Char(':'), 0, 0);
    const QString access = scope.section(QLatin1Char(':'), 1);
    const char *areaName = areas.value(area);
    if (!areaName)
        return scope;
    const QString what = access == QLatin1String("read")    ? CreateApiKeyDialog::tr("read")
                         : access == QLatin1String("write") ? CreateApiKeyDialog::tr("write")
                                                            : CreateApiKeyDialog::tr("read and write");
    return CreateApiKeyDialog::tr("%1: %2 (%3)")
        .arg(QCoreApplication::translate("CreateApiKeyDialog", areaName), what, scope);
}
} // namespace

ApiKeysPage::ApiKeysPage(ApiKeyRepository &keys, const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_keys(keys)
{
    setObjectName(QStringLiteral("apiKeysPage"));
    m_table = UiKit::recordTable(ColumnCount,
                                 {tr("Name"), tr("Key"), tr("Scopes"), tr("Created"), tr("Last used"), tr("State")},
                                 QStringLiteral("apiKeysTable"), this);
    installEmptyHint(m_table, tr("No API keys yet. Create one for each tool that uses the API, so that it can be "
                                 "revoked alone."));
    m_table->setAlternatingRowColors(true);
    m_create = new QPushButton(tr("Create…"), this);
    m_create->setObjectName(QStringLiteral("createKeyButton"));
    m_revoke = new QPushButton(tr("Revoke"), this);
    m_revoke->setObjectName(QStringLiteral("revokeKeyButton"));
    m_error = UiKit::errorLabel(this);
    UiKit::layOutRecordPage(this,
                            tr("API keys let local tools call the Liaison API. A key is shown once, when it is "
                               "created; Liaison keeps only a hash of it."),
                            m_table, m_error, {m_create, m_revoke});

    connect(m_create, &QPushButton::clicked, this, &ApiKeysPage::createKey);
    connect(m_revoke, &QPushButton::clicked, this, &ApiKeysPage::revokeKey);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ApiKeysPage::updateActions);
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity) {
        if (entity == EventBus::Entity::ApiKey)
            reload();
    });
    reload();
}

QString ApiKeysPage::currentKeyId() const
{
    return UiKit::selectedId(m_table);
}

void ApiKeysPage::reload()
{
    QVector<ApiKey> keys;
    try {
        // An admin manages every key; anyone else their own (as GET /api-keys answers them).
        const Store::Actor *user = m_keys.store().actingUser();
        keys = !user || user->role == QLatin1String("admin") ? m_keys.list() : m_keys.listOwnedBy(user->id);
    } catch (const std::exception &e) {
        UiKit::showError(m_error, tr("Could not read the API keys: %1").arg(ErrorText::of(e)));
        return;
    }
    const QString selected = currentKeyId();
    m_table->setRowCount(0);
    m_table->setRowCount(int(keys.size()));
    for (int row = 0; row < keys.size(); ++row) {
        const ApiKey &key = keys.at(row);
        const QStringList cells = {
            key.name,
            key.prefix + QStringLiteral("…"),
            key.scopes.join(QLatin1String(", ")),
            UiKit::localTime(key.createdAt),
            key.lastUsedAt.isEmpty() ? tr("never") : UiKit::localTime(key.lastUsedAt),
            key.isRevoked() ? tr("Revoked") : tr("Active"),
        };
        for (int column = 0; column < ColumnCount; ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            item->setData(UiKit::IdRole, key.id);
            if (key.isRevoked())
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            m_table->setItem(row, column, item);
        }
        if (key.isRevoked())
            m_table->item(row, StateColumn)->setToolTip(tr("Revoked %1").arg(UiKit::localTime(key.revokedAt)));
        if (key.id == selected)
            m_table->selectRow(row);
    }
    m_table->resizeColumnsToContents();
    updateActions();
}

void ApiKeysPage::updateActions()
{
    const QString id = currentKeyId();
    bool revocable = false;
    if (!id.isEmpty()) {
        const int row = m_table->selectedItems().first()->row();
        revocable = m_table->item(row, StateColumn)->text() != tr("Revoked");
    }
    m_revoke->setEnabled(revocable);
}

void ApiKeysPage::createKey()
{
    auto *dialog = new CreateApiKeyDialog(m_keys, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CreateApiKeyDialog::keyCreated, this,
            [this](const QString &id, const QString &name, const QString &secret) {
                reload();
                UiKit::reselect(m_table, id);
                auto *shown = new NewApiKeyDialog(name, secret, this);
                shown->setAttribute(Qt::WA_DeleteOnClose);
                shown->open();
            });
    dialog->open();
}

void ApiKeysPage::revokeKey()
{
    const QString id = currentKeyId();
    if (id.isEmpty())
        return;
    const QString name = m_table->item(m_table->selectedItems().first()->row(), NameColumn)->text();
    MessageBoxes::confirm(this, tr("Revoke API key"),
                          tr("Revoke the key \"%1\"? Tools that use it will be refused at once.").arg(name),
                          tr("Revoke"), [this, id] {
                              try {
                                  m_keys.revoke(id);
                                  UiKit::showError(m_error, {});
                              } catch (const std::exception &e) {
                                  UiKit::showError(m_error, ErrorText::of(e));
                              }
                              reload();
                          });
}

CreateApiKeyDialog::CreateApiKeyDialog(ApiKeyRepository &keys, QWidget *parent)
    : QDialog(parent)
    , m_keys(keys)
    , m_users(keys.store())
{
    setObjectName(QStringLiteral("createApiKeyDialog"));
    setWindowTitle(tr("Create API key"));

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("keyNameEdit"));
    m_name->setPlaceholderText(tr("e.g. Import script"));

    m_scopes = new QListWidget(this);
    m_scopes->setObjectName(QStringLiteral("scopeList"));
    // The scopes the signed-in user's role allows a key to carry (an agent's never reach the
    // admin-only areas, nor "*", which takes them in).
    const Store::Actor *user = keys.store().actingUser();
    const QString role = user && !user->id.isEmpty() ? user->role : QStringLiteral("admin");
    for (const QString &scope : ApiKeyRepository::knownScopes()) {
        if (!ApiKeyRepository::scopeFitsRole(scope, role))
            continue;
        auto *item = new QListWidgetItem(scopeText(scope), m_scopes);
        item->setData(Qt::UserRole, scope);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(scope == QLatin1String("*") ? Qt::Checked : Qt::Unchecked);
    }
    m_error = UiKit::errorLabel(this);

    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Scopes:"), m_scopes);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->setObjectName(QStringLiteral("buttons"));
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    connect(buttons, &QDialogButtonBox::accepted, this, &CreateApiKeyDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &CreateApiKeyDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    // Wide enough for the longest scope ("Conversations: read and write (conversations:*)").
    resize(qMax(420, m_scopes->sizeHintForColumn(0) + 160), 460);
}

QStringList CreateApiKeyDialog::checkedScopes() const
{
    QStringList scopes;
    for (int i = 0; i < m_scopes->count(); ++i) {
        if (m_scopes->item(i)->checkState() == Qt::Checked)
            scopes << m_scopes->item(i)->data(Qt::UserRole).toString();
    }
    return scopes;
}

void CreateApiKeyDialog::accept()
{
    const QStringList scopes = checkedScopes();
    if (scopes.isEmpty()) {
        // The repository would grant "*" for an empty list: never widen what the user chose.
        UiKit::showError(m_error, tr("Choose at least one scope."));
        return;
    }
    NewApiKey created;
    try {
        // The signed-in user's key (the window's store acts as them); with nobody signed in, the
        // first admin's, as on the command line.
        QString owner;
        if (!m_keys.store().actingUser() || m_keys.store().actingUser()->id.isEmpty()) {
            if (const std::optional<User> admin = m_users.firstAdmin())
                owner = admin->id;
        }
        created = m_keys.create(m_name->text().trimmed(), scopes, owner);
    } catch (const DomainError &e) {
        QStringList lines{ErrorText::of(e)};
        for (const ModelText &problem : e.problems()) {
            if (problem.english() != e.message())
                lines << ErrorText::text(problem);
        }
        UiKit::showError(m_error, lines.join(QLatin1Char('\n')));
        m_name->setFocus();
        return;
    } catch (const std::exception &e) {
        UiKit::showError(m_error, ErrorText::of(e));
        return;
    }
    QDialog::accept();
    emit keyCreated(created.key.id, created.key.name, created.secret);
}

NewApiKeyDialog::NewApiKeyDialog(const QString &name, const QString &secret, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("newApiKeyDialog"));
    setWindowTitle(tr("API key created"));

    auto *text = new QLabel(tr("The key \"%1\" was created. Copy it now:").arg(name.toHtmlEscaped()), this);
    text->setWordWrap(true);
    text->setTextFormat(Qt::RichText);
    m_secret = new QLineEdit(secret, this);
    m_secret->setObjectName(QStringLiteral("secretEdit"));
    m_secret->setReadOnly(true);
    m_secret->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_secret->setMinimumWidth(m_secret->fontMetrics().horizontalAdvance(secret) + 24);
    m_secret->selectAll();

    auto *copy = new QPushButton(tr("Copy"), this);
    copy->setObjectName(QStringLiteral("copyButton"));
    auto *row = new QHBoxLayout;
    row->addWidget(m_secret, 1);
    row->addWidget(copy);

    auto *warning =
        new QLabel(tr("<b>This key will not be shown again.</b> Store it somewhere safe; if it is lost, revoke it and "
                      "create a new one."),
                   this);
    warning->setObjectName(QStringLiteral("warningLabel"));
    warning->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::accept);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addLayout(row);
    layout->addWidget(warning);
    layout->addWidget(buttons);

    connect(copy, &QPushButton::clicked, this, [this, copy] {
        QGuiApplication::clipboard()->setText(m_secret->text());
        copy->setText(tr("Copied"));
    });
}
