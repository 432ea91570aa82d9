#pragma once

#include "model/core/csvimport.h"
#include "model/core/store.h"
#include "ui/shell/backgroundworker.h"

#include <QDialog>

#include <atomic>
#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

// What an import dialog imports: the record's fields and their labels, the duplicate choices its
// rules allow, the check of one row (as a create checks it) and the import itself (run in the
// dialog's worker thread, with its own database connection). Contacts fill one
// (ContactsView::importTarget); deals and tasks can fill theirs the same way.
struct ImportTarget
{
    QString objectName;    // "contactImportDialog"
    QString title;         // the window's title
    QString duplicateRule; // "When a contact with the same e-mail or phone exists:"
    QVector<CsvImport::Field> fields;
    std::function<QString(const QString &key)> label;
    bool customFields = false; // an unmatched column may become a custom field
    QVector<CsvImport::Duplicates> duplicates;
    // Throws DomainError as a create would.
    std::function<void(const QStringList &row, const CsvImport::Mapping &mapping)> check;
    std::function<CsvImport::Report(const Store &store, const Csv::Table &table, const CsvImport::Mapping &mapping,
                                    CsvImport::Duplicates duplicates, const QString &actor,
                                    const std::function<bool(const CsvImport::Report &)> &progress)>
        run;
};

// The import of a CSV file, in three steps on one page: the file (its encoding detected, UTF-8 with or
// without a byte order mark or Windows-1254, and its separator, both open to a change), the columns
// (each matched to a field by its header name in English or Turkish, open to a change, an unmatched
// one to a custom field where the record has them) with a preview of the first rows and each row's
// problems in the window's language, and the duplicate choice; then the import in a worker thread
// under a progress bar with Cancel (the batches written stay), its counts and its report saved as
// CSV. The window stays usable meanwhile.
class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    static constexpr int PreviewRows = 20;
    static constexpr qint64 MaxFileBytes = 100LL * 1024 * 1024;

    ImportDialog(ImportTarget target, const Store &store, QWidget *parent = nullptr);
    ~ImportDialog() override;

    // Reads a file (the file dialog's choice; tests call it). False with the reason shown when it cannot.
    bool openFile(const QString &path);
    // The mapping as the column table shows it.
    CsvImport::Mapping mapping() const;
    // Starts the import (as the Import button); false when it cannot start.
    bool startImport();
    void cancelImport();
    bool isImporting() const { return m_importing; }
    // The last import's report (empty before one ends).
    const std::optional<CsvImport::Report> &report() const { return m_report; }
    bool saveReport(const QString &path);

    QComboBox *encodingBox() const { return m_encoding; }
    QComboBox *separatorBox() const { return m_separator; }
    QComboBox *duplicatesBox() const { return m_duplicates; }
    QTableWidget *columnsTable() const { return m_columns; }
    QTableWidget *previewTable() const { return m_preview; }
    // The field chooser of a column of the file.
    QComboBox *fieldBox(int column) const;
    QLabel *statusLabel() const { return m_status; }

    void reject() override;

signals:
    void importFinished();

private:
    void chooseFile();
    void reread();
    void fillColumns();
    void fillPreview();
    void updateActions();
    void onProgress(const CsvImport::Report &soFar);
    void onDone(const CsvImport::Report &report, const QString &error);
    void chooseReportFile();

    ImportTarget m_target;
    Store m_store;
    QByteArray m_bytes;
    QString m_path;
    std::optional<Csv::Table> m_table;
    std::optional<CsvImport::Report> m_report;
    bool m_importing = false;
    std::atomic<bool> m_cancel{false};

    QLabel *m_file = nullptr;
    QComboBox *m_encoding = nullptr;
    QComboBox *m_separator = nullptr;
    QTableWidget *m_columns = nullptr;
    QTableWidget *m_preview = nullptr;
    QLabel *m_previewNote = nullptr;
    QComboBox *m_duplicates = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_choose = nullptr;
    QPushButton *m_import = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPushButton *m_saveReport = nullptr;
    QPushButton *m_close = nullptr;
    BackgroundWorker m_worker; // last: the destructor waits for the import before the rest goes
};

// Asks where to save a CSV file (a save dialog in the Documents folder, else the home folder, with
// this file name), then calls save with the path chosen. The list views' Export… use it.
void askCsvExportPath(QWidget *parent, const QString &title, const QString &fileName,
                      std::function<void(const QString &path)> save);
// Writes bytes to path in one go (QSaveFile); the reason when it cannot, else empty.
QString writeCsvFile(const QString &path, const QByteArray &bytes);
