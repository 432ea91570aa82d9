#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <exception>

// The window's words for the model's refusals. The model writes its messages and field details in
// English (they are also the API's); the window shows them through this catalogue: every message
// template the model can give is listed in errortext.cpp with QT_TRANSLATE_NOOP("ModelError", …),
// matched with its arguments and written again through tr(), field keys ("firstName") become the
// form's labels, and "Invalid data: a …; b …" lists are translated part by part. A message the
// catalogue does not know is shown as it is.
namespace ErrorText {
// One message or detail of the model, in the window's language.
QString translate(const QString &english);
// What to show for a caught exception: a DomainError's message, else what(), translated.
QString of(const std::exception &e);
// A DomainError's details with each text translated (keys unchanged).
QJsonObject details(const QJsonObject &details);
// The form's label of a field key ("firstName" -> "First name"); the key when unknown.
QString fieldLabel(const QString &key);
// Every template of the catalogue (tests check the model's messages against it).
QStringList templates();
} // namespace ErrorText
