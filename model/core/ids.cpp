#include "model/core/ids.h"

#include <QDateTime>
#include <QMutex>
#include <QRandomGenerator>

#include <cstring>

namespace {
constexpr char kAlphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";

// Ids made in the same millisecond stay ordered: the random part of the last id is incremented.
struct Monotonic
{
    QMutex mutex;
    qint64 lastMs = -1;
    quint8 random[10] = {};
};

Monotonic &state()
{
    static Monotonic s;
    return s;
}
} // namespace

QString Ids::make(QStringView prefix)
{
    quint8 bytes[16];
    {
        Monotonic &s = state();
        QMutexLocker lock(&s.mutex);
        qint64 ms = QDateTime::currentMSecsSinceEpoch();
        if (ms <= s.lastMs) {
            ms = s.lastMs;
            int i = 9;
            while (i >= 0 && ++s.random[i] == 0)
                --i;
        } else {
            s.lastMs = ms;
            QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes), 4);
            memcpy(s.random, bytes, 10);
        }
        for (int i = 0; i < 6; ++i)
            bytes[i] = quint8(ms >> (8 * (5 - i)));
        memcpy(bytes + 6, s.random, 10);
    }
    // 128 bits -> 26 base32 characters, most significant first (the first character holds 3 bits).
    QString out;
    out.reserve(prefix.size() + 27);
    out.append(prefix);
    out.append(QLatin1Char('_'));
    unsigned __int128 v = 0;
    for (quint8 b : bytes)
        v = (v << 8) | b;
    char buf[26];
    for (int i = 25; i >= 0; --i) {
        buf[i] = kAlphabet[unsigned(v & 31)];
        v >>= 5;
    }
    out.append(QLatin1String(buf, 26));
    return out;
}

bool Ids::looksLike(QStringView text, QStringView prefix)
{
    if (text.size() != prefix.size() + 27 || !text.startsWith(prefix) || text[prefix.size()] != QLatin1Char('_'))
        return false;
    for (QChar c : text.mid(prefix.size() + 1)) {
        if (!std::strchr(kAlphabet, c.toLatin1()) || c.unicode() > 127 || c.isNull())
            return false;
    }
    return true;
}
