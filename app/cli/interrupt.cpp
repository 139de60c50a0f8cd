#include "interrupt.hpp"

#include <atomic>
#include <csignal>

namespace fwi::cli {

namespace {

CancelToken g_interrupt;
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler stores to an atomic<bool>");

extern "C" void on_interrupt(int) {
    g_interrupt.cancel(); // a lock-free atomic store: async-signal-safe
}

} // namespace

void install_signal_handling() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags =
        SA_RESETHAND | SA_RESTART; // a second signal takes the default action (ends the process)
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    std::signal(SIGXFSZ, SIG_IGN);
}

CancelToken& interrupt_token() {
    return g_interrupt;
}

} // namespace fwi::cli
