#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <initializer_list>

class QLabel;
class QVBoxLayout;
class QWidget;

// The red error labels of a form (shared by the contact, deal and task dialogs): a bold label
// above the fields ("formError") for a DomainError's message, and a label under each field
// ("<key>Error") for the details that name it.
class FieldErrors
{
public:
    enum Option
    {
        NoOptions = 0,
        ListUnplaced = 1,   // details naming no field are listed under the message in the form label
        ShowNestedKeys = 2, // a nested detail ("recurrence.interval") shows its key before its text
    };
    Q_DECLARE_FLAGS(Options, Option)

    // Detail key ("address.city", "tags[2]") -> the key of the field label that shows it.
    using FieldOf = std::function<QString(const QString &detailKey)>;

    // The hidden form-level label; the caller adds it to its layout.
    QLabel *createFormLabel(QWidget *parent);
    // The hidden label under the field `key`; the caller adds it to its layout.
    QLabel *addLabel(const QString &key, QWidget *parent);
    // A form cell: the field with the labels of these keys under it.
    QVBoxLayout *cell(QWidget *field, const QStringList &keys, QWidget *parent);
    // Several fields side by side in one form cell, kept to the left.
    static QWidget *row(std::initializer_list<QWidget *> widgets, QWidget *parent);

    // Hides (and empties) every label.
    void clear();
    // Shows message in the form label (when every detail sits under a field, "Correct the 2 fields
    // marked below." instead of the same words twice) and each detail under its field (fieldOf(detail key), the
    // detail key itself when unset); several details of one field stack. A detail whose value is no
    // string shows the message. Returns the key of the first field given an error (empty: none).
    QString show(const QString &message, const QJsonObject &details, const FieldOf &fieldOf = {},
                 Options options = NoOptions);

private:
    QLabel *m_form = nullptr;
    QHash<QString, QLabel *> m_labels;    // field key -> the label under the field
    QHash<QLabel *, QWidget *> m_fieldOf; // a label -> the field above it (its width wraps the text)
};

Q_DECLARE_OPERATORS_FOR_FLAGS(FieldErrors::Options)
