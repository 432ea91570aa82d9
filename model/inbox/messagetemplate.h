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

// What a create or an update sets; an update leaves an unset field as it is. buttons: the texts of
// the quick-reply buttons, the whole new list.
struct TemplateChanges
{
    std::optional<QString> name, language, body, category, status;
    std::optional<QStringList> buttons;
};

namespace TemplateRules {
QStringList categories();
QStringList statuses();
// Reads a request body: BadRequest for a wrong type, length or format (the first, in the order name,
// language, body, category, status, buttons), then Unprocessable naming every required field missing or
// empty. creating: name, language and body are required.
TemplateChanges parse(const QJsonObject &body, bool creating);
// The same rules on changes however they were filled in (the repository checks every write);
// normalises them as it goes (every text trimmed).
void check(TemplateChanges &changes, bool creating);
// Checks a send's `components` (the spec's shape: body parameters of type text; quick_reply button
// components with index and payload parameters) against the template, and returns the body text
// with its placeholders filled. Throws DomainError BadRequest naming the component and what is wrong.
QString render(const MessageTemplate &tpl, const QJsonValue &components);
} // namespace TemplateRules
