#include "messaging/mail/mailmessage.h"

#include <QHash>

namespace {
QString htmlEntity(const QString &name)
{
    static const QHash<QString, QString> named = {
        {QStringLiteral("amp"), QStringLiteral("&")},
        {QStringLiteral("lt"), QStringLiteral("<")},
        {QStringLiteral("gt"), QStringLiteral(">")},
        {QStringLiteral("quot"), QStringLiteral("\"")},
        {QStringLiteral("apos"), QStringLiteral("'")},
        {QStringLiteral("nbsp"), QString(QChar(0xA0))},
        {QStringLiteral("copy"), QStringLiteral("©")},
        {QStringLiteral("reg"), QStringLiteral("®")},
        {QStringLiteral("trade"), QStringLiteral("™")},
        {QStringLiteral("euro"), QStringLiteral("€")},
        {QStringLiteral("hellip"), QStringLiteral("…")},
        {QStringLiteral("mdash"), QStringLiteral("—")},
        {QStringLiteral("ndash"), QStringLiteral("–")},
        {QStringLiteral("laquo"), QStringLiteral("«")},
        {QStringLiteral("raquo"), QStringLiteral("»")},
        {QStringLiteral("lsquo"), QStringLiteral("‘")},
        {QStringLiteral("rsquo"), QStringLiteral("’")},
        {QStringLiteral("ldquo"), QStringLiteral("“")},
        {QStringLiteral("rdquo"), QStringLiteral("”")},
        {QStringLiteral("bull"), QStringLiteral("•")},
        {QStringLiteral("middot"), QStringLiteral("·")},
        {QStringLiteral("deg"), QStringLiteral("°")},
        {QStringLiteral("ccedil"), QStringLiteral("ç")},
        {QStringLiteral("Ccedil"), QStringLiteral("Ç")},
        {QStringLiteral("ouml"), QStringLiteral("ö")},
        {QStringLiteral("Ouml"), QStringLiteral("Ö")},
        {QStringLiteral("uuml"), QStringLiteral("ü")},
        {QStringLiteral("Uuml"), QStringLiteral("Ü")},
        {QStringLiteral("scedil"), QStringLiteral("ş")},
        {QStringLiteral("Scedil"), QStringLiteral("Ş")},
        {QStringLiteral("gbreve"), QStringLiteral("ğ")},
        {QStringLiteral("Gbreve"), QStringLiteral("Ğ")},
        {QStringLiteral("inodot"), QStringLiteral("ı")},
        {QStringLiteral("imath"), QStringLiteral("ı")},
        {QStringLiteral("Idot"), QStringLiteral("İ")},
        {QStringLiteral("eacute"), QStringLiteral("é")},
        {QStringLiteral("agrave"), QStringLiteral("à")},
        {QStringLiteral("acirc"), QStringLiteral("â")},
        {QStringLiteral("icirc"), QStringLiteral("î")},
        {QStringLiteral("ucirc"), QStringLiteral("û")},
        {QStringLiteral("auml"), QStringLiteral("ä")},
        {QStringLiteral("szlig"), QStringLiteral("ß")},
        {QStringLiteral("times"), QStringLiteral("×")},
        {QStringLiteral("shy"), QString()},
        {QStringLiteral("zwnj"), QString()},
        {QStringLiteral("zwj"), QString()},
    };
    if (name.startsWith(QLatin1Char('#'))) {
        bool ok = false;
        const uint cp = name.size() > 1 && (name[1] == QLatin1Char('x') || name[1] == QLatin1Char('X'))
                            ? name.mid(2).toUInt(&ok, 16)
                            : name.mid(1).toUInt(&ok, 10);
        if (!ok || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return QString(QChar(0xFFFD));
        const char32_t c = cp;
        return QString::fromUcs4(&c, 1);
    }
    const auto it = named.constFind(name);
    return it == named.constEnd() ? QString() : *it;
}

QString htmlDecodeEntities(const QString &s)
{
    if (!s.contains(QLatin1Char('&')))
        return s;
    QString out;
    out.reserve(s.size());
    for (int i = 0; i < s.size(); ++i) {
        if (s[i] == QLatin1Char('&')) {
            const int semi = s.indexOf(QLatin1Char(';'), i + 1);
            if (semi > i + 1 && semi - i <= 12) {
                const QString name = s.mid(i + 1, semi - i - 1);
                const QString value = htmlEntity(name);
                if (!value.isNull()) {
                    out += value;
                    i = semi;
                    continue;
                }
            }
        }
        out += s[i];
    }
    return out;
}

// The value of attribute `attr` in a tag's text ("a href=\"x\" class=y"), entities decoded.
QString htmlAttribute(const QString &tag, const QString &attr)
{
    int i = 0;
    const int n = tag.size();
    while (i < n && !tag[i].isSpace()) // the tag's name
        ++i;
    while (i < n) {
        while (i < n && (tag[i].isSpace() || tag[i] == QLatin1Char('/')))
            ++i;
        const int nameStart = i;
        while (i < n && !tag[i].isSpace() && tag[i] != QLatin1Char('=') && tag[i] != QLatin1Char('/'))
            ++i;
        const QString name = tag.mid(nameStart, i - nameStart).toLower();
        while (i < n && tag[i].isSpace())
            ++i;
        QString value;
        if (i < n && tag[i] == QLatin1Char('=')) {
            ++i;
            while (i < n && tag[i].isSpace())
                ++i;
            if (i < n && (tag[i] == QLatin1Char('"') || tag[i] == QLatin1Char('\''))) {
                const QChar q = tag[i++];
                const int end = tag.indexOf(q, i);
                value = tag.mid(i, (end < 0 ? n : end) - i);
                i = end < 0 ? n : end + 1;
            } else {
                const int start = i;
                while (i < n && !tag[i].isSpace())
                    ++i;
                value = tag.mid(start, i - start);
            }
        }
        if (name == attr)
            return htmlDecodeEntities(value).trimmed();
        if (name.isEmpty() && i < n)
            ++i;
    }
    return QString();
}

class HtmlTextWriter
{
public:
    // Text of the page: white space collapsed to one space, none at a line's start.
    void text(const QString &t)
    {
        for (const QChar c : t) {
            if (c.isSpace() && c != QChar(0xA0)) {
                m_space = true;
                continue;
            }
            if (m_space && !m_out.isEmpty() && !m_out.endsWith(QLatin1Char('\n')))
                m_out += QLatin1Char(' ');
            m_space = false;
            m_out += c == QChar(0xA0) ? QLatin1Char(' ') : c;
        }
    }
    // At least `count` line ends before the next text (none at the very start).
    void lineBreaks(int count)
    {
        m_space = false;
        if (m_out.isEmpty())
            return;
        int have = 0;
        for (int i = m_out.size() - 1; i >= 0 && m_out[i] == QLatin1Char('\n'); --i)
            ++have;
        for (; have < count; ++have)
            m_out += QLatin1Char('\n');
    }
    void hardBreak()
    {
        m_space = false;
        m_out += QLatin1Char('\n');
    }
    int size() const { return int(m_out.size()); }
    QString since(int position) const { return m_out.mid(position); }
    QString finish() const
    {
        QStringList lines = m_out.split(QLatin1Char('\n'));
        for (QString &l : lines)
            l = l.trimmed();
        QString joined = lines.join(QLatin1Char('\n'));
        while (joined.contains(QLatin1String("\n\n\n")))
            joined.replace(QLatin1String("\n\n\n"), QLatin1String("\n\n"));
        return joined.trimmed();
    }

private:
    QString m_out;
    bool m_space = false;
};
} // namespace

QString HtmlText::toText(const QString &html)
{
    static const QStringList paragraphs = {QStringLiteral("p"),  QStringLiteral("h1"),         QStringLiteral("h2"),
                                           QStringLiteral("h3"), QStringLiteral("h4"),         QStringLiteral("h5"),
                                           QStringLiteral("h6"), QStringLiteral("table"),      QStringLiteral("ul"),
                                           QStringLiteral("ol"), QStringLiteral("blockquote"), QStringLiteral("pre"),
                                           QStringLiteral("hr")};
    static const QStringList lines = {QStringLiteral("div"),     QStringLiteral("tr"),      QStringLiteral("li"),
                                      QStringLiteral("section"), QStringLiteral("article"), QStringLiteral("header"),
                                      QStringLiteral("footer"),  QStringLiteral("dt"),      QStringLiteral("dd"),
                                      QStringLiteral("center"),  QStringLiteral("address"), QStringLiteral("body"),
                                      QStringLiteral("tbody"),   QStringLiteral("thead")};
    static const QStringList skipped = {QStringLiteral("script"),   QStringLiteral("style"),
                                        QStringLiteral("head"),     QStringLiteral("title"),
                                        QStringLiteral("noscript"), QStringLiteral("template")};

    HtmlTextWriter w;
    struct Link
    {
        QString href;
        int start;
    };
    QList<Link> links;
    int pre = 0;
    int i = 0;
    const int n = html.size();
    while (i < n) {
        const int lt = html.indexOf(QLatin1Char('<'), i);
        const int textEnd = lt < 0 ? n : lt;
        if (textEnd > i) {
            const QString t = htmlDecodeEntities(html.mid(i, textEnd - i));
            if (pre > 0) {
                const QStringList parts = t.split(QLatin1Char('\n'));
                for (int p = 0; p < parts.size(); ++p) {
                    if (p > 0)
                        w.hardBreak();
                    w.text(parts[p]);
                }
            } else {
                w.text(t);
            }
        }
        if (lt < 0)
            break;
        if (html.mid(lt, 4) == QLatin1String("<!--")) {
            const int end = html.indexOf(QLatin1String("-->"), lt + 4);
            i = end < 0 ? n : end + 3;
            continue;
        }
        // A '<' not starting a tag ("a < b") is text.
        if (lt + 1 >= n || !(html[lt + 1].isLetter() || html[lt + 1] == QLatin1Char('/') ||
                             html[lt + 1] == QLatin1Char('!') || html[lt + 1] == QLatin1Char('?'))) {
            w.text(QStringLiteral("<"));
            i = lt + 1;
            continue;
        }
        // The tag's end: the first '>' outside quotes.
        int gt = lt + 1;
        QChar quote;
        for (; gt < n; ++gt) {
            const QChar c = html[gt];
            if (!quote.isNull()) {
                if (c == quote)
                    quote = QChar();
            } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
                quote = c;
            } else if (c == QLatin1Char('>')) {
                break;
            }
        }
        const QString tag = html.mid(lt + 1, gt - lt - 1).trimmed();
        i = gt < n ? gt + 1 : n;
        const bool closing = tag.startsWith(QLatin1Char('/'));
        QString name;
        for (int k = closing ? 1 : 0; k < tag.size() && !tag[k].isSpace() && tag[k] != QLatin1Char('/'); ++k)
            name += tag[k].toLower();
        if (name.isEmpty() || name.startsWith(QLatin1Char('!')) || name.startsWith(QLatin1Char('?')))
            continue;
        if (!closing && skipped.contains(name)) {
            // Everything up to the matching end tag is dropped.
            const int end = html.indexOf(QStringLiteral("</") + name, i, Qt::CaseInsensitive);
            if (end < 0) {
                i = n;
            } else {
                const int close = html.indexOf(QLatin1Char('>'), end);
                i = close < 0 ? n : close + 1;
            }
            continue;
        }
        if (name == QLatin1String("br")) {
            w.hardBreak();
        } else if (paragraphs.contains(name)) {
            w.lineBreaks(2);
            if (name == QLatin1String("pre"))
                pre += closing ? (pre > 0 ? -1 : 0) : 1;
            if (name == QLatin1String("hr") && !closing) {
                w.text(QStringLiteral("----------"));
                w.lineBreaks(2);
            }
        } else if (lines.contains(name)) {
            w.lineBreaks(1);
            if (name == QLatin1String("li") && !closing)
                w.text(QStringLiteral("- "));
        } else if (name == QLatin1String("td") || name == QLatin1String("th")) {
            if (!closing)
                w.text(QStringLiteral(" "));
        } else if (name == QLatin1String("img") && !closing) {
            const QString alt = htmlAttribute(tag, QStringLiteral("alt"));
            if (!alt.isEmpty())
                w.text(QLatin1Char(' ') + alt + QLatin1Char(' '));
        } else if (name == QLatin1String("a")) {
            if (!closing) {
                links.append({htmlAttribute(tag, QStringLiteral("href")), w.size()});
            } else if (!links.isEmpty()) {
                const Link link = links.takeLast();
                const QString shown = w.since(link.start).trimmed();
                QString href = link.href;
                if (href.startsWith(QLatin1String("mailto:"), Qt::CaseInsensitive))
                    href = href.mid(7);
                const bool useful = !href.isEmpty() && !href.startsWith(QLatin1Char('#')) &&
                                    !href.startsWith(QLatin1String("javascript:"), Qt::CaseInsensitive);
                if (useful && shown.isEmpty())
                    w.text(href);
                else if (useful && shown != href && shown != link.href)
                    w.text(QStringLiteral(" (") + href + QLatin1Char(')'));
            }
        }
    }
    return w.finish();
}
