#pragma once

#include <QColor>
#include <QFont>
#include <QIcon>
#include <QPalette>
#include <QString>
#include <QStringList>
#include <Qt>

class QLabel;
class QPushButton;
class QFontMetrics;
class QTableView;
class QTableWidget;
class QTableWidgetItem;
class QTextEdit;
class QWidget;

// Small pieces every view of the window shares, so that they look and behave alike.
namespace UiKit {
// The role of a record table's first cell that holds the record's id.
constexpr int IdRole = Qt::UserRole + 1;

// The look, in one place (docs/architecture.md, "Look"): the spacing scale, the type sizes, the
// light and dark palettes and the few colours with a meaning. Theme (ui/shell/theme.h) chooses the
// scheme and applies it; every view takes its margins, gaps, sizes and colours from here.

// The spacing scale: every margin and gap of the window is one of these (pixels).
namespace Space {
constexpr int XS = 4;  // inside a control: an icon and its text, a badge's padding
constexpr int S = 8;   // between controls of one row or group
constexpr int M = 12;  // an area's margins; between groups
constexpr int L = 16;  // between sections
constexpr int XL = 24; // around an empty state
} // namespace Space

// Type sizes, as factors of the body text. The body is the desktop's font, at least kMinBodyPoints
// (a 9 pt default is small on a 1920 × 1080 screen at arm's length).
enum class Type
{
    Caption, // secondary lines, counts
    Body,
    Emphasis, // the navigation's names
    Title,    // an empty state's sentence
    Heading,
};
constexpr qreal kMinBodyPoints = 10;
qreal typeScale(Type type);
// The application font at this size (bold for Heading).
QFont font(Type type);
// Sets a widget's font to this type size (keeps its family and weight, except Heading's bold).
void setType(QWidget *widget, Type type);

// The two schemes; scheme() is the one in force (Light until Theme applies another).
enum class Scheme
{
    Light,
    Dark
};
Scheme scheme();
void setScheme(Scheme scheme); // Theme's: the palette of the application is set with it
QPalette palette(Scheme scheme);

// The background of a side list (the window's navigation, Settings' pages): a shade off the window.
QColor sidebarColor(Scheme in = scheme());
// That list styled as a side list (its background and top padding), again at each scheme change.
void styleSidebar(QWidget *list);

// Colours that mean something, readable on the scheme's base and window colours (contrast at least
// 4.5:1 for text).
enum class Tone
{
    Normal, // the palette's text: no tone
    Danger, // errors, overdue, refusals
    Success,
    Warning,
    Accent, // the selection colour: links, counts of unread
    Muted,  // secondary text
};
QColor color(Tone tone, Scheme in = scheme());
// A label's text in this tone, kept when the scheme changes (Theme tones every marked widget anew).
void setTone(QWidget *widget, Tone tone);
Tone tone(const QWidget *widget);
// Re-tones every widget marked with setTone (after a scheme change).
void retoneAll();

// Row backgrounds of a delivery or call log: succeeded, failed, still pending.
enum class RowTone
{
    Success,
    Failure,
    Pending
};
QColor rowColor(RowTone tone, Scheme in = scheme());

// One of the window's line icons (resources/icons/ui/<name>.svg, drawn in currentColor) in this
// colour, `size` pixels square (and twice that for high-density screens).
QIcon icon(const QString &name, const QColor &color, int size = 20);

// An ISO 8601 time ("2026-11-26T09:30:00.000Z") in the window's locale and the machine's zone,
// short format; empty stays empty, an unreadable value is shown as it is.
QString localTime(const QString &iso);

// The hidden red label of a form or page error (objectName `name`); showError() fills and shows it,
// an empty message hides it.
QLabel *errorLabel(QWidget *parent, const QString &name = QStringLiteral("errorLabel"));
void showError(QLabel *label, const QString &message);

// Gives every field of the forms (QFormLayout) under root the name a screen reader reads: its row's
// label, also when the field sits in a cell with its error labels or beside another field (where
// Qt finds no buddy): the row's label becomes the first field's buddy (its mnemonic too), each field
// without an accessible name gets the label's text (the second and later ones of a row their
// tooltip or placeholder after it, else their place: "Due date (2)"), and an editable combo box's
// line edit the combo box's name. Call it at the end of a dialog's constructor.
void nameFormFields(QWidget *root);

// Plain text shown as a label is, but wrapped anywhere (an e-mail address has no space to wrap at,
// and a label cut it in the middle), selectable and copied whole, as tall as its text: never wider
// than its place, so it does not widen the window (objectName `name`; setPlainText() fills it).
QTextEdit *wrappingText(QWidget *parent, const QString &name);

// A Settings page that lists records, laid out as they all are: what it is for (`intro`, wrapped), the
// table taking the height, the page's error, then its buttons in a row from the left.
void layOutRecordPage(QWidget *page, const QString &intro, QTableWidget *table, QLabel *error,
                      const QList<QPushButton *> &buttons);

// A read-only table of records, one selected row at a time, the last column stretched.
QTableWidget *recordTable(int columns, const QStringList &headers, const QString &name, QWidget *parent);
// One line a row, of the font's height: a page of records reads at a glance (long values are cut,
// their tooltips whole).
void oneLineRows(QTableView *table);
// The width of a short column that holds the widest of texts, with its margins.
int columnWidthFor(const QFontMetrics &fm, const QStringList &texts);
// A cell whose tooltip repeats its text (columns cut long values); with an id, the row's record.
QTableWidgetItem *tableItem(const QString &text, const QString &id = {});
// Selects the row of the record with this id, else the first row.
void reselect(QTableWidget *table, const QString &id);
// The id of the selected row's record (its first cell's IdRole); empty when no row is selected.
QString selectedId(const QTableWidget *table);
} // namespace UiKit
