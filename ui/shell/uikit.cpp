#include "ui/shell/uikit.h"

#include <QAbstractSpinBox>
#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBoxLayout>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QTextEdit>
#include <QtMath>

QString UiKit::localTime(const QString &iso)
{
    if (iso.isEmpty())
        return {};
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : iso;
}

QLabel *UiKit::errorLabel(QWidget *parent, const QString &name)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // data from outside is never markup
    label->setObjectName(name);
    setTone(label, Tone::Danger);
    label->setWordWrap(true);
    label->hide();
    return label;
}

void UiKit::showError(QLabel *label, const QString &message)
{
    label->setText(message);
    label->setVisible(!message.isEmpty());
}

QTextEdit *UiKit::wrappingText(QWidget *parent, const QString &name)
{
    auto *text = new QTextEdit(parent);
    text->setObjectName(name);
    text->setReadOnly(true);
    text->setAcceptRichText(false);
    text->setFrameShape(QFrame::NoFrame);
    text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    text->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    text->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    text->viewport()->setAutoFillBackground(false);
    text->document()->setDocumentMargin(0);
    text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    text->setMinimumWidth(text->fontMetrics().averageCharWidth() * 12);
    // One line until its text is laid out (a text edit's own size hint is a box of many lines).
    text->setFixedHeight(text->fontMetrics().height());
    QObject::connect(
        text->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, text,
        [text](const QSizeF &size) { text->setFixedHeight(qMax(text->fontMetrics().height(), qCeil(size.height()))); });
    return text;
}

void UiKit::layOutRecordPage(QWidget *page, const QString &intro, QTableWidget *table, QLabel *error,
                             const QList<QPushButton *> &buttons)
{
    auto *introLabel = new QLabel(intro, page);
    introLabel->setWordWrap(true);
    auto *row = new QHBoxLayout;
    for (QPushButton *button : buttons)
        row->addWidget(button);
    row->addStretch(1);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(introLabel);
    layout->addWidget(table, 1);
    layout->addWidget(error);
    layout->addLayout(row);
}

void UiKit::oneLineRows(QTableView *table)
{
    table->setWordWrap(false);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + Space::S);
}

int UiKit::columnWidthFor(const QFontMetrics &fm, const QStringList &texts)
{
    int w = 0;
    for (const QString &t : texts)
        w = qMax(w, fm.horizontalAdvance(t));
    return w + 3 * Space::S;
}

QTableWidget *UiKit::recordTable(int columns, const QStringList &headers, const QString &name, QWidget *parent)
{
    auto *t = new QTableWidget(0, columns, parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    // Every column at least as wide as its title ("Sonraki deneme" was cut to "onraki denem" at
    // the default width), the titles in the window's language.
    for (int i = 0; i < columns; ++i)
        t->horizontalHeader()->resizeSection(
            i, qMax(t->horizontalHeader()->defaultSectionSize(), t->horizontalHeader()->sectionSizeHint(i)));
    return t;
}

QTableWidgetItem *UiKit::tableItem(const QString &text, const QString &id)
{
    auto *i = new QTableWidgetItem(text);
    i->setToolTip(text);
    if (!id.isEmpty())
        i->setData(IdRole, id);
    return i;
}

void UiKit::reselect(QTableWidget *table, const QString &id)
{
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, 0)->data(IdRole).toString() == id) {
            table->selectRow(row);
            return;
        }
    }
    if (table->rowCount() > 0)
        table->selectRow(0);
}

QString UiKit::selectedId(const QTableWidget *table)
{
    const QList<QTableWidgetItem *> selected = table->selectedItems();
    return selected.isEmpty() ? QString() : table->item(selected.first()->row(), 0)->data(IdRole).toString();
}

// ---- the look -------------------------------------------------------------------------------

namespace {
UiKit::Scheme g_scheme = UiKit::Scheme::Light;
const char *const kToneProperty = "liaisonTone";
} // namespace

qreal UiKit::typeScale(Type type)
{
    switch (type) {
    case Type::Caption:
        return 0.9;
    case Type::Body:
        return 1.0;
    case Type::Emphasis:
        return 1.05;
    case Type::Title:
        return 1.2;
    case Type::Heading:
        return 1.45;
    }
    return 1.0;
}

QFont UiKit::font(Type type)
{
    QFont f = QApplication::font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * typeScale(type));
    else
        f.setPixelSize(qRound(f.pixelSize() * typeScale(type)));
    if (type == Type::Heading)
        f.setWeight(QFont::DemiBold);
    return f;
}

void UiKit::setType(QWidget *widget, Type type)
{
    QFont f = widget->font();
    const QFont sized = font(type);
    if (sized.pointSizeF() > 0)
        f.setPointSizeF(sized.pointSizeF());
    else
        f.setPixelSize(sized.pixelSize());
    if (type == Type::Heading)
        f.setWeight(QFont::DemiBold);
    widget->setFont(f);
}

UiKit::Scheme UiKit::scheme()
{
    return g_scheme;
}

void UiKit::setScheme(Scheme scheme)
{
    g_scheme = scheme;
}

QPalette UiKit::palette(Scheme scheme)
{
    struct Colors
    {
        QColor window, base, alternate, text, muted, button, light, mid, dark, highlight, highlighted, link, tooltip,
            tooltipText, disabledText;
    };
    // Light: near-white surfaces, text #1f2328 (15:1 on white). Dark: the surfaces of today's dark
    // desktops (#1e1f22 window, #26282c fields), text #e6e7ea (13:1); the selection blue keeps white
    // text at 4.5:1 or more in both.
    const Colors c = scheme == Scheme::Dark
                         ? Colors{QColor(0x1e, 0x1f, 0x22), QColor(0x26, 0x28, 0x2c), QColor(0x2c, 0x2e, 0x33),
                                  QColor(0xe6, 0xe7, 0xea), QColor(0xa4, 0xa9, 0xb2), QColor(0x30, 0x33, 0x38),
                                  QColor(0x45, 0x48, 0x4f), QColor(0x3a, 0x3d, 0x44), QColor(0x14, 0x15, 0x17),
                                  QColor(0x2f, 0x6f, 0xdd), QColor(0xff, 0xff, 0xff), QColor(0x8a, 0xb4, 0xf8),
                                  QColor(0x30, 0x33, 0x38), QColor(0xe6, 0xe7, 0xea), QColor(0x7d, 0x82, 0x8a)}
                         : Colors{QColor(0xf5, 0xf6, 0xf8), QColor(0xff, 0xff, 0xff), QColor(0xf6, 0xf7, 0xf9),
                                  QColor(0x1f, 0x23, 0x28), QColor(0x5f, 0x66, 0x70), QColor(0xfb, 0xfb, 0xfc),
                                  QColor(0xff, 0xff, 0xff), QColor(0xd0, 0xd4, 0xda), QColor(0xa8, 0xae, 0xb7),
                                  QColor(0x25, 0x63, 0xeb), QColor(0xff, 0xff, 0xff), QColor(0x1d, 0x4e, 0xd8),
                                  QColor(0x1f, 0x23, 0x28), QColor(0xf5, 0xf6, 0xf8), QColor(0x8b, 0x91, 0x9a)};
    QPalette p;
    for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool disabled = g == QPalette::Disabled;
        p.setColor(g, QPalette::Window, c.window);
        p.setColor(g, QPalette::WindowText, disabled ? c.disabledText : c.text);
        p.setColor(g, QPalette::Base, c.base);
        p.setColor(g, QPalette::AlternateBase, c.alternate);
        p.setColor(g, QPalette::Text, disabled ? c.disabledText : c.text);
        p.setColor(g, QPalette::PlaceholderText, c.muted);
        p.setColor(g, QPalette::Button, c.button);
        p.setColor(g, QPalette::ButtonText, disabled ? c.disabledText : c.text);
        p.setColor(g, QPalette::BrightText,
                   scheme == Scheme::Dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc0, 0x39, 0x2b));
        p.setColor(g, QPalette::Light, c.light);
        p.setColor(g, QPalette::Midlight, c.mid.lighter(scheme == Scheme::Dark ? 115 : 108));
        p.setColor(g, QPalette::Mid, c.mid);
        p.setColor(g, QPalette::Dark, c.dark);
        p.setColor(g, QPalette::Shadow, scheme == Scheme::Dark ? QColor(0, 0, 0) : QColor(0x76, 0x7c, 0x85));
        p.setColor(g, QPalette::Highlight, disabled ? c.mid : c.highlight);
        p.setColor(g, QPalette::HighlightedText, disabled ? c.text : c.highlighted);
        p.setColor(g, QPalette::Link, c.link);
        p.setColor(g, QPalette::LinkVisited, c.link);
        p.setColor(g, QPalette::ToolTipBase, c.tooltip);
        p.setColor(g, QPalette::ToolTipText, c.tooltipText);
    }
    // A window in the background keeps its selection readable (not the desktop's grey).
    p.setColor(QPalette::Inactive, QPalette::Highlight, c.highlight);
    return p;
}

QColor UiKit::sidebarColor(Scheme in)
{
    return in == Scheme::Dark ? QColor(0x18, 0x19, 0x1c) : QColor(0xeb, 0xed, 0xf1);
}

void UiKit::styleSidebar(QWidget *list)
{
    list->setStyleSheet(
        QStringLiteral("QListWidget { background: %1; padding-top: %2px; }").arg(sidebarColor().name()).arg(Space::S));
}

QColor UiKit::color(Tone tone, Scheme in)
{
    const bool dark = in == Scheme::Dark;
    switch (tone) {
    case Tone::Normal:
        return palette(in).color(QPalette::Text);
    case Tone::Danger: // #c0392b: 5.4:1 on white; #ff8a80: 7:1 on #26282c
        return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc0, 0x39, 0x2b);
    case Tone::Success:
        return dark ? QColor(0x6f, 0xd6, 0x9a) : QColor(0x1e, 0x7b, 0x44);
    case Tone::Warning:
        return dark ? QColor(0xf2, 0xb8, 0x5a) : QColor(0x8a, 0x53, 0x00);
    case Tone::Accent:
        return dark ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x1d, 0x4e, 0xd8);
    case Tone::Muted:
        return dark ? QColor(0xa4, 0xa9, 0xb2) : QColor(0x5f, 0x66, 0x70);
    }
    return {};
}

namespace {
void paintTone(QWidget *widget, UiKit::Tone tone)
{
    widget->setStyleSheet(tone == UiKit::Tone::Normal ? QString()
                                                      : QStringLiteral("color: %1;").arg(UiKit::color(tone).name()));
}
} // namespace

void UiKit::setTone(QWidget *widget, Tone tone)
{
    widget->setProperty(kToneProperty, int(tone));
    paintTone(widget, tone);
}

UiKit::Tone UiKit::tone(const QWidget *widget)
{
    const QVariant v = widget->property(kToneProperty);
    return v.isValid() ? Tone(v.toInt()) : Tone::Normal;
}

void UiKit::retoneAll()
{
    for (QWidget *w : QApplication::allWidgets()) {
        const QVariant v = w->property(kToneProperty);
        if (v.isValid())
            paintTone(w, Tone(v.toInt()));
    }
}

QColor UiKit::rowColor(RowTone tone, Scheme in)
{
    const bool dark = in == Scheme::Dark;
    switch (tone) {
    case RowTone::Success:
        return dark ? QColor(0x1f, 0x3d, 0x2c) : QColor(0xd4, 0xef, 0xdf);
    case RowTone::Failure:
        return dark ? QColor(0x4a, 0x24, 0x27) : QColor(0xf8, 0xd7, 0xda);
    case RowTone::Pending:
        return dark ? QColor(0x48, 0x3a, 0x1c) : QColor(0xfd, 0xeb, 0xc8);
    }
    return {};
}

QIcon UiKit::icon(const QString &name, const QColor &color, int size)
{
    QFile file(QStringLiteral(":/icons/ui/%1.svg").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray svg = file.readAll();
    svg.replace("currentColor", color.name().toLatin1());
    QSvgRenderer renderer(svg);
    QIcon icon;
    const qreal ratio = qApp ? qApp->devicePixelRatio() : 1.0;
    for (const int s : {size, size * 2}) {
        QPixmap pixmap(QSize(s, s) * (s == size ? ratio : 1.0));
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        renderer.render(&painter);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

namespace {
// The fields a person types or picks in (not the line edit inside a combo or spin box: their
// owner is the field).
bool isField(const QWidget *w)
{
    if (qobject_cast<const QComboBox *>(w) || qobject_cast<const QAbstractSpinBox *>(w) ||
        qobject_cast<const QTextEdit *>(w) || qobject_cast<const QPlainTextEdit *>(w))
        return true;
    if (qobject_cast<const QLineEdit *>(w))
        return !qobject_cast<const QComboBox *>(w->parentWidget()) &&
               !qobject_cast<const QAbstractSpinBox *>(w->parentWidget());
    return false;
}

void collectFields(QLayoutItem *item, QList<QWidget *> *out)
{
    if (!item)
        return;
    if (QWidget *w = item->widget()) {
        if (isField(w))
            out->append(w);
        for (QWidget *child : w->findChildren<QWidget *>()) {
            if (isField(child))
                out->append(child);
        }
    } else if (QLayout *layout = item->layout()) {
        for (int i = 0; i < layout->count(); ++i)
            collectFields(layout->itemAt(i), out);
    }
}
} // namespace

void UiKit::nameFormFields(QWidget *root)
{
    for (QFormLayout *form : root->findChildren<QFormLayout *>()) {
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem *labelItem = form->itemAt(row, QFormLayout::LabelRole);
            auto *label = labelItem ? qobject_cast<QLabel *>(labelItem->widget()) : nullptr;
            if (!label)
                continue;
            QString name = label->text();
            name.remove(QLatin1Char('&'));
            name = name.trimmed();
            if (name.endsWith(QLatin1Char(':')))
                name.chop(1);
            QList<QWidget *> fields;
            collectFields(form->itemAt(row, QFormLayout::FieldRole), &fields);
            for (int i = 0; i < fields.size(); ++i) {
                QWidget *field = fields.at(i);
                if (i == 0 && !label->buddy())
                    label->setBuddy(field);
                if (field->accessibleName().isEmpty()) {
                    QString detail = field->toolTip();
                    if (auto *edit = qobject_cast<QLineEdit *>(field); edit && detail.isEmpty())
                        detail = edit->placeholderText();
                    if (i == 0)
                        field->setAccessibleName(name);
                    else if (!detail.isEmpty())
                        field->setAccessibleName(QStringLiteral("%1: %2").arg(name, detail));
                    else
                        field->setAccessibleName(QStringLiteral("%1 (%2)").arg(name).arg(i + 1));
                }
                auto *combo = qobject_cast<QComboBox *>(field);
                if (combo && combo->lineEdit() && combo->lineEdit()->accessibleName().isEmpty())
                    combo->lineEdit()->setAccessibleName(field->accessibleName());
            }
        }
    }
}
