#pragma once
// The HDF5 targets read as `fwi` does: in a fork()ed child first (fwi/isolated_read.hpp), so a crash or hang
// inside libhdf5 becomes a FormatError instead of a finding. In the child, sanitizer reports go to a file and
// the death callback ends the child (libFuzzer's own callback would save the input as the fuzzer's crash);
// the parent reads that report: a crash whose innermost frame of ours or libhdf5's is in our code (core/) is
// still a finding, and the parent aborts with the report. Coverage of the child is invisible to libFuzzer;
// the parent repeats every read whose child finished, so the direct reader is fuzzed (and covered) as before;
// there the same rule holds through ASan's suppressions (asan.supp: libhdf5's own over-reads).
#include "fuzz_input.hpp"
#include "fwi/isolated_read.hpp"

#include <omp.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sstream>

// Present only in sanitized builds; the replay build without sanitizers sees null pointers.
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
extern "C" void __sanitizer_set_report_fd(void* fd) __attribute__((weak));

namespace fwi::fuzz {

/// Below libFuzzer's -timeout=20 (scripts/fuzz.sh): a libhdf5 hang is a damaged file, not a fuzzer timeout.
constexpr double child_timeout_s = 10;
constexpr int child_sanitizer_exit = 86;

/// Where the child of this process (`pid`) writes its sanitizer report.
inline std::string child_report_path(pid_t pid) {
    return scratch_path(pid, "-child-report");
}

inline void child_hook() {
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(+[] { ::_exit(child_sanitizer_exit); });
    if (__sanitizer_set_report_fd) {
        const int fd = ::open(child_report_path(::getppid()).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) __sanitizer_set_report_fd(reinterpret_cast<void*>(std::intptr_t(fd)));
    }
    // ASan handles SIGSEGV, SIGBUS and SIGFPE (with a report naming the frames); libFuzzer handles these two
    // and would record the input as a crash of the fuzzer.
    std::signal(SIGABRT, SIG_DFL);
    std::signal(SIGILL, SIG_DFL);
}

/// True when the sanitizer report's first stack names our code (core/) before any libhdf5 frame, or it has no
/// stack.
inline bool report_blames_our_code(const std::string& report) {
    // Warnings (a malloc that returned NULL as allocator_may_return_null asks) are not reports.
    if (report.find("ERROR: ") == std::string::npos && report.find("runtime error") == std::string::npos)
        return false;
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

/// After an isolated read: a sanitizer report from the child that blames our code aborts. Removes the file.
inline void check_child_report() {
    const std::string path = child_report_path(::getpid());
    std::ifstream in(path);
    if (!in) return; // no child opened one: the build has no sanitizer
    std::stringstream text;
    text << in.rdbuf();
    in.close();
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    if (report_blames_our_code(text.str())) {
        std::fprintf(stderr, "fuzz: the isolated child crashed in our code:\n%s\n", text.str().c_str());
        std::abort();
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
        // The parent decodes chunked datasets on the team only with two threads or more
        // (hdf5/chunk_decode.hpp); fuzz.sh runs one, so the readers' team is set here.
        omp_set_num_threads(2);
        return true;
    }();
    (void)configured;
    return run_reader(data, size, extension, [&](const std::string& path) {
        try {
            read(path);
        } catch (const FormatError&) {
            check_child_report();
            throw;
        }
        check_child_report(); // removes the empty file the child opened
    });
}

} // namespace fwi::fuzz
