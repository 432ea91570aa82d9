#include "ui/shell/amountedit.h"
#include "ui/shell/uikit.h"

#include <QEvent>
#include <QFocusEvent>
#include <QLabel>
#include <QLayout>

#include <cmath>

namespace {
// An example of the window's form in the messages: grouped, with decimals.
constexpr double kExample = 1234567.89;
} // namespace

AmountEdit::AmountEdit(QWidget *parent)
    : QLineEdit(parent)
    , m_reading(new QLabel(parent))
{
    m_reading->setTextFormat(Qt::PlainText); // the typed text is never markup
    m_reading->setWordWrap(true);
    m_reading->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_reading->setObjectName(QStringLiteral("amountReading"));
    connect(this, &QObject::objectNameChanged, m_reading,
            [this](const QString &name) { m_reading->setObjectName(name + QLatin1String("Reading")); });
    connect(this, &QLineEdit::textChanged, this, &AmountEdit::updateReading);
    updateReading();
}

AmountEdit::~AmountEdit()
{
    delete m_reading; // the label lives as long as its field
}

void AmountEdit::setCurrency(const QString &code)
{
    if (code == m_currency)
        return;
    m_currency = code;
    updateReading();
}

void AmountEdit::setEmptyValue(std::optional<double> value)
{
    m_emptyValue = value;
    updateReading();
}

void AmountEdit::setValue(double value)
{
    m_setValue = value;
    m_setText = amountText(value, locale());
    if (text() == m_setText)
        updateReading();
    else
        setText(m_setText);
}

AmountText::Reading AmountEdit::reading() const
{
    return AmountText::read(text(), locale());
}

std::optional<double> AmountEdit::value() const
{
    if (!m_setText.isNull() && text() == m_setText)
        return m_setValue;
    const AmountText::Reading r = reading();
    if (r.ok())
        return r.value;
    if (r.refusal == AmountText::Refusal::Empty)
        return m_emptyValue;
    return std::nullopt;
}

QString AmountEdit::refusalText() const
{
    return value() ? QString() : refusalText(reading(), locale());
}

QString AmountEdit::amountText(double value, const QLocale &locale)
{
    return locale.toString(value, 'f', AmountText::kMaxDecimals);
}

QString AmountEdit::refusalText(const AmountText::Reading &r, const QLocale &locale)
{
    using AmountText::Refusal;
    switch (r.refusal) {
    case Refusal::None:
        return {};
    case Refusal::Empty:
        return tr("Enter an amount.");
    case Refusal::Invalid:
        if (!r.character.isNull())
            return tr("“%1” is not an amount: leave out “%2” and write digits as in %3.")
                .arg(r.text, QString(r.character), amountText(kExample, locale));
        return tr("“%1” is not an amount: a mark goes between digits, as in %2.")
            .arg(r.text, amountText(kExample, locale));
    case Refusal::BadGrouping:
        return tr("“%1” is not an amount: group the digits in threes with one kind of mark, as in %2.")
            .arg(r.text, amountText(kExample, locale));
    case Refusal::Ambiguous:
        if (std::isnan(r.decimal))
            return tr("“%1” is ambiguous: write %2 (an amount has at most two decimals).")
                .arg(r.text, locale.toString(r.grouped, 'f', 0));
        return tr("“%1” is ambiguous: write %2 or %3.")
            .arg(r.text, locale.toString(r.grouped, 'f', 0), amountText(r.decimal, locale));
    case Refusal::TooManyDecimals:
        return tr("“%1” has more than two decimals.").arg(r.text);
    case Refusal::Negative:
        return tr("An amount cannot be negative.");
    case Refusal::TooLarge:
        return tr("“%1” is too large: at most %2.").arg(r.text, locale.toString(AmountText::kMaximum, 'f', 0));
    }
    return {};
}

void AmountEdit::updateReading()
{
    if (!m_reading)
        return;
    const std::optional<double> v = value();
    QString shown;
    if (v) {
        const QString amount = amountText(*v, locale());
        shown = tr("= %1", "the amount a field understood, with its currency")
                    .arg(m_currency.isEmpty() ? amount : QStringLiteral("%1 %2").arg(amount, m_currency));
        UiKit::setTone(m_reading, UiKit::Tone::Normal);
    } else {
        shown = refusalText(reading(), locale());
        UiKit::setTone(m_reading, UiKit::Tone::Danger);
    }
    m_reading->setText(shown);
    fitReading();
    setAccessibleDescription(shown); // a screen reader tells it with the field
    emit readingChanged();
}

void AmountEdit::fitReading()
{
    // A form layout does not give a wrapped label its second line by itself: the label asks for the
    // height its text needs at its width, and the window grows to hold it (as FieldErrors does).
    if (m_reading->width() <= 0)
        return;
    m_reading->setMinimumHeight(m_reading->heightForWidth(m_reading->width()));
    QWidget *window = m_reading->window();
    QLayout *layout = window->layout();
    if (!window->isWindow() || !window->isVisible() || !layout)
        return;
    layout->activate();
    int need = qMax(layout->totalMinimumSize().height(), window->sizeHint().height());
    if (layout->hasHeightForWidth())
        need = qMax(need, layout->totalHeightForWidth(window->width()));
    if (need > window->height())
        window->resize(window->width(), need);
}

void AmountEdit::focusOutEvent(QFocusEvent *event)
{
    QLineEdit::focusOutEvent(event);
    if (event->reason() == Qt::PopupFocusReason) // the field's context menu: still being edited
        return;
    // An amount read in another form is rewritten in the window's, so that what stays is what counts.
    const AmountText::Reading r = reading();
    if (r.ok() && text() != m_setText)
        setText(amountText(r.value, locale()));
}

void AmountEdit::changeEvent(QEvent *event)
{
    QLineEdit::changeEvent(event);
    if (event->type() == QEvent::LocaleChange)
        updateReading();
}
