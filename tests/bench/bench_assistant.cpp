// The assistant's figures: importing N knowledge entries from CSV, building the index from them,
// bringing it up to date after one change, and answering questions (answers per second, p50 and
// p99), on a temporary database. The entries are the evaluation set's (tests/data/assistant) made
// distinct with product names, the questions its questions. Usage: bench_assistant [N] (default
// 10000). Prints its figures.
#include "model/assistant/assistant.h"
#include "model/assistant/knowledgeindex.h"
#include "model/assistant/knowledgerepository.h"
#include "model/core/csv.h"
#include "model/core/eventbus.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>

namespace {

QVector<QStringList> readCsv(const QString &name)
{
    QFile f(QFileInfo(QStringLiteral(__FILE__)).absolutePath() + QStringLiteral("/../data/assistant/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    QVector<QStringList> rows = Csv::parse(Csv::decode(f.readAll()));
    rows.removeFirst();
    return rows;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? qMax(100, atoi(argv[1])) : 10000;
    TempDatabase db;
    EventBus bus;
    const Store store(bus);
    KnowledgeRepository repo(store);

    // ref,type,language,question,answer,tags -> N distinct entries.
    const QVector<QStringList> base = readCsv(QStringLiteral("knowledge.csv"));
    const QStringList products{"nevresim", "havlu", "tencere", "tava", "bardak", "tabak",  "yastık",  "battaniye",
                               "towel",    "duvet", "pan",     "mug",  "plate",  "pillow", "blanket", "kettle"};
    QString csv = Csv::line(KnowledgeRules::csvColumns().mid(1));
    for (int i = 0; i < n; ++i) {
        const QStringList &b = base.at(i % base.size());
        const QString product = products.at((i / int(base.size())) % products.size()) + QString::number(i);
        csv += Csv::line(
            {b.at(1), b.at(2), b.at(3) + QLatin1Char(' ') + product, b.at(4) + QLatin1Char(' ') + product, b.at(5)});
    }
    QElapsedTimer t;
    t.start();
    const KnowledgeImportReport report = repo.importCsv(csv.toUtf8());
    const double importMs = ms(t);

    KnowledgeIndex index;
    t.restart();
    index.refresh(repo);
    const double buildMs = ms(t);

    KnowledgeChanges edit;
    edit.answer = QStringLiteral("Değişti.");
    repo.update(repo.list({}).items.first().id, edit);
    t.restart();
    index.refresh(repo);
    const double refreshMs = ms(t);
    t.restart();
    for (int i = 0; i < 1000; ++i)
        index.refresh(repo);
    const double unchangedUs = ms(t);

    const QVector<QStringList> questions = readCsv(QStringLiteral("questions.csv"));
    const Assistant assistant(index);
    QVector<double> latencies;
    const int asks = 5000;
    latencies.reserve(asks);
    int answered = 0;
    QElapsedTimer all;
    all.start();
    for (int i = 0; i < asks; ++i) {
        QElapsedTimer one;
        one.start();
        const AssistantReply r = assistant.answer({questions.at(i % questions.size()).at(2), {}, {}});
        latencies.append(ms(one));
        answered += r.answered ? 1 : 0;
    }
    const double totalMs = ms(all);
    std::sort(latencies.begin(), latencies.end());
    auto pct = [&latencies](double p) {
        return latencies.at(qMin(int(latencies.size()) - 1, int(p * latencies.size())));
    };

    std::printf("knowledge entries: %d (created %d)\n", n, report.created);
    std::printf("CSV import: %.0f ms (%.0f rows/s)\n", importMs, n / (importMs / 1000.0));
    std::printf("index built from the database: %.0f ms\n", buildMs);
    std::printf("index brought up to date after one change: %.2f ms; with nothing changed: %.1f us\n", refreshMs,
                unchangedUs);
    std::printf("answers (language detected, %d questions): %.0f per second, p50 %.2f ms, p99 %.2f ms, max %.2f ms; "
                "%d answered\n",
                asks, asks / (totalMs / 1000.0), pct(0.5), pct(0.99), latencies.last(), answered);
    return 0;
}
