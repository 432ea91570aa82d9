#pragma once

#include "server/controllers/controller.h"

class ContactRepository;

// /api/v1/contacts: list, create, detail, update (PUT and PATCH, both partial), delete, tags, notes.
class ContactsController final : public Controller
{
public:
    explicit ContactsController(ContactRepository &contacts);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);
    ApiResponse addTags(ApiRequest &request);
    ApiResponse removeTag(ApiRequest &request);
    ApiResponse addNote(ApiRequest &request);

    ContactRepository &m_contacts;
};
