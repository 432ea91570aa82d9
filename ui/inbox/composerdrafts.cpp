#include "ui/inbox/composerdrafts.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QUuid>

namespace {
QString unsentJson(const QList<ComposerDrafts::Unsent> &list)
{
    QJsonArray a;
    for (const ComposerDrafts::Unsent &u : list)
        a.append(QJsonObject{{"id", u.id}, {"text", u.text}, {"error", u.error}, {"at", u.at}});
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QList<ComposerDrafts::Unsent> unsentFrom(const QString &json)
{
    QList<ComposerDrafts::Unsent> list;
    // A damaged value (edited by hand) reads as no unsent reply rather than failing the Inbox.
    const QJsonArray a = QJsonDocument::fromJson(json.toUtf8()).array();
    for (const QJsonValue &v : a) {
        const QJsonObject o = v.toObject();
        ComposerDrafts::Unsent u{o.value("id").toString(), o.value("text").toString(), o.value("error").toString(),
                                 o.value("at").toString()};
        if (!u.id.isEmpty() && !u.text.isEmpty())
            list << u;
    }
    return list;
}
} // namespace

ComposerDrafts::ComposerDrafts(QString iniPath)
    : m_path(std::move(iniPath))
{
    if (m_path.isEmpty())
        return;
    // Read once: the conversation list asks for every conversation's draft at each reload.
    QSettings file(m_path, QSettings::IniFormat);
    for (const QString &user : file.childGroups()) {
        file.beginGroup(user);
        for (const QString &conversation : file.childGroups()) {
            file.beginGroup(conversation);
            Entry e{file.value(QStringLiteral("draft")).toString(),
                    unsentFrom(file.value(QStringLiteral("unsent")).toString())};
            if (!e.draft.trimmed().isEmpty() || !e.unsent.isEmpty())
                m_memory.insert(user + QLatin1Char('/') + conversation, e);
            file.endGroup();
        }
        file.endGroup();
    }
}

void ComposerDrafts::setUser(const QString &userId)
{
    m_user = userId;
}

QString ComposerDrafts::key(const QString &conversationId) const
{
    // Ids are letters, digits and "_": safe as INI groups.
    return (m_user.isEmpty() ? QStringLiteral("nobody") : m_user) + QLatin1Char('/') + conversationId;
}

ComposerDrafts::Entry ComposerDrafts::entry(const QString &conversationId) const
{
    if (conversationId.isEmpty())
        return {};
    return m_memory.value(key(conversationId));
}

void ComposerDrafts::store(const QString &conversationId, const Entry &e)
{
    if (conversationId.isEmpty())
        return;
    const bool empty = e.draft.trimmed().isEmpty() && e.unsent.isEmpty();
    if (empty)
        m_memory.remove(key(conversationId));
    else
        m_memory.insert(key(conversationId), e);
    if (m_path.isEmpty())
        return;
    QSettings file(m_path, QSettings::IniFormat);
    if (empty) {
        file.remove(key(conversationId));
    } else {
        file.beginGroup(key(conversationId));
        if (e.draft.trimmed().isEmpty())
            file.remove(QStringLiteral("draft"));
        else
            file.setValue(QStringLiteral("draft"), e.draft);
        if (e.unsent.isEmpty())
            file.remove(QStringLiteral("unsent"));
        else
            file.setValue(QStringLiteral("unsent"), unsentJson(e.unsent));
        file.endGroup();
    }
    file.sync(); // on disk now: a draft survives a crash
}

QString ComposerDrafts::draft(const QString &conversationId) const
{
    return entry(conversationId).draft;
}

void ComposerDrafts::setDraft(const QString &conversationId, const QString &text)
{
    Entry e = entry(conversationId);
    const QString kept = text.trimmed().isEmpty() ? QString() : text;
    if (e.draft == kept)
        return;
    e.draft = kept;
    store(conversationId, e);
}

QList<ComposerDrafts::Unsent> ComposerDrafts::unsent(const QString &conversationId) const
{
    return entry(conversationId).unsent;
}

ComposerDrafts::Unsent ComposerDrafts::addUnsent(const QString &conversationId, const QString &text,
                                                 const QString &error, const QString &at)
{
    Entry e = entry(conversationId);
    const Unsent u{QUuid::createUuid().toString(QUuid::WithoutBraces), text, error, at};
    e.unsent << u;
    store(conversationId, e);
    return u;
}

void ComposerDrafts::updateUnsent(const QString &conversationId, const QString &id, const QString &error,
                                  const QString &at)
{
    Entry e = entry(conversationId);
    for (Unsent &u : e.unsent) {
        if (u.id == id) {
            u.error = error;
            u.at = at;
        }
    }
    store(conversationId, e);
}

void ComposerDrafts::removeUnsent(const QString &conversationId, const QString &id)
{
    Entry e = entry(conversationId);
    e.unsent.erase(std::remove_if(e.unsent.begin(), e.unsent.end(), [&id](const Unsent &u) { return u.id == id; }),
                   e.unsent.end());
    store(conversationId, e);
}
