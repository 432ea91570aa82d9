#pragma once

#include "model/contacts/segmentrepository.h"
#include "ui/shell/backgroundcounter.h"

#include <QDialog>
#include <QFrame>
#include <QJsonObject>
#include <QTimer>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

// One rule of the builder: field, operator and value widgets. The operator list follows the field's
// type (SegmentRules::operatorsFor) and the value widget follows both: a number box for leadScore
// and totalMessages, positive/negative/neutral for sentiment, a text line (dates: "30d" or a date)
// otherwise, two of them for between and none for isEmpty/isNotEmpty.
class RuleRowWidget : public QWidget
{
    Q_OBJECT
public:
    explicit RuleRowWidget(QWidget *parent = nullptr);
    QJsonObject toJson() const;
    void setRule(const QJsonObject &rule);
    // True while a text the rule needs (its value, a custom field's name) is still empty: the rule
    // is being written, not wrong.
    bool awaitsText() const;
    QComboBox *fieldBox() const { return m_field; }
    QComboBox *operatorBox() const { return m_operator; }
    QLineEdit *textValue() const { return m_text1; }
    QLineEdit *secondTextValue() const { return m_text2; }
    QLineEdit *customKey() const { return m_customKey; }
    QSpinBox *numberValue() const { return m_number1; }
    QComboBox *sentimentValue() const { return m_sentiment; }

signals:
    void changed();
    void removeRequested();

private:
    QString field() const;
    void updateOperators();
    void updateValueWidgets();

    QComboBox *m_field = nullptr;
    QLineEdit *m_customKey = nullptr;
    QComboBox *m_operator = nullptr;
    QLineEdit *m_text1 = nullptr;
    QLineEdit *m_text2 = nullptr;
    QSpinBox *m_number1 = nullptr;
    QSpinBox *m_number2 = nullptr;
    QComboBox *m_sentiment = nullptr;
    QLabel *m_and = nullptr;
};

// A group of rules joined by AND ("all of") or OR ("any of"); it may hold groups itself, down to
// SegmentRules::MaxDepth levels.
class RuleGroupWidget : public QFrame
{
    Q_OBJECT
public:
    explicit RuleGroupWidget(int depth = 1, QWidget *parent = nullptr);
    // { logic, rules }; rules empty when the group has none.
    QJsonObject toJson() const;
    void setGroup(const QJsonObject &group);
    RuleRowWidget *addRule();
    RuleGroupWidget *addGroup();
    void clear();
    int depth() const { return m_depth; }
    QComboBox *logicBox() const { return m_logic; }
    QList<QWidget *> items() const { return m_items; }

signals:
    void changed();
    void removeRequested();

private:
    void take(QWidget *item);

    int m_depth;
    QComboBox *m_logic = nullptr;
    QVBoxLayout *m_rows = nullptr;
    QPushButton *m_addGroup = nullptr;
    QList<QWidget *> m_items;
};

// Create or edit a segment: name, description, dynamic or static, and the rules, with a live count
// of the contacts they match (recounted SegmentDialog::CountDelayMs after the last change, in a
// worker thread: typing never waits for a count over a large table). Opened
// with open(); saving stores through SegmentRepository and shows a refusal (duplicate name, invalid
// rule) in the dialog, which stays open.
class SegmentDialog : public QDialog
{
    Q_OBJECT
public:
    static constexpr int CountDelayMs = 300;

    explicit SegmentDialog(SegmentRepository &segments, QWidget *parent = nullptr);
    SegmentDialog(SegmentRepository &segments, const Segment &segment, QWidget *parent = nullptr);

    RuleGroupWidget *rules() const { return m_rules; }
    QLineEdit *nameField() const { return m_name; }
    QCheckBox *dynamicBox() const { return m_dynamic; }
    QLabel *countLabel() const { return m_count; }
    QLabel *errorLabel() const { return m_error; }
    // The filters the widgets describe now (null when there are no rules).
    QJsonValue filters() const;

    void accept() override;

signals:
    void segmentSaved(const QString &id);

private:
    void build();
    void recount();

    SegmentRepository &m_segments;
    QString m_id;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_description = nullptr;
    QCheckBox *m_dynamic = nullptr;
    RuleGroupWidget *m_rules = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_error = nullptr;
    QTimer m_countTimer;
    BackgroundCounter m_counter;
};
