#pragma once
// The HDF5 targets read as `fwi` does: in a fork()ed child first (fwi/isolated_read.hpp), so a crash or hang
// inside libhdf5 becomes a FormatError instead of a finding. In the child, sanitizer reports go to a file and
// the death callback ends the child (libFuzzer's own callback would save the input as the fuzzer's crash);
// the parent reads that report: a crash whose innermost frame of ours or libhdf5's is in our code (core/) is
// still a finding, and the parent aborts with the report. Coverage of the child is invisible to libFuzzer;
// the parent repeats every read whose child finished, so the direct reader is fuzzed (and covered) as before.
#include "fuzz_input.hpp"
#include "fwi/isolated_read.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sstream>

// Present only in sanitized builds; the replay build without sanitizers sees null pointers.
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
extern "C" void __sanitizer_set_report_path(const char* path) __attribute__((weak));

namespace fwi::fuzz {

/// Below libFuzzer's -timeout=20 (scripts/fuzz.sh): a libhdf5 hang is a damaged file, not a fuzzer timeout.
constexpr double child_timeout_s = 10;
constexpr int child_sanitizer_exit = 86;

inline void child_hook() {
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(+[] { ::_exit(child_sanitizer_exit); });
    // ASan appends ".<child pid>".
    if (__sanitizer_set_report_path)
        __sanitizer_set_report_path(scratch_path(::getppid(), "-child-report").c_str());
    // ASan handles SIGSEGV, SIGBUS and SIGFPE (with a report naming the frames); libFuzzer handles these two
    // and would record the input as a crash of the fuzzer.
    std::signal(SIGABRT, SIG_DFL);
    std::signal(SIGILL, SIG_DFL);
}

/// True when the report's first stack names our code (core/) before any libhdf5 frame.
inline bool report_blames_our_code(const std::string& report) {
    std::istringstream lines(report);
    std::string line;
    bool in_stack = false;
    while (std::getline(lines, line)) {
        const bool frame =
            line.find_first_not_of(' ') != std::string::npos && line[line.find_first_not_of(' ')] == '#';
        if (!frame) {
            if (in_stack) break; // only the first stack: where it happened
            continue;
        }
        in_stack = true;
        if (line.find("libhdf5") != std::string::npos) return false;
        if (line.find("/core/src/") != std::string::npos || line.find("/core/include/") != std::string::npos)
            return true;
    }
    return !in_stack && !report.empty(); // a report without a stack: not known to be the library's
}

/// After the isolated read refused the input: a sanitizer report from the child that blames our code aborts.
inline void check_child_reports() {
    namespace fs = std::filesystem;
    const std::string prefix = fs::path(scratch_path(::getpid(), "-child-report")).filename().string();
    const fs::path dir = fs::path(scratch_path(::getpid(), "")).parent_path();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().filename().string().rfind(prefix, 0) != 0) continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        fs::remove(entry.path(), ec);
        if (report_blames_our_code(text.str())) {
            std::fprintf(stderr, "fuzz: the isolated child crashed in our code:\n%s\n", text.str().c_str());
            std::abort();
        }
    }
}

/// run_reader with the isolated path switched on (once per process).
template <class Read>
int run_isolated_reader(const std::uint8_t* data, std::size_t size, const std::string& extension,
                        Read&& read) {
    static const bool configured = [] {
        IsolatedReadSettings settings;
        settings.enabled = true;
        settings.timeout_s = child_timeout_s;
        settings.reset_crash_handlers = false;
        settings.child_hook = child_hook;
        set_isolated_reads(settings);
        return true;
    }();
    (void)configured;
    return run_reader(data, size, extension, [&](const std::string& path) {
        try {
            read(path);
        } catch (const FormatError&) {
            check_child_reports();
            throw;
        }
    });
}

} // namespace fwi::fuzz
