#include "ui/assistant/assistantstatspanel.h"

#include "model/assistant/knowledgeindex.h"
#include "model/assistant/knowledgesuggestions.h"
#include "ui/assistant/assistanttext.h"
#include "ui/shell/charttheme.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QShortcut>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace {
// A caption over a table, its buddy (the name a screen reader gives the table's label).
QLabel *tableCaption(const QString &text, QWidget *buddy, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    UiKit::setType(label, UiKit::Type::Emphasis);
    label->setBuddy(buddy);
    return label;
}

// A round top for the counts' axis and its step: 1, 2 or 5 times a power of ten, four steps or so.
std::pair<int, int> niceAxis(int max)
{
    const double raw = qMax(1, max) / 4.0;
    const double power = std::pow(10.0, std::floor(std::log10(qMax(1.0, raw))));
    int step = int(power);
    for (int factor : {1, 2, 5, 10}) {
        step = int(factor * power);
        if (step >= raw)
            break;
    }
    step = qMax(1, step);
    return {step * int(std::ceil(double(qMax(1, max)) / step)), step};
}
} // namespace

AssistantStatsPanel::AssistantStatsPanel(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_index(std::move(index))
{
    setObjectName(QStringLiteral("assistantStatsPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, UiKit::Space::S);
    layout->setSpacing(UiKit::Space::M);

    auto *top = new QHBoxLayout;
    m_period = new QComboBox(this);
    m_period->setObjectName(QStringLiteral("statsPeriod"));
    for (int days : {7, 30, 90})
        m_period->addItem(tr("Last %n day(s)", nullptr, days), days);
    m_period->setCurrentIndex(1);
    auto *periodLabel = new QLabel(tr("&Period:"), this);
    periodLabel->setBuddy(m_period);
    m_period->setAccessibleName(tr("Period"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statsStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    UiKit::setTone(m_status, UiKit::Tone::Muted);
    top->addWidget(periodLabel);
    top->addWidget(m_period);
    top->addSpacing(UiKit::Space::M);
    top->addWidget(m_status, 1);
    layout->addLayout(top);

    // The figures, each on a card: its name, its value, a line under it.
    auto *cards = new QHBoxLayout;
    cards->setSpacing(UiKit::Space::S);
    const struct
    {
        const char *key;
        const char *name;
        const char *tip;
    } figures[] = {
        {"total", QT_TR_NOOP("Questions"), QT_TR_NOOP("Questions the assistant was asked in the period")},
        {"answered", QT_TR_NOOP("Answered"), QT_TR_NOOP("Answered from the knowledge base, without a person")},
        {"handedOff", QT_TR_NOOP("Handed off"), QT_TR_NOOP("Handed to a person: why, in the table of reasons")},
        {"confidence", QT_TR_NOOP("Average confidence"),
         QT_TR_NOOP("How well the best entry covered the question, on average over every question")},
        {"feedback", QT_TR_NOOP("Feedback"), QT_TR_NOOP("Ratings of the answers, and the share that were positive")},
        {"openSuggestions", QT_TR_NOOP("Open suggestions"),
         QT_TR_NOOP("Groups of questions nobody answered yet, whatever the period: the Suggestions tab lists them")},
    };
    for (const auto &f : figures) {
        const QString key = QLatin1String(f.key);
        auto *card = new QFrame(this);
        card->setObjectName(QStringLiteral("card_") + key);
        card->setFrameShape(QFrame::StyledPanel);
        card->setBackgroundRole(QPalette::Base);
        card->setAutoFillBackground(true);
        card->setToolTip(tr(f.tip));
        auto *cardLayout = new QVBoxLayout(card);
        cardLayout->setContentsMargins(UiKit::Space::M, UiKit::Space::S, UiKit::Space::M, UiKit::Space::S);
        cardLayout->setSpacing(0);
        auto *name = new QLabel(tr(f.name), card);
        UiKit::setType(name, UiKit::Type::Caption);
        UiKit::setTone(name, UiKit::Tone::Muted);
        auto *value = new QLabel(QStringLiteral("…"), card);
        value->setObjectName(QStringLiteral("figure_") + key);
        value->setAccessibleName(tr(f.name));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        UiKit::setType(value, UiKit::Type::Heading);
        auto *note = new QLabel(card);
        note->setObjectName(QStringLiteral("figureNote_") + key);
        note->setTextFormat(Qt::PlainText);
        UiKit::setType(note, UiKit::Type::Caption);
        UiKit::setTone(note, UiKit::Tone::Muted);
        cardLayout->addWidget(name);
        cardLayout->addWidget(value);
        cardLayout->addWidget(note);
        cards->addWidget(card, 1);
        m_figures.insert(key, value);
        m_notes.insert(key, note);
    }
    layout->addLayout(cards);

    m_daily = new QChartView(this);
    m_daily->setObjectName(QStringLiteral("statsDailyChart"));
    m_daily->setAccessibleName(tr("Questions per day"));
    m_daily->setRenderHint(QPainter::Antialiasing);
    m_daily->setMinimumSize(300, 180);

    m_reasons =
        UiKit::recordTable(3, {tr("Reason"), tr("Questions"), tr("Share")}, QStringLiteral("statsReasons"), this);
    m_reasons->setAccessibleName(tr("Why questions went to a person"));
    m_reasons->setWordWrap(false);
    m_reasons->setSelectionMode(QAbstractItemView::NoSelection);
    m_reasons->horizontalHeader()->setStretchLastSection(false);
    m_reasons->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_reasons->setMinimumHeight(120);
    installEmptyHint(m_reasons, tr("No question went to a person in this period."));

    m_top = entriesTable(QStringLiteral("statsTopEntries"), {tr("Entry"), tr("Answers")}, tr("Most used entries"));
    installEmptyHint(m_top, tr("No question was answered in this period."));
    m_worst = entriesTable(QStringLiteral("statsWorstEntries"),
                           {tr("Entry"), tr("Negative"), tr("Positive"), tr("Negative share")},
                           tr("Entries with the worst feedback"));
    installEmptyHint(m_worst, tr("No answer got negative feedback in this period."));
    {
        const QFontMetrics fm(m_top->font());
        const int number =
            qMax(fm.horizontalAdvance(QLocale().toString(10000)), fm.horizontalAdvance(AssistantText::percent(1.0))) +
            3 * UiKit::Space::S;
        for (QTableWidget *table : {m_reasons, m_top, m_worst}) {
            QHeaderView *header = table->horizontalHeader();
            for (int column = 1; column < table->columnCount(); ++column)
                header->resizeSection(column, qMax(number, header->sectionSizeHint(column)));
        }
    }

    // The chart beside the reasons, the entries under them; each half takes the height it gets.
    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(UiKit::Space::M);
    grid->setVerticalSpacing(UiKit::Space::XS);
    grid->addWidget(m_daily, 0, 0, 2, 1);
    grid->addWidget(tableCaption(tr("Why questions went to a person"), m_reasons, this), 0, 1);
    grid->addWidget(m_reasons, 1, 1);
    grid->addWidget(tableCaption(tr("Most used entries"), m_top, this), 2, 0);
    grid->addWidget(tableCaption(tr("Entries with the worst feedback"), m_worst, this), 2, 1);
    grid->addWidget(m_top, 3, 0);
    grid->addWidget(m_worst, 3, 1);
    // Halves: the worst entries' three numbers leave their questions room.
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(1, 3);
    grid->setRowStretch(3, 2);
    layout->addLayout(grid, 1);

    connect(&store.bus(), &EventBus::changed, this, &AssistantStatsPanel::onBusChanged);
    connect(m_period, &QComboBox::currentIndexChanged, this, &AssistantStatsPanel::refresh);
    drawDaily(AiStats());
}

AssistantStatsPanel::~AssistantStatsPanel() = default;

QTableWidget *AssistantStatsPanel::entriesTable(const QString &name, const QStringList &headers,
                                                const QString &accessibleName)
{
    QTableWidget *table = UiKit::recordTable(int(headers.size()), headers, name, this);
    table->setAccessibleName(accessibleName);
    table->setAlternatingRowColors(true);
    table->setMinimumHeight(110);
    table->horizontalHeader()->setStretchLastSection(false);
    table->horizontalHeader()->setSectionResizeMode(EntryQuestionColumn, QHeaderView::Stretch);
    UiKit::oneLineRows(table);
    table->setToolTip(tr("Double-click an entry, or press Enter, to open it"));
    connect(table, &QTableWidget::doubleClicked, this, [this, table] { openEntryOf(table); });
    for (const QKeySequence &key : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, table);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, [this, table] { openEntryOf(table); });
    }
    return table;
}

void AssistantStatsPanel::openEntryOf(QTableWidget *table)
{
    const QString id = UiKit::selectedId(table);
    if (id.isEmpty())
        return;
    if (table->item(table->currentRow(), EntryQuestionColumn)->data(Qt::UserRole).toBool()) {
        m_status->setText(tr("That entry was deleted since."));
        return;
    }
    emit entryRequested(id);
}

void AssistantStatsPanel::setTimeZone(const QTimeZone &tz)
{
    if (!tz.isValid() || tz == m_tz)
        return;
    m_tz = tz;
    m_live.markStale();
}

int AssistantStatsPanel::days() const
{
    return qMax(1, m_period->currentData().toInt());
}

void AssistantStatsPanel::onBusChanged(EventBus::Entity entity, const QString &, EventBus::Change)
{
    // A question recorded, feedback given, an entry's question changed: the figures follow, at most
    // every RefreshDelayMs (a busy inbox records many).
    if (entity == EventBus::Entity::AiAnswer || entity == EventBus::Entity::Knowledge)
        m_live.news();
}

void AssistantStatsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_live.showing();
}

void AssistantStatsPanel::refresh()
{
    m_live.read();
}

void AssistantStatsPanel::startRead()
{
    m_status->setText(tr("Reading the figures…"));
    // The last `days` days, today included, in the tasks' time zone; to now (a question recorded
    // in this millisecond counted too).
    const QDateTime to = m_store.now().addMSecs(1);
    const QDateTime from = to.toTimeZone(m_tz).date().addDays(1 - days()).startOfDay(m_tz).toUTC();
    m_worker.run([this, from, to, tz = m_tz, store = Store(m_store.bus(), m_store.clock()), index = m_index,
                  thresholds = m_thresholds] {
        AiStats stats;
        QString error;
        try {
            stats = AiAnswerRepository(store).stats(from, to, tz);
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, stats, error] { showStats(stats, error); });
        // The open suggestions need every open question grouped: shown when they come.
        int count = 0;
        error.clear();
        try {
            count = KnowledgeSuggestions(store, *index, thresholds).count();
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, count, error] { showOpenSuggestions(count, error); });
    });
}

void AssistantStatsPanel::showStats(const AiStats &s, const QString &error)
{
    const QLocale locale;
    if (!error.isEmpty()) {
        m_status->setText(tr("The figures could not be read: %1").arg(error));
        UiKit::setTone(m_status, UiKit::Tone::Danger);
        return;
    }
    UiKit::setTone(m_status, UiKit::Tone::Muted);
    m_status->setText(tr("%1 to %2, in %3")
                          .arg(locale.toString(s.from.toTimeZone(m_tz).date(), QLocale::ShortFormat),
                               locale.toString(s.to.addMSecs(-1).toTimeZone(m_tz).date(), QLocale::ShortFormat),
                               QString::fromUtf8(m_tz.id())));
    m_stats = s;
    auto set = [this](const QString &key, const QString &value, const QString &note) {
        m_figures.value(key)->setText(value);
        m_notes.value(key)->setText(note);
        m_figures.value(key)->setAccessibleDescription(note);
    };
    set(QStringLiteral("total"), locale.toString(s.total), tr("in the last %n day(s)", nullptr, days()));
    set(QStringLiteral("answered"), locale.toString(s.answered), tr("rate: %1").arg(AssistantText::rate(s.answerRate)));
    set(QStringLiteral("handedOff"), locale.toString(s.handedOff),
        tr("rate: %1").arg(AssistantText::rate(s.handoffRate)));
    set(QStringLiteral("confidence"),
        s.averageConfidence ? AssistantText::percent(*s.averageConfidence) : QStringLiteral("–"),
        s.averageConfidence ? tr("over every question") : tr("no questions yet"));
    set(QStringLiteral("feedback"), locale.toString(s.feedback.total),
        s.feedback.total > 0 ? tr("positive: %1").arg(AssistantText::percent(s.feedback.positiveRatio))
                             : tr("none yet"));

    m_reasons->setRowCount(0);
    m_reasons->setRowCount(int(s.handoffReasons.size()));
    QVector<std::pair<QString, int>> reasons;
    for (auto it = s.handoffReasons.cbegin(); it != s.handoffReasons.cend(); ++it)
        reasons.append({it.key(), it.value()});
    std::stable_sort(reasons.begin(), reasons.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    for (int row = 0; row < reasons.size(); ++row) {
        const auto &[reason, count] = reasons.at(row);
        m_reasons->setItem(row, 0, UiKit::tableItem(AssistantText::handoffReason(reason), reason));
        auto *n = UiKit::tableItem(locale.toString(count));
        n->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_reasons->setItem(row, 1, n);
        auto *share = UiKit::tableItem(AssistantText::percent(s.handedOff > 0 ? double(count) / s.handedOff : 0));
        share->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_reasons->setItem(row, 2, share);
    }

    auto questionItem = [](const QString &question, const QString &id) {
        QTableWidgetItem *item = UiKit::tableItem(
            question.isEmpty() ? tr("(deleted entry)") : QString(question).replace(QLatin1Char('\n'), QLatin1Char(' ')),
            id);
        item->setData(Qt::UserRole, question.isEmpty()); // deleted: nothing to open
        return item;
    };
    auto number = [&locale](int n) {
        QTableWidgetItem *item = UiKit::tableItem(locale.toString(n));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    m_top->setRowCount(0);
    m_top->setRowCount(int(s.topEntries.size()));
    for (int row = 0; row < s.topEntries.size(); ++row) {
        const AiStats::EntryUse &e = s.topEntries.at(row);
        m_top->setItem(row, EntryQuestionColumn, questionItem(e.question, e.entryId));
        m_top->setItem(row, EntryCountColumn, number(e.count));
    }
    m_worst->setRowCount(0);
    m_worst->setRowCount(int(s.worstEntries.size()));
    for (int row = 0; row < s.worstEntries.size(); ++row) {
        const AiStats::EntryFeedback &e = s.worstEntries.at(row);
        m_worst->setItem(row, EntryQuestionColumn, questionItem(e.question, e.entryId));
        m_worst->setItem(row, EntryCountColumn, number(e.negative));
        m_worst->setItem(row, EntryPositiveColumn, number(e.positive));
        auto *share = UiKit::tableItem(AssistantText::percent(e.negativeRatio));
        share->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_worst->setItem(row, EntryShareColumn, share);
    }
    drawDaily(s);
}

void AssistantStatsPanel::showOpenSuggestions(int count, const QString &error)
{
    m_live.finish();
    if (m_stats)
        m_stats->openSuggestions = count;
    m_figures.value(QStringLiteral("openSuggestions"))
        ->setText(error.isEmpty() ? QLocale().toString(count) : QStringLiteral("–"));
    m_notes.value(QStringLiteral("openSuggestions"))->setText(error.isEmpty() ? tr("waiting for an answer") : error);
    if (m_live.again()) {
        m_live.read();
        return;
    }
    emit shown();
}

void AssistantStatsPanel::drawDaily(const AiStats &s)
{
    const QLocale locale;
    m_bars.clear();
    auto *chart = new QChart;
    chart->setTitle(tr("Questions per day"));
    // Room on the right for half of today's name, which sits under the last bar.
    const QString today = s.daily.isEmpty() ? QString() : locale.toString(s.daily.last().date, QStringLiteral("d MMM"));
    chart->setMargins(
        QMargins(4, 2, 4 + QFontMetrics(UiKit::font(UiKit::Type::Caption)).horizontalAdvance(today) / 2, 2));
    auto *series = new QStackedBarSeries(chart);
    auto *answered = new QBarSet(tr("Answered"), series);
    auto *handedOff = new QBarSet(tr("Handed off"), series);
    int max = 0;
    for (const AiStats::Day &d : s.daily) {
        *answered << d.answered;
        *handedOff << d.handedOff;
        m_bars.append({d.answered, d.handedOff});
        max = qMax(max, d.answered + d.handedOff);
    }
    series->append(answered);
    series->append(handedOff);
    series->setBarWidth(0.8);
    chart->addSeries(series);
    // The days under their bars, a few of them named (today's always): a category axis of 90 names
    // has no room for them.
    auto *x = new QCategoryAxis(chart);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const int n = int(s.daily.size());
    x->setRange(-0.5, qMax(0.5, n - 0.5));
    x->setStartValue(-0.5);
    const int every = qMax(1, int(std::ceil(n / 7.0)));
    for (int i = 0; i < n; ++i) {
        if ((n - 1 - i) % every == 0)
            x->append(locale.toString(s.daily.at(i).date, QStringLiteral("d MMM")), i);
    }
    x->setGridLineVisible(false);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis(chart);
    const auto [topValue, step] = niceAxis(max);
    y->setRange(0, topValue);
    y->setTickCount(topValue / step + 1);
    y->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    ChartTheme::applyToBars(chart, answered, x, y);
    for (auto [set, tone] : {std::pair{answered, UiKit::Tone::Success}, std::pair{handedOff, UiKit::Tone::Warning}}) {
        set->setColor(UiKit::color(tone));
        set->setBorderColor(UiKit::color(tone));
    }
    const QPalette pal = UiKit::palette(UiKit::scheme());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setLabelColor(pal.color(QPalette::Text));
    chart->legend()->setFont(UiKit::font(UiKit::Type::Caption));
    m_daily->setBackgroundBrush(pal.color(QPalette::Window));
    QChart *old = m_daily->chart();
    m_daily->setChart(chart);
    delete old;
}
