#include "model/contacts/duplicatefinder.h"

#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/textfold.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <numeric>

namespace {
// The letters and digits of folded text run together (TextFold::words, joined). The contacts' stored
// sort keys (name_sort, company_sort: TextFold::fold of the trimmed text, U+10FFFF for a blank one)
// are that folding already, so the scan of every contact folds nothing.
QString duplicateKeyOfFolded(const QString &folded)
{
    QString out;
    out.reserve(folded.size());
    for (QChar c : folded) {
        const char16_t u = c.unicode();
        if (u < 0x80) {
            if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9'))
                out.append(c);
        } else if (c.isLetterOrNumber()) {
            out.append(c);
        }
    }
    return out;
}

// Union-find over the scanned contacts' indexes.
struct DuplicateSets
{
    QVector<int> parent;

    explicit DuplicateSets(int n)
        : parent(n)
    {
        std::iota(parent.begin(), parent.end(), 0);
    }
    int root(int i)
    {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }
    void join(int a, int b)
    {
        a = root(a);
        b = root(b);
        if (a != b)
            parent[std::max(a, b)] = std::min(a, b);
    }
};

struct DuplicateRow
{
    qint64 seq = 0;
    QString id;
};

// One rule's keys: the first contact (row of the scan) under each key, and each later contact
// under a key already taken (rare: only duplicates) with that first row. Small values, reserved
// once: the tables of 100,000 keys were most of the scan's time while they held vectors.
struct DuplicateRule
{
    QHash<QString, int> first;
    QVector<std::pair<int, int>> links; // (first row, row)
    QHash<int, QString> keyOf;          // first row -> its key, for the links' first rows only

    void put(const QString &key, int row)
    {
        if (key.isEmpty())
            return;
        const auto it = first.constFind(key);
        if (it == first.constEnd()) {
            first.insert(key, row);
            return;
        }
        links.append({*it, row});
        keyOf.insert(*it, key);
    }
};
} // namespace

QString DuplicateRules::emailKey(const QString &email)
{
    return email.trimmed().toLower();
}

QString DuplicateRules::phoneKey(const QString &phone)
{
    return phone.trimmed().isEmpty() ? QString() : ContactRules::toE164(phone);
}

QString DuplicateRules::nameKey(const QString &firstName, const QString &lastName)
{
    return duplicateKeyOfFolded(TextFold::fold(firstName.trimmed() + QLatin1Char(' ') + lastName.trimmed()));
}

QString DuplicateRules::companyKey(const QString &company)
{
    return duplicateKeyOfFolded(TextFold::fold(company.trimmed()));
}

QStringList DuplicateRules::matches(const Contact &a, const Contact &b)
{
    QStringList rules;
    const QString email = emailKey(a.email);
    if (!email.isEmpty() && email == emailKey(b.email))
        rules << QStringLiteral("email");
    const QString phone = phoneKey(a.phone);
    if (!phone.isEmpty() && phone == phoneKey(b.phone))
        rules << QStringLiteral("phone");
    const QString name = nameKey(a.firstName, a.lastName);
    const QString company = companyKey(a.company);
    if (!name.isEmpty() && !company.isEmpty() && name == nameKey(b.firstName, b.lastName) &&
        company == companyKey(b.company))
        rules << QStringLiteral("name");
    return rules;
}

QJsonObject DuplicateMatch::toJson() const
{
    return {{QStringLiteral("rule"), rule},
            {QStringLiteral("value"), value},
            {QStringLiteral("contactIds"), QJsonArray::fromStringList(contactIds)}};
}

DuplicateFinder::DuplicateFinder(const Store &store)
    : m_store(store)
{
}

QVector<DuplicateGroup> DuplicateFinder::groups() const
{
    QVector<DuplicateRow> rows;
    DuplicateRule byRule[3];
    static const QString rules[3] = {QStringLiteral("email"), QStringLiteral("phone"), QStringLiteral("name")};
    {
        const ReadTransaction snapshot;
        qint64 count = 0;
        Database::select(QStringLiteral("SELECT count(*) FROM contacts"), {},
                         [&count](const SqlRow &r) { count = r.integer(0); });
        rows.reserve(count);
        for (DuplicateRule &rule : byRule)
            rule.first.reserve(count);
        Database::select(
            QStringLiteral("SELECT seq, id, email_norm, phone, phone_e164, name_sort, company_sort FROM contacts "
                           "ORDER BY seq"),
            {}, [&](const SqlRow &r) {
                const int index = int(rows.size());
                rows.append({r.integer(0), r.text(1)});
                byRule[0].put(r.text(2), index); // the stored e-mail in lower case, as emailKey() reads it
                // The E.164 form stored with the phone; read again only where none was stored.
                const QString e164 = r.text(4);
                byRule[1].put(e164.isEmpty() ? DuplicateRules::phoneKey(r.text(3)) : e164, index);
                const QString company = duplicateKeyOfFolded(r.text(6));
                if (company.isEmpty())
                    return; // no company: no name match
                const QString name = duplicateKeyOfFolded(r.text(5));
                if (!name.isEmpty())
                    byRule[2].put(name + QLatin1Char('\n') + company, index);
            });
    }
    DuplicateSets sets(int(rows.size()));
    for (const DuplicateRule &rule : byRule) {
        for (const auto &[first, row] : rule.links)
            sets.join(first, row);
    }
    // Groups by their root (the smallest index, which is the oldest contact: the scan is in seq order).
    QHash<int, int> groupOfRoot;
    QVector<DuplicateGroup> out;
    for (int rule = 0; rule < 3; ++rule) {
        // The contacts under each duplicated key, in scan order.
        QHash<int, QVector<int>> members;
        for (const auto &[first, row] : byRule[rule].links) {
            QVector<int> &m = members[first];
            if (m.isEmpty())
                m.append(first);
            m.append(row);
        }
        for (auto it = members.cbegin(); it != members.cend(); ++it) {
            // Emails and phones are shown as their key; a name match's words are filled in by load().
            DuplicateMatch m{rules[rule], rule == 2 ? QString() : byRule[rule].keyOf.value(it.key()), {}};
            for (int row : it.value())
                m.contactIds << rows.at(row).id;
            const int root = sets.root(it.key());
            auto g = groupOfRoot.find(root);
            if (g == groupOfRoot.end()) {
                g = groupOfRoot.insert(root, int(out.size()));
                out.append(DuplicateGroup());
            }
            out[*g].matches.append(m);
        }
    }
    // Each group's contacts in seq order: walk the rows once.
    for (int row = 0; row < rows.size(); ++row) {
        const auto it = groupOfRoot.constFind(sets.root(row));
        if (it == groupOfRoot.constEnd())
            continue;
        DuplicateGroup &g = out[*it];
        g.contactIds << rows.at(row).id;
        g.newestSeq = std::max(g.newestSeq, rows.at(row).seq);
    }
    // Within a group: e-mail, phone, then name matches, each rule's by its first contact.
    const auto ruleIndex = [](const QString &rule) { return int(std::find(rules, rules + 3, rule) - rules); };
    for (DuplicateGroup &g : out)
        std::sort(g.matches.begin(), g.matches.end(), [&](const DuplicateMatch &a, const DuplicateMatch &b) {
            return std::make_pair(ruleIndex(a.rule), g.contactIds.indexOf(a.contactIds.value(0))) <
                   std::make_pair(ruleIndex(b.rule), g.contactIds.indexOf(b.contactIds.value(0)));
        });
    std::sort(out.begin(), out.end(),
              [](const DuplicateGroup &a, const DuplicateGroup &b) { return a.newestSeq > b.newestSeq; });
    return out;
}

void DuplicateFinder::load(QVector<DuplicateGroup> &groups) const
{
    const ContactRepository contacts(m_store);
    const ReadTransaction snapshot;
    for (DuplicateGroup &g : groups) {
        g.contacts.clear();
        QStringList present;
        for (const QString &id : std::as_const(g.contactIds)) {
            if (std::optional<Contact> c = contacts.find(id)) {
                g.contacts.append(*c);
                present << id;
            }
        }
        // Oldest first by creation (an undone merge's contacts come back with new seqs, not new dates).
        std::stable_sort(g.contacts.begin(), g.contacts.end(),
                         [](const Contact &a, const Contact &b) { return a.createdAt < b.createdAt; });
        present.clear();
        for (const Contact &c : std::as_const(g.contacts))
            present << c.id;
        g.contactIds = present;
        // A name match is shown as its first contact writes it ("Işık Çelik · Anadolu Yazılım").
        for (DuplicateMatch &m : g.matches) {
            if (m.rule != QLatin1String("name") || !m.value.isEmpty())
                continue;
            for (const Contact &c : std::as_const(g.contacts)) {
                if (m.contactIds.contains(c.id)) {
                    m.value = (c.firstName.trimmed() + QLatin1Char(' ') + c.lastName.trimmed()).trimmed() +
                              QStringLiteral(" · ") + c.company.trimmed();
                    break;
                }
            }
        }
    }
    groups.removeIf([](const DuplicateGroup &g) { return g.contacts.size() < 2; });
}
