#pragma once

#include <QStringList>
#include <QVector>

// Numbered schema migrations: migration N is applied once, in order, in one transaction, and
// PRAGMA user_version records the highest applied. Never edit a released migration: add one.
struct Migration
{
    int version;
    const char *name;
    QStringList statements;
};

const QVector<Migration> &migrations();
