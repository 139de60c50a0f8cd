#pragma once
// Where a command's wall time goes, for its --json summary.
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace fwi::cli {

/// Wall-clock phases of one command, each from the previous mark (or the timer's start) to its own, so that
/// they add up to total(): a script (scripts/bench_peers.py) compares a whole run with its parts, e.g. the
/// backend's set-up (a CUDA context) against the computation.
class PhaseTimer {
  public:
    void mark(const std::string& phase) {
        const auto now = Clock::now();
        phases_[phase] = std::chrono::duration<double>(now - last_).count();
        last_ = now;
    }
    /// Seconds since the timer was made.
    double total() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    const nlohmann::json& phases() const { return phases_; }

  private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_ = Clock::now(), last_ = start_;
    nlohmann::json phases_ = nlohmann::json::object();
};

} // namespace fwi::cli
