#include "model/inbox/widgetvisitorrepository.h"

#include "model/contacts/contact.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/outbox.h"
#include "model/core/textfold.h"
#include "model/core/timeutil.h"
#include "model/inbox/conversationrepository.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QSqlQuery>

namespace {
QString tokenHash(const QString &token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString newToken()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(bytes.data()),
                                         reinterpret_cast<quint32 *>(bytes.data() + bytes.size()));
    return QStringLiteral("wvt_") +
           QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::optional<WidgetVisitor> select(const QString &column, const QString &value)
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT id, contact_id, conversation_id, name, email, created_at FROM widget_visitors WHERE ") +
            column + QStringLiteral(" = ?"),
        {value});
    if (!q.next())
        return std::nullopt;
    WidgetVisitor v{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                    q.value(3).toString(), q.value(4).toString(), q.value(5).toString()};
    q.finish();
    return v;
}

[[noreturn]] void bad(const QString &field, const QString &problem)
{
    throw DomainError::badRequest(QStringLiteral("Invalid data: %1 %2").arg(field, problem), {{field, problem}});
}
} // namespace

WidgetVisitorRepository::WidgetVisitorRepository(const Store &store)
    : m_store(store)
{
}

WidgetVisitorRepository::Created WidgetVisitorRepository::create(const QString &nameIn, const QString &emailIn)
{
    const QString name = nameIn.trimmed();
    const QString email = emailIn.trimmed();
    if (name.size() > 200)
        bad(QStringLiteral("name"), QStringLiteral("must be at most 200 characters"));
    if (!email.isEmpty() && !ContactRules::isValidEmail(email))
        bad(QStringLiteral("email"), QStringLiteral("must be an e-mail address"));
    Created out;
    out.token = newToken();
    out.visitor.id = Ids::make(u"visitor");
    out.visitor.name = name;
    out.visitor.email = email;
    out.visitor.createdAt = m_store.nowIso();
    bool contactCreated = false;

    Transaction tx;
    if (!email.isEmpty()) {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT id FROM contacts WHERE email_norm = ?"), {email.toLower()});
        if (q.next())
            out.visitor.contactId = q.value(0).toString();
        q.finish();
    }
    if (out.visitor.contactId.isEmpty()) {
        // Written here rather than through ContactRepository: a visitor may give neither e-mail nor
        // phone, which the API's contact rules require of contacts people create.
        Contact c;
        c.id = Ids::make(u"contact");
        c.firstName = name.isEmpty() ? QStringLiteral("Website visitor") : name;
        c.email = email;
        c.source = QStringLiteral("widget");
        c.createdAt = c.updatedAt = out.visitor.createdAt;
        CachedQuery q = Database::execCached(
            QStringLiteral("INSERT INTO contacts (id, first_name, email, email_norm, source, created_at, updated_at) "
                           "VALUES (?, ?, ?, ?, 'widget', ?, ?)"),
            {c.id, c.firstName, email.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(email),
             email.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(email.toLower()), c.createdAt,
             c.updatedAt});
        c.seq = q.lastInsertId().toLongLong();
        Database::execCached(QStringLiteral("INSERT INTO contacts_fts (rowid, doc) VALUES (?, ?)"),
                             {c.seq, TextFold::fold(c.firstName + QLatin1Char(' ') + c.email)});
        QJsonObject data = c.toJson();
        data.insert(QStringLiteral("contactId"), c.id);
        m_store.appendEvent(QStringLiteral("contact.created"), data);
        out.visitor.contactId = c.id;
        contactCreated = true;
    }
    // Its news (a conversation created) waits for our commit.
    const Conversation conversation =
        ConversationRepository(m_store).findOrCreate(out.visitor.contactId, QStringLiteral("widget"), out.visitor.id,
                                                     QStringLiteral("widget"), QStringLiteral("widget"));
    out.visitor.conversationId = conversation.id;
    Database::execCached(
        QStringLiteral("INSERT INTO widget_visitors (id, token_hash, contact_id, conversation_id, name, email, "
                       "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
        {out.visitor.id, tokenHash(out.token), out.visitor.contactId, out.visitor.conversationId,
         name.isNull() ? QStringLiteral("") : name, email.isNull() ? QStringLiteral("") : email,
         out.visitor.createdAt});
    tx.commit();
    if (contactCreated)
        m_store.notify(EventBus::Entity::Contact, out.visitor.contactId, EventBus::Change::Created);
    return out;
}

std::optional<WidgetVisitor> WidgetVisitorRepository::authenticate(const QString &token) const
{
    if (!token.startsWith(QLatin1String("wvt_")) || token.size() > 100)
        return std::nullopt;
    return select(QStringLiteral("token_hash"), tokenHash(token));
}

std::optional<WidgetVisitor> WidgetVisitorRepository::find(const QString &visitorId) const
{
    return select(QStringLiteral("id"), visitorId);
}
