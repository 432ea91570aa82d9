#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <Qt>

class QLabel;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;
class QTextEdit;
class QWidget;

// Small pieces every view of the window shares, so that they look and behave alike.
namespace UiKit {
// The role of a record table's first cell that holds the record's id.
constexpr int IdRole = Qt::UserRole + 1;
// Row backgrounds of a delivery or call log: succeeded, failed, still pending.
inline const QColor kSuccess{0xd4, 0xef, 0xdf};
inline const QColor kFailure{0xf8, 0xd7, 0xda};
inline const QColor kPending{0xfd, 0xeb, 0xc8};

// An ISO 8601 time ("2026-11-26T09:30:00.000Z") in the window's locale and the machine's zone,
// short format; empty stays empty, an unreadable value is shown as it is.
QString localTime(const QString &iso);

// The hidden red label of a form or page error (objectName `name`); showError() fills and shows it,
// an empty message hides it.
QLabel *errorLabel(QWidget *parent, const QString &name = QStringLiteral("errorLabel"));
void showError(QLabel *label, const QString &message);

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
// A cell whose tooltip repeats its text (columns cut long values); with an id, the row's record.
QTableWidgetItem *tableItem(const QString &text, const QString &id = {});
// Selects the row of the record with this id, else the first row.
void reselect(QTableWidget *table, const QString &id);
// The id of the selected row's record (its first cell's IdRole); empty when no row is selected.
QString selectedId(const QTableWidget *table);
} // namespace UiKit
