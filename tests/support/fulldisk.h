#pragma once

// A full disk under the SQLite database, without a mount: the file's free pages are used up, then
// PRAGMA max_page_count caps it at its size, on this thread's connection (the test's, and the test
// server's, which runs on the same thread). SQLite then answers a write that needs a new page with
// SQLITE_FULL, the code its Unix layer gives for the ENOSPC of a full disk, on the same path (the
// statement's or the COMMIT's step). SQLite only.
#include "model/core/database.h"

#include <QSqlQuery>
#include <QtTest>

namespace FullDisk {
inline qint64 pragma(const QString &sql)
{
    QSqlQuery q = Database::exec(sql);
    return q.next() ? q.value(0).toLongLong() : -1;
}

// True when the cap is set and no free page is left.
inline bool fill()
{
    Database::exec(QStringLiteral("CREATE TABLE IF NOT EXISTS test_filler (b BLOB)"));
    const qint64 pageSize = pragma(QStringLiteral("PRAGMA page_size"));
    const qint64 freePages = pragma(QStringLiteral("PRAGMA freelist_count"));
    if (freePages > 0)
        Database::exec(QStringLiteral("INSERT INTO test_filler VALUES (zeroblob(?))"), {freePages * pageSize});
    const qint64 pages = pragma(QStringLiteral("PRAGMA page_count"));
    return pragma(QStringLiteral("PRAGMA max_page_count = %1").arg(pages)) == pages &&
           pragma(QStringLiteral("PRAGMA freelist_count")) == 0;
}

inline void free()
{
    pragma(QStringLiteral("PRAGMA max_page_count = 1073741823"));
}

// Custom fields of about 12 KB (within the bounds): the row needs overflow pages, so new pages,
// whatever room the table's pages have left.
inline QJsonObject bigCustomFields()
{
    QJsonObject fields;
    for (int i = 0; i < 12; ++i)
        fields.insert(QStringLiteral("alan%1").arg(i), QString(1000, QLatin1Char('a' + i)));
    return fields;
}
} // namespace FullDisk
