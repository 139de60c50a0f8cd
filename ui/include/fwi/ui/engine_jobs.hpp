#pragma once
// The GUI's calls into the engine, each packaged as a JobWork for JobRunner. A job works on COPIES of what it
// needs (taken on the GUI thread when it is made), so the user may keep editing while it runs; its results
// reach the GUI thread through `apply`, called only when the job succeeds.
#include "fwi/gradient_engine.hpp"
#include "fwi/inversion.hpp"
#include "fwi/project.hpp"
#include "fwi/ui/job_runner.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fwi::ui {

struct ForwardOutput {
    std::vector<Gather> gathers;
    std::int64_t inner_steps = 0; ///< per shot
    std::int64_t cells = 0;       ///< padded cells per step (for throughput)
    double seconds = 0;
};

/// Models every shot in `model` (the true model for observed data, or any other).
JobWork forward_job(const Experiment& experiment, const Model& model, const std::string& backend,
                    std::function<void(ForwardOutput)> apply);

struct GradientOutput {
    GradientResult result;
    std::vector<Gather> observed;
    std::int64_t inner_steps = 0;
    std::int64_t cells = 0;
};

/// The misfit gradient at the project's working model (current, else initial), against its observed data.
JobWork gradient_job(const Project& project, const std::string& backend,
                     std::function<void(GradientOutput)> apply);

struct InversionOutput {
    std::vector<IterationRecord> history; ///< this run's completed records (iteration 0 = the starting model)
    OptimizerState state; ///< after the last completed iteration: resume from here (empty: none)
    StopReason reason = StopReason::None; ///< Cancelled when stopped early (the records are still consistent)
    int evaluations = 0;
    double seconds = 0;
    std::string warnings;
    std::string run_options; ///< the run options to keep in the project (fwi::save_run_options)
};
using IterationRecordPtr = std::shared_ptr<const IterationRecord>;

/// fwi::run_inversion of the project as inversion_setup() describes it: its inversion settings and run
/// options (conditioning, L-BFGS memory), fresh from the initial model, or with `resume` from the project's
/// optimizer state with the run options it was started with (also by `fwi invert`); `history` then holds only
/// the new records. `on_record` gets every completed iteration live on the GUI thread. On cancel the job
/// stops early (JobContext::stopped_early) and `apply` still gets the iterations completed so far, with the
/// matching optimizer state, so that the project stays consistent at the last completed iteration.
JobWork inversion_job(const Project& project, const std::string& backend, bool resume,
                      std::function<void(IterationRecordPtr)> on_record,
                      std::function<void(InversionOutput)> apply);

/// "cpu", plus "cuda" when built and a device is present.
std::vector<std::string> backends();
/// The device a backend runs on ("CPU (2 OpenMP threads)" or the GPU model), for the status bar.
QString device_description(const std::string& backend);

} // namespace fwi::ui
