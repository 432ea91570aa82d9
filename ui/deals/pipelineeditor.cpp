#include "ui/deals/pipelineeditor.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/deals/pipelinerepository.h"
#include "ui/deals/dealdialogs.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
QString refusal(const DomainError &e)
{
    // The refusal of stages that hold deals names each stage with its problem ("proposal": "holds 2 deal(s)").
    const FieldProblems &problems = e.problems();
    if (problems.isEmpty())
        return ErrorText::of(e);
    QStringList parts;
    for (auto it = problems.cbegin(); it != problems.cend(); ++it)
        parts << QCoreApplication::translate("FieldErrors", "%1: %2")
                     .arg(ErrorText::fieldLabel(it.key()), ErrorText::text(it.value()));
    return ErrorText::of(e) + QStringLiteral(" (") + parts.join(QStringLiteral("; ")) + QLatin1Char(')');
}
// A built-in name is shown translated: left as shown, it is saved as it is stored ("Lead" stays
// "Lead" for the API and other languages); edited, the user's text is saved.
QString nameToSave(const QString &typed, const QString &shown, const QString &stored)
{
    const QString text = typed.trimmed();
    return text == shown ? stored : text;
}
} // namespace

PipelineEditorDialog::PipelineEditorDialog(PipelineRepository &pipelines, const QString &pipelineId, QWidget *parent)
    : QDialog(parent)
    , m_pipelines(pipelines)
{
    setObjectName(QStringLiteral("pipelineEditor"));
    setWindowTitle(tr("Edit pipelines"));
    resize(720, 460);

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("pipelineList"));
    m_newName = new QLineEdit(this);
    m_newName->setObjectName(QStringLiteral("newPipelineEdit"));
    m_newName->setPlaceholderText(tr("New pipeline name"));
    // Wide enough for its hint in every language ("Yeni satış hattının adı", "Name der neuen Pipeline").
    m_newName->setMinimumWidth(m_newName->fontMetrics().horizontalAdvance(m_newName->placeholderText()) +
                               2 * UiKit::Space::M);
    m_addPipeline = new QPushButton(tr("Add"), this);
    m_addPipeline->setObjectName(QStringLiteral("addPipelineButton"));
    m_deletePipeline = new QPushButton(tr("Delete pipeline…"), this);
    m_deletePipeline->setObjectName(QStringLiteral("deletePipelineButton"));
    auto *left = new QVBoxLayout;
    left->addWidget(m_list, 1);
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_newName, 1);
    addRow->addWidget(m_addPipeline);
    left->addLayout(addRow);
    left->addWidget(m_deletePipeline);

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("pipelineNameEdit"));
    m_name->setMaxLength(100);
    m_default = new QCheckBox(tr("Default pipeline (new deals go here)"), this);
    m_default->setObjectName(QStringLiteral("defaultCheck"));
    m_stages = new QTableWidget(0, ColumnCount, this);
    m_stages->setObjectName(QStringLiteral("stagesTable"));
    m_stages->setHorizontalHeaderLabels({tr("Stage"), tr("Probability %"), tr("Rotten after (days)")});
    m_stages->horizontalHeaderItem(RottenColumn)
        ->setToolTip(tr("A deal that stays this many days in the stage is flagged on its card; 0: never."));
    m_stages->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_stages->horizontalHeader()->setSectionResizeMode(ProbabilityColumn, QHeaderView::ResizeToContents);
    m_stages->horizontalHeader()->setSectionResizeMode(RottenColumn, QHeaderView::ResizeToContents);
    m_stages->verticalHeader()->hide();
    m_stages->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_stages->setSelectionMode(QAbstractItemView::SingleSelection);
    m_addStage = new QPushButton(tr("Add stage"), this);
    m_addStage->setObjectName(QStringLiteral("addStageButton"));
    m_removeStage = new QPushButton(tr("Remove stage"), this);
    m_removeStage->setObjectName(QStringLiteral("removeStageButton"));
    m_up = new QPushButton(tr("Move up"), this);
    m_up->setObjectName(QStringLiteral("moveUpButton"));
    m_down = new QPushButton(tr("Move down"), this);
    m_down->setObjectName(QStringLiteral("moveDownButton"));
    m_save = new QPushButton(tr("Save"), this);
    m_save->setObjectName(QStringLiteral("savePipelineButton"));
    m_error = UiKit::errorLabel(this);

    auto *right = new QVBoxLayout;
    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), m_name);
    form->addRow(QString(), m_default);
    right->addLayout(form);
    right->addWidget(m_stages, 1);
    auto *stageButtons = new QHBoxLayout;
    for (QPushButton *b : {m_addStage, m_removeStage, m_up, m_down})
        stageButtons->addWidget(b);
    stageButtons->addStretch(1);
    stageButtons->addWidget(m_save);
    right->addLayout(stageButtons);
    right->addWidget(m_error);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 3);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(close);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            showPipeline(m_list->item(row)->data(Qt::UserRole).toString());
    });
    connect(m_addPipeline, &QPushButton::clicked, this, &PipelineEditorDialog::addPipeline);
    connect(m_newName, &QLineEdit::returnPressed, this, &PipelineEditorDialog::addPipeline);
    connect(m_deletePipeline, &QPushButton::clicked, this, &PipelineEditorDialog::deletePipeline);
    connect(m_addStage, &QPushButton::clicked, this, &PipelineEditorDialog::addStage);
    connect(m_removeStage, &QPushButton::clicked, this, &PipelineEditorDialog::removeStage);
    connect(m_up, &QPushButton::clicked, this, [this] { moveStage(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { moveStage(1); });
    connect(m_save, &QPushButton::clicked, this, &PipelineEditorDialog::save);
    connect(m_stages, &QTableWidget::itemSelectionChanged, this, &PipelineEditorDialog::updateButtons);

    m_current = pipelineId;
    reloadList();
}

void PipelineEditorDialog::reloadList()
{
    QVector<Pipeline> all;
    try {
        all = m_pipelines.list();
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
    const QSignalBlocker block(m_list);
    m_list->clear();
    int select = 0;
    for (int i = 0; i < all.size(); ++i) {
        const Pipeline &p = all.at(i);
        const QString name = DealText::pipelineName(p);
        auto *item = new QListWidgetItem(p.isDefault ? tr("%1 (default)").arg(name) : name, m_list);
        item->setData(Qt::UserRole, p.id);
        if (p.id == m_current)
            select = i;
    }
    if (!all.isEmpty()) {
        m_list->setCurrentRow(select);
        showPipeline(all.at(select).id);
    }
}

void PipelineEditorDialog::showPipeline(const QString &id)
{
    const std::optional<Pipeline> p = m_pipelines.find(id);
    if (!p)
        return;
    m_current = id;
    m_error->hide();
    // Built-in names show in the window's language (nameToSave).
    m_storedName = p->name;
    m_shownName = DealText::pipelineName(*p);
    m_name->setText(m_shownName);
    m_default->setChecked(p->isDefault);
    // The default cannot be unset directly: another pipeline is made the default instead.
    m_default->setEnabled(!p->isDefault);
    m_stages->setRowCount(0);
    for (const PipelineStage &s : p->stages)
        appendRow(s);
    updateButtons();
}

void PipelineEditorDialog::appendRow(const PipelineStage &stage)
{
    const int row = m_stages->rowCount();
    m_stages->insertRow(row);
    auto *name = new QTableWidgetItem(DealText::stageName(stage));
    name->setData(KeyRole, stage.key);
    name->setData(StoredNameRole, stage.name);
    name->setData(ShownNameRole, name->text());
    name->setData(KindRole, stage.kind);
    m_stages->setItem(row, NameColumn, name);
    auto *probability = new QTableWidgetItem;
    probability->setData(Qt::EditRole, stage.probability);
    auto *rotten = new QTableWidgetItem;
    rotten->setData(Qt::EditRole, stage.rottenDays);
    if (stage.kind == QLatin1String("won") || stage.kind == QLatin1String("lost")) {
        // Closing stages: probability fixed at 100 / 0, they never rot.
        probability->setFlags(probability->flags() & ~Qt::ItemIsEditable);
        rotten->setFlags(rotten->flags() & ~Qt::ItemIsEditable);
        name->setToolTip(tr("A closing stage: it stays last and cannot be removed."));
    }
    m_stages->setItem(row, ProbabilityColumn, probability);
    m_stages->setItem(row, RottenColumn, rotten);
}

void PipelineEditorDialog::updateButtons()
{
    const int row = m_stages->currentRow();
    const QTableWidgetItem *item = row >= 0 ? m_stages->item(row, NameColumn) : nullptr;
    const bool open = item && item->data(KindRole).toString() == QLatin1String("open");
    const auto openAt = [this](int r) {
        const QTableWidgetItem *i = m_stages->item(r, NameColumn);
        return i && i->data(KindRole).toString() == QLatin1String("open");
    };
    m_removeStage->setEnabled(open);
    m_up->setEnabled(open && row > 0 && openAt(row - 1));
    m_down->setEnabled(open && openAt(row + 1));
    m_deletePipeline->setEnabled(!m_current.isEmpty());
}

void PipelineEditorDialog::addStage()
{
    // New stages go after the last open stage, before Won and Lost.
    int row = 0;
    while (row < m_stages->rowCount() &&
           m_stages->item(row, NameColumn)->data(KindRole).toString() == QLatin1String("open"))
        ++row;
    m_stages->insertRow(row);
    auto *name = new QTableWidgetItem(tr("New stage"));
    name->setData(KindRole, QStringLiteral("open"));
    m_stages->setItem(row, NameColumn, name);
    auto *probability = new QTableWidgetItem;
    probability->setData(Qt::EditRole, 50);
    m_stages->setItem(row, ProbabilityColumn, probability);
    auto *rotten = new QTableWidgetItem;
    rotten->setData(Qt::EditRole, 0);
    m_stages->setItem(row, RottenColumn, rotten);
    m_stages->setCurrentCell(row, NameColumn);
    m_stages->editItem(name);
    updateButtons();
}

void PipelineEditorDialog::removeStage()
{
    const int row = m_stages->currentRow();
    if (row < 0 || m_stages->item(row, NameColumn)->data(KindRole).toString() != QLatin1String("open"))
        return;
    // Removed from the list only; Save applies it (and the model refuses a stage holding deals).
    m_stages->removeRow(row);
    updateButtons();
}

void PipelineEditorDialog::moveStage(int delta)
{
    const int row = m_stages->currentRow();
    const int target = row + delta;
    if (row < 0 || target < 0 || target >= m_stages->rowCount())
        return;
    for (int r : {row, target}) {
        if (m_stages->item(r, NameColumn)->data(KindRole).toString() != QLatin1String("open"))
            return;
    }
    for (int c = 0; c < ColumnCount; ++c) {
        QTableWidgetItem *a = m_stages->takeItem(row, c);
        QTableWidgetItem *b = m_stages->takeItem(target, c);
        m_stages->setItem(row, c, b);
        m_stages->setItem(target, c, a);
    }
    m_stages->setCurrentCell(target, NameColumn);
    updateButtons();
}

PipelineChanges PipelineEditorDialog::changes() const
{
    QVector<PipelineStageChange> stages;
    for (int r = 0; r < m_stages->rowCount(); ++r) {
        const QTableWidgetItem *name = m_stages->item(r, NameColumn);
        PipelineStageChange s;
        s.name = nameToSave(name->text(), name->data(ShownNameRole).toString(), name->data(StoredNameRole).toString());
        s.key = name->data(KeyRole).toString();
        if (name->data(KindRole).toString() == QLatin1String("open")) {
            s.probability = m_stages->item(r, ProbabilityColumn)->data(Qt::EditRole).toInt();
            s.rottenDays = m_stages->item(r, RottenColumn)->data(Qt::EditRole).toInt();
        }
        stages.append(s);
    }
    PipelineChanges ch;
    ch.name = nameToSave(m_name->text(), m_shownName, m_storedName);
    ch.stages = stages;
    if (m_default->isEnabled() && m_default->isChecked())
        ch.isDefault = true;
    return ch;
}

bool PipelineEditorDialog::save()
{
    if (m_current.isEmpty())
        return false;
    try {
        m_pipelines.update(m_current, changes());
    } catch (const DomainError &e) {
        setError(refusal(e));
        return false;
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
        return false;
    }
    emit pipelineSaved(m_current);
    reloadList();
    return true;
}

void PipelineEditorDialog::addPipeline()
{
    const QString name = m_newName->text().trimmed();
    if (name.isEmpty()) {
        setError(tr("Write the new pipeline's name first."));
        return;
    }
    // A new pipeline starts with three open stages; Won and Lost are added by the model.
    PipelineChanges fresh;
    fresh.name = name;
    fresh.stages = QVector<PipelineStageChange>{{QStringLiteral("lead"), tr("Lead"), 10, std::nullopt},
                                                {QStringLiteral("proposal"), tr("Proposal"), 50, std::nullopt},
                                                {QStringLiteral("negotiation"), tr("Negotiation"), 80, std::nullopt}};
    try {
        const Pipeline p = m_pipelines.create(fresh);
        m_newName->clear();
        m_current = p.id;
        emit pipelineSaved(p.id);
        reloadList();
    } catch (const DomainError &e) {
        setError(refusal(e));
    } catch (const std::exception &e) {
        setError(ErrorText::of(e));
    }
}

void PipelineEditorDialog::deletePipeline()
{
    const std::optional<Pipeline> p = m_pipelines.find(m_current);
    if (!p)
        return;
    const QString id = p->id;
    MessageBoxes::confirm(this, tr("Delete pipeline"), tr("Delete the pipeline “%1”?").arg(p->name), tr("Delete"),
                          [this, id] {
                              try {
                                  m_pipelines.remove(id);
                                  m_current.clear();
                                  emit pipelineSaved(id);
                                  reloadList();
                              } catch (const DomainError &e) {
                                  setError(refusal(e));
                              } catch (const std::exception &e) {
                                  setError(ErrorText::of(e));
                              }
                          });
}

void PipelineEditorDialog::setError(const QString &text)
{
    m_error->setText(text);
    m_error->show();
}
