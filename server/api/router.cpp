#include "router.h"

#include <QUrl>

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

void Router::add(const QByteArray &method, const QString &pattern, Handler handler, Access access, RouteDoc doc)
{
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
    Q_ASSERT(!node->methods.count(method));
    node->methods[method] = int(m_routes.size());
    m_routes.append(Route{method, pattern, std::move(handler), std::move(access), std::move(doc)});
}

Router::Match Router::match(const QByteArray &method, const QByteArray &path) const
{
    Match result;
    QStringList segments;
    for (const QByteArray &raw : path.split('/')) {
        if (!raw.isEmpty())
            segments << QUrl::fromPercentEncoding(raw);
    }

    // Depth-first with literals tried before the parameter; the first node that ends the path
    // and has any method decides (so that 405 is answered for a known path).
    struct Frame
    {
        const Node *node;
        int depth;
        QHash<QString, QString> params;
    };
    QVector<Frame> stack{{m_root.get(), 0, {}}};
    const Node *found = nullptr;
    QHash<QString, QString> foundParams;
    while (!stack.isEmpty()) {
        Frame f = stack.takeLast();
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
            next.params.insert(f.node->paramName, segment);
            stack.append(next);
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
    result.params = foundParams;
    return result;
}
