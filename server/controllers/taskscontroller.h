#pragma once

#include "model/tasks/taskrepository.h"
#include "server/controllers/controller.h"

#include <QTimeZone>

// /api/v1/tasks: list (filters), create, detail, update (PUT and PATCH, both partial), delete,
// status (transition table), assign, notes, and the literal lists /tasks/today and /tasks/overdue,
// computed in the tasks time zone (setting tasks/timeZone).
class TasksController final : public Controller
{
public:
    TasksController(const Store &store, const QTimeZone &timeZone);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse today(ApiRequest &request);
    ApiResponse overdue(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);
    ApiResponse setStatus(ApiRequest &request);
    ApiResponse assign(ApiRequest &request);
    ApiResponse addNote(ApiRequest &request);

    // A task as answers carry it: its fields, isOverdue, and assignedTo {id, name[, email]}, contact
    // {id, name[, firstName, lastName, phone]}, deal {id, name[, value]} (bracketed: in `detail` only),
    // each null when unset or gone.
    QJsonObject toResponse(const Task &t, bool detail) const;
    QJsonObject detail(const Task &t) const;
    ApiResponse pageOf(const TaskPage &page, int pageNumber, int limit) const;

    TaskRepository m_tasks;
};
