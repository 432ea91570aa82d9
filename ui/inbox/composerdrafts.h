#pragma once

#include <QHash>
#include <QList>
#include <QString>

// What an agent wrote in the Inbox but has not sent, per conversation: the composer's draft and the
// replies whose send was refused (a channel down, its rate), each with the reason. A draft belongs to
// its conversation and to the signed-in user: it is shown only in that conversation's composer, and
// another user signing in on the same window sees their own.
//
// Kept in an INI file of the window's own (DATA/drafts.ini: read once, each change written at once so
// that a draft survives a crash or a restart; one window a data directory writes it); without a file
// (tests, no data directory) they live in memory only.
class ComposerDrafts
{
public:
    struct Unsent
    {
        QString id;    // local, unique within the conversation
        QString text;  // the reply as it was to be sent
        QString error; // why it was not sent, in the window's language
        QString at;    // when it was tried (ISO 8601 UTC)
    };

    explicit ComposerDrafts(QString iniPath = {});

    QString iniPath() const { return m_path; }
    // Whose drafts are read and written from now on (empty: nobody signed in).
    void setUser(const QString &userId);

    QString draft(const QString &conversationId) const;
    // An empty or blank text removes the draft.
    void setDraft(const QString &conversationId, const QString &text);

    QList<Unsent> unsent(const QString &conversationId) const;
    Unsent addUnsent(const QString &conversationId, const QString &text, const QString &error, const QString &at);
    void updateUnsent(const QString &conversationId, const QString &id, const QString &error, const QString &at);
    void removeUnsent(const QString &conversationId, const QString &id);

private:
    struct Entry
    {
        QString draft;
        QList<Unsent> unsent;
    };
    QString key(const QString &conversationId) const;
    Entry entry(const QString &conversationId) const;
    void store(const QString &conversationId, const Entry &e);

    QString m_path;
    QString m_user;
    QHash<QString, Entry> m_memory; // by "user/conversation"; the file's content, read at start
};
