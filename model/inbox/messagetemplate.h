#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

// A message template approved by the provider (WhatsApp requires one to write first or after the
// 24-hour window). body holds {{1}}, {{2}}… placeholders filled by a send's body parameters;
// buttons: [{type: "quick_reply", text}].
struct MessageTemplate
{
    QString id;
    QString name;     // lower-case letters, digits and "_", as WhatsApp names them
    QString language; // "en_US", "tr"
    QString category; // marketing, utility, authentication
    QString body;
    QJsonArray buttons;
    QString status; // approved, pending, rejected
    QString createdAt;
    QString updatedAt;

    QJsonObject toJson() const;
    // The number of placeholders {{1}}…{{n}} of the body.
    int parameterCount() const;
};

namespace TemplateRules {
QStringList categories();
QStringList statuses();
// Checks a send's `components` (the spec's shape: body parameters of type text; quick_reply button
// components with index and payload parameters) against the template, and returns the body text
// with its placeholders filled. Throws DomainError 400 naming the component and what is wrong.
QString render(const MessageTemplate &tpl, const QJsonValue &components);
} // namespace TemplateRules
