#include "ui/shell/fielderrors.h"

#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QLocale>
#include <QVBoxLayout>

QLabel *FieldErrors::createFormLabel(QWidget *parent)
{
    m_form = new QLabel(parent);
    m_form->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_form->setObjectName(QStringLiteral("formError"));
    UiKit::setTone(m_form, UiKit::Tone::Danger);
    QFont bold = m_form->font();
    bold.setBold(true);
    m_form->setFont(bold);
    m_form->setWordWrap(true);
    m_form->hide();
    return m_form;
}

QLabel *FieldErrors::addLabel(const QString &key, QWidget *parent)
{
    QLabel *label = UiKit::errorLabel(parent, key + QLatin1String("Error"));
    m_labels.insert(key, label);
    return label;
}

QVBoxLayout *FieldErrors::cell(QWidget *field, const QStringList &keys, QWidget *parent)
{
    auto *box = new QVBoxLayout;
    box->setSpacing(2);
    box->addWidget(field);
    for (const QString &key : keys) {
        QLabel *label = addLabel(key, parent);
        m_fieldOf.insert(label, field);
        box->addWidget(label);
    }
    return box;
}

void FieldErrors::clear()
{
    if (m_form) {
        m_form->clear();
        m_form->hide();
    }
    for (QLabel *label : std::as_const(m_labels)) {
        label->clear();
        label->setMinimumHeight(0);
        label->hide();
    }
}

QString FieldErrors::show(const QString &message, const QJsonObject &details, const FieldOf &fieldOf, Options options)
{
    QStringList unplaced;
    QStringList placed;
    QString first;
    QWidget *grow = nullptr;
    for (auto it = details.begin(); it != details.end(); ++it) {
        QString text = it.value().isString() ? it.value().toString() : message;
        if (options.testFlag(ShowNestedKeys) && it.key().contains(QLatin1Char('.')))
            text = it.key() + QLatin1Char(' ') + text;
        const QString field = fieldOf ? fieldOf(it.key()) : it.key();
        QLabel *label = m_labels.value(field);
        if (!label) {
            unplaced << QCoreApplication::translate("FieldErrors", "%1: %2").arg(ErrorText::fieldLabel(it.key()), text);
            continue;
        }
        // Under its field the problem reads as a sentence: its first letter capitalised in the
        // window's language ("zaten …" → "Zaten …", "ülke kodu …" → "Ülke kodu …").
        if (!text.isEmpty())
            text = QLocale().toUpper(text.left(1)) + text.mid(1);
        label->setText(label->text().isEmpty() ? text : label->text() + QLatin1Char('\n') + text);
        label->show();
        // A form layout does not give a wrapped label its second line by itself (a long error once
        // overlapped the field below): the label asks for the height its text needs at the field's
        // width, and the dialog grows to hold it.
        const QWidget *above = m_fieldOf.value(label);
        const int width = above && above->width() > 0 ? above->width() : label->width();
        label->setMinimumHeight(label->heightForWidth(width));
        grow = label->window();
        if (!placed.contains(field))
            placed << field;
        if (first.isEmpty())
            first = field;
    }
    if (m_form) {
        const bool list = options.testFlag(ListUnplaced) && !unplaced.isEmpty();
        // Every detail sits under its field: the form label points at them instead of saying it twice.
        const QString head = !placed.isEmpty() && unplaced.isEmpty()
                                 ? QCoreApplication::translate("FieldErrors", "Correct the %n field(s) marked below.",
                                                               nullptr, int(placed.size()))
                                 : message;
        m_form->setText(list ? head + QLatin1Char('\n') + unplaced.join(QLatin1Char('\n')) : head);
        m_form->show();
        grow = m_form->window();
    }
    if (grow && grow->isWindow() && grow->layout()) {
        QLayout *layout = grow->layout();
        layout->activate();
        // Wrapped labels need the height for the dialog's width, which sizeHint() does not count.
        int need = qMax(layout->totalMinimumSize().height(), grow->sizeHint().height());
        if (layout->hasHeightForWidth())
            need = qMax(need, layout->totalHeightForWidth(grow->width()));
        if (need > grow->height())
            grow->resize(grow->width(), need);
    }
    return first;
}

QWidget *FieldErrors::row(std::initializer_list<QWidget *> widgets, QWidget *parent)
{
    auto *w = new QWidget(parent);
    auto *h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    for (QWidget *child : widgets)
        h->addWidget(child);
    h->addStretch(1);
    return w;
}
