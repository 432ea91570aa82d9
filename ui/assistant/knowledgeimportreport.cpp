#include "ui/assistant/knowledgeimportreport.h"

#include "model/core/csv.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace {
QString problemText(const KnowledgeImportReport::Problem &p)
{
    return p.text.isNull() ? p.message : ErrorText::text(p.text);
}

// A row the same as the entry it names changes nothing: it is no problem to fix in the file.
bool isUnchanged(const KnowledgeImportReport::Problem &p)
{
    return p.code == QLatin1String("UNCHANGED");
}
} // namespace

KnowledgeImportReportDialog::KnowledgeImportReportDialog(const KnowledgeImportReport &report, const QString &path,
                                                         QWidget *parent)
    : QDialog(parent)
    , m_report(report)
    , m_path(path)
{
    const int unchanged = int(std::count_if(report.problems.cbegin(), report.problems.cend(), isUnchanged));
    m_report.problems.removeIf(isUnchanged);
    setObjectName(QStringLiteral("knowledgeImportReport"));
    setWindowTitle(tr("Import of %1").arg(QFileInfo(path).fileName()));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::L, UiKit::Space::L, UiKit::Space::L, UiKit::Space::M);
    layout->setSpacing(UiKit::Space::S);

    const QLocale locale;
    QStringList lines;
    if (report.cancelled)
        lines << tr("Stopped at Cancel: the rows read until then are saved, the rest of the file is not.");
    lines << tr("New entries: %1 · changed: %2 · unchanged: %3 · left out: %4 (of %5 rows read)")
                 .arg(locale.toString(report.created), locale.toString(report.updated), locale.toString(unchanged),
                      locale.toString(report.skipped - unchanged),
                      locale.toString(report.created + report.updated + report.skipped));
    m_summary = new QLabel(lines.join(QLatin1Char('\n')), this);
    m_summary->setObjectName(QStringLiteral("importSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    UiKit::setType(m_summary, UiKit::Type::Title);
    layout->addWidget(m_summary);

    m_problems = UiKit::recordTable(ColumnCount, {tr("Line"), tr("Field"), tr("Problem")},
                                    QStringLiteral("importProblems"), this);
    m_problems->setAccessibleName(tr("Rows left out"));
    m_problems->setAlternatingRowColors(true);
    m_problems->setRowCount(int(m_report.problems.size()));
    for (int row = 0; row < m_report.problems.size(); ++row) {
        const KnowledgeImportReport::Problem &p = m_report.problems.at(row);
        auto *line = UiKit::tableItem(locale.toString(p.line));
        line->setData(Qt::UserRole, p.line);
        line->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_problems->setItem(row, LineColumn, line);
        m_problems->setItem(row, FieldColumn,
                            UiKit::tableItem(p.field.isEmpty() ? QString() : ErrorText::fieldLabel(p.field)));
        m_problems->setItem(row, ProblemColumn, UiKit::tableItem(problemText(p)));
    }
    m_problems->resizeColumnToContents(LineColumn);
    m_problems->horizontalHeader()->resizeSection(
        FieldColumn,
        qMax(m_problems->horizontalHeader()->sectionSizeHint(FieldColumn),
             m_problems->fontMetrics().horizontalAdvance(ErrorText::fieldLabel(QStringLiteral("question"))) +
                 3 * UiKit::Space::S));
    layout->addWidget(m_problems, 1);
    m_problems->setVisible(!m_report.problems.isEmpty());
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("importReportStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->hide();
    layout->addWidget(m_status);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setText(tr("Close"));
    m_save = buttons->addButton(tr("Save as CSV…"), QDialogButtonBox::ActionRole);
    m_save->setObjectName(QStringLiteral("saveImportReportButton"));
    m_save->setToolTip(tr("Save the rows left out, with their lines and problems, to fix the file"));
    m_save->setVisible(!m_report.problems.isEmpty());
    connect(m_save, &QPushButton::clicked, this, &KnowledgeImportReportDialog::chooseFile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    if (m_report.problems.isEmpty())
        setMinimumWidth(480);
    else
        resize(720, 480);
}

QByteArray KnowledgeImportReportDialog::reportCsv() const
{
    QString out =
        Csv::line({QStringLiteral("line"), QStringLiteral("field"), QStringLiteral("code"), QStringLiteral("problem")});
    for (const KnowledgeImportReport::Problem &p : m_report.problems)
        out += Csv::line({QString::number(p.line), p.field, p.code, problemText(p)});
    return QByteArray("\xEF\xBB\xBF") + out.toUtf8();
}

void KnowledgeImportReportDialog::chooseFile()
{
    auto *dialog = new QFileDialog(this, tr("Save the import report"));
    dialog->setObjectName(QStringLiteral("saveImportReportDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilter(tr("CSV files (*.csv)"));
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    const QFileInfo imported(m_path);
    dialog->setDirectory(imported.absolutePath());
    dialog->selectFile(imported.dir().filePath(tr("%1-report.csv").arg(imported.completeBaseName())));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &KnowledgeImportReportDialog::saveTo);
    dialog->open();
}

bool KnowledgeImportReportDialog::saveTo(const QString &path)
{
    QSaveFile file(path);
    const bool saved = file.open(QIODevice::WriteOnly) && file.write(reportCsv()) >= 0 && file.commit();
    UiKit::setTone(m_status, saved ? UiKit::Tone::Normal : UiKit::Tone::Danger);
    m_status->setText(saved ? tr("Saved to %1.").arg(QDir::toNativeSeparators(path))
                            : tr("Could not save %1: %2").arg(QFileInfo(path).fileName(), file.errorString()));
    m_status->show();
    return saved;
}
