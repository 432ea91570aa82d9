#include "model/contacts/contactexport.h"

#include "model/core/csv.h"

#include <QJsonArray>
#include <QJsonDocument>

ContactExport::ContactExport(const Store &store, const ContactQuery &query)
    : m_contacts(store)
    , m_query(query)
{
    m_seqs = m_contacts.seqsOf(query, &m_customKeys);
}

QByteArray ContactExport::next()
{
    if (!m_headerDone) {
        m_headerDone = true;
        QStringList header{QStringLiteral("id"),
                           QStringLiteral("firstName"),
                           QStringLiteral("lastName"),
                           QStringLiteral("email"),
                           QStringLiteral("phone"),
                           QStringLiteral("company"),
                           QStringLiteral("position"),
                           QStringLiteral("source"),
                           QStringLiteral("tags"),
                           QStringLiteral("leadScore"),
                           QStringLiteral("address.street"),
                           QStringLiteral("address.city"),
                           QStringLiteral("address.country")};
        for (const QString &key : std::as_const(m_customKeys))
            header << QStringLiteral("customFields.") + key;
        header << QStringLiteral("createdAt") << QStringLiteral("updatedAt");
        return QByteArray("\xEF\xBB\xBF") + Csv::line(header).toUtf8();
    }
    if (m_next >= m_seqs.size())
        return {};
    ContactQuery q;
    q.sort = m_query.sort;
    q.limit = kChunkRows;
    q.searchSeqs = m_seqs.mid(m_next, kChunkRows);
    m_next += q.searchSeqs->size();
    QString out;
    for (const Contact &c : m_contacts.listPage(q)) {
        QStringList row{c.id,
                        c.firstName,
                        c.lastName,
                        c.email,
                        c.phone,
                        c.company,
                        c.position,
                        c.source,
                        c.tags.join(QStringLiteral("; ")),
                        QString::number(c.leadScore),
                        c.address.value(QLatin1String("street")).toString(),
                        c.address.value(QLatin1String("city")).toString(),
                        c.address.value(QLatin1String("country")).toString()};
        for (const QString &key : std::as_const(m_customKeys)) {
            const QJsonValue v = c.customFields.value(key);
            row << (v.isString() ? v.toString()
                    : v.isUndefined() || v.isNull()
                        ? QString()
                        : QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                              .mid(1)
                              .chopped(1));
        }
        row << c.createdAt << c.updatedAt;
        out += Csv::line(row);
    }
    return out.toUtf8();
}

QByteArray ContactExport::all()
{
    QByteArray out;
    while (!atEnd())
        out += next();
    return out;
}
