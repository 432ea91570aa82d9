#include "ui/contacts/segmentdialog.h"

#include "model/contacts/segmentrules.h"
#include "model/core/errors.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace {
const QString kCustom = QStringLiteral("customField.");

QString fieldLabel(const QString &field)
{
    if (field == QLatin1String("name"))
        return RuleRowWidget::tr("Name");
    if (field == QLatin1String("email"))
        return RuleRowWidget::tr("E-mail");
    if (field == QLatin1String("phone"))
        return RuleRowWidget::tr("Phone");
    if (field == QLatin1String("company"))
        return RuleRowWidget::tr("Company");
    if (field == QLatin1String("position"))
        return RuleRowWidget::tr("Position");
    if (field == QLatin1String("city"))
        return RuleRowWidget::tr("City");
    if (field == QLatin1String("country"))
        return RuleRowWidget::tr("Country");
    if (field == QLatin1String("tags"))
        return RuleRowWidget::tr("Tag");
    if (field == QLatin1String("source"))
        return RuleRowWidget::tr("Source");
    if (field == QLatin1String("leadScore"))
        return RuleRowWidget::tr("Lead score");
    if (field == QLatin1String("lastMessageAt"))
        return RuleRowWidget::tr("Last message");
    if (field == QLatin1String("createdAt"))
        return RuleRowWidget::tr("Created");
    if (field == QLatin1String("totalMessages"))
        return RuleRowWidget::tr("Messages");
    if (field == QLatin1String("sentiment"))
        return RuleRowWidget::tr("Sentiment");
    return RuleRowWidget::tr("Custom field…");
}

QString operatorLabel(const QString &op, SegmentRules::FieldType type)
{
    const bool date = type == SegmentRules::FieldType::Date;
    const bool tags = type == SegmentRules::FieldType::Tags;
    if (op == QLatin1String("equals"))
        return tags ? RuleRowWidget::tr("has tag") : RuleRowWidget::tr("is");
    if (op == QLatin1String("notEquals"))
        return tags ? RuleRowWidget::tr("does not have tag") : RuleRowWidget::tr("is not");
    if (op == QLatin1String("contains"))
        return tags ? RuleRowWidget::tr("has tag (contains)") : RuleRowWidget::tr("contains");
    if (op == QLatin1String("notContains"))
        return tags ? RuleRowWidget::tr("lacks tag (not contains)") : RuleRowWidget::tr("does not contain");
    if (op == QLatin1String("startsWith"))
        return tags ? RuleRowWidget::tr("has a tag starting with") : RuleRowWidget::tr("starts with");
    if (op == QLatin1String("greaterThan"))
        return date ? RuleRowWidget::tr("after / within the last") : RuleRowWidget::tr("greater than");
    if (op == QLatin1String("lessThan"))
        return date ? RuleRowWidget::tr("before / older than") : RuleRowWidget::tr("less than");
    if (op == QLatin1String("between"))
        return RuleRowWidget::tr("between");
    if (op == QLatin1String("isEmpty"))
        return RuleRowWidget::tr("is empty");
    return RuleRowWidget::tr("is not empty");
}

QToolButton *removeButton(QWidget *parent, const QString &tip)
{
    auto *b = new QToolButton(parent);
    b->setObjectName(QStringLiteral("removeButton"));
    b->setText(QStringLiteral("×"));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}
} // namespace

RuleRowWidget::RuleRowWidget(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("ruleRow"));
    m_field = new QComboBox(this);
    m_field->setObjectName(QStringLiteral("fieldBox"));
    for (const QString &f : SegmentRules::fields())
        m_field->addItem(fieldLabel(f), f);
    m_customKey = new QLineEdit(this);
    m_customKey->setObjectName(QStringLiteral("customKeyEdit"));
    m_customKey->setPlaceholderText(tr("key"));
    m_customKey->setMaximumWidth(120);
    m_customKey->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[A-Za-z0-9_.-]{0,64}")), m_customKey));
    m_operator = new QComboBox(this);
    m_operator->setObjectName(QStringLiteral("operatorBox"));
    m_text1 = new QLineEdit(this);
    m_text1->setObjectName(QStringLiteral("valueEdit"));
    m_text2 = new QLineEdit(this);
    m_text2->setObjectName(QStringLiteral("secondValueEdit"));
    m_number1 = new QSpinBox(this);
    m_number1->setObjectName(QStringLiteral("numberValue"));
    m_number2 = new QSpinBox(this);
    m_number2->setObjectName(QStringLiteral("secondNumberValue"));
    m_sentiment = new QComboBox(this);
    m_sentiment->setObjectName(QStringLiteral("sentimentValue"));
    m_sentiment->addItem(tr("positive"), QStringLiteral("positive"));
    m_sentiment->addItem(tr("negative"), QStringLiteral("negative"));
    m_sentiment->addItem(tr("neutral"), QStringLiteral("neutral"));
    m_and = new QLabel(tr("and"), this);
    m_and->setTextFormat(Qt::PlainText); // data from outside is never markup
    QToolButton *remove = removeButton(this, tr("Remove this rule"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_field);
    layout->addWidget(m_customKey);
    layout->addWidget(m_operator);
    layout->addWidget(m_text1, 1);
    layout->addWidget(m_number1, 1);
    layout->addWidget(m_sentiment, 1);
    layout->addWidget(m_and);
    layout->addWidget(m_text2, 1);
    layout->addWidget(m_number2, 1);
    layout->addWidget(remove);

    connect(m_field, &QComboBox::currentIndexChanged, this, [this] {
        updateOperators();
        emit changed();
    });
    connect(m_operator, &QComboBox::currentIndexChanged, this, [this] {
        updateValueWidgets();
        emit changed();
    });
    for (QLineEdit *e : {m_customKey, m_text1, m_text2})
        connect(e, &QLineEdit::textChanged, this, &RuleRowWidget::changed);
    for (QSpinBox *s : {m_number1, m_number2})
        connect(s, &QSpinBox::valueChanged, this, &RuleRowWidget::changed);
    connect(m_sentiment, &QComboBox::currentIndexChanged, this, &RuleRowWidget::changed);
    connect(remove, &QToolButton::clicked, this, &RuleRowWidget::removeRequested);
    updateOperators();
}

QString RuleRowWidget::field() const
{
    const QString f = m_field->currentData().toString();
    return f == kCustom ? kCustom + m_customKey->text().trimmed() : f;
}

void RuleRowWidget::updateOperators()
{
    const QString f = m_field->currentData().toString();
    m_customKey->setVisible(f == kCustom);
    SegmentRules::FieldType type = SegmentRules::FieldType::Any;
    if (f != kCustom)
        SegmentRules::fieldType(f, &type);
    const QString current = m_operator->currentData().toString();
    {
        const QSignalBlocker blocker(m_operator);
        m_operator->clear();
        for (const QString &op : SegmentRules::operatorsFor(type))
            m_operator->addItem(operatorLabel(op, type), op);
        const int keep = m_operator->findData(current);
        m_operator->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    const int max = f == QLatin1String("leadScore") ? 100 : 1000000;
    for (QSpinBox *s : {m_number1, m_number2})
        s->setRange(0, max);
    const QString hint = type == SegmentRules::FieldType::Date ? tr("30d or 2025-01-31") : QString();
    m_text1->setPlaceholderText(hint);
    m_text2->setPlaceholderText(hint);
    updateValueWidgets();
}

void RuleRowWidget::updateValueWidgets()
{
    const QString f = m_field->currentData().toString();
    const QString op = m_operator->currentData().toString();
    const bool number = f == QLatin1String("leadScore") || f == QLatin1String("totalMessages");
    const bool sentiment = f == QLatin1String("sentiment");
    const bool value = SegmentRules::takesValue(op);
    const bool between = op == QLatin1String("between");
    m_number1->setVisible(value && number);
    m_number2->setVisible(between && number);
    m_sentiment->setVisible(value && sentiment);
    m_text1->setVisible(value && !number && !sentiment);
    m_text2->setVisible(between && !number);
    m_and->setVisible(between);
}

bool RuleRowWidget::awaitsText() const
{
    const auto empty = [](const QLineEdit *e) { return !e->isHidden() && e->text().trimmed().isEmpty(); };
    return empty(m_text1) || empty(m_text2) || empty(m_customKey);
}

QJsonObject RuleRowWidget::toJson() const
{
    const QString f = m_field->currentData().toString();
    const QString op = m_operator->currentData().toString();
    QJsonObject rule{{QStringLiteral("field"), field()}, {QStringLiteral("operator"), op}};
    if (!SegmentRules::takesValue(op))
        return rule;
    const bool number = f == QLatin1String("leadScore") || f == QLatin1String("totalMessages");
    auto textValue = [](const QLineEdit *e) -> QJsonValue {
        // A custom field compares numbers as numbers: "25" typed is sent as 25.
        bool ok = false;
        const double d = e->text().trimmed().toDouble(&ok);
        return ok ? QJsonValue(d) : QJsonValue(e->text().trimmed());
    };
    QJsonValue v1, v2;
    if (number) {
        v1 = m_number1->value();
        v2 = m_number2->value();
    } else if (f == QLatin1String("sentiment")) {
        v1 = m_sentiment->currentData().toString();
    } else if (f == kCustom) {
        v1 = textValue(m_text1);
        v2 = textValue(m_text2);
    } else {
        v1 = m_text1->text().trimmed();
        v2 = m_text2->text().trimmed();
    }
    rule.insert(QStringLiteral("value"), op == QLatin1String("between") ? QJsonValue(QJsonArray{v1, v2}) : v1);
    return rule;
}

void RuleRowWidget::setRule(const QJsonObject &rule)
{
    const QString f = rule.value(QLatin1String("field")).toString();
    const bool custom = f.startsWith(kCustom);
    m_field->setCurrentIndex(qMax(0, m_field->findData(custom ? kCustom : f)));
    if (custom)
        m_customKey->setText(f.mid(kCustom.size()));
    m_operator->setCurrentIndex(qMax(0, m_operator->findData(rule.value(QLatin1String("operator")).toString())));
    const QJsonValue v = rule.value(QLatin1String("value"));
    const QJsonValue a = v.isArray() ? v.toArray().at(0) : v;
    const QJsonValue b = v.isArray() ? v.toArray().at(1) : QJsonValue();
    auto show = [](const QJsonValue &x) { return x.isDouble() ? QLocale::c().toString(x.toDouble()) : x.toString(); };
    m_text1->setText(show(a));
    m_text2->setText(show(b));
    m_number1->setValue(int(a.isString() ? a.toString().toDouble() : a.toDouble()));
    m_number2->setValue(int(b.isString() ? b.toString().toDouble() : b.toDouble()));
    m_sentiment->setCurrentIndex(qMax(0, m_sentiment->findData(a.toString())));
}

RuleGroupWidget::RuleGroupWidget(int depth, QWidget *parent)
    : QFrame(parent)
    , m_depth(depth)
{
    setObjectName(QStringLiteral("ruleGroup"));
    if (depth > 1)
        setFrameShape(QFrame::StyledPanel);
    m_logic = new QComboBox(this);
    m_logic->setObjectName(QStringLiteral("logicBox"));
    m_logic->addItem(tr("All of these (AND)"), QStringLiteral("AND"));
    m_logic->addItem(tr("Any of these (OR)"), QStringLiteral("OR"));
    auto *addRuleButton = new QPushButton(tr("Add rule"), this);
    addRuleButton->setObjectName(QStringLiteral("addRuleButton"));
    m_addGroup = new QPushButton(tr("Add group"), this);
    m_addGroup->setObjectName(QStringLiteral("addGroupButton"));
    m_addGroup->setEnabled(depth < SegmentRules::MaxDepth);
    m_addGroup->setToolTip(tr("A group of rules with its own AND/OR (up to %1 levels)").arg(SegmentRules::MaxDepth));

    auto *head = new QHBoxLayout;
    head->addWidget(m_logic);
    head->addStretch(1);
    head->addWidget(addRuleButton);
    head->addWidget(m_addGroup);
    if (depth > 1) {
        QToolButton *remove = removeButton(this, tr("Remove this group"));
        head->addWidget(remove);
        connect(remove, &QToolButton::clicked, this, &RuleGroupWidget::removeRequested);
    }
    m_rows = new QVBoxLayout;
    m_rows->setContentsMargins(depth > 1 ? 12 : 0, 0, 0, 0);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addLayout(m_rows);
    if (depth == 1)
        layout->addStretch(1); // the rules from the top down, not afloat in the middle of the box

    connect(m_logic, &QComboBox::currentIndexChanged, this, &RuleGroupWidget::changed);
    connect(addRuleButton, &QPushButton::clicked, this, [this] { addRule(); });
    connect(m_addGroup, &QPushButton::clicked, this, [this] { addGroup(); });
}

RuleRowWidget *RuleGroupWidget::addRule()
{
    auto *row = new RuleRowWidget(this);
    m_rows->addWidget(row);
    m_items << row;
    connect(row, &RuleRowWidget::changed, this, &RuleGroupWidget::changed);
    connect(row, &RuleRowWidget::removeRequested, this, [this, row] { take(row); });
    emit changed();
    return row;
}

RuleGroupWidget *RuleGroupWidget::addGroup()
{
    if (m_depth >= SegmentRules::MaxDepth)
        return nullptr;
    auto *group = new RuleGroupWidget(m_depth + 1, this);
    m_rows->addWidget(group);
    m_items << group;
    group->addRule();
    connect(group, &RuleGroupWidget::changed, this, &RuleGroupWidget::changed);
    connect(group, &RuleGroupWidget::removeRequested, this, [this, group] { take(group); });
    emit changed();
    return group;
}

void RuleGroupWidget::take(QWidget *item)
{
    m_items.removeAll(item);
    item->hide();
    item->deleteLater();
    emit changed();
}

void RuleGroupWidget::clear()
{
    for (QWidget *w : std::as_const(m_items)) {
        w->hide();
        w->deleteLater();
    }
    m_items.clear();
}

QJsonObject RuleGroupWidget::toJson() const
{
    QJsonArray rules;
    for (QWidget *w : m_items) {
        if (auto *row = qobject_cast<RuleRowWidget *>(w)) {
            rules.append(row->toJson());
        } else if (auto *group = qobject_cast<RuleGroupWidget *>(w)) {
            const QJsonObject g = group->toJson();
            // An empty nested group says nothing: left out rather than refused.
            if (!g.value(QLatin1String("rules")).toArray().isEmpty())
                rules.append(g);
        }
    }
    return {{QStringLiteral("logic"), m_logic->currentData().toString()}, {QStringLiteral("rules"), rules}};
}

void RuleGroupWidget::setGroup(const QJsonObject &group)
{
    const QSignalBlocker blocker(this);
    clear();
    m_logic->setCurrentIndex(group.value(QLatin1String("logic")).toString() == QLatin1String("OR") ? 1 : 0);
    for (const QJsonValue &v : group.value(QLatin1String("rules")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.contains(QLatin1String("rules"))) {
            if (RuleGroupWidget *g = addGroup())
                g->setGroup(o);
        } else {
            addRule()->setRule(o);
        }
    }
}

SegmentDialog::SegmentDialog(SegmentRepository &segments, QWidget *parent)
    : QDialog(parent)
    , m_segments(segments)
    , m_counter(segments.store())
{
    build();
    setWindowTitle(tr("New segment"));
    m_rules->addRule();
    recount();
}

SegmentDialog::SegmentDialog(SegmentRepository &segments, const Segment &segment, QWidget *parent)
    : QDialog(parent)
    , m_segments(segments)
    , m_id(segment.id)
    , m_counter(segments.store())
{
    build();
    setWindowTitle(tr("Edit segment %1").arg(segment.name));
    m_name->setText(segment.name);
    m_description->setText(segment.description);
    m_dynamic->setChecked(segment.isDynamic);
    if (segment.filters.isObject())
        m_rules->setGroup(segment.filters.toObject());
    recount();
}

void SegmentDialog::build()
{
    setObjectName(QStringLiteral("segmentDialog"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setMaxLength(100);
    m_description = new QLineEdit(this);
    m_description->setObjectName(QStringLiteral("descriptionEdit"));
    m_dynamic = new QCheckBox(tr("Dynamic: members follow the rules (otherwise a fixed list, filled once)"), this);
    m_dynamic->setObjectName(QStringLiteral("dynamicBox"));
    m_dynamic->setChecked(true);
    m_rules = new RuleGroupWidget(1, this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_rules);
    scroll->setMinimumHeight(220);
    m_count = new QLabel(this);
    m_count->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_count->setObjectName(QStringLiteral("matchCountLabel"));
    m_error = UiKit::errorLabel(this);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);

    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Description"), m_description);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_dynamic);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_count);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(760, 420);

    m_countTimer.setSingleShot(true);
    m_countTimer.setInterval(CountDelayMs);
    connect(&m_countTimer, &QTimer::timeout, this, &SegmentDialog::recount);
    connect(m_rules, &RuleGroupWidget::changed, this, [this] { m_countTimer.start(); });
    connect(&m_counter, &BackgroundCounter::counted, this, [this](int, const QString &, qint64 n) {
        m_count->setText(n == 1 ? tr("1 contact matches now") : tr("%1 contacts match now").arg(QLocale().toString(n)));
    });
    connect(&m_counter, &BackgroundCounter::failed, this,
            [this](int, const QString &, const QString &message) { m_count->setText(message); });
    connect(buttons, &QDialogButtonBox::accepted, this, &SegmentDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SegmentDialog::reject);
    // A refusal answers what was saved; an edit makes it old.
    for (QLineEdit *edit : {m_name, m_description})
        connect(edit, &QLineEdit::textEdited, m_error, &QWidget::hide);
    connect(m_rules, &RuleGroupWidget::changed, m_error, &QWidget::hide);
}

QJsonValue SegmentDialog::filters() const
{
    const QJsonObject g = m_rules->toJson();
    if (g.value(QLatin1String("rules")).toArray().isEmpty())
        return QJsonValue(QJsonValue::Null);
    return g;
}

void SegmentDialog::recount()
{
    m_countTimer.stop();
    const QJsonValue f = filters();
    if (f.isNull()) {
        m_counter.cancel();
        m_count->setText(tr("Add a rule to see how many contacts match."));
        return;
    }
    const QList<RuleRowWidget *> rows = m_rules->findChildren<RuleRowWidget *>();
    if (std::any_of(rows.begin(), rows.end(), [](const RuleRowWidget *r) { return r->awaitsText(); })) {
        // Still being written: no refusal before the user has typed.
        m_counter.cancel();
        m_count->setText(tr("Fill in each rule to see how many contacts match."));
        return;
    }
    try {
        // Checked and compiled here, at once; counted in the worker.
        m_counter.request({BackgroundCounter::Job::of(QString(), m_segments.matching(f))});
        m_count->setText(tr("Counting…"));
    } catch (const DomainError &e) {
        m_counter.cancel();
        m_count->setText(tr("Incomplete rule: %1").arg(ErrorText::of(e)));
    } catch (const std::exception &e) {
        m_counter.cancel();
        m_count->setText(ErrorText::of(e));
    }
}

void SegmentDialog::accept()
{
    SegmentChanges changes;
    changes.name = m_name->text();
    changes.description = m_description->text();
    changes.isDynamic = m_dynamic->isChecked();
    changes.filters = filters();
    try {
        const Segment s = m_id.isEmpty() ? m_segments.create(changes) : m_segments.update(m_id, changes);
        emit segmentSaved(s.id);
        QDialog::accept();
    } catch (const std::exception &e) {
        m_error->setText(ErrorText::of(e));
        m_error->show();
    }
}
