#pragma once

// Internal to the HTTP engine: the byte-level pieces of HTTP/1.1 syntax that the request parser and
// the response writer share (RFC 9110 tokens, case-insensitive comparison, number fields).

#include <QByteArray>

#include <cstddef>
#include <cstring>

namespace HttpSyntax {

// A Content-Length (or chunk size) at or beyond this is treated as "too large" without overflowing.
constexpr qint64 kContentLengthOverflow = qint64(1) << 60;

inline char asciiLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c + ('a' - 'A')) : c;
}

// a and b are equal but for the case of ASCII letters (header names)
inline bool equalsIgnoreCase(const QByteArray &a, const QByteArray &b)
{
    const qsizetype n = a.size();
    if (n != b.size())
        return false;
    const char *pa = a.constData();
    const char *pb = b.constData();
    for (qsizetype i = 0; i < n; ++i) {
        if (pa[i] != pb[i] && asciiLower(pa[i]) != asciiLower(pb[i]))
            return false;
    }
    return true;
}

// a (any case) equals the lower-case literal b
inline bool equalsLower(const char *a, qsizetype n, const char *lower, qsizetype m)
{
    if (n != m)
        return false;
    for (qsizetype i = 0; i < n; ++i) {
        if (asciiLower(a[i]) != lower[i])
            return false;
    }
    return true;
}

template<size_t M>
inline bool equalsLower(const char *a, qsizetype n, const char (&lower)[M])
{
    return equalsLower(a, n, lower, M - 1);
}

template<size_t M>
inline bool equalsLower(const QByteArray &a, const char (&lower)[M])
{
    return equalsLower(a.constData(), a.size(), lower, M - 1);
}

// RFC 9110 tchar
inline bool isTokenChar(unsigned char c)
{
    static const struct Table
    {
        bool v[256] = {};
        Table()
        {
            for (int c = '0'; c <= '9'; ++c)
                v[c] = true;
            for (int c = 'a'; c <= 'z'; ++c)
                v[c] = true;
            for (int c = 'A'; c <= 'Z'; ++c)
                v[c] = true;
            for (const char *p = "!#$%&'*+-.^_`|~"; *p; ++p)
                v[static_cast<unsigned char>(*p)] = true;
        }
    } table;
    return table.v[c];
}

inline bool isToken(const char *p, qsizetype n)
{
    if (n <= 0)
        return false;
    for (qsizetype i = 0; i < n; ++i) {
        if (!isTokenChar(static_cast<unsigned char>(p[i])))
            return false;
    }
    return true;
}

inline const char *findByte(const char *p, qsizetype n, char c)
{
    return n > 0 ? static_cast<const char *>(std::memchr(p, c, size_t(n))) : nullptr;
}

// Appends the decimal digits of v (v >= 0).
inline void appendNumber(QByteArray &out, qint64 v)
{
    char buf[24];
    int i = sizeof buf;
    do {
        buf[--i] = char('0' + v % 10);
        v /= 10;
    } while (v > 0 && i > 0);
    out.append(buf + i, qsizetype(sizeof buf) - i);
}

// Value of a header made only of digits; -1 when invalid.
inline qint64 parseDecimal(const QByteArray &value)
{
    if (value.isEmpty())
        return -1;
    qint64 v = 0;
    for (char c : value) {
        if (c < '0' || c > '9')
            return -1;
        v = v >= kContentLengthOverflow / 10 ? kContentLengthOverflow : v * 10 + (c - '0');
    }
    return v;
}

// Does the comma-separated list contain the token (case-insensitive)?
inline bool listContainsToken(const char *p, qsizetype n, const char *lower, qsizetype m)
{
    qsizetype i = 0;
    while (i < n) {
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == ','))
            ++i;
        qsizetype start = i;
        while (i < n && p[i] != ',')
            ++i;
        qsizetype end = i;
        while (end > start && (p[end - 1] == ' ' || p[end - 1] == '\t'))
            --end;
        if (equalsLower(p + start, end - start, lower, m))
            return true;
    }
    return false;
}

} // namespace HttpSyntax
