#pragma once

#include "model/core/store.h"
#include "model/inbox/messagetemplate.h"

#include <QJsonObject>
#include <QVector>

#include <optional>

// Stores the templates. Bad input throws DomainError: BadRequest wrong types/format, Unprocessable missing name,
// language or body, Conflict a template of that name and language exists, NotFound unknown id.
class TemplateRepository
{
public:
    explicit TemplateRepository(const Store &store);

    QVector<MessageTemplate> list(const QString &status = {}) const;
    MessageTemplate get(const QString &id) const;
    // name, language, body (required), category (default utility), buttons, status (default
    // approved); checked here (TemplateRules::check), a request body is read with
    // TemplateRules::parse.
    MessageTemplate create(const TemplateChanges &changes);
    MessageTemplate update(const QString &id, const TemplateChanges &changes); // partial
    void remove(const QString &id);
    // The template of that name and language, if any.
    std::optional<MessageTemplate> find(const QString &name, const QString &language) const;
    // For a send: the approved template, else DomainError Unprocessable TEMPLATE_NOT_APPROVED (unknown, or
    // pending/rejected), naming it.
    MessageTemplate approved(const QString &name, const QString &language) const;

private:
    Store m_store;
};
