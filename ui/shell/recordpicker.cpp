#include "ui/shell/recordpicker.h"

#include "model/contacts/contactrepository.h"
#include "model/deals/dealrepository.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QStandardItemModel>
#include <QTimer>

namespace {
constexpr int kIdRole = RecordPicker::IdRole;
constexpr int kTitleRole = RecordPicker::TitleRole;
} // namespace

RecordPicker::RecordPicker(Search search, const QString &placeholder, QWidget *parent)
    : QWidget(parent)
    , m_search(std::move(search))
    , m_edit(new QLineEdit(this))
    , m_completer(new QCompleter(this))
    , m_model(new QStandardItemModel(this))
    , m_debounce(new QTimer(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit);
    setFocusProxy(m_edit);
    m_edit->setPlaceholderText(placeholder);
    m_edit->setClearButtonEnabled(true);
    m_edit->setObjectName(QStringLiteral("pickerEdit"));

    // The model holds what the search found; the completer shows it as it is (no filtering of its own).
    m_completer->setModel(m_model);
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setMaxVisibleItems(12);
    m_completer->setWidget(m_edit);
    m_completer->popup()->setObjectName(QStringLiteral("pickerPopup"));
    m_completer->popup()->setTextElideMode(Qt::ElideRight);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &RecordPicker::searchNow);
    connect(m_edit, &QLineEdit::textEdited, this, [this](const QString &text) {
        if (text.trimmed().isEmpty()) {
            choose({}, {});
            m_completer->popup()->hide();
            return;
        }
        m_debounce->start();
    });
    connect(m_completer, qOverload<const QModelIndex &>(&QCompleter::activated), this,
            [this](const QModelIndex &index) {
                choose(index.data(kIdRole).toString(), index.data(kTitleRole).toString());
                m_edit->setToolTip(index.data(Qt::UserRole + 3).toString()); // which namesake it is
            });
    connect(m_edit, &QLineEdit::editingFinished, this, &RecordPicker::settle);
}

RecordPicker::~RecordPicker()
{
    m_edit->disconnect(this);
    m_completer->disconnect(this);
}

QAbstractItemView *RecordPicker::popup() const
{
    return m_completer->popup();
}

void RecordPicker::searchNow()
{
    m_debounce->stop();
    refill(m_search ? m_search(m_edit->text().trimmed()) : QVector<Choice>());
    if (m_model->rowCount() > 0 && m_edit->hasFocus()) {
        // wider than a narrow field: the e-mail, phone and company that tell namesakes apart fit
        const QRect under = m_edit->rect();
        m_completer->complete(QRect(under.left(), under.top(), qMax(under.width(), 560), under.height()));
    }
}

void RecordPicker::refill(const QVector<Choice> &choices)
{
    m_model->clear();
    for (const Choice &c : choices.mid(0, kMaxChoices)) {
        // One line: the name, then what tells namesakes apart.
        auto *item = new QStandardItem(c.detail.isEmpty() ? c.title : c.title + QStringLiteral("  —  ") + c.detail);
        item->setData(c.id, kIdRole);
        item->setData(c.title, kTitleRole);
        item->setData(item->text(), Qt::UserRole + 3); // shown as the field's tooltip once chosen
        item->setToolTip(item->text());
        item->setEditable(false);
        m_model->appendRow(item);
    }
}

void RecordPicker::setCurrent(const QString &id, const QString &title)
{
    m_id = id;
    m_title = id.isEmpty() ? QString() : title;
    m_edit->setToolTip({});
    m_edit->setText(m_title);
    m_edit->setCursorPosition(0);
}

void RecordPicker::choose(const QString &id, const QString &title)
{
    const bool changed = id != m_id;
    setCurrent(id, title);
    if (changed)
        emit currentChanged(m_id);
}

void RecordPicker::settle()
{
    const QString text = m_edit->text().trimmed();
    if (text == m_title)
        return;
    if (text.isEmpty()) {
        choose({}, {});
        return;
    }
    // Typed but not chosen: the only match is the choice; otherwise the field shows the current one again.
    const QVector<Choice> matches = m_search ? m_search(text) : QVector<Choice>();
    if (matches.size() == 1)
        choose(matches.first().id, matches.first().title);
    else
        m_edit->setText(m_title);
}

RecordPicker *createContactPicker(const ContactRepository &contacts, QWidget *parent)
{
    auto search = [contacts](const QString &text) {
        QVector<RecordPicker::Choice> out;
        try {
            ContactQuery q;
            q.search = text;
            q.limit = RecordPicker::kMaxChoices;
            for (const Contact &c : contacts.listPage(q)) {
                QStringList detail;
                for (const QString &part : {c.email, c.phone, c.company}) {
                    if (!part.isEmpty())
                        detail << part;
                }
                out.append({c.id, c.displayName(), detail.join(QStringLiteral(" · "))});
            }
        } catch (const std::exception &) {
            // a search the index refuses (stray quotes): no matches
        }
        return out;
    };
    auto *picker = new RecordPicker(search, RecordPicker::tr("Type a name, e-mail, phone or company"), parent);
    picker->setObjectName(QStringLiteral("contactPicker"));
    return picker;
}

RecordPicker *createDealPicker(const DealRepository &deals, QWidget *parent)
{
    auto search = [deals](const QString &text) {
        QVector<RecordPicker::Choice> out;
        const QLocale locale;
        try {
            for (const Deal &d : deals.search(text, RecordPicker::kMaxChoices)) {
                QStringList detail;
                if (!d.contactName.isEmpty())
                    detail << d.contactName;
                detail << locale.toCurrencyString(d.value, d.currency);
                out.append({d.id, d.name, detail.join(QStringLiteral(" · "))});
            }
        } catch (const std::exception &) {
        }
        return out;
    };
    auto *picker = new RecordPicker(search, RecordPicker::tr("Type a deal's or its contact's name"), parent);
    picker->setObjectName(QStringLiteral("dealPicker"));
    return picker;
}

void fillActiveUsers(QComboBox *combo, const QString &none, const UserRepository &users)
{
    combo->clear();
    combo->addItem(none, QString());
    try {
        for (const User &u : users.list()) {
            if (u.isActive())
                combo->addItem(u.name.isEmpty() ? u.email : u.name, u.id);
        }
    } catch (const std::exception &) {
        // No users to offer: `none` alone.
    }
}
