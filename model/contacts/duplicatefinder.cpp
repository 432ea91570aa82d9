#include "model/contacts/duplicatefinder.h"

#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/textfold.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <numeric>

namespace {
// The folded words of a text run together: TextFold's folding, with a quicker path for ASCII text
// (most names and companies), which folding would only lower.
QString duplicateFoldedKey(const QString &text)
{
    QString out;
    out.reserve(text.size());
    bool ascii = true;
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (u >= 0x80) {
            ascii = false;
            break;
        }
        if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9'))
            out.append(c);
        else if (u >= 'A' && u <= 'Z')
            out.append(QChar(u + 32));
    }
    if (ascii)
        return out;
    return TextFold::words(TextFold::fold(text)).join(QString());
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

struct DuplicateKeyed
{
    QString value;     // as the first contact writes it
    QVector<int> rows; // indexes into the scan
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
    return duplicateFoldedKey(firstName + QLatin1Char(' ') + lastName);
}

QString DuplicateRules::companyKey(const QString &company)
{
    return duplicateFoldedKey(company);
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
    // One hash table per rule: key -> the contacts under it.
    QHash<QString, DuplicateKeyed> byRule[3];
    static const QString rules[3] = {QStringLiteral("email"), QStringLiteral("phone"), QStringLiteral("name")};
    {
        const ReadTransaction snapshot;
        Database::select(
            QStringLiteral("SELECT seq, id, first_name, last_name, email, phone, company FROM contacts ORDER BY seq"),
            {}, [&](const SqlRow &r) {
                const int index = int(rows.size());
                rows.append({r.integer(0), r.text(1)});
                const QString first = r.text(2), last = r.text(3), email = r.text(4), phone = r.text(5),
                              company = r.text(6);
                auto put = [&](int rule, const QString &key, const QString &value) {
                    if (key.isEmpty())
                        return;
                    DuplicateKeyed &k = byRule[rule][key];
                    if (k.rows.isEmpty())
                        k.value = value;
                    k.rows.append(index);
                };
                put(0, DuplicateRules::emailKey(email), email.trimmed());
                put(1, DuplicateRules::phoneKey(phone), DuplicateRules::phoneKey(phone));
                const QString companyKey = DuplicateRules::companyKey(company);
                if (!companyKey.isEmpty()) {
                    const QString nameKey = DuplicateRules::nameKey(first, last);
                    if (!nameKey.isEmpty())
                        put(2, nameKey + QLatin1Char('\n') + companyKey,
                            (first.trimmed() + QLatin1Char(' ') + last.trimmed()).trimmed() + QStringLiteral(" · ") +
                                company.trimmed());
                }
            });
    }
    DuplicateSets sets(int(rows.size()));
    for (const auto &table : byRule) {
        for (const DuplicateKeyed &k : table) {
            for (int i = 1; i < k.rows.size(); ++i)
                sets.join(k.rows.first(), k.rows.at(i));
        }
    }
    // Groups by their root (the smallest index, which is the oldest contact: the scan is in seq order).
    QHash<int, int> groupOfRoot;
    QVector<DuplicateGroup> out;
    auto groupOf = [&](int row) -> DuplicateGroup & {
        const int root = sets.root(row);
        auto it = groupOfRoot.find(root);
        if (it == groupOfRoot.end()) {
            it = groupOfRoot.insert(root, int(out.size()));
            out.append(DuplicateGroup());
        }
        return out[*it];
    };
    for (int rule = 0; rule < 3; ++rule) {
        for (const DuplicateKeyed &k : std::as_const(byRule[rule])) {
            if (k.rows.size() < 2)
                continue;
            DuplicateMatch m{rules[rule], k.value, {}};
            for (int row : k.rows)
                m.contactIds << rows.at(row).id;
            groupOf(k.rows.first()).matches.append(m);
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
    // Within a group: e-mail, phone, then name matches, each rule's by value.
    const auto ruleIndex = [](const QString &rule) { return int(std::find(rules, rules + 3, rule) - rules); };
    for (DuplicateGroup &g : out)
        std::sort(g.matches.begin(), g.matches.end(), [&](const DuplicateMatch &a, const DuplicateMatch &b) {
            return std::make_pair(ruleIndex(a.rule), a.value) < std::make_pair(ruleIndex(b.rule), b.value);
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
        g.contactIds = present;
    }
    groups.removeIf([](const DuplicateGroup &g) { return g.contacts.size() < 2; });
}
