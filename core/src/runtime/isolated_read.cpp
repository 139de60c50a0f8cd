// Reading a file in a fork()ed child first (fwi/isolated_read.hpp).
#include "fwi/isolated_read.hpp"

#include "fwi/error.hpp"
#include "runtime/checked_files.hpp"
#include "runtime/read_hand_over.hpp"
#include "runtime/user_cache.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace fwi {
namespace {

IsolatedReadSettings g_settings;
bool g_in_reading_child = false;

/// The child's exit status when it read the file safely but followed it into other files (an external link,
/// a virtual dataset): those can change while this one does not, so the file is not remembered.
constexpr int exit_read_other_files = 121; // no library exits with it (sysexits.h ends at 78)

double timeout_for(const std::string& path) {
    if (g_settings.timeout_s > 0) return g_settings.timeout_s;
    // Generous enough for a large project on a slow disk; a libhdf5 hang on a forged file never ends.
    struct stat info {};
    const double bytes = ::stat(path.c_str(), &info) == 0 ? double(info.st_size) : 0.0;
    return 60.0 + bytes / (16.0 * 1024 * 1024);
}

/// A memory file for the child's records (read_hand_over.hpp), or -1 where there is none.
int make_hand_over_file() {
#ifdef __linux__
    return ::memfd_create("fwi-isolated-read", MFD_CLOEXEC);
#else
    return -1;
#endif
}

/// Closes a file descriptor on every path out.
struct FileDescriptor {
    int fd = -1;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
    int release() { return std::exchange(fd, -1); }
};

[[noreturn]] void run_child(const std::function<void()>& read, int hand_over_fd) {
    // The parent reports the outcome; whatever the library or a sanitizer prints here would only confuse.
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
        ::dup2(devnull, STDERR_FILENO);
        ::close(devnull);
    }
    // A crash must end the child by its signal, not run a handler the parent installed (a crash reporter,
    // libFuzzer's, which would record the input as its own crash).
    sigset_t crash_signals;
    sigemptyset(&crash_signals);
    for (const int s : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) {
        if (g_settings.reset_crash_handlers) std::signal(s, SIG_DFL);
        sigaddset(&crash_signals, s);
    }
    ::sigprocmask(SIG_UNBLOCK, &crash_signals, nullptr);
    // Only the forking thread exists here, so a parallel region could wait for the parent's OpenMP workers
    // forever: the readers run none. Nothing here touches OpenMP either: clang's libomp would start up in
    // every child and, as _exit skips its clean-up, leave a /dev/shm/__KMP_REGISTERED_LIB_<pid> file each.
    g_settings.enabled = false; // a reader nested in `read` runs directly
    g_in_reading_child = true;
    if (g_settings.child_hook) g_settings.child_hook();
    if (hand_over_fd >= 0) detail::start_hand_over_sink(hand_over_fd);
    detail::forget_other_file_reads();
    try {
        read();
    } catch (...) {
        // Refused (fwi::Error) or failed in our own code (anything else): the parent's own read throws it
        // again.
    }
    // no atexit handlers, no stdio flush: the parent's buffers and libraries are the parent's
    ::_exit(detail::read_other_files() ? exit_read_other_files : 0);
}

/// Waits for the child up to `timeout_s`, polling with a growing pause (a small file takes about a
/// millisecond). Returns false on timeout, after killing and reaping the child.
bool wait_for_child(pid_t pid, double timeout_s, int& status) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::duration<double>(timeout_s);
    auto pause = std::chrono::microseconds(50);
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) return true;
        if (done < 0 && errno != EINTR)
            throw ResourceError(std::string("cannot wait for the process checking a file: ") +
                                std::strerror(errno));
        if (clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            return false;
        }
        std::this_thread::sleep_for(pause);
        // At most 1 ms: the parent wakes for nothing measurable, and a 20 ms cap made it notice a child that
        // ended after 46 ms at 66 ms (a 1000 x 1000 project's read took 67 ms instead of 47).
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
}

} // namespace

std::string default_checked_files() {
    if (const char* d = std::getenv("FWI_CHECKED_FILES"); d != nullptr && *d != '\0') {
        if (std::string(d) == "off" || std::string(d) == "0") return {};
        return d;
    }
    const std::filesystem::path cache = detail::user_cache_directory();
    return cache.empty() ? std::string() : (cache / "checked-files").string();
}

bool detail::in_reading_child() {
    return g_in_reading_child;
}

void set_isolated_reads(const IsolatedReadSettings& settings) {
    g_settings = settings;
}

const IsolatedReadSettings& isolated_reads() {
    return g_settings;
}

ReadHandOver read_in_child(const std::string& path, const std::function<void()>& read,
                           const std::string& reader) {
    const double timeout_s = timeout_for(path);
    FileDescriptor hand_over{make_hand_over_file()};
    const FileVersion before = file_version(path);
    const pid_t pid = ::fork();
    if (pid < 0)
        throw ResourceError("cannot start a process to check '" + path + "' first: " + std::strerror(errno));
    if (pid == 0) run_child(read, hand_over.fd);
    int status = 0;
    const std::string damaged = "'" + path + "' is damaged: the HDF5 library ";
    if (!wait_for_child(pid, timeout_s, status)) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", std::round(timeout_s * 10) / 10);
        throw FormatError(damaged + "did not finish reading it in " + seconds + " s");
    }
    if (WIFSIGNALED(status)) {
        const int s = WTERMSIG(status);
        const char* name = ::strsignal(s);
        throw FormatError(damaged + "crashed reading it (signal " + std::to_string(s) +
                          (name ? std::string(", ") + name : std::string()) + ")");
    }
    const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    if (exit_status != 0 && exit_status != exit_read_other_files)
        throw FormatError(damaged + "failed reading it (exit status " + std::to_string(exit_status) +
                          " in the process that checked it)");
    if (before.size < 0 || !(file_version(path) == before)) return {};
    if (!reader.empty() && exit_status == 0)
        detail::remember_read_safely(g_settings.checked_files, before, reader,
                                     g_settings.checked_files_min_age_s);
    if (hand_over.fd < 0) return {};
    return ReadHandOver::index(hand_over.release());
}

bool read_safely_before(const std::string& path, const std::string& reader) {
    return g_settings.enabled && !g_settings.checked_files.empty() &&
           detail::was_read_safely(g_settings.checked_files, file_version(path), reader);
}

} // namespace fwi
