#include "ui/shell/importdialog.h"

#include "model/core/errors.h"
#include "ui/shell/elidedlabel.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
enum ImportColumnsColumn
{
    ImportHeaderColumn,
    ImportExampleColumn,
    ImportFieldColumn
};

QString importDuplicateText(CsvImport::Duplicates d)
{
    switch (d) {
    case CsvImport::Duplicates::Skip:
        return ImportDialog::tr("Skip the row (keep the stored record)");
    case CsvImport::Duplicates::Update:
        return ImportDialog::tr("Update the stored record with the row's values");
    case CsvImport::Duplicates::Create:
        break;
    }
    return ImportDialog::tr("Create a new record anyway");
}
} // namespace

ImportDialog::ImportDialog(ImportTarget target, const Store &store, QWidget *parent)
    : QDialog(parent)
    , m_target(std::move(target))
    , m_store(store)
{
    setObjectName(m_target.objectName);
    setWindowTitle(m_target.title);
    resize(1040, 680);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::L, UiKit::Space::L, UiKit::Space::L, UiKit::Space::M);
    layout->setSpacing(UiKit::Space::S);

    // 1. The file, its encoding and separator.
    auto *fileRow = new QHBoxLayout;
    fileRow->setSpacing(UiKit::Space::S);
    m_choose = new QPushButton(tr("Choose file…"), this);
    m_choose->setObjectName(QStringLiteral("chooseImportFile"));
    auto *elided = new ElidedLabel(this);
    elided->setObjectName(QStringLiteral("importFileName"));
    elided->setText(tr("No file chosen: a CSV file saved by Excel, LibreOffice or another program"));
    m_file = elided;
    m_encoding = new QComboBox(this);
    m_encoding->setObjectName(QStringLiteral("importEncoding"));
    m_encoding->setAccessibleName(tr("Encoding"));
    m_encoding->addItem(tr("UTF-8"), int(Csv::Encoding::Utf8));
    m_encoding->addItem(tr("Windows-1254 (Turkish)"), int(Csv::Encoding::Windows1254));
    m_separator = new QComboBox(this);
    m_separator->setObjectName(QStringLiteral("importSeparator"));
    m_separator->setAccessibleName(tr("Separator"));
    m_separator->addItem(tr("Comma ,"), QStringLiteral(","));
    m_separator->addItem(tr("Semicolon ;"), QStringLiteral(";"));
    m_separator->addItem(tr("Tab"), QStringLiteral("\t"));
    fileRow->addWidget(m_choose);
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(new QLabel(tr("Encoding:"), this));
    fileRow->addWidget(m_encoding);
    fileRow->addWidget(new QLabel(tr("Separator:"), this));
    fileRow->addWidget(m_separator);
    layout->addLayout(fileRow);

    // 2. The columns and a preview of the rows as they would be read.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    auto *columnsBox = new QGroupBox(tr("Columns of the file"), splitter);
    auto *columnsLayout = new QVBoxLayout(columnsBox);
    m_columns =
        UiKit::recordTable(3, {tr("Column"), tr("Example"), tr("Field")}, QStringLiteral("importColumns"), columnsBox);
    m_columns->setAccessibleName(tr("Columns of the file and their fields"));
    m_columns->setSelectionMode(QAbstractItemView::NoSelection);
    m_columns->horizontalHeader()->setSectionResizeMode(ImportFieldColumn, QHeaderView::Stretch);
    columnsLayout->addWidget(m_columns);
    auto *previewBox = new QGroupBox(tr("Preview"), splitter);
    auto *previewLayout = new QVBoxLayout(previewBox);
    m_previewNote = new QLabel(previewBox);
    m_previewNote->setObjectName(QStringLiteral("importPreviewNote"));
    m_previewNote->setWordWrap(true);
    m_preview = UiKit::recordTable(1, {tr("Line")}, QStringLiteral("importPreview"), previewBox);
    m_preview->setAccessibleName(tr("The first rows as they would be imported"));
    previewLayout->addWidget(m_previewNote);
    previewLayout->addWidget(m_preview);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({460, 540});
    layout->addWidget(splitter, 1);

    // 3. Duplicates, then the import.
    auto *form = new QFormLayout;
    m_duplicates = new QComboBox(this);
    m_duplicates->setObjectName(QStringLiteral("importDuplicates"));
    for (CsvImport::Duplicates d : std::as_const(m_target.duplicates))
        m_duplicates->addItem(importDuplicateText(d), int(d));
    form->addRow(m_target.duplicateRule, m_duplicates);
    m_duplicates->setAccessibleName(m_target.duplicateRule);
    layout->addLayout(form);

    auto *runRow = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("importProgress"));
    m_progress->setAccessibleName(tr("Import progress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("importStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    runRow->addWidget(m_status, 3);
    runRow->addWidget(m_progress, 2);
    layout->addLayout(runRow);

    auto *buttons = new QHBoxLayout;
    m_saveReport = new QPushButton(tr("Save report…"), this);
    m_saveReport->setObjectName(QStringLiteral("saveImportReport"));
    m_saveReport->setToolTip(tr("Each row's outcome (new, updated, skipped and why) as a CSV file"));
    m_cancelButton = new QPushButton(tr("Cancel import"), this);
    m_cancelButton->setObjectName(QStringLiteral("cancelImport"));
    m_cancelButton->setToolTip(tr("Stop after the rows being written: those saved until then stay"));
    m_import = new QPushButton(tr("Import"), this);
    m_import->setObjectName(QStringLiteral("startImport"));
    m_import->setDefault(true);
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("closeImport"));
    buttons->addWidget(m_saveReport);
    buttons->addStretch(1);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_import);
    buttons->addWidget(m_close);
    layout->addLayout(buttons);

    connect(m_choose, &QPushButton::clicked, this, &ImportDialog::chooseFile);
    connect(m_encoding, &QComboBox::activated, this, &ImportDialog::reread);
    connect(m_separator, &QComboBox::activated, this, &ImportDialog::reread);
    connect(m_import, &QPushButton::clicked, this, &ImportDialog::startImport);
    connect(m_cancelButton, &QPushButton::clicked, this, &ImportDialog::cancelImport);
    connect(m_saveReport, &QPushButton::clicked, this, &ImportDialog::chooseReportFile);
    connect(m_close, &QPushButton::clicked, this, &ImportDialog::reject);
    updateActions();
}

ImportDialog::~ImportDialog()
{
    m_cancel.store(true); // the worker's destructor waits for the batch being written
}

void ImportDialog::chooseFile()
{
    QString folder = QFileInfo(m_path).absolutePath();
    if (m_path.isEmpty()) {
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        if (!QFileInfo(folder).isDir())
            folder = QDir::homePath();
    }
    auto *dialog = new QFileDialog(this, m_target.title, folder);
    dialog->setObjectName(QStringLiteral("importFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setNameFilters({tr("CSV files (*.csv *.txt)"), tr("All files (*)")});
    connect(dialog, &QFileDialog::fileSelected, this, &ImportDialog::openFile);
    dialog->open();
}

bool ImportDialog::openFile(const QString &path)
{
    if (m_importing)
        return false;
    const QFileInfo info(path);
    if (info.size() > MaxFileBytes) {
        UiKit::showError(m_status,
                         tr("%1 is too large to import (at most %2 MB).").arg(info.fileName()).arg(MaxFileBytes >> 20));
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_status->setText(tr("Cannot read %1: %2").arg(info.fileName(), file.errorString()));
        return false;
    }
    m_bytes = file.readAll();
    m_path = info.absoluteFilePath();
    m_report.reset();
    m_file->setText(QDir::toNativeSeparators(m_path));
    m_file->setToolTip(QDir::toNativeSeparators(m_path));
    // Detected once here; a change in the boxes reads the file again as chosen.
    const Csv::Encoding encoding = Csv::detect(m_bytes);
    m_encoding->setCurrentIndex(m_encoding->findData(int(encoding)));
    m_separator->setCurrentIndex(m_separator->findData(QString(Csv::guessSeparator(Csv::decode(m_bytes, encoding)))));
    reread();
    return m_table.has_value();
}

void ImportDialog::reread()
{
    if (m_bytes.isEmpty() || m_importing)
        return;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    const auto encoding = Csv::Encoding(m_encoding->currentData().toInt());
    const QChar separator = m_separator->currentData().toString().at(0);
    try {
        m_table = Csv::read(m_bytes, encoding, separator);
        const QLocale locale;
        m_status->setText(tr("%1 rows to import, %2 columns. Check the fields of the columns and the preview.")
                              .arg(locale.toString(qsizetype(m_table->rows.size())),
                                   locale.toString(qsizetype(m_table->header.size()))));
    } catch (const std::exception &e) {
        m_table.reset();
        m_status->setText(tr("%1 cannot be imported: %2").arg(QFileInfo(m_path).fileName(), ErrorText::of(e)));
    }
    fillColumns();
    fillPreview();
    updateActions();
}

QComboBox *ImportDialog::fieldBox(int column) const
{
    return qobject_cast<QComboBox *>(m_columns->cellWidget(column, ImportFieldColumn));
}

void ImportDialog::fillColumns()
{
    m_columns->setRowCount(0);
    if (!m_table)
        return;
    const CsvImport::Mapping matched = CsvImport::autoMatch(m_table->header, m_target.fields);
    m_columns->setRowCount(int(m_table->header.size()));
    for (int i = 0; i < m_table->header.size(); ++i) {
        const QString &header = m_table->header.at(i);
        m_columns->setItem(i, ImportHeaderColumn, UiKit::tableItem(header));
        QString example;
        for (int r = 0; r < m_table->rows.size() && r < 5 && example.isEmpty(); ++r)
            example = m_table->rows.at(r).value(i).trimmed();
        m_columns->setItem(i, ImportExampleColumn, UiKit::tableItem(example));
        auto *box = new QComboBox(m_columns);
        box->setObjectName(QStringLiteral("importField%1").arg(i));
        box->setAccessibleName(tr("Field of column %1").arg(header));
        box->addItem(tr("— leave out —"), QString());
        for (const CsvImport::Field &f : std::as_const(m_target.fields))
            box->addItem(m_target.label(f.key), f.key);
        if (m_target.customFields && !header.isEmpty()) {
            const QString custom = CsvImport::isCustomField(header)
                                       ? header
                                       : QStringLiteral("customFields.") + header.left(64).simplified();
            box->addItem(tr("Custom field “%1”").arg(CsvImport::customFieldName(custom)), custom);
        }
        box->setCurrentIndex(qMax(0, box->findData(matched.value(i))));
        connect(box, &QComboBox::activated, this, [this, i] {
            // A field goes to one column: the one that had it before lets it go.
            const QString chosen = fieldBox(i)->currentData().toString();
            for (int other = 0; !chosen.isEmpty() && other < m_columns->rowCount(); ++other) {
                if (other != i && fieldBox(other)->currentData().toString() == chosen)
                    fieldBox(other)->setCurrentIndex(0);
            }
            fillPreview();
            updateActions();
        });
        m_columns->setCellWidget(i, ImportFieldColumn, box);
    }
    m_columns->resizeColumnToContents(ImportHeaderColumn);
    m_columns->resizeColumnToContents(ImportExampleColumn);
    m_columns->setColumnWidth(ImportExampleColumn,
                              qMin(m_columns->columnWidth(ImportExampleColumn), fontMetrics().averageCharWidth() * 18));
}

CsvImport::Mapping ImportDialog::mapping() const
{
    CsvImport::Mapping out;
    for (int i = 0; i < m_columns->rowCount(); ++i)
        out << (fieldBox(i) ? fieldBox(i)->currentData().toString() : QString());
    return out;
}

void ImportDialog::fillPreview()
{
    m_preview->clear();
    m_preview->setRowCount(0);
    if (!m_table) {
        m_previewNote->clear();
        return;
    }
    const CsvImport::Mapping map = mapping();
    QVector<int> shown;
    // The problem beside the line, so that it shows without scrolling; the values after it.
    QStringList headers{tr("Line"), tr("Problems")};
    for (int i = 0; i < map.size(); ++i) {
        if (map.at(i).isEmpty())
            continue;
        shown << i;
        headers << (CsvImport::isCustomField(map.at(i)) ? CsvImport::customFieldName(map.at(i))
                                                        : m_target.label(map.at(i)));
    }
    m_preview->setColumnCount(int(headers.size()));
    m_preview->setHorizontalHeaderLabels(headers);
    const int rows = int(qMin<qsizetype>(PreviewRows, m_table->rows.size()));
    m_preview->setRowCount(rows);
    const QLocale locale;
    int bad = 0;
    for (int r = 0; r < rows; ++r) {
        const QStringList &row = m_table->rows.at(r);
        auto *line = UiKit::tableItem(locale.toString(m_table->lines.value(r)));
        line->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_preview->setItem(r, 0, line);
        for (int c = 0; c < shown.size(); ++c)
            m_preview->setItem(r, c + 2, UiKit::tableItem(row.value(shown.at(c)).trimmed()));
        QString problem;
        try {
            m_target.check(row, map);
        } catch (const DomainError &e) {
            problem = ErrorText::text(e.text());
        } catch (const std::exception &e) {
            problem = ErrorText::of(e);
        }
        auto *problemItem = UiKit::tableItem(problem);
        if (!problem.isEmpty()) {
            ++bad;
            problemItem->setForeground(UiKit::color(UiKit::Tone::Danger));
            problemItem->setToolTip(problem);
        }
        m_preview->setItem(r, 1, problemItem);
    }
    m_preview->resizeColumnsToContents();
    // A long problem is cut (its whole text in the tooltip), so that the values stay in sight.
    m_preview->setColumnWidth(1, qMin(m_preview->columnWidth(1), fontMetrics().averageCharWidth() * 40));
    m_previewNote->setText(bad == 0 ? tr("The first %1 rows as they would be imported: no problem found.").arg(rows)
                                    : tr("The first %1 rows as they would be imported: %2 would be left out, "
                                         "each with its problem.")
                                          .arg(rows)
                                          .arg(bad));
}

void ImportDialog::updateActions()
{
    m_choose->setEnabled(!m_importing);
    m_encoding->setEnabled(!m_importing && !m_bytes.isEmpty());
    m_separator->setEnabled(!m_importing && !m_bytes.isEmpty());
    m_duplicates->setEnabled(!m_importing);
    m_columns->setEnabled(!m_importing);
    m_import->setEnabled(!m_importing && m_table && !m_table->rows.isEmpty());
    m_cancelButton->setVisible(m_importing);
    m_cancelButton->setEnabled(m_importing && !m_cancel.load());
    m_saveReport->setEnabled(!m_importing && m_report.has_value());
    m_close->setEnabled(!m_importing);
}

bool ImportDialog::startImport()
{
    if (m_importing || !m_table || m_table->rows.isEmpty())
        return false;
    m_importing = true;
    m_cancel.store(false);
    m_report.reset();
    m_progress->setRange(0, int(m_table->rows.size()));
    m_progress->setValue(0);
    m_status->setText(tr("Importing %1…").arg(QFileInfo(m_path).fileName()));
    updateActions();
    // Named here, in the window's thread: a sign-in could change the acting user while it writes.
    const QString actor = m_store.actorOr({});
    const auto duplicates = CsvImport::Duplicates(m_duplicates->currentData().toInt());
    m_worker.run([this, table = *m_table, map = mapping(), duplicates, actor,
                  store = Store(m_store.bus(), m_store.clock()), run = m_target.run] {
        CsvImport::Report report;
        QString error;
        try {
            report = run(store, table, map, duplicates, actor, [this](const CsvImport::Report &soFar) {
                const CsvImport::Report counts = [&] {
                    CsvImport::Report c = soFar;
                    c.results.clear(); // the counts only: the rows stay in the worker
                    return c;
                }();
                BackgroundWorker::post(this, [this, counts] { onProgress(counts); });
                return !m_cancel.load();
            });
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, report, error] { onDone(report, error); });
    });
    return true;
}

void ImportDialog::cancelImport()
{
    if (!m_importing)
        return;
    m_cancel.store(true);
    m_status->setText(tr("Stopping after the rows being written…"));
    updateActions();
}

void ImportDialog::onProgress(const CsvImport::Report &soFar)
{
    if (!m_importing)
        return;
    const QLocale locale;
    m_progress->setValue(soFar.done);
    if (!m_cancel.load())
        m_status->setText(tr("Importing: %1 of %2 rows (%3 new, %4 updated, %5 skipped, %6 with problems)…")
                              .arg(locale.toString(soFar.done), locale.toString(soFar.rows),
                                   locale.toString(soFar.created), locale.toString(soFar.updated),
                                   locale.toString(soFar.skipped), locale.toString(soFar.failed)));
}

void ImportDialog::onDone(const CsvImport::Report &report, const QString &error)
{
    m_importing = false;
    const QLocale locale;
    if (!error.isEmpty()) {
        m_status->setText(tr("%1 was not imported: %2").arg(QFileInfo(m_path).fileName(), error));
    } else {
        m_report = report;
        m_progress->setValue(report.done);
        const QString counts = tr("%1 new, %2 updated, %3 skipped, %4 with problems.")
                                   .arg(locale.toString(report.created), locale.toString(report.updated),
                                        locale.toString(report.skipped), locale.toString(report.failed));
        m_status->setText(report.cancelled
                              ? tr("Stopped at Cancel after %1 of %2 rows: %3 The rows written until then stay.")
                                    .arg(locale.toString(report.done), locale.toString(report.rows), counts)
                              : tr("Import finished: %1 Save the report to see each row's outcome.").arg(counts));
    }
    updateActions();
    emit importFinished();
}

void ImportDialog::chooseReportFile()
{
    if (!m_report)
        return;
    auto *dialog = new QFileDialog(this, tr("Save the import report"), QFileInfo(m_path).absolutePath());
    dialog->setObjectName(QStringLiteral("saveImportReportDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilter(tr("CSV files (*.csv)"));
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->selectFile(QFileInfo(m_path).completeBaseName() + tr("-report.csv"));
    connect(dialog, &QFileDialog::fileSelected, this, &ImportDialog::saveReport);
    dialog->open();
}

bool ImportDialog::saveReport(const QString &path)
{
    if (!m_report)
        return false;
    QSaveFile file(path);
    const QByteArray bytes = m_report->toCsv([](const ModelText &t) { return ErrorText::text(t); });
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) < 0 || !file.commit()) {
        m_status->setText(tr("%1 was not saved: %2").arg(QFileInfo(path).fileName(), file.errorString()));
        return false;
    }
    m_status->setText(tr("Report saved to %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

void ImportDialog::reject()
{
    if (m_importing) {
        // Closing asks first: the rows written stay, the rest of the file is not read.
        MessageBoxes::confirm(this, tr("Stop the import?"),
                              tr("The rows written until now stay; the rest of the file is not imported."),
                              tr("Stop the import"), [this] { cancelImport(); });
        return;
    }
    QDialog::reject();
}

void askCsvExportPath(QWidget *parent, const QString &title, const QString &fileName,
                      std::function<void(const QString &path)> save)
{
    QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!QFileInfo(folder).isDir())
        folder = QDir::homePath();
    auto *dialog = new QFileDialog(parent, title, folder);
    dialog->setObjectName(QStringLiteral("exportCsvDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilter(ImportDialog::tr("CSV files (*.csv)"));
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->selectFile(fileName);
    QObject::connect(dialog, &QFileDialog::fileSelected, parent, std::move(save));
    dialog->open();
}

QString writeCsvFile(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) < 0 || !file.commit())
        return file.errorString();
    return {};
}
