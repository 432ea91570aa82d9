#include "ui/home/homeview.h"

#include "ui/deals/dealdialogs.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/charttheme.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QAbstractButton>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QPainter>
#include <QScrollArea>
#include <QSet>
#include <QStackedBarSeries>
#include <QStyleOptionFocusRect>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace {
// A figure of Home as a button: a frame of the base colour holding its name, value and note; hover
// and focus mark its border; a click (or Space) opens what it counts.
class HomeFigureButton : public QAbstractButton
{
public:
    explicit HomeFigureButton(QWidget *parent)
        : QAbstractButton(parent)
    {
        setCursor(Qt::PointingHandCursor);
        setFocusPolicy(Qt::StrongFocus);
        setAttribute(Qt::WA_Hover);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    }
    QSize sizeHint() const override { return layout() ? layout()->sizeHint() : QSize(120, 60); }
    QSize minimumSizeHint() const override { return layout() ? layout()->minimumSize() : QSize(80, 40); }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QPalette pal = palette();
        const bool marked = underMouse() || hasFocus();
        p.setPen(QPen(marked ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid), marked ? 2 : 1));
        p.setBrush(pal.color(QPalette::Base));
        p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 6, 6);
    }
};

// A stage of the funnel: its name, a bar as wide as its share of the largest stage (centred, so
// that the stages read as a funnel) with its number of deals, and its weighted value per currency.
class HomeStageButton : public QAbstractButton
{
public:
    HomeStageButton(QWidget *parent)
        : QAbstractButton(parent)
    {
        setCursor(Qt::PointingHandCursor);
        setFocusPolicy(Qt::StrongFocus);
        setAttribute(Qt::WA_Hover);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    void set(const QString &name, qint64 deals, double share, const QString &amounts, int nameWidth)
    {
        m_name = name;
        m_deals = deals;
        m_share = share;
        m_amounts = amounts;
        m_nameWidth = nameWidth;
        update();
    }
    QSize sizeHint() const override { return {m_nameWidth + 240, fontMetrics().height() + 2 * UiKit::Space::S}; }
    QSize minimumSizeHint() const override { return {m_nameWidth + 120, sizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QPalette pal = palette();
        const QRect r = rect();
        if (underMouse() || hasFocus()) {
            p.setPen(QPen(pal.color(QPalette::Highlight), 1));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        }
        const int gap = UiKit::Space::S;
        const QFontMetrics fm = fontMetrics();
        p.setPen(pal.color(QPalette::Text));
        const QRect nameRect(r.left() + gap, r.top(), m_nameWidth, r.height());
        p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(m_name, Qt::ElideRight, m_nameWidth));
        // The amounts at the right take what they need up to 45% of the row; the bar the rest.
        // (+2: elidedText measures a hair wider than horizontalAdvance and cut a text that fits)
        const int amountsWidth = qMin(fm.horizontalAdvance(m_amounts) + 2, int(r.width() * 0.45));
        const QRect amountsRect(r.right() - gap - amountsWidth, r.top(), amountsWidth, r.height());
        const QRect barArea(nameRect.right() + gap, r.top() + UiKit::Space::XS,
                            qMax(0, amountsRect.left() - nameRect.right() - 2 * gap),
                            r.height() - 2 * UiKit::Space::XS);
        const int barWidth = m_deals > 0
                                 ? qMax(fm.horizontalAdvance(QLocale().toString(m_deals)) + 2 * UiKit::Space::XS,
                                        int(barArea.width() * m_share))
                                 : 2;
        const QRect bar(barArea.center().x() - qMin(barWidth, barArea.width()) / 2, barArea.top(),
                        qMin(barWidth, barArea.width()), barArea.height());
        if (m_deals > 0) {
            p.setPen(Qt::NoPen);
            p.setBrush(pal.color(QPalette::Highlight));
            p.drawRoundedRect(bar, 3, 3);
            p.setPen(pal.color(QPalette::HighlightedText));
            p.drawText(bar, Qt::AlignCenter, QLocale().toString(m_deals));
        } else {
            p.setPen(UiKit::color(UiKit::Tone::Muted));
            p.drawText(barArea, Qt::AlignCenter, QLocale().toString(0));
        }
        p.setPen(UiKit::color(UiKit::Tone::Muted));
        p.drawText(amountsRect, Qt::AlignVCenter | Qt::AlignRight,
                   fm.elidedText(m_amounts, Qt::ElideRight, amountsRect.width()));
    }

private:
    QString m_name;
    qint64 m_deals = 0;
    double m_share = 0;
    QString m_amounts;
    int m_nameWidth = 100;
};

// Amounts per currency, one currency each ("1.250.000 TRY"), in the window's locale.
QStringList homeAmounts(const CurrencyAmounts &amounts)
{
    QStringList out;
    const QLocale locale;
    for (auto it = amounts.cbegin(); it != amounts.cend(); ++it)
        out << QStringLiteral("%1 %2").arg(locale.toString(it.value(), 'f', 0), it.key());
    return out;
}

// A channel's colour on the chart: its service's, dark enough for the light scheme's base and light
// enough for the dark one's.
QColor homeChannelColor(const QString &channel, int index)
{
    if (channel == QLatin1String("whatsapp"))
        return QColor(0x25, 0xa2, 0x4f);
    if (channel == QLatin1String("telegram"))
        return QColor(0x22, 0x8b, 0xd0);
    if (channel == QLatin1String("instagram"))
        return QColor(0xd6, 0x3a, 0x7a);
    if (channel == QLatin1String("widget"))
        return QColor(0xe0, 0x8a, 0x1e);
    static const QColor others[] = {QColor(0x7b, 0x61, 0xd1), QColor(0x6b, 0x7f, 0x8e), QColor(0x3a, 0xa8, 0x9c)};
    return others[index % 3];
}

// A round top for the counts' axis and its step: 1, 2 or 5 times a power of ten, four steps or so.
std::pair<qint64, qint64> homeNiceAxis(qint64 max)
{
    const double raw = double(qMax<qint64>(1, max)) / 4.0;
    const double power = std::pow(10.0, std::floor(std::log10(qMax(1.0, raw))));
    qint64 step = qint64(power);
    for (int factor : {1, 2, 5, 10}) {
        step = qint64(factor * power);
        if (double(step) >= raw)
            break;
    }
    step = qMax<qint64>(1, step);
    return {step * qint64(std::ceil(double(qMax<qint64>(1, max)) / double(step))), step};
}
} // namespace

HomeView::HomeView(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
{
    setObjectName(QStringLiteral("homeView"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);
    auto *page = new QWidget(scroll);
    scroll->setWidget(page);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::M, UiKit::Space::M);
    layout->setSpacing(UiKit::Space::M);

    // The choices and the status line.
    auto *top = new QHBoxLayout;
    top->setSpacing(UiKit::Space::S);
    m_pipeline = new QComboBox(page);
    m_pipeline->setObjectName(QStringLiteral("homePipeline"));
    m_pipeline->setAccessibleName(tr("Pipeline"));
    m_pipeline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_pipelineLabel = new QLabel(tr("&Pipeline:"), page);
    m_pipelineLabel->setBuddy(m_pipeline);
    m_period = new QComboBox(page);
    m_period->setObjectName(QStringLiteral("homePeriod"));
    m_period->setAccessibleName(tr("Messages of"));
    for (int days : {14, 30})
        m_period->addItem(tr("Last %n day(s)", nullptr, days), days);
    m_period->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *periodLabel = new QLabel(tr("&Messages of:"), page);
    periodLabel->setBuddy(m_period);
    m_status = new QLabel(page);
    m_status->setObjectName(QStringLiteral("homeStatus"));
    m_status->setTextFormat(Qt::PlainText);
    UiKit::setTone(m_status, UiKit::Tone::Muted);
    top->addWidget(m_pipelineLabel);
    top->addWidget(m_pipeline);
    top->addSpacing(UiKit::Space::M);
    top->addWidget(periodLabel);
    top->addWidget(m_period);
    top->addSpacing(UiKit::Space::M);
    top->addWidget(m_status, 1);
    layout->addLayout(top);
    // Offered when there is more than one pipeline.
    m_pipelineLabel->hide();
    m_pipeline->hide();
    connect(m_pipeline, &QComboBox::currentIndexChanged, this, &HomeView::refresh);
    connect(m_period, &QComboBox::currentIndexChanged, this, &HomeView::refresh);

    // A figure: its button, name, value and note.
    auto figure = [this, page](const QString &key, const QString &name, const QString &tip) {
        auto *button = new HomeFigureButton(page);
        button->setObjectName(QStringLiteral("figure_") + key);
        button->setAccessibleName(name);
        button->setToolTip(tip);
        auto *box = new QVBoxLayout(button);
        box->setContentsMargins(UiKit::Space::M, UiKit::Space::S, UiKit::Space::M, UiKit::Space::S);
        box->setSpacing(0);
        auto *title = new QLabel(name, button);
        title->setTextFormat(Qt::PlainText);
        UiKit::setType(title, UiKit::Type::Caption);
        UiKit::setTone(title, UiKit::Tone::Muted);
        auto *value = new QLabel(QStringLiteral("…"), button);
        value->setObjectName(QStringLiteral("figureValue_") + key);
        value->setTextFormat(Qt::PlainText);
        UiKit::setType(value, UiKit::Type::Heading);
        auto *note = new QLabel(button);
        note->setObjectName(QStringLiteral("figureNote_") + key);
        note->setTextFormat(Qt::PlainText);
        // One line a currency, never wrapped: a wrapping label's height for a narrow width made the
        // page taller than the window (the scroll area reads minimum heights).
        UiKit::setType(note, UiKit::Type::Caption);
        UiKit::setTone(note, UiKit::Tone::Muted);
        for (QLabel *label : {title, value, note})
            label->setAttribute(Qt::WA_TransparentForMouseEvents);
        box->addWidget(title);
        box->addWidget(value);
        box->addWidget(note);
        box->addStretch(1);
        m_figures.insert(key, button);
        m_values.insert(key, value);
        m_notes.insert(key, note);
        return button;
    };

    // The day's work first: tasks, conversations waiting, the open deals.
    auto *today = new QHBoxLayout;
    today->setSpacing(UiKit::Space::S);
    today->addWidget(figure(QStringLiteral("dueToday"), tr("Tasks due today"),
                            tr("Your open tasks due today: click to see them in Tasks")),
                     1);
    today->addWidget(figure(QStringLiteral("overdue"), tr("Overdue tasks"),
                            tr("Your open tasks past their due time: click to see them in Tasks")),
                     1);
    today->addWidget(figure(QStringLiteral("waiting"), tr("Waiting for an answer"),
                            tr("Conversations whose last message came from the customer and that are not closed: "
                               "click to see them in the Inbox")),
                     1);
    today->addWidget(figure(QStringLiteral("openDeals"), tr("Open deals"),
                            tr("Deals in the pipeline's open stages and their value weighted by each stage's "
                               "probability, per currency: click to open the board")),
                     1);
    layout->addLayout(today);

    // The funnel beside won and lost.
    m_funnel = new QWidget(page);
    m_funnel->setObjectName(QStringLiteral("homeFunnel"));
    auto *funnelBox = new QVBoxLayout(m_funnel);
    funnelBox->setContentsMargins(0, 0, 0, 0);
    funnelBox->setSpacing(UiKit::Space::XS);
    m_funnelTitle = new QLabel(tr("Open deals by stage"), m_funnel);
    UiKit::setType(m_funnelTitle, UiKit::Type::Emphasis);
    funnelBox->addWidget(m_funnelTitle);
    m_funnelRows = new QVBoxLayout;
    m_funnelRows->setSpacing(2);
    funnelBox->addLayout(m_funnelRows);
    m_funnelEmpty = new QLabel(tr("No open deals in this pipeline yet: a deal created in Deals shows here."), m_funnel);
    m_funnelEmpty->setObjectName(QStringLiteral("homeFunnelEmpty"));
    // Not wrapped: a wrapping label's height for a narrow width made the page taller than the window.
    UiKit::setTone(m_funnelEmpty, UiKit::Tone::Muted);
    m_funnelEmpty->hide();
    funnelBox->addWidget(m_funnelEmpty);
    funnelBox->addStretch(1);

    auto *closed = new QGridLayout;
    closed->setSpacing(UiKit::Space::S);
    closed->addWidget(figure(QStringLiteral("won30"), tr("Won, last 30 days"),
                             tr("Deals won in the last 30 days, today included: click to list them")),
                      0, 0);
    closed->addWidget(figure(QStringLiteral("won90"), tr("Won, last 90 days"),
                             tr("Deals won in the last 90 days, today included: click to list them")),
                      0, 1);
    closed->addWidget(figure(QStringLiteral("lost30"), tr("Lost, last 30 days"),
                             tr("Deals lost in the last 30 days, today included: click to list them")),
                      1, 0);
    closed->addWidget(figure(QStringLiteral("lost90"), tr("Lost, last 90 days"),
                             tr("Deals lost in the last 90 days, today included: click to list them")),
                      1, 1);
    closed->setColumnStretch(0, 1);
    closed->setColumnStretch(1, 1);
    closed->setRowStretch(2, 1);

    auto *middle = new QHBoxLayout;
    middle->setSpacing(UiKit::Space::L);
    // The funnel's amounts per currency need the room more than the four cards.
    middle->addWidget(m_funnel, 3);
    middle->addLayout(closed, 2);
    layout->addLayout(middle);

    m_chart = new QChartView(page);
    m_chart->setObjectName(QStringLiteral("homeMessagesChart"));
    m_chart->setAccessibleName(tr("Messages per day"));
    m_chart->setToolTip(tr("Click a bar to see the channel's conversations in the Inbox"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(220);
    m_chart->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    m_chartEmpty = new QLabel(tr("No messages in this period: conversations of WhatsApp, Telegram, Instagram and "
                                 "the web widget are counted here."),
                              m_chart);
    m_chartEmpty->setObjectName(QStringLiteral("homeChartEmpty"));
    m_chartEmpty->setWordWrap(true);
    m_chartEmpty->setAlignment(Qt::AlignCenter);
    UiKit::setTone(m_chartEmpty, UiKit::Tone::Muted);
    m_chartEmpty->hide();
    layout->addWidget(m_chart, 1);
    m_chart->installEventFilter(this);

    connect(m_figures.value(QStringLiteral("dueToday")), &QAbstractButton::clicked, this,
            [this] { emit tasksRequested(false); });
    connect(m_figures.value(QStringLiteral("overdue")), &QAbstractButton::clicked, this,
            [this] { emit tasksRequested(true); });
    connect(m_figures.value(QStringLiteral("waiting")), &QAbstractButton::clicked, this, &HomeView::waitingRequested);
    connect(m_figures.value(QStringLiteral("openDeals")), &QAbstractButton::clicked, this, [this] {
        if (m_figuresShown)
            emit pipelineRequested(m_figuresShown->pipeline.id);
    });
    for (const QString &kind : {QStringLiteral("won"), QStringLiteral("lost")}) {
        for (int days : {30, 90}) {
            connect(m_figures.value(kind + QString::number(days)), &QAbstractButton::clicked, this, [this, kind, days] {
                if (!m_figuresShown)
                    return;
                const DashboardFigures &f = *m_figuresShown;
                for (const PipelineStage &s : f.pipeline.stages) {
                    if (s.kind == kind)
                        emit stageRequested(f.pipeline.id, s.key, days == 30 ? f.since30 : f.since90);
                }
            });
        }
    }

    m_waitTimer.setInterval(60 * 1000);
    connect(&m_waitTimer, &QTimer::timeout, this, &HomeView::updateWait);
    connect(&store.bus(), &EventBus::changed, this, &HomeView::onBusChanged);
    drawChart(DashboardFigures());
}

HomeView::~HomeView() = default;

void HomeView::setTimeZone(const QTimeZone &tz)
{
    if (!tz.isValid() || tz == m_tz)
        return;
    m_tz = tz;
    m_live.markStale();
}

void HomeView::setUser(const QString &userId)
{
    if (userId == m_userId)
        return;
    m_userId = userId;
    m_live.markStale();
}

void HomeView::onBusChanged(EventBus::Entity entity, const QString &, EventBus::Change)
{
    // A burst of news (an import, a bulk send, the scheduler's round) is read once.
    switch (entity) {
    case EventBus::Entity::Deal:
    case EventBus::Entity::Pipeline:
    case EventBus::Entity::Task:
    case EventBus::Entity::Conversation:
    case EventBus::Entity::Message:
        m_live.news();
        break;
    default:
        break;
    }
}

void HomeView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_live.isStale() || m_readOn != m_store.now().toTimeZone(m_tz).date())
        m_live.read();
    m_waitTimer.start();
}

void HomeView::refresh()
{
    m_live.read();
}

void HomeView::startRead()
{
    if (!m_figuresShown)
        m_status->setText(tr("Reading the figures…"));
    DashboardRequest request;
    request.pipelineId = m_pipeline->currentData().toString();
    request.userId = m_userId;
    request.days = m_period->currentData().toInt();
    // The counts first (a few milliseconds), then the messages per day (the most of the time at a
    // team's size): the figures one clicks do not wait for the chart.
    m_worker.run([this, request, tz = m_tz, store = Store(m_store.bus(), m_store.clock())] {
        const Dashboard dashboard(store, tz);
        DashboardFigures figures;
        QString error;
        try {
            figures = dashboard.counts(request);
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, figures, error] { showFigures(figures, error); });
        DashboardFigures messages;
        error.clear();
        try {
            dashboard.messagesPerDay(request.days, messages);
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        BackgroundWorker::post(this, [this, messages, error] { showMessages(messages, error); });
    });
}

void HomeView::showMessages(const DashboardFigures &messages, const QString &error)
{
    m_live.finish();
    if (m_live.again()) {
        m_live.read();
        return;
    }
    if (!m_figuresShown)
        return; // the counts' error is shown
    if (!error.isEmpty()) {
        m_status->setText(tr("The figures could not be read: %1").arg(error));
        UiKit::setTone(m_status, UiKit::Tone::Danger);
        return;
    }
    m_figuresShown->days = messages.days;
    m_figuresShown->messagesPerDay = messages.messagesPerDay;
    m_figuresShown->messagesTotal = messages.messagesTotal;
    drawChart(*m_figuresShown);
    emit shown();
}

void HomeView::showFigures(const DashboardFigures &read, const QString &error)
{
    if (m_live.again())
        return; // read again when the messages come
    if (!error.isEmpty()) {
        m_status->setText(tr("The figures could not be read: %1").arg(error));
        UiKit::setTone(m_status, UiKit::Tone::Danger);
        return;
    }
    DashboardFigures f = read;
    if (m_figuresShown) {
        // The chart keeps its days until the new ones come.
        f.days = m_figuresShown->days;
        f.messagesPerDay = m_figuresShown->messagesPerDay;
        f.messagesTotal = m_figuresShown->messagesTotal;
    }
    UiKit::setTone(m_status, UiKit::Tone::Muted);
    const QLocale locale;
    m_readOn = m_store.now().toTimeZone(m_tz).date();
    m_status->setText(tr("As of %1").arg(locale.toString(m_store.now().toLocalTime().time(), QStringLiteral("HH:mm"))));
    m_figuresShown = f;
    fillPipelines(f);

    auto set = [this](const QString &key, const QString &value, const QString &note) {
        m_values.value(key)->setText(value);
        m_notes.value(key)->setText(note);
        m_figures.value(key)->setAccessibleDescription(note.isEmpty() ? value : value + QStringLiteral(", ") + note);
    };
    set(QStringLiteral("dueToday"), locale.toString(f.tasksDueToday),
        m_userId.isEmpty() ? tr("nobody is signed in") : tr("assigned to you"));
    set(QStringLiteral("overdue"), locale.toString(f.tasksOverdue),
        f.tasksOverdue > 0 ? tr("past their due time") : tr("nothing late"));
    UiKit::setTone(m_values.value(QStringLiteral("overdue")),
                   f.tasksOverdue > 0 ? UiKit::Tone::Danger : UiKit::Tone::Normal);
    m_values.value(QStringLiteral("waiting"))->setText(locale.toString(f.waiting));
    updateWait();

    qint64 open = 0;
    for (const DashboardFigures::Stage &s : f.funnel)
        open += s.deals;
    const QStringList weighted = homeAmounts(f.openWeighted);
    set(QStringLiteral("openDeals"), locale.toString(open),
        weighted.isEmpty() ? tr("no open deals") : tr("weighted: %1").arg(weighted.join(QStringLiteral("\n"))));
    const struct
    {
        const char *key;
        const DashboardFigures::Closed &closed;
    } closedFigures[] = {{"won30", f.won30}, {"won90", f.won90}, {"lost30", f.lost30}, {"lost90", f.lost90}};
    for (const auto &c : closedFigures) {
        const QStringList amounts = homeAmounts(c.closed.value);
        set(QLatin1String(c.key), locale.toString(c.closed.deals), amounts.join(QStringLiteral("\n")));
    }
    showFunnel(f);
    emit countsShown();
}

void HomeView::updateWait()
{
    if (!m_figuresShown)
        return;
    const DashboardFigures &f = *m_figuresShown;
    QString note;
    if (f.waiting == 0 || !f.oldestWaitSince.isValid()) {
        note = tr("nobody is waiting");
    } else {
        const qint64 minutes = qMax<qint64>(0, f.oldestWaitSince.secsTo(m_store.now()) / 60);
        QString wait;
        if (minutes < 1)
            wait = tr("under a minute");
        else if (minutes < 60)
            wait = tr("%n minute(s)", nullptr, int(minutes));
        else if (minutes < 48 * 60)
            wait = tr("%n hour(s)", nullptr, int(minutes / 60));
        else
            wait = tr("%n day(s)", nullptr, int(minutes / (24 * 60)));
        note = tr("the longest for %1").arg(wait);
    }
    m_notes.value(QStringLiteral("waiting"))->setText(note);
    UiKit::setTone(m_values.value(QStringLiteral("waiting")),
                   f.waiting > 0 ? UiKit::Tone::Warning : UiKit::Tone::Normal);
    m_figures.value(QStringLiteral("waiting"))
        ->setAccessibleDescription(QLocale().toString(f.waiting) + QStringLiteral(", ") + note);
}

void HomeView::fillPipelines(const DashboardFigures &f)
{
    // The pipelines are read with the figures; the choice keeps the one shown.
    const QSignalBlocker block(m_pipeline);
    m_pipeline->clear();
    for (const Pipeline &p : f.pipelines)
        m_pipeline->addItem(DealText::pipelineName(p), p.id);
    m_pipeline->setCurrentIndex(qMax(0, m_pipeline->findData(f.pipeline.id)));
    const bool several = f.pipelines.size() > 1;
    m_pipeline->setVisible(several);
    m_pipelineLabel->setVisible(several);
}

bool HomeView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_chart && event->type() == QEvent::Resize)
        placeChartEmpty();
    return QWidget::eventFilter(watched, event);
}

void HomeView::placeChartEmpty()
{
    m_chartEmpty->setGeometry(
        m_chart->rect().adjusted(UiKit::Space::XL, UiKit::Space::XL, -UiKit::Space::XL, -UiKit::Space::XL));
    m_chartEmpty->raise();
}

void HomeView::showFunnel(const DashboardFigures &f)
{
    m_funnelTitle->setText(m_pipeline->count() > 1
                               ? tr("Open deals by stage: %1").arg(DealText::pipelineName(f.pipeline))
                               : tr("Open deals by stage"));
    qint64 max = 0;
    int nameWidth = 0;
    const QFontMetrics fm(font());
    for (const DashboardFigures::Stage &s : f.funnel) {
        max = qMax(max, s.deals);
        PipelineStage stage;
        stage.key = s.key;
        stage.name = s.name;
        nameWidth = qMax(nameWidth, fm.horizontalAdvance(DealText::stageName(stage)));
    }
    nameWidth = qMin(nameWidth + UiKit::Space::S, 220);
    QSet<QString> keep;
    int row = 0;
    for (const DashboardFigures::Stage &s : f.funnel) {
        keep.insert(s.key);
        auto *button = static_cast<HomeStageButton *>(m_stageRows.value(s.key));
        if (!button) {
            button = new HomeStageButton(m_funnel);
            button->setObjectName(QStringLiteral("stage_") + s.key);
            connect(button, &QAbstractButton::clicked, this, [this, key = s.key] {
                if (m_figuresShown)
                    emit stageRequested(m_figuresShown->pipeline.id, key, QDateTime());
            });
            m_stageRows.insert(s.key, button);
        }
        m_funnelRows->removeWidget(button);
        m_funnelRows->insertWidget(row++, button);
        PipelineStage stage;
        stage.key = s.key;
        stage.name = s.name;
        const QString name = DealText::stageName(stage);
        const QStringList weighted = homeAmounts(s.weighted);
        const QString amounts = weighted.join(QStringLiteral(" · "));
        button->set(name, s.deals, max > 0 ? double(s.deals) / double(max) : 0, amounts, nameWidth);
        button->setAccessibleName(name);
        const QString description =
            tr("%n deal(s)", nullptr, int(s.deals)) +
            (weighted.isEmpty() ? QString() : QStringLiteral(", ") + tr("weighted: %1").arg(amounts));
        button->setAccessibleDescription(description);
        button->setToolTip(
            tr("%1 (%2%): %3. Click to list them in Deals.").arg(name, QLocale().toString(s.probability), description));
    }
    for (auto it = m_stageRows.begin(); it != m_stageRows.end();) {
        if (keep.contains(it.key())) {
            ++it;
            continue;
        }
        delete it.value();
        it = m_stageRows.erase(it);
    }
    m_funnelEmpty->setVisible(max == 0);
}

void HomeView::openChannel(const QString &channel)
{
    if (!channel.isEmpty())
        emit channelRequested(channel);
}

void HomeView::drawChart(const DashboardFigures &f)
{
    const QLocale locale;
    auto *chart = new QChart;
    chart->setTitle(tr("Messages per day"));
    const QString today = f.days.isEmpty() ? QString() : locale.toString(f.days.last(), QStringLiteral("d MMM"));
    chart->setMargins(
        QMargins(4, 2, 4 + QFontMetrics(UiKit::font(UiKit::Type::Caption)).horizontalAdvance(today) / 2, 2));
    auto *series = new QStackedBarSeries(chart);
    const int n = int(f.days.size());
    QVector<qint64> totals(n, 0);
    QBarSet *first = nullptr;
    int index = 0;
    for (auto it = f.messagesPerDay.cbegin(); it != f.messagesPerDay.cend(); ++it, ++index) {
        auto *set = new QBarSet(InboxText::channelName(it.key()), series);
        for (int i = 0; i < n; ++i) {
            const qint64 c = i < it.value().size() ? it.value().at(i) : 0;
            *set << double(c);
            totals[i] += c;
        }
        const QColor color = homeChannelColor(it.key(), index);
        set->setColor(color);
        set->setBorderColor(color);
        connect(set, &QBarSet::clicked, this, [this, channel = it.key()](int) { openChannel(channel); });
        series->append(set);
        if (!first)
            first = set;
    }
    series->setBarWidth(0.8);
    chart->addSeries(series);
    auto *x = new QCategoryAxis(chart);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setRange(-0.5, qMax(0.5, n - 0.5));
    x->setStartValue(-0.5);
    const int every = qMax(1, int(std::ceil(n / 7.0)));
    for (int i = 0; i < n; ++i) {
        if ((n - 1 - i) % every == 0)
            x->append(locale.toString(f.days.at(i), QStringLiteral("d MMM")), i);
    }
    x->setGridLineVisible(false);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis(chart);
    qint64 max = 0;
    for (qint64 t : std::as_const(totals))
        max = qMax(max, t);
    const auto [topValue, step] = homeNiceAxis(max);
    y->setRange(0, double(topValue));
    y->setTickCount(int(topValue / step) + 1);
    y->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    QBarSet placeholder{QString()};
    ChartTheme::applyToBars(chart, first ? first : &placeholder, x, y);
    // applyToBars gives its set the selection colour: the channel keeps its own.
    if (first) {
        const QColor color = homeChannelColor(f.messagesPerDay.firstKey(), 0);
        first->setColor(color);
        first->setBorderColor(color);
    }
    const QPalette pal = UiKit::palette(UiKit::scheme());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setLabelColor(pal.color(QPalette::Text));
    chart->legend()->setFont(UiKit::font(UiKit::Type::Caption));
    chart->legend()->setVisible(first != nullptr);
    m_chart->setBackgroundBrush(pal.color(QPalette::Window));
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
    const bool empty = m_figuresShown && f.messagesTotal == 0;
    m_chartEmpty->setVisible(empty);
    if (empty)
        placeChartEmpty();
}
