#pragma once

#include "model/contacts/contact.h"
#include "model/core/store.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>

// Why contacts are taken for one person (docs/api.md, "Duplicates and merge"):
// - email: the same e-mail address, without case;
// - phone: the same number in E.164 (national numbers read with contacts/defaultCallingCode);
// - name: the same name and the same company, each compared as its folded words (without case,
//   accents, the dot of the Turkish i, spaces or punctuation: "Işık Çelik" at "Anadolu Yazılım A.Ş."
//   and "ISIK CELIK" at "anadolu yazilim AŞ" match). A name without a company matches nothing:
//   two "Ahmet Yılmaz" with no company are as likely two people.
namespace DuplicateRules {
QString emailKey(const QString &email);
QString phoneKey(const QString &phone);
QString nameKey(const QString &firstName, const QString &lastName);
QString companyKey(const QString &company);
// The rules by which a and b match ("email", "phone", "name"), in that order; empty: none.
QStringList matches(const Contact &a, const Contact &b);
} // namespace DuplicateRules

struct DuplicateMatch
{
    QString rule; // email, phone or name
    // What they share: the e-mail or E.164 phone; for a name, as the first of them writes it
    // ("Işık Çelik · Anadolu Yazılım"), filled in by DuplicateFinder::load.
    QString value;
    QStringList contactIds;

    QJsonObject toJson() const;
};

// Contacts linked by any rule, through one another (A shares B's e-mail, B has C's name and company:
// one group of three). contactIds oldest first (by seq; after DuplicateFinder::load, which fills
// contacts, by creation time).
struct DuplicateGroup
{
    QStringList contactIds;
    QVector<DuplicateMatch> matches;
    QVector<Contact> contacts;
    qint64 newestSeq = 0;

    // The contact a merge keeps unless told otherwise: the oldest (the one other systems most
    // likely link to).
    QString suggestedKeepId() const { return contactIds.value(0); }
};

// Finds the groups of duplicate contacts. One read of every contact's e-mail, E.164 phone and
// stored folded name and company (the sort keys, migration 19: nothing is folded during the scan),
// each put under its keys in hash tables (linear in the contacts, never pairs of rows: 100,000
// contacts in docs/performance.md); the groups' contacts are then read by id.
class DuplicateFinder
{
public:
    explicit DuplicateFinder(const Store &store);

    // Every group, the newest contact's group first; contacts not loaded.
    QVector<DuplicateGroup> groups() const;
    // The contacts of these groups, read as they are now (a contact gone since is left out, and a
    // group left with one contact is dropped).
    void load(QVector<DuplicateGroup> &groups) const;

private:
    Store m_store;
};
