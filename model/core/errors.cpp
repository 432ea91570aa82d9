#include "model/core/errors.h"

QString ModelText::fill(const QString &pattern, const QStringList &args)
{
    QString out;
    out.reserve(pattern.size());
    const qsizetype n = pattern.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = pattern.at(i);
        if (c == QLatin1Char('%') && i + 1 < n && pattern.at(i + 1).isDigit()) {
            qsizetype j = i + 1;
            int number = 0;
            while (j < n && j < i + 3 && pattern.at(j).isDigit())
                number = number * 10 + pattern.at(j++).digitValue();
            if (number >= 1 && number <= args.size()) {
                out += args.at(number - 1);
                i = j - 1;
                continue;
            }
        }
        out += c;
    }
    return out;
}

namespace {
QString englishArg(const ModelTextArg &a)
{
    switch (a.type()) {
    case ModelTextArg::Data:
    case ModelTextArg::Field:
        return a.value();
    case ModelTextArg::Text:
        return a.text().english();
    case ModelTextArg::List: {
        QStringList items;
        for (const ModelTextArg &item : a.items())
            items << englishArg(item);
        return items.join(a.value());
    }
    }
    return {};
}
} // namespace

QString ModelText::english() const
{
    if (!m_source)
        return {};
    QStringList filled;
    filled.reserve(qsizetype(m_args.size()));
    for (const Arg &a : m_args)
        filled << englishArg(a);
    return fill(QString::fromUtf8(m_source), filled);
}

namespace {
std::string englishOf(const ModelText &text)
{
    return text.english().toStdString();
}
} // namespace

DomainError::DomainError(Kind kind, QString code, ModelText text, FieldProblems problems, QJsonObject data)
    : std::runtime_error(englishOf(text))
    , m_kind(kind)
    , m_code(std::move(code))
    , m_text(std::move(text))
    , m_message(QString::fromStdString(what()))
    , m_problems(std::move(problems))
    , m_data(std::move(data))
    , m_details(m_data)
{
    for (auto it = m_problems.cbegin(); it != m_problems.cend(); ++it)
        m_details.insert(it.key(), it.value().english());
}

ModelTextArg DomainError::problemList(const FieldProblems &problems)
{
    std::vector<ModelTextArg> items;
    for (auto it = problems.cbegin(); it != problems.cend(); ++it)
        items.emplace_back(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 %2"), {ModelTextArg::field(it.key()), it.value()}));
    return ModelTextArg::list(std::move(items), QStringLiteral("; "));
}

DomainError DomainError::invalid(const FieldProblems &problems)
{
    return badRequest(ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1"), {problemList(problems)}),
                      problems);
}

DomainError DomainError::missing(const FieldProblems &problems)
{
    return unprocessable(
        ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: %1"), {problemList(problems)}), problems);
}

ModelTextArg DomainError::fieldList(const FieldProblems &problems)
{
    std::vector<ModelTextArg> names;
    for (auto it = problems.cbegin(); it != problems.cend(); ++it)
        names.push_back(ModelTextArg::field(it.key()));
    return ModelTextArg::list(std::move(names), QStringLiteral(", "));
}

DomainError DomainError::invalidFields(const FieldProblems &problems)
{
    return badRequest(ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1"), {fieldList(problems)}), problems);
}

DomainError DomainError::missingFields(const FieldProblems &problems)
{
    return unprocessable(
        ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: %1"), {fieldList(problems)}), problems);
}

ModelText DomainError::isRequired()
{
    return ModelText(QT_TRANSLATE_NOOP("ModelError", "is required"));
}

DomainError DomainError::notFound(const char *what, const QString &id)
{
    return DomainError(NotFound, QStringLiteral("NOT_FOUND"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 %2 does not exist"), {ModelText(what), id}));
}
