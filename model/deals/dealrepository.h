#pragma once

#include "model/core/store.h"
#include "model/deals/deal.h"
#include "model/deals/pipeline.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QVector>

#include <functional>
#include <optional>

class Transaction;

struct DealQuery
{
    int page = 1; // 1-based
    int limit = 20;
    QString pipelineId;
    QStringList stages;
    QString assignedTo;
    QString contactId;
    QString currency;
    std::optional<double> minValue, maxValue;
    std::optional<bool> rotten;
    QString closedSince; // ISO UTC: closed (won or lost) at or after it
    QString search;      // every word begins a word of the deal's name (SqlDialect::wordsBeginFolded)
    // The board's order (expected close date, then oldest first) instead of newest first.
    bool boardOrder = false;
};

struct DealPage
{
    QVector<Deal> items;
    qint64 total = 0;
};

// One aggregated row of the summary query: the deals of one stage in one currency.
struct SummaryRow
{
    QString stage;
    QString currency;
    qint64 count = 0;
    double value = 0;
    double weightedValue = 0; // Σ value × probability / 100
};

struct StageTotals
{
    QString stage;
    QString name;
    QString kind;
    qint64 count = 0;
    double value = 0;
    double weightedValue = 0;
};

// The figures of one currency: stages in board order; the summary covers the open stages (the
// pipeline still in play), won and lost are reported beside it.
struct CurrencyTotals
{
    QString currency;
    QVector<StageTotals> stages;
    qint64 totalDeals = 0;
    double totalValue = 0;
    double weightedValue = 0;
    double avgDealSize = 0;
    qint64 wonDeals = 0;
    double wonValue = 0;
    qint64 lostDeals = 0;
    double lostValue = 0;

    QJsonObject summaryJson() const;
    QJsonArray stagesJson() const;
};

// Values in different currencies are never added: every figure belongs to one currency. The
// reporting currency is the one asked for, else the one most open deals use (ties: alphabetical).
struct PipelineSummary
{
    Pipeline pipeline;
    QString currency;                   // the reporting currency; empty when the pipeline holds no deals
    CurrencyTotals reporting;           // its figures (zeros for an empty pipeline)
    QVector<CurrencyTotals> byCurrency; // every currency present, alphabetical
    QVector<qint64> stageCounts;        // deals per stage in every currency (the board's column counts)

    static PipelineSummary build(const Pipeline &pipeline, const QVector<SummaryRow> &rows,
                                 const QString &currency = {});
    QJsonObject toJson() const;
};

// Stores deals and their activities. Every write runs in one transaction with its outbox events
// and afterwards tells the bus ("deal", id, change). Events: deal.created; deal.updated (with
// changedFields); deal.stage_changed (with from, to, note) on every stage move, and deal.won /
// deal.lost when the move closes the deal; deal.deleted. Every stage move appends a stage_change
// activity (from, to, note, user). Bad input throws DomainError: BadRequest wrong types and formats, Unprocessable
// missing required fields or a stage/pipeline/contact/user that does not exist, NotFound unknown deal,
// Conflict closing a deal that is already closed that way.
class DealRepository
{
public:
    explicit DealRepository(const Store &store);
    // The store it reads and writes (for the related repositories of a view built with this one).
    const Store &store() const { return m_store; }

    // actor: the user or API key id making the change (recorded on activities; a user actor
    // becomes the owner of a deal created without assignedTo).
    // The changes are checked (DealRules::check) whoever filled them in; a request body is read into
    // them with DealRules::parse.
    Deal create(DealChanges changes, const QString &actor = {});
    Deal update(const QString &id, DealChanges changes, const QString &actor = {});
    void remove(const QString &id, const QString &actor = {});
    std::optional<Deal> find(const QString &id) const;
    Deal get(const QString &id) const; // throws NotFound

    DealPage list(const DealQuery &query) const;
    qint64 count(const DealQuery &query) const;
    // Every deal the query finds (page and limit ignored), newest first, as CSV: a byte order mark,
    // CRLF, the columns id, name, value, currency, pipelineId, stage, probability, contactId,
    // contactName, contactEmail, assignedTo, expectedCloseDate, description, closedValue, closedAt,
    // lostReason, competitorName, one customFields.<name> per custom field they use, createdAt,
    // updatedAt.
    QByteArray exportCsv(const DealQuery &query) const;
    // Deals for a picker: every word of `text` begins a word of the deal's name, its contact's name
    // or company (case-, accent- and Turkish-i-insensitive); most recently changed first, at most
    // `limit`. Empty text: the most recently changed.
    QVector<Deal> search(const QString &text, int limit = 20) const;

    // Moves to stage (any stage of the deal's pipeline, also back from won or lost). Moving to the
    // stage the deal is in changes nothing.
    Deal moveStage(const QString &id, const QString &stage, const QString &note = {}, const QString &actor = {});
    // stage won, probability 100, closedValue (default: the value), closedAt. Conflict when already won.
    Deal markWon(const QString &id, std::optional<double> closedValue, const QString &note = {},
                 const QString &actor = {});
    // stage lost, probability 0, reason (one of DealRules::lostReasons()), competitor. Conflict when already lost.
    Deal markLost(const QString &id, const QString &reason, const QString &competitorName, const QString &note = {},
                  const QString &actor = {});
    DealActivity addActivity(const QString &id, const QString &type, const QString &content, const QString &actor = {});
    QVector<DealActivity> activities(const QString &id) const; // newest first

    // pipelineId empty: the default pipeline. currency empty: see PipelineSummary.
    PipelineSummary summary(const QString &pipelineId = {}, const QString &currency = {}) const;

    // The contact detail's deals: {id, name, value, currency, stage, pipelineId}, newest first.
    QJsonArray forContact(const QString &contactId) const;
    // Called inside the transaction that deletes a contact: unlinks its deals, with a deal.updated
    // event and the bus's news (after the commit) for each.
    void detachContact(const QString &contactId);
    // Called inside the transaction of a contact merge or its undo: the deals of contact `from`
    // (those of `only` alone when given) go to contact `to`, each with deal.updated (changedFields
    // ["contactId"], previousContactId) and the bus's news. Returns the ids of the deals moved.
    QStringList moveContact(const QString &from, const QString &to, const QStringList &only = {});

    // Inserts many deals in one transaction without events or activities (seeding, benchmarks).
    int insertBulk(const QVector<QJsonObject> &bodies);
    // Recomputes the running totals the summary reads from the deals themselves (a repair; every
    // write keeps them in step in its own transaction).
    static void rebuildTotals();

private:
    // Moves a copy of `before` into stage `to` (closing() sets the won/lost fields), writes the row
    // and its stage_change activity and the stage events, then commits tx.
    Deal changeStage(Transaction &tx, const Deal &before, const PipelineStage &to, const QString &note,
                     const QString &actor, const std::function<void(Deal &)> &closing);
    Deal write(Deal d, const Deal &before, const Pipeline &pipeline, const QString &note, const QString &actor,
               const QJsonObject &closing);

    Store m_store;
};
