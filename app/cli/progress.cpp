#include "progress.hpp"

#include "fwi/error.hpp"
#include "job.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace fwi::cli {
namespace {
std::int64_t own_steps = 0; // counted by every bar of this process: what it posts to rank 0
} // namespace

bool stderr_is_terminal() {
    return isatty(STDERR_FILENO) == 1;
}

ProgressBar::ProgressBar(std::string label, std::int64_t total_steps, bool enabled)
    : label_(std::move(label)), total_(std::max<std::int64_t>(1, total_steps)),
      enabled_(enabled && stderr_is_terminal()),
      lines_(enabled && !enabled_ && job().size() > 1 && job().rank() == 0) {}

ProgressBar::~ProgressBar() {
    if (enabled_ && done_ > 0) draw(true);
}

void ProgressBar::on_event(const Event& e) {
    if (e.type == EventType::ForwardStep || e.type == EventType::Recompute ||
        e.type == EventType::AdjointStep) {
        done_ += e.steps;
        own_steps += e.steps;
    }
    const auto now = std::chrono::steady_clock::now();
    if (job().size() > 1 && job().rank() != 0 && now - last_post_ > std::chrono::milliseconds(200)) {
        last_post_ = now;
        job().post_progress(own_steps);
    }
    if (lines_ && now - std::max(last_draw_, start_) > std::chrono::seconds(10)) {
        last_draw_ = now;
        log_line();
    }
    if (!enabled_) return;
    if (now - last_draw_ > std::chrono::milliseconds(100)) {
        last_draw_ = now;
        draw(false);
    }
}

void ProgressBar::log_line() {
    const std::int64_t done = done_ + job().others_progress();
    const double frac = std::min(1.0, double(done) / double(total_));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "fwi: %s %5.1f%% of the job (%d ranks), %.0f s elapsed, ~%.0f s left\n",
                 label_.c_str(), 100 * frac, job().size(), elapsed,
                 frac > 0.01 ? elapsed * (1 - frac) / frac : 0.0);
    std::fflush(stderr);
}

void ProgressBar::draw(bool final) {
    // Rank 0 of a job: its own steps and the other ranks' latest posts, against the whole job's total.
    const std::int64_t done = done_ + (job().size() > 1 ? job().others_progress() : 0);
    const double frac = std::min(1.0, double(done) / double(total_));
    const int width = 30, filled = int(frac * width);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = frac > 0.01 ? elapsed * (1 - frac) / frac : 0;
    std::fprintf(stderr, "\r%-10s [%.*s%*s] %5.1f%%  %6.1fs elapsed, ~%5.1fs left ", label_.c_str(), filled,
                 "##############################", width - filled, "", 100 * frac, elapsed, eta);
    if (final) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

std::int64_t finish_job_progress() {
    Communicator& comm = job();
    if (comm.size() == 1) return own_steps;
    if (comm.rank() != 0) comm.post_progress(own_steps);
    comm.finish_progress();
    return comm.rank() == 0 ? own_steps + comm.others_progress() : own_steps;
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
