#pragma once

#include "model/core/amounttext.h"

#include <QLineEdit>
#include <QPointer>

#include <optional>

class QLabel;

// A field for an amount of money (the deal form's value, the Won dialog's closed value). It reads
// what is typed with AmountText::read in the window's locale and tells as you type, in a label the
// dialog places under it (readingLabel()), the amount it understood in the window's form with the
// currency ("= 1.250,50 TRY") or, in red, why it refuses the text ("“1,250” is ambiguous: write
// 1.250 or 1,25"). Leaving the field rewrites an amount it read in the window's form. A dialog asks
// value() on OK and refuses to save while it is empty (nullopt).
class AmountEdit : public QLineEdit
{
    Q_OBJECT
public:
    explicit AmountEdit(QWidget *parent = nullptr);
    ~AmountEdit() override;

    // The label under the field; the caller adds it to its layout (objectName "<field>Reading").
    QLabel *readingLabel() const { return m_reading; }

    // The currency code the understood amount is shown with (empty: none).
    void setCurrency(const QString &code);
    QString currency() const { return m_currency; }

    // What an empty field means: this amount (the deal form: 0), or, unset, a refusal.
    void setEmptyValue(std::optional<double> value);

    // Writes `value` in the window's form; value() gives exactly it back while the text stays.
    void setValue(double value);
    // The amount read; nullopt while the field refuses its text.
    std::optional<double> value() const;
    AmountText::Reading reading() const;
    // Why the field refuses its text, in the window's language; empty while it reads an amount.
    QString refusalText() const;

    // A refusal in the window's language, its amounts written in `locale`'s form.
    static QString refusalText(const AmountText::Reading &reading, const QLocale &locale);
    // An amount as the field writes it: two decimals, grouped, in `locale`'s form.
    static QString amountText(double value, const QLocale &locale);

signals:
    // The amount read, or the refusal, changed (as typed, or set).
    void readingChanged();

protected:
    void focusOutEvent(QFocusEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateReading();
    void fitReading();

    QPointer<QLabel> m_reading;
    QString m_currency;
    std::optional<double> m_emptyValue;
    QString m_setText; // the text setValue() wrote, while it stands for m_setValue exactly
    double m_setValue = 0;
};
