#pragma once

#include "server/controllers/controller.h"

#include "model/contacts/contactmerge.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/duplicatefinder.h"
#include "model/contacts/segmentrepository.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"

// /api/v1/contacts: list, create, detail, update (PUT and PATCH, both partial), delete, tags, notes;
// duplicates, merge and its undo.
class ContactsController final : public Controller
{
public:
    explicit ContactsController(const Store &store);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    // The list's filters (search, tags, source, dates, segment, sort) read from the query.
    ContactQuery queryOf(const ApiRequest &request);
    ApiResponse list(ApiRequest &request);
    ApiResponse exportCsv(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);
    ApiResponse addTags(ApiRequest &request);
    ApiResponse removeTag(ApiRequest &request);
    ApiResponse addNote(ApiRequest &request);
    ApiResponse duplicates(ApiRequest &request);
    ApiResponse merge(ApiRequest &request);
    ApiResponse undoMerge(ApiRequest &request);

    ContactRepository m_contacts;
    SegmentRepository m_segments;
    ConversationRepository m_conversations;
    DealRepository m_deals;
    DuplicateFinder m_duplicates;
    ContactMerge m_merge;
};
