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

QString newVisitorToken()
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

[[noreturn]] void badVisitorField(const QString &field, const ModelText &problem)
{
    throw DomainError::invalid(field, problem);
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
        badVisitorField(QStringLiteral("name"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {200}));
    if (!email.isEmpty() && !ContactRules::isValidEmail(email))
        badVisitorField(QStringLiteral("email"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an e-mail address")));
    Created out;
    out.token = newVisitorToken();
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
    if (out.visitor.contactId.isEmpty() && (!name.isEmpty() || !email.isEmpty())) {
        // A visitor may give a name without an e-mail: a contact as a channel introduces one.
        ContactChanges person;
        person.firstName = !name.isEmpty() ? name : anonymousLabel(out.visitor.id, anonymousName);
        if (!email.isEmpty())
            person.email = email;
        person.source = QStringLiteral("widget");
        out.visitor.contactId = contacts.createFromChannel(std::move(person)).id;
    }
    // The news of the contact and the conversation made here waits for our commit.
    ConversationRepository conversations(m_store);
    const Conversation conversation =
        out.visitor.contactId.isEmpty()
            ? conversations.createForVisitor(out.visitor.id, anonymousLabel(out.visitor.id, anonymousName))
            : conversations.findOrCreate(out.visitor.contactId, QStringLiteral("widget"), out.visitor.id,
                                         QStringLiteral("widget"), QStringLiteral("widget"));
    out.visitor.conversationId = conversation.id;
    Database::execCached(
        QStringLiteral("INSERT INTO widget_visitors (id, token_hash, contact_id, conversation_id, name, email, "
                       "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
        {out.visitor.id, tokenHash(out.token), SqlValue::textOrNull(out.visitor.contactId), out.visitor.conversationId,
         name.isNull() ? QStringLiteral("") : name, email.isNull() ? QStringLiteral("") : email,
         out.visitor.createdAt});
    tx.commit();
    return out;
}

QString WidgetVisitorRepository::anonymousLabel(const QString &visitorId, const QString &anonymousName)
{
    const QString base =
        anonymousName.trimmed().isEmpty() ? QStringLiteral("Website visitor") : anonymousName.trimmed();
    return base + QLatin1Char(' ') + ConversationRules::visitorShortId(visitorId);
}

WidgetVisitorRepository::Identified WidgetVisitorRepository::identify(const QString &conversationId,
                                                                      ContactChanges person)
{
    ContactRules::check(person);
    auto given = [](const std::optional<QString> &v) { return v && !v->trimmed().isEmpty(); };
    if (!given(person.firstName) && !given(person.lastName) && !given(person.email) && !given(person.phone))
        throw DomainError::unprocessable(
            ModelText(
                QT_TRANSLATE_NOOP("ModelError", "Say who the visitor is: a name, an e-mail address or a phone number")),
            {{QStringLiteral("name"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "a name, email or phone is required"))}});
    Transaction tx;
    ConversationRepository conversations(m_store);
    const Conversation before = conversations.get(conversationId);
    if (before.hasContact())
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "This visitor has already said who they are")),
                          {{QStringLiteral("contactId"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already set"))}});
    ContactRepository contacts(m_store);
    Identified out;
    std::optional<Contact> known;
    if (given(person.email))
        known = contacts.findByEmail(*person.email);
    if (!known && given(person.phone)) {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT id FROM contacts WHERE phone_e164 = ?"),
                                             {ContactRules::toE164(*person.phone)});
        const QString id = q.next() ? q.value(0).toString() : QString();
        q.finish();
        if (!id.isEmpty())
            known = contacts.find(id);
    }
    if (known) {
        out.contact = *known;
    } else {
        if (!given(person.firstName) && !given(person.lastName))
            person.firstName = before.visitorName;
        if (!person.source || person.source->isEmpty())
            person.source = QStringLiteral("widget");
        out.contact = contacts.createFromChannel(std::move(person));
        out.created = true;
    }
    out.conversation = conversations.attachContact(conversationId, out.contact.id);
    tx.commit();
    return out;
}

WidgetVisitorRepository::Identified WidgetVisitorRepository::identifyVisitor(const WidgetVisitor &visitor,
                                                                             const QString &nameIn,
                                                                             const QString &emailIn,
                                                                             const QString &phoneIn)
{
    const QString name = nameIn.trimmed();
    const QString email = emailIn.trimmed();
    const QString phone = phoneIn.trimmed();
    if (name.size() > 200)
        badVisitorField(QStringLiteral("name"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {200}));
    if (!email.isEmpty() && !ContactRules::isValidEmail(email))
        badVisitorField(QStringLiteral("email"),
                        ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an e-mail address")));
    ContactChanges person;
    if (!name.isEmpty())
        person.firstName = name;
    if (!email.isEmpty())
        person.email = email;
    if (!phone.isEmpty())
        person.phone = phone;
    person.source = QStringLiteral("widget");
    Transaction tx;
    Identified out = identify(visitor.conversationId, std::move(person));
    if (!name.isEmpty())
        Database::execCached(QStringLiteral("UPDATE widget_visitors SET name = ? WHERE id = ?"), {name, visitor.id});
    if (!email.isEmpty())
        Database::execCached(QStringLiteral("UPDATE widget_visitors SET email = ? WHERE id = ?"), {email, visitor.id});
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
