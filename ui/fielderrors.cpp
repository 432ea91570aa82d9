#include "fielderrors.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

QLabel *FieldErrors::createFormLabel(QWidget *parent)
{
    m_form = new QLabel(parent);
    m_form->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_form->setObjectName(QStringLiteral("formError"));
    m_form->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    m_form->setWordWrap(true);
    m_form->hide();
    return m_form;
}

QLabel *FieldErrors::addLabel(const QString &key, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // data from outside is never markup
    label->setObjectName(key + QLatin1String("Error"));
    label->setStyleSheet(QStringLiteral("color: #c0392b;"));
    label->setWordWrap(true);
    label->hide();
    m_labels.insert(key, label);
    return label;
}

QVBoxLayout *FieldErrors::cell(QWidget *field, const QStringList &keys, QWidget *parent)
{
    auto *box = new QVBoxLayout;
    box->setSpacing(2);
    box->addWidget(field);
    for (const QString &key : keys)
        box->addWidget(addLabel(key, parent));
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
        label->hide();
    }
}

QString FieldErrors::show(const QString &message, const QJsonObject &details, const FieldOf &fieldOf, Options options)
{
    QStringList unplaced;
    QString first;
    for (auto it = details.begin(); it != details.end(); ++it) {
        QString text = it.value().isString() ? it.value().toString() : message;
        if (options.testFlag(ShowNestedKeys) && it.key().contains(QLatin1Char('.')))
            text = it.key() + QLatin1Char(' ') + text;
        const QString field = fieldOf ? fieldOf(it.key()) : it.key();
        QLabel *label = m_labels.value(field);
        if (!label) {
            unplaced << QCoreApplication::translate("FieldErrors", "%1: %2").arg(it.key(), text);
            continue;
        }
        label->setText(label->text().isEmpty() ? text : label->text() + QLatin1Char('\n') + text);
        label->show();
        if (first.isEmpty())
            first = field;
    }
    if (m_form) {
        const bool list = options.testFlag(ListUnplaced) && !unplaced.isEmpty();
        m_form->setText(list ? message + QLatin1Char('\n') + unplaced.join(QLatin1Char('\n')) : message);
        m_form->show();
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
