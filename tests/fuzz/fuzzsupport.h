#pragma once

// Shared by the libFuzzer targets: one QCoreApplication for the whole run, and Qt's own messages
// (qWarning from the engine, the SQL driver, …) dropped so that the fuzzer's output stays readable.
// A qFatal still aborts (Qt aborts after the handler), and its text is kept: that is a finding.

#include <QCoreApplication>
#include <QtGlobal>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace FuzzSupport {

inline void dropMessages(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtFatalMsg)
        std::fprintf(stderr, "qFatal: %s\n", qPrintable(message));
}

// QCoreApplication keeps a reference to argc and the argv array: both must outlive it. Only the
// program name is passed, so that Qt never reads or removes the fuzzer's own flags.
inline QCoreApplication *initApplication(char **argv)
{
    static int qtArgc = 1;
    static char *qtArgv[] = {argv && argv[0] ? argv[0] : const_cast<char *>("fuzz"), nullptr};
    qInstallMessageHandler(dropMessages);
    if (QCoreApplication::instance())
        return QCoreApplication::instance();
    // Never deleted: it lives until the process ends, as the fuzzer's inputs do.
    return new QCoreApplication(qtArgc, qtArgv);
}

// A harness's own check failed: print why and abort, so that libFuzzer keeps the input as a crash.
[[noreturn]] inline void fail(const char *what)
{
    std::fprintf(stderr, "fuzz check failed: %s\n", what);
    std::fflush(stderr);
    std::abort();
}

} // namespace FuzzSupport
