#include "progress.hpp"

#include "fwi/error.hpp"

#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace fwi::cli {

bool stderr_is_terminal() {
    return isatty(STDERR_FILENO) == 1;
}

ProgressBar::ProgressBar(std::string label, std::int64_t total_steps, bool enabled)
    : label_(std::move(label)), total_(std::max<std::int64_t>(1, total_steps)),
      enabled_(enabled && stderr_is_terminal()) {}

ProgressBar::~ProgressBar() {
    if (enabled_ && done_ > 0) draw(true);
}

void ProgressBar::on_event(const Event& e) {
    if (e.type == EventType::ForwardStep || e.type == EventType::Recompute ||
        e.type == EventType::AdjointStep)
        done_ += e.steps;
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ > std::chrono::milliseconds(100)) {
        last_draw_ = now;
        draw(false);
    }
}

void ProgressBar::draw(bool final) {
    const double frac = std::min(1.0, double(done_) / double(total_));
    const int width = 30, filled = int(frac * width);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = frac > 0.01 ? elapsed * (1 - frac) / frac : 0;
    std::fprintf(stderr, "\r%-10s [%.*s%*s] %5.1f%%  %6.1fs elapsed, ~%5.1fs left ", label_.c_str(), filled,
                 "##############################", width - filled, "", 100 * frac, elapsed, eta);
    if (final) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

EventLog::EventLog(const std::string& path) : out_(path), path_(path) {
    if (!out_) throw ResourceError("cannot create event log " + path + ": " + std::strerror(errno));
}

void EventLog::on_event(const Event& e) {
    nlohmann::json j{{"type", to_string(e.type)}, {"t", e.wall_s}, {"step", e.step}, {"steps", e.steps}};
    if (e.shot >= 0) j["shot"] = e.shot;
    if (e.tier >= 0) j["tier"] = e.tier;
    if (e.bytes) j["bytes"] = e.bytes;
    if (e.seconds > 0) j["seconds"] = e.seconds;
    if (!e.bytes_per_tier.empty()) j["bytes_per_tier"] = e.bytes_per_tier;
    if (!e.text.empty()) j["text"] = e.text;
    out_ << j.dump() << '\n';
    if (!out_) throw ResourceError("cannot write event log " + path_ + " (disk full?)");
}

} // namespace fwi::cli
