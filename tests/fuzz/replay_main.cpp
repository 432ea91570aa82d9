// Runs a fuzz target without libFuzzer: LLVMFuzzerInitialize once, then LLVMFuzzerTestOneInput for
// every file of the corpus directories (and files) given on the command line, in name order. This
// is what the ctest tests fuzz_<name>_corpus run in the normal and the sanitizer build (gcc, no
// libFuzzer), so that the seed corpus keeps being exercised by `make test`.
#include "tests/fuzz/fuzzsupport.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path p(argv[i]);
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            for (const fs::directory_entry &e : fs::directory_iterator(p, ec)) {
                if (e.is_regular_file(ec))
                    inputs.push_back(e.path());
            }
        } else if (fs::is_regular_file(p, ec)) {
            inputs.push_back(p);
        } else {
            std::fprintf(stderr, "replay: %s is neither a file nor a directory\n", argv[i]);
            return 2;
        }
    }
    std::sort(inputs.begin(), inputs.end());
    if (inputs.empty()) {
        std::fprintf(stderr, "replay: no inputs found (an empty corpus tests nothing)\n");
        return 2;
    }

    int fakeArgc = argc;
    char **fakeArgv = argv;
    LLVMFuzzerInitialize(&fakeArgc, &fakeArgv);
    size_t bytes = 0;
    for (const fs::path &p : inputs) {
        std::ifstream in(p, std::ios::binary);
        const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::fprintf(stderr, "replay: cannot read %s\n", p.c_str());
            return 2;
        }
        // A copy in its own allocation, exactly as long as the input, as libFuzzer passes it: a read
        // past the end is then a heap overflow that ASan reports.
        std::vector<uint8_t> copy(data.begin(), data.end());
        LLVMFuzzerTestOneInput(copy.empty() ? nullptr : copy.data(), copy.size());
        bytes += copy.size();
    }
    std::printf("replay: %zu inputs (%zu bytes) ran\n", inputs.size(), bytes);
    return 0;
}
