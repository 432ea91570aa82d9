#pragma once

#include "model/core/store.h"
#include "model/inbox/messagetemplate.h"
#include "model/inbox/templaterepository.h"

#include <QDialog>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

// Settings > Templates (an admin's page): the message templates the composer offers (WhatsApp asks
// for an approved one to write first or after 24 hours), with Add…, Edit… and Delete, as the API's
// /templates routes do. The model's rules (name format, language code, placeholders, buttons) are
// checked there and shown in the window's words.
class TemplatesPage : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        LanguageColumn,
        CategoryColumn,
        StatusColumn,
        BodyColumn,
        ColumnCount
    };

    explicit TemplatesPage(const Store &store, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QString currentTemplateId() const;

public slots:
    void reload();
    void addTemplate();
    void editTemplate();
    void deleteTemplate();

private:
    void updateActions();

    TemplateRepository m_templates;
    QTableWidget *m_table = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_delete = nullptr;
    QLabel *m_error = nullptr;
};

// Add or edit a template: name, language, category, status, body with {{1}}… placeholders, quick
// reply buttons (one a line). Stays open on a refusal.
class TemplateDialog : public QDialog
{
    Q_OBJECT
public:
    // Adding: `existing` empty.
    TemplateDialog(TemplateRepository &templates, const MessageTemplate &existing = {}, QWidget *parent = nullptr);
    const MessageTemplate &saved() const { return m_saved; }

public slots:
    void accept() override;

private:
    TemplateRepository &m_templates;
    MessageTemplate m_original;
    MessageTemplate m_saved;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_language = nullptr;
    QComboBox *m_category = nullptr;
    QComboBox *m_status = nullptr;
    QPlainTextEdit *m_body = nullptr;
    QPlainTextEdit *m_buttons = nullptr;
    QLabel *m_error = nullptr;
};
