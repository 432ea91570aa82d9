#include "model/inbox/widgetvisitorrepository.h"

#include "model/contacts/contact.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/ids.h"
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

WidgetVisitorRepository::Created WidgetVisitorRepository::create(const QString &nameIn, const QString &emailIn,
                                                                 const QString &anonymousName)
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

    Transaction tx;
    ContactRepository contacts(m_store);
    if (!email.isEmpty()) {
        if (const std::optional<Contact> known = contacts.findByEmail(email))
            out.visitor.contactId = known->id;
    }
    if (out.visitor.contactId.isEmpty()) {
        // A visitor may give neither e-mail nor phone: a contact as a channel introduces one.
        ContactChanges person;
        person.firstName = !name.isEmpty()            ? name
                           : !anonymousName.isEmpty() ? anonymousName
                                                      : QStringLiteral("Website visitor");
        if (!email.isEmpty())
            person.email = email;
        person.source = QStringLiteral("widget");
        out.visitor.contactId = contacts.createFromChannel(std::move(person)).id;
    }
    // The news of the contact and the conversation made here waits for our commit.
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
