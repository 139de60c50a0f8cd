#pragma once
// The live "predicted time and peak memory" of the settings panel: the ONE adapter between the GUI and the
// core performance model (fwi/run_plan.hpp, fwi/performance_model.hpp). The numbers are the executor's own:
// step costs measured by fwi::measure_step_costs on a Simulation of the project, the codec's estimate from
// fwi::probe_codec (on the project's own wavefields when that is quick) with slots sized pessimistically
// (fwi::with_codec, as resolve_plan does), the request from fwi::make_plan_request, then fwi::predict of the
// chosen schedule's plan ("auto": fwi::choose_auto).
//
// Measuring runs a few propagator steps and a few codec passes, so it is done once per (padded grid, order,
// backend) and once per (codec, padded grid) and cached for the whole process. predict() never measures:
// without the measurement it says so (calibrating = true) and the caller runs measure() off the GUI thread,
// add()s the result and predicts again. predict_now() measures in place (tests, scripts).
#include "fwi/performance_model.hpp"
#include "fwi/plan_sweep.hpp"
#include "fwi/settings.hpp"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace fwi::ui {

struct RunPrediction {
    bool ok = false;          ///< a prediction exists (valid settings, costs measured, a plan chosen)
    bool calibrating = false; ///< !ok only because this machine's costs are not measured yet
    /// !ok only because the plans are not priced yet (RunPredictor::outline; the settings panel prices them
    /// on a worker thread): the settings are valid and measured; inner_steps, step_ratio, shots and the
    /// budgets are set.
    bool updating = false;
    QString error;                ///< why there is no prediction, when !ok (for auto: the ResourceError text)
    std::int64_t inner_steps = 0; ///< per shot
    int step_ratio = 1;
    std::int64_t shots = 0;
    double forward_seconds = 0;  ///< modelling every shot once: shots x inner steps x measured forward step
    double gradient_seconds = 0; ///< one gradient over every shot (shots run one after the other)
    /// The gradients an inversion with the settings needs at least: one per iteration plus one per stage (its
    /// starting point); a line search that needs more than one trial adds more.
    std::int64_t inversion_gradients = 0;
    double inversion_seconds =
        0; ///< inversion_gradients x gradient_seconds (illumination passes not included)
    std::uint64_t peak_bytes = 0;      ///< per shot: RAM tier (tier 0), states + snapshots, stored size
    std::uint64_t disk_peak_bytes = 0; ///< per shot: disk tier (tier 1), 0 without one
    std::uint64_t budget_bytes = 0;    ///< the settings' budgets (0: none given, see machine_budget_bytes)
    std::uint64_t disk_budget_bytes = 0;
    /// With no memory budget (0): what the run is planned against, this machine's share
    /// (machine_checkpoint_bytes).
    std::uint64_t machine_budget_bytes = 0;
    bool fits_budget = false;          ///< peak_bytes and disk_peak_bytes within their budgets
    double compression_ratio = 1;      ///< the ratio slots are sized with (1 unless the codec guarantees one)
    double measured_ratio = 1;         ///< the codec's expected ratio (what priced it: codec_source)
    std::string codec_source;          ///< fwi::CodecEstimate::source: wavefields, synthetic or learnt
    QString schedule;                  ///< the spec the numbers are for ("auto" resolved)
    bool automatic = false;            ///< the schedule was chosen by choose_auto
    std::string codec;                 ///< the compression spec
    StepCosts costs;                   ///< what the prediction used (codec applied)
    Prediction per_shot;               ///< fwi::predict of the plan, one shot
    std::vector<PlanRow> alternatives; ///< fwi::plan_table for this run, with the settings' codec
    /// When compression pays (Kukreja et al., Fig. 15; `fwi plan --sweep`): Revolve + the settings' codec at
    /// its measured ratio over Revolve alone, 12 budgets plus the settings' own. Empty without compression.
    PlanSweep sweep;
    QString summary() const; ///< a few lines (rich text) for the label
};

class RunPredictor {
  public:
    /// Backend whose costs are measured and predicted ("auto", "cpu", "cuda").
    void set_backend(const std::string& backend);
    const std::string& backend() const { return backend_; }

    /// Never measures and never throws: impossible settings give ok = false and the reason; costs not
    /// measured yet give ok = false, calibrating = true.
    RunPrediction predict(const Experiment& experiment) const;
    /// What predict() gives without pricing a plan (milliseconds, where pricing the plans takes up to seconds
    /// with a fast codec on a long run): the same errors and calibrating state, the steps, shots and budgets;
    /// else ok = false, updating = true.
    RunPrediction outline(const Experiment& experiment) const;
    /// predict(), measuring first when needed (blocks for the measurement).
    RunPrediction predict_now(const Experiment& experiment);

    /// What predict() needs measured for `experiment` and is not in the cache yet.
    struct Measurement {
        std::string step_key, codec_key; ///< empty: already cached
        StepCosts costs;
        CodecEstimate codec;
    };
    /// Thread-safe and self-contained (works on copies): run it on a worker thread. Throws ConfigError for
    /// settings that cannot run (the caller shows predict()'s error instead). The costs are the engine's
    /// calibration (fwi::run_calibration), measured where it has none. After a run, `refresh` takes what
    /// the engine holds now (fwi::known_calibration: learnt from the run) even where this cache has the
    /// shape already, and measures nothing.
    static Measurement measure(const Experiment& experiment, const std::string& backend,
                               bool refresh = false);
    /// Adds a measurement to the process-wide cache.
    static void add(const Measurement& measurement);
    /// The measured step costs predict() uses for `experiment` (no codec), if cached.
    bool cached_costs(const Experiment& experiment, StepCosts& out) const;

  private:
    RunPrediction predict(const Experiment& experiment, bool price_plans) const;

    std::string backend_ = "auto";
};

/// Human units: "1.2 GB", "35 s", "2 h 5 min".
QString format_bytes(std::uint64_t bytes);
QString format_seconds(double seconds);

} // namespace fwi::ui
