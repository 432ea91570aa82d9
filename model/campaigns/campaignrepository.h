#pragma once

#include "model/campaigns/campaign.h"
#include "model/contacts/contact.h"
#include "model/core/store.h"

#include <QHash>
#include <QJsonObject>
#include <QVector>

#include <optional>

struct CampaignQuery
{
    QStringList types, statuses, channels;
    QString search; // words beginning words of the name
    int page = 1;
    int limit = 20;
};

struct CampaignPage
{
    QVector<Campaign> items;
    qint64 total = 0;
    int page = 1;
    int limit = 20;
};

// One recipient of a campaign: a contact of the frozen audience, or a test address.
struct CampaignRecipient
{
    qint64 seq = 0;
    QString id; // rcp_…
    QString campaignId;
    QString contactId;
    QString name;
    QString address;
    bool test = false;
    QString status; // pending, sending, sent, delivered, bounced, failed, skipped
    QString skipReason;
    int attempts = 0;
    QString nextAttemptAt, sentAt, deliveredAt, openedAt, clickedAt, bouncedAt, bounceType, failedAt, unsubscribedAt;
    int opens = 0;
    int clicks = 0;
    int proxyOpens = 0;
    QString error;
    QString providerId;
    QString createdAt;
    int step = -1; // a DRIP or TRIGGERED campaign's step (from 0); -1: a broadcast's recipient

    QJsonObject toJson() const;
};

// A contact's walk through a DRIP or TRIGGERED campaign: where it is, and the step sends so far.
struct CampaignEnrolment
{
    QString campaignId;
    QString contactId;
    QString name;       // the contact's name now (empty once deleted)
    QString status;     // active, completed, exited
    QString exitReason; // unsubscribed, bounced, replied, deal_won, contact_deleted, no_address, cancelled
    int nextStep = 0;
    QString nextAt; // when the next step is due (active only)
    QString enteredAt;
    QString source; // audience, or the trigger's event
    QString updatedAt;
    QVector<CampaignRecipient> steps; // one per step released, in step order

    QJsonObject toJson() const;
};

// How many contacts a DRIP or TRIGGERED campaign took in, and where they are now.
struct EnrolmentCounts
{
    qint64 total = 0;
    qint64 active = 0;
    qint64 completed = 0;
    qint64 exited = 0;
};

struct EnrolmentQuery
{
    QStringList statuses;
    QString contactId;
    QString search; // the contact's name contains it (without case or accents)
    int page = 1;
    int limit = 50;
};

struct EnrolmentPage
{
    QVector<CampaignEnrolment> items;
    qint64 total = 0;
    int page = 1;
    int limit = 50;
};

struct RecipientQuery
{
    QStringList statuses;
    QString search;      // the address or the name contains it
    bool opened = false; // only those who opened (or clicked)
    bool clicked = false;
    bool test = false; // the test sends instead of the audience
    int page = 1;
    int limit = 50;
};

struct RecipientPage
{
    QVector<CampaignRecipient> items;
    qint64 total = 0;
    int page = 1;
    int limit = 50;
};

// What a sender needs for one claimed recipient: the address, the contact (for merge fields; a
// test send or a deleted contact has only its name), and the content of the campaign (or of the
// drip step) to render.
struct CampaignSend
{
    qint64 recipientSeq = 0;
    QString recipientId;
    QString campaignId;
    QString campaignName;
    QString channel;
    QString address;
    QString name;
    int attempt = 1; // this send's try, from 1
    bool test = false;
    Contact contact;
    QString subject;
    QString htmlContent;
    QString templateName;
    QString templateLanguage;
    QStringList templateParams; // whatsapp: the body parameters, merge fields not yet rendered
};

// A sender's outcome for one recipient.
struct CampaignSendResult
{
    enum Kind
    {
        Sent,        // accepted by the provider
        HardBounce,  // refused for good (SMTP 5xx): the address is suppressed
        SoftFailure, // refused for now (SMTP 4xx, a timeout): tried again after campaigns/retryDelays
        Failed       // cannot be sent (a configuration error, a bad template): not tried again
    };
    QString recipientId;
    Kind kind = Sent;
    int code = 0; // the provider's status (SMTP reply code)
    QString detail;
    QString providerId; // Message-ID, SMS sid, WhatsApp message id
};

// Campaigns and their recipients (docs/api.md, "Campaigns"; docs/architecture.md, "Campaigns").
// Every write runs in one transaction with its outbox events (campaign.started, .completed,
// .failed) and its bus notice. Sending: send() freezes the audience (a dynamic segment evaluated
// then) into recipient rows; a sender claims due rows with a lease (claim(), FOR UPDATE SKIP LOCKED
// on PostgreSQL) before it sends them and records each outcome after (record()), so that two
// copies never send one row at once and a stopped process loses no one: what it had claimed and not
// recorded is claimed again when the lease ends (the duplicate window: the messages in flight).
class CampaignRepository
{
public:
    explicit CampaignRepository(const Store &store);

    Campaign create(const CampaignChanges &changes, const QString &actor = {});
    // Only while DRAFT or SCHEDULED (Conflict otherwise). A future scheduledAt makes a DRAFT
    // SCHEDULED; clearing it makes a SCHEDULED one a DRAFT again.
    Campaign update(const QString &id, const CampaignChanges &changes, const QString &actor = {});
    void remove(const QString &id, const QString &actor = {}); // only while DRAFT or SCHEDULED
    Campaign get(const QString &id) const;                     // throws NotFound
    std::optional<Campaign> find(const QString &id) const;
    CampaignPage list(const CampaignQuery &query) const;
    // Per campaign of the page: its statistics (list views show progress and rates).
    QHash<QString, CampaignStats> statsOf(const QVector<Campaign> &campaigns) const;

    // The moves (docs/api.md "Campaign states"). send: DRAFT or SCHEDULED -> SENDING now, the
    // audience frozen; a DRIP or TRIGGERED campaign becomes active (SENDING) and takes contacts as
    // they enter. pause: SENDING -> PAUSED (what is in flight finishes). resume: PAUSED -> SENDING.
    // cancel: DRAFT, SCHEDULED, SENDING or PAUSED -> CANCELLED (the pending recipients stay unsent).
    Campaign send(const QString &id, const QString &actor = {});
    Campaign pause(const QString &id, const QString &actor = {}, const ModelText &reason = {});
    Campaign resume(const QString &id, const QString &actor = {});
    Campaign cancel(const QString &id, const QString &actor = {});
    // Failed and soft-bounced recipients pending again (the campaign SENDING again if it had
    // finished); returns how many.
    int retryFailed(const QString &id, const QString &actor = {});
    // Test sends to these addresses only (not counted in statistics); any state but CANCELLED.
    QVector<CampaignRecipient> addTests(const QString &id, const QStringList &addresses, const QString &actor = {});

    // The audience a segment gives on a channel now: {total, reachable, skipped: {reason: n}}.
    QJsonObject audiencePreview(const QString &segmentId, const QString &channel) const;

    // SCHEDULED campaigns whose time came start (their audience frozen); returns how many.
    int startDue();

    // DRIP and TRIGGERED campaigns (docs/architecture.md, "Drip and triggered campaigns"). A
    // contact enters once (an enrolment row): a DRIP campaign's segment members when it starts and
    // as they join it later (enrolNewMembers), a TRIGGERED one's contacts as the outbox's events
    // match its trigger (processTriggers). advanceDrips releases each due step as a recipient row
    // (one per enrolment and step) that the senders claim like a broadcast's, checking first that
    // the contact has not left: unsubscribed or bounced on the channel, an incoming message since
    // it entered (a reply), a deal won since, deleted, no address; and that the send window is open
    // (else the step waits for it). Returns how many contacts entered / steps were released.
    int enrolNewMembers();
    // Reads the outbox after its cursor: the events that start TRIGGERED campaigns, and the WhatsApp
    // message reports (message.delivered, .read, .failed) of campaign messages, which mark their
    // recipients delivered or failed. Returns how many contacts entered.
    int processTriggers(int batch = 500);
    // WhatsApp campaigns go through the inbox: at most `limit` due recipients (test sends first)
    // become pending template messages of the contact's WhatsApp conversation (sent by the channel's
    // dispatcher at the channel's pace, behind agent sends), each marked sent with the message's id
    // in the transaction that queues it: no duplicate window. A recipient the template or the number
    // cannot serve is failed with the reason. Returns how many were handled.
    int handToWhatsApp(int limit);
    int advanceDrips(int limit, const QTimeZone &zone);
    EnrolmentPage enrolments(const QString &campaignId, const EnrolmentQuery &query) const;
    // Per campaign of the list: its contacts by status (none for a broadcast).
    QHash<QString, EnrolmentCounts> enrolmentCountsOf(const QVector<Campaign> &campaigns) const;
    // At most `limit` due recipients of SENDING campaigns on the channel (test sends first), claimed
    // for leaseSeconds. A row whose lease ended (its copy stopped) is due again. perSecond > 0 on
    // PostgreSQL (several copies): one copy claims at a time, and the claim leaves room for every
    // copy's messages in flight and those sent in the last second, so the copies together hold the
    // channel's pace (SQLite has one process: its sender paces alone).
    QVector<CampaignSend> claim(const QString &channel, int limit, int leaseSeconds, int perSecond = 0);
    // Records outcomes (one transaction), finishing the campaigns that have nothing left to send.
    // retryDelays: seconds before the 2nd, 3rd, … try of a soft failure.
    void record(const QVector<CampaignSendResult> &results, const QList<int> &retryDelays);
    // Every claim made pending again: on SQLite, at the sender's start (only one process uses a
    // data directory, so what is claimed was left by a process that stopped). Returns how many.
    int releaseClaims();
    // Messages sent on the channel since `since` by every copy (the hourly cap).
    qint64 sentSince(const QString &channel, const QDateTime &since) const;
    // The campaigns sending on the channel (the senders' rounds).
    QStringList sending(const QString &channel) const;

    CampaignStats stats(const QString &id) const;
    RecipientPage recipients(const QString &campaignId, const RecipientQuery &query) const;
    std::optional<CampaignRecipient> recipient(const QString &recipientId) const;

    // Signals from the tracking links and the mail system. Each returns false for an unknown
    // recipient. kind of an open: "open" or "proxy_open" (a mail provider's image proxy, a pre-fetch).
    bool recordOpen(const QString &recipientId, bool proxy, const QString &userAgent);
    bool recordClick(const QString &recipientId, const QString &url, const QString &userAgent);
    // The address is suppressed on the campaign's channel (and the recipient marked).
    bool unsubscribe(const QString &recipientId, const QString &how);
    // A late bounce (DSN, a provider's webhook): hard ones suppress the address.
    bool recordBounce(const QString &recipientId, bool hard, const QString &detail);
    // An SMS or WhatsApp provider's status callback: delivered or failed.
    bool recordDelivery(const QString &channel, const QString &providerId, bool delivered, const QString &detail);

    // The key that signs tracking and unsubscribe links (made once, shared by the copies).
    QByteArray linkKey() const;

private:
    Campaign insertOrWrite(Campaign &c, bool insert);
    void checkReferences(const Campaign &c) const;
    void freezeAudience(Campaign &c);
    int enrolSegment(const Campaign &c);
    int advanceCampaign(qint64 campaignSeq, int limit, const QTimeZone &zone);
    void finishIfDone(const QString &campaignId);
    Campaign move(const QString &id, const QString &to, const QString &actor, const ModelText &reason = {});

    Store m_store;
};

// The unsubscribe list: addresses no campaign sends to on a channel (unsubscribed, hard-bounced,
// or added by hand). Everyone who may send campaigns may add; only admins remove (the API's rule).
struct Suppression
{
    QString id; // uns_…
    QString channel;
    QString address;
    QString reason; // unsubscribed, hard_bounce, manual
    QString contactId;
    QString campaignId;
    QString createdBy;
    QString createdAt;

    QJsonObject toJson() const;
};

class SuppressionRepository
{
public:
    explicit SuppressionRepository(const Store &store);

    struct Page
    {
        QVector<Suppression> items;
        qint64 total = 0;
    };
    Page list(const QString &channel, const QString &search, int page, int limit) const;
    // Adds an address (normalised as the channel's addresses are); an address already listed is
    // answered as it is.
    Suppression add(const QString &channel, const QString &address, const QString &reason, const QString &actor = {},
                    const QString &contactId = {}, const QString &campaignId = {});
    void remove(const QString &id, const QString &actor = {}); // throws NotFound
    bool isSuppressed(const QString &channel, const QString &address) const;
    // The address as stored and compared on a channel: e-mail lower-cased, a phone in E.164; empty
    // when it is not an address of the channel.
    static QString normalize(const QString &channel, const QString &address);

private:
    Store m_store;
};

// Signed per-recipient tokens of the tracking and unsubscribe links: "<recipientId>.<signature>",
// the signature an HMAC-SHA256 of the purpose, the recipient and (a click) the target URL.
namespace CampaignLinks {
QString token(const QByteArray &key, const QString &purpose, const QString &recipientId, const QString &url = {});
// The recipient id when the token is good for this purpose (and URL), else empty.
QString verify(const QByteArray &key, const QString &purpose, const QString &token, const QString &url = {});
} // namespace CampaignLinks
