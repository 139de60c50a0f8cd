// Reading a file in a fork()ed child first (fwi/isolated_read.hpp).
#include "fwi/isolated_read.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fwi {
namespace {

IsolatedReadSettings g_settings;

double timeout_for(const std::string& path) {
    if (g_settings.timeout_s > 0) return g_settings.timeout_s;
    // Generous enough for a large project on a slow disk; a libhdf5 hang on a forged file never ends.
    struct stat info {};
    const double bytes = ::stat(path.c_str(), &info) == 0 ? double(info.st_size) : 0.0;
    return 60.0 + bytes / (16.0 * 1024 * 1024);
}

[[noreturn]] void run_child(const std::function<void()>& read) {
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
    if (g_settings.child_hook) g_settings.child_hook();
    try {
        read();
    } catch (...) {
        // Refused (fwi::Error) or failed in our own code (anything else): the parent's own read throws it
        // again.
    }
    ::_exit(0); // no atexit handlers, no stdio flush: the parent's buffers and libraries are the parent's
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
        pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
}

} // namespace

void set_isolated_reads(const IsolatedReadSettings& settings) {
    g_settings = settings;
}

const IsolatedReadSettings& isolated_reads() {
    return g_settings;
}

void read_in_child(const std::string& path, const std::function<void()>& read) {
    const double timeout_s = timeout_for(path);
    const pid_t pid = ::fork();
    if (pid < 0)
        throw ResourceError("cannot start a process to check '" + path + "' first: " + std::strerror(errno));
    if (pid == 0) run_child(read);
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
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        throw FormatError(damaged + "failed reading it (exit status " + std::to_string(WEXITSTATUS(status)) +
                          " in the process that checked it)");
}

} // namespace fwi
