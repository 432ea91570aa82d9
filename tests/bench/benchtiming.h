#pragma once

#include <QElapsedTimer>

// Timing helpers the benchmarks share.

// Milliseconds since t started.
inline double ms(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

// The average milliseconds of f over runs calls.
template<typename F>
double averageMs(int runs, F f)
{
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < runs; ++i)
        f();
    return ms(t) / runs;
}
