#pragma once

#include <QObject>
#include <QString>

// A full disk under the database. SQLite answers a write that needs space it cannot get with
// SQLITE_FULL (its Unix layer turns the ENOSPC of write() into that code; PRAGMA max_page_count
// reached gives the same code on the same path), PostgreSQL with SQLSTATE 53100 (disk_full).
// Database turns both into a DomainError of kind StorageFull (the API's STORAGE_FULL; the
// window's words for it): the write is not saved, reads go on, and nothing else changes, so that
// the first write that commits once space is freed ends the state by itself.
//
// The log says so at most once a minute (with how many writes were refused), not once per refused
// write, and "takes writes again" once after each such line when a write commits; changed() tells
// the window, whose status bar shows it until a write commits again. A nearly full disk may take a
// small write between refused ones: the status bar then comes and goes, the log stays quiet.
class StorageHealth : public QObject
{
    Q_OBJECT

public:
    // The one instance, for connecting to changed() (emitted on the thread that saw the change).
    static StorageHealth &instance();

    static constexpr const char *kCode = "STORAGE_FULL";
    // The refusal's text: a template of the window's catalogue (ui/shell/errortext.cpp), and the API's message.
    static const char *const kMessage;

    // Marks the disk full, logs (at most once a minute) and throws the StorageFull refusal. where:
    // what failed, for the log only ("commit failed: database or disk is full").
    [[noreturn]] static void refuseWrite(const QString &where);
    // A write committed: the disk took it, the state ends (cheap when it was not full).
    static void noteCommitted();
    static bool isFull();
    // Writes refused since start (tests, the log).
    static int refusedWrites();
    // Forgets the state and when the log last spoke (tests: each case starts as a fresh process).
    static void reset();

Q_SIGNALS:
    void changed(bool full);
};
