#pragma once

#include "model/core/store.h"
#include "model/inbox/messagetemplate.h"
#include "model/inbox/templaterepository.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

// What POST /messages/bulk asks: a template to every recipient (phones or channel ids) or to every
// member of a segment, on one channel.
struct BulkRequest
{
    QString channel;
    QStringList recipients; // either these…
    QString segmentId;      // …or the segment's contacts
    MessageTemplate tpl;    // approved (TemplateRepository::approved)
    QJsonArray components;
    QString renderedText; // TemplateRules::render(tpl, components)
    QString createdBy;    // user or API key id
    QString senderName;
};

struct BulkSend
{
    QString id;
    QString channel;
    QString segmentId;
    QString templateName;
    QString templateLanguage;
    qint64 total = 0;
    QString createdAt;
};

// Bulk sends. create() stores the send and its recipients at once (a segment's members in one
// statement) and answers; expand() — the delivery thread's BulkExpander — turns recipients into
// pending messages (priority 1, behind agent sends) in batches, which the ChannelDispatcher then
// sends at the channel's pace. A recipient that cannot be reached on the channel (bad phone, no
// phone, no earlier conversation for telegram/instagram) gets its error and no message.
class BulkSendRepository
{
public:
    static constexpr int kMaxRecipients = 10000; // per request with a recipients list

    explicit BulkSendRepository(const Store &store);

    // Throws DomainError: NotFound unknown segment, BadRequest bad recipients.
    BulkSend create(const BulkRequest &request);
    BulkSend get(const QString &id) const; // throws NotFound
    // Expands at most `limit` waiting recipients (oldest bulk first) in one transaction; returns how
    // many were handled (0: nothing waits).
    int expand(int limit);
    // GET /messages/bulk/:id: the send, its counts by state and one page of recipients
    // {recipient, contactId, messageId, status, error}.
    QJsonObject progress(const QString &id, int page, int limit) const;

private:
    Store m_store;
};
