#pragma once

#include "model/core/databasecheck.h"

#include <QString>

// What the window says when it cannot open its data, in the window's language: a wrong
// database/url, a refused connection, a server too old (why: the command line's line), or a
// damaged, empty or read-only SQLite file (fault), each with what to do about it.
struct StartFailureText
{
    QString title;
    QString text;
    QString informative;
};
StartFailureText startFailureText(const QString &why, const DatabaseFault &fault);
