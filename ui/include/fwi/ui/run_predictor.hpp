#pragma once
// The live "predicted time and peak memory" of the settings panels. This is the ONE adapter between the GUI and the
// performance model: the panels only see RunPrediction. Until fwi/performance_model.hpp (branch sched) is merged,
// the implementation is an interim estimate (documented in run_predictor.cpp); swapping it for fwi::predict() of the
// real plan changes this file only.
#include "fwi/settings.hpp"

#include <QString>

#include <cstdint>

namespace fwi::ui {

struct RunPrediction {
    bool ok = false;
    QString error;                     ///< why no prediction (bad settings), when !ok
    std::int64_t inner_steps = 0;      ///< per shot
    int step_ratio = 1;
    double forward_seconds = 0;        ///< modelling every shot once
    double gradient_seconds = 0;       ///< one gradient over every shot, with the chosen schedule
    std::uint64_t peak_bytes = 0;      ///< gradient: checkpoints + snapshots held at once (stored size)
    double compression_ratio = 1;      ///< the ratio assumed for the codec
    QString schedule;                  ///< the schedule the numbers are for
    QString summary() const;           ///< one line for the label
};

class RunPredictor {
public:
    /// Throughput of the propagator in padded-cell updates per second; calibrated from measured runs.
    void set_cell_updates_per_second(double rate);
    double cell_updates_per_second() const { return rate_; }
    /// Never throws: impossible settings give ok = false and the reason.
    RunPrediction predict(const Experiment& experiment) const;

private:
    double rate_ = 1.0e9;  // a 2-core CPU at order 8 (REFERENCES.md: peers reach 0.85-1.5e9)
};

/// Human units: "1.2 GB", "35 s", "2 h 5 min".
QString format_bytes(std::uint64_t bytes);
QString format_seconds(double seconds);

} // namespace fwi::ui
