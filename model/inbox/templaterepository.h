#pragma once

#include "model/core/store.h"
#include "model/inbox/messagetemplate.h"

#include <QJsonObject>
#include <QVector>

#include <optional>

// Stores the templates. Bad input throws DomainError: 400 wrong types/format, 422 missing name,
// language or body, 409 a template of that name and language exists, 404 unknown id.
class TemplateRepository
{
public:
    explicit TemplateRepository(const Store &store);

    QVector<MessageTemplate> list(const QString &status = {}) const;
    MessageTemplate get(const QString &id) const;
    // body: name, language, body (required), category, buttons, status (default approved).
    MessageTemplate create(const QJsonObject &body);
    MessageTemplate update(const QString &id, const QJsonObject &body); // partial
    void remove(const QString &id);
    // The template of that name and language, if any.
    std::optional<MessageTemplate> find(const QString &name, const QString &language) const;
    // For a send: the approved template, else DomainError 422 TEMPLATE_NOT_APPROVED (unknown, or
    // pending/rejected), naming it.
    MessageTemplate approved(const QString &name, const QString &language) const;

private:
    Store m_store;
};
