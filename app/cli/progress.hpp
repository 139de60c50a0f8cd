#pragma once
// Observers for the command line: a progress bar on stderr (only when it is a terminal), an event log as JSON
// lines, and a tee that feeds several observers. Under MPI every rank's bar counts its own steps and posts
// the count to rank 0 (Communicator::post_progress), whose bar shows the whole job.
#include "fwi/events.hpp"

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

namespace fwi::cli {

class ProgressBar final : public Observer {
  public:
    /// `total_steps`: forward + adjoint steps expected (the bar's 100%); `label` leads the line. Enabled, it
    /// draws on a terminal; rank 0 of an MPI job, whose stderr the launcher pipes, writes a plain line every
    /// 10 s instead (a batch job's log; the command's summary ends it).
    ProgressBar(std::string label, std::int64_t total_steps, bool enabled);
    ~ProgressBar() override;
    void on_event(const Event& e) override;
    void set_total(std::int64_t total_steps) { total_ = total_steps; }

  private:
    void draw(bool final);
    void log_line();
    std::string label_;
    std::int64_t total_ = 1, done_ = 0;
    bool enabled_, lines_;
    std::chrono::steady_clock::time_point last_draw_{}, last_post_{};
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

class EventLog final : public Observer {
  public:
    explicit EventLog(const std::string& path); ///< throws ResourceError if the file cannot be created
    void on_event(const Event& e) override;

  private:
    std::ofstream out_;
    std::string path_;
};

class Tee final : public Observer {
  public:
    void add(Observer* o) {
        if (o) observers_.push_back(o);
    }
    void on_event(const Event& e) override {
        for (auto* o : observers_)
            o->on_event(e);
    }
    bool wants_field(FieldKind k, std::int64_t step) override {
        for (auto* o : observers_)
            if (o->wants_field(k, step)) return true;
        return false;
    }
    void on_field(FieldKind k, std::int64_t step, ConstFieldView f) override {
        for (auto* o : observers_)
            if (o->wants_field(k, step)) o->on_field(k, step, f);
    }

  private:
    std::vector<Observer*> observers_;
};

bool stderr_is_terminal();

/// Ends the job's progress exchange (collective; every rank calls it once the command has run): the other
/// ranks post their final counts, and rank 0 returns the steps every rank's bars counted (propagation
/// steps: forward, recomputed and adjoint), the other ranks their own.
std::int64_t finish_job_progress();

} // namespace fwi::cli
