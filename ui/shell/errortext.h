#pragma once

#include <QJsonObject>
#include <QString>

#include <exception>

class DomainError;
class ModelText;

// The window's words for the model's refusals. A refusal carries its text as a template marked for
// translation where the model raises it (QT_TRANSLATE_NOOP("ModelError", …)) and its arguments
// (model/core/errors.h): the window fills the translated template with the same arguments, a field
// key ("firstName") read as the form's label, a nested text translated in turn. Nothing is parsed
// back from English.
namespace ErrorText {
// A text of the model in the window's language.
QString text(const ModelText &text);
// What to show for a caught exception: a DomainError's text (or, for some kinds, what its data
// say), else what() as it is.
QString of(const std::exception &e);
// A DomainError's data and each field's problem in the window's language (keys unchanged).
QJsonObject details(const DomainError &e);
// The form's label of a field key ("firstName" -> "First name", "rules[1].rules[0]" -> "Rule 2 › Rule 1");
// the key when unknown.
QString fieldLabel(const QString &key);
} // namespace ErrorText
