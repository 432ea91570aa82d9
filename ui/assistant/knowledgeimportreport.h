#pragma once

#include "model/assistant/knowledgeentry.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

// What a CSV import did: how many entries it made, changed and left out (and whether Cancel
// stopped it), and each row it left out with its line in the file and why, in the window's
// language. "Save as CSV…" writes that list for whoever fixes the file.
class KnowledgeImportReportDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column
    {
        LineColumn,
        FieldColumn,
        ProblemColumn,
        ColumnCount
    };

    // path: the file imported (the report is offered beside it).
    KnowledgeImportReportDialog(const KnowledgeImportReport &report, const QString &path, QWidget *parent = nullptr);

    QLabel *summaryLabel() const { return m_summary; }
    QTableWidget *problemsTable() const { return m_problems; }
    QPushButton *saveButton() const { return m_save; }
    // The problems as CSV (line, field, code, problem; a byte order mark first, as exports have it).
    QByteArray reportCsv() const;

public slots:
    void chooseFile();
    // Writes reportCsv() to path; false (and why, under the summary) when it cannot.
    bool saveTo(const QString &path);

private:
    KnowledgeImportReport m_report;
    QString m_path;
    QLabel *m_summary = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_problems = nullptr;
    QPushButton *m_save = nullptr;
};
