#include "server/api/router.h"

#include <QRegularExpression>
#include <QUrl>
#include <QVarLengthArray>

#include <map>

struct Router::Node
{
    std::map<QString, std::unique_ptr<Node>> literals;
    std::unique_ptr<Node> param;
    QString paramName;
    std::map<QByteArray, int> methods; // method -> index in m_routes
};

Router::Router()
    : m_root(std::make_unique<Node>())
{
}

Router::~Router() = default;

QString Router::problemWith(const QByteArray &method, const QString &pattern, const QString &operationId,
                            const RouteDoc &doc) const
{
    // camelCase: a lower-case letter first, then letters and digits ("listContacts", "getOpenApiDocument").
    static const QRegularExpression camelCase(QStringLiteral("^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$"));
    if (operationId.isEmpty())
        return QStringLiteral("no operationId");
    if (!camelCase.match(operationId).hasMatch())
        return QStringLiteral("operationId \"%1\" is not camelCase").arg(operationId);
    if (doc.summary.trimmed().isEmpty())
        return QStringLiteral("no summary");
    if (doc.summary.contains(QLatin1Char('\n')))
        return QStringLiteral("a summary of more than one line");
    if (doc.summary.size() > RouteDoc::kMaxSummary)
        return QStringLiteral("a summary of more than %1 characters (the rest goes in the description)")
            .arg(RouteDoc::kMaxSummary);
    for (const Route &route : m_routes) {
        if (route.operationId == operationId)
            return QStringLiteral("operationId \"%1\" is taken by %2 %3")
                .arg(operationId, QString::fromLatin1(route.method), route.pattern);
        if (route.method == method && route.pattern == pattern)
            return QStringLiteral("registered twice");
    }
    return {};
}

void Router::add(const QByteArray &method, const QString &pattern, const char *operationId, Handler handler,
                 Access access, RouteDoc doc)
{
    const QString id = QString::fromLatin1(operationId);
    const QString problem = problemWith(method, pattern, id, doc);
    if (!problem.isEmpty())
        qFatal("Router: %s %s refused: %s", method.constData(), qPrintable(pattern), qPrintable(problem));
    Node *node = m_root.get();
    const QStringList segments = pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &segment : segments) {
        if (segment.startsWith(QLatin1Char(':'))) {
            if (!node->param) {
                node->param = std::make_unique<Node>();
                node->paramName = segment.mid(1);
            }
            Q_ASSERT(node->paramName == segment.mid(1));
            node = node->param.get();
        } else {
            auto &child = node->literals[segment];
            if (!child)
                child = std::make_unique<Node>();
            node = child.get();
        }
    }
    node->methods[method] = int(m_routes.size());
    m_routes.append(Route{method, pattern, id, std::move(handler), std::move(access), std::move(doc)});
}

Router::Match Router::match(const QByteArray &method, const QByteArray &path) const
{
    Match result;
    // The segments, split in place; only a segment holding '%' goes through percent-decoding.
    QVarLengthArray<QString, 8> segments;
    for (qsizetype start = 0; start < path.size();) {
        qsizetype end = path.indexOf('/', start);
        if (end < 0)
            end = path.size();
        if (end > start) {
            const QByteArrayView raw(path.constData() + start, end - start);
            segments.append(raw.contains('%') ? QUrl::fromPercentEncoding(raw.toByteArray()) : QString::fromUtf8(raw));
        }
        start = end + 1;
    }

    // Depth-first with literals tried before the parameter; the first node that ends the path
    // and has any method decides (so that 405 is answered for a known path). A frame keeps its
    // parameters as (name, segment index) pairs; the hash is built once, for the match.
    struct Frame
    {
        const Node *node;
        int depth;
        QVarLengthArray<std::pair<const QString *, int>, 4> params;
    };
    QVarLengthArray<Frame, 8> stack;
    stack.append({m_root.get(), 0, {}});
    const Node *found = nullptr;
    QVarLengthArray<std::pair<const QString *, int>, 4> foundParams;
    while (!stack.isEmpty()) {
        Frame f = std::move(stack.last());
        stack.removeLast();
        if (f.depth == segments.size()) {
            if (!f.node->methods.empty()) {
                found = f.node;
                foundParams = f.params;
                break;
            }
            continue;
        }
        const QString &segment = segments.at(f.depth);
        // Pushed in reverse priority: the literal child is popped first.
        if (f.node->param) {
            Frame next{f.node->param.get(), f.depth + 1, f.params};
            next.params.append({&f.node->paramName, f.depth});
            stack.append(std::move(next));
        }
        auto it = f.node->literals.find(segment);
        if (it != f.node->literals.end())
            stack.append({it->second.get(), f.depth + 1, f.params});
    }
    if (!found)
        return result;
    const QByteArray m = method == "HEAD" ? QByteArray("GET") : method;
    auto it = found->methods.find(m);
    if (it == found->methods.end()) {
        for (const auto &entry : found->methods)
            result.allowedMethods << entry.first;
        if (found->methods.count("GET"))
            result.allowedMethods << "HEAD";
        return result;
    }
    result.route = &m_routes.at(it->second);
    for (const auto &[name, index] : foundParams)
        result.params.insert(*name, segments.at(index));
    return result;
}
