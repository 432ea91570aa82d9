#include "app/startfailure.h"

#include <QCoreApplication>

StartFailureText startFailureText(const QString &why, const DatabaseFault &fault)
{
    StartFailureText words;
    words.title = QCoreApplication::translate("Startup", "Liaison cannot start");
    words.text = QCoreApplication::translate("Startup", "Liaison could not open its database.");
    switch (fault.kind) {
    case DatabaseFault::Damaged:
        words.text = QCoreApplication::translate("Startup", "The database file is damaged.");
        words.informative =
            QCoreApplication::translate(
                "Startup", "Liaison does not open a damaged database file:\n%1\n\nTo restore it, close Liaison and "
                           "run \"liaison restore --force FILE\" with a backup (the daily ones are in the data "
                           "folder's \"backups\" folder; the damaged file is kept aside), or put a backup copy of "
                           "the file in its place (and delete the files ending in -wal and -shm beside it), or save "
                           "what can still be read with the sqlite3 program's .recover command. \"liaison db "
                           "check\" reports what is damaged.\n\nDetails: %2")
                .arg(fault.path, fault.detail);
        break;
    case DatabaseFault::EmptyFile:
        words.text = QCoreApplication::translate("Startup", "The database file is empty.");
        words.informative =
            QCoreApplication::translate(
                "Startup", "The database file %1 holds 0 bytes. Liaison does not take it for a new database: your "
                           "contacts, users and keys would be gone without a word.\n\nRestore the file from a backup "
                           "copy. If this data folder is new and its first start failed, delete the empty file and "
                           "start Liaison again.")
                .arg(fault.path);
        break;
    case DatabaseFault::ReadOnly:
        words.text = QCoreApplication::translate("Startup", "The data folder is read-only.");
        words.informative =
            QCoreApplication::translate(
                "Startup", "%1 is read-only, and Liaison needs to write its database there.\n\nMake it writable for "
                           "your user, or start Liaison with another data folder (--data-dir).\n\nDetails: %2")
                .arg(fault.path, fault.detail);
        break;
    case DatabaseFault::Unusable:
        words.informative = why;
        break;
    case DatabaseFault::None:
        words.informative =
            QCoreApplication::translate(
                "Startup", "%1\n\nCheck database/url in the settings file (liaison.ini in the data directory), that "
                           "the server runs and accepts this computer, and the password in the secret store "
                           "(secrets/database.password).")
                .arg(why);
        break;
    }
    return words;
}
