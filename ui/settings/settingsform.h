#pragma once

#include "model/core/errors.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>

#include <functional>

class FieldErrors;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QVBoxLayout;
class QWidget;

// What the form pages of Settings share (E-mail, Channels, SMS): an introduction above the groups,
// which scroll; a row at the bottom with the save's outcome and Save; line edits named and keyed
// by their settings names; and Save's words (refused and why, saved, effective at the next start).
// A page holds one, made in its constructor, and adds its groups to groups().
class SettingsForm
{
    Q_DECLARE_TR_FUNCTIONS(SettingsForm)
public:
    using Values = QHash<QString, QString>;

    // Lays out page: intro, the scrolling groups, the save row. The save row's objects are named
    // <namePrefix>Save and <namePrefix>SaveResult.
    SettingsForm(QWidget *page, const QString &intro, const QString &namePrefix);

    QVBoxLayout *groups() const { return m_groups; }
    QWidget *content() const { return m_content; }
    QPushButton *saveButton() const { return m_saveButton; }
    QLabel *saveResultLabel() const { return m_saveResult; }

    // A line edit for key (its object name), in a row of form; a secret shows masked. With errors:
    // the field's error label (<key>Error) under it.
    QLineEdit *addField(QFormLayout *form, const QString &key, const QString &label, const QString &placeholder = {},
                        bool secret = false, FieldErrors *errors = nullptr);
    QLineEdit *field(const QString &key) const { return m_fields.value(key); }
    // Fills the line edits from values (absent keys: empty); their texts, trimmed, by key.
    void setTexts(const Values &values);
    Values texts() const;

    // Shows each problem under its field (ErrorText in the window's language) and puts the
    // keyboard in the first such field of page; false when there was none to show.
    static bool showProblems(QWidget *page, FieldErrors &errors, const FieldProblems &problems);

    // Save: refused with problem when it is not empty; else write (false: with the error to show;
    // unset: saving is not available here). Shows the outcome; true when written.
    bool save(const QString &problem, const std::function<bool(QString *error)> &write);

private:
    QVBoxLayout *m_groups = nullptr;
    QWidget *m_content = nullptr;
    QPushButton *m_saveButton = nullptr;
    QLabel *m_saveResult = nullptr;
    QHash<QString, QLineEdit *> m_fields;
};
