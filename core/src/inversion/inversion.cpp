#include "fwi/inversion.hpp"

#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"
#include "runtime/seconds_since.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>

namespace fwi {
namespace {

using Clock = std::chrono::steady_clock;
const std::vector<double>& state_entry(const OptimizerState& s, const std::string& key, std::size_t size) {
    const auto it = s.find(key);
    if (it == s.end()) throw ConfigError("inversion state: '" + key + "' is missing");
    if (size && it->second.size() != size)
        throw ConfigError("inversion state: '" + key + "' has " + std::to_string(it->second.size()) +
                          " values; expected " + std::to_string(size));
    return it->second;
}

int state_count(const OptimizerState& s, const std::string& key) {
    const double v = state_entry(s, key, 1)[0];
    if (!(v >= 0) || v != std::floor(v) || v > 1e9)
        throw ConfigError("inversion state: '" + key + "' = " + std::to_string(v) + " is not a count");
    return int(v);
}

/// 64-bit FNV-1a over bytes.
void hash_bytes(std::uint64_t& h, const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i)
        h = (h ^ p[i]) * 0x100000001b3ULL;
}

/// What a saved state was computed against: the observed traces, their sampling and the acquisition, as two
/// 32-bit halves (exact in doubles). A resume against other data would continue L-BFGS with curvature pairs
/// of another misfit: its line searches fail without an iteration, or worse, converge somewhere wrong.
std::vector<double> data_fingerprint(const InversionSetup& setup) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const Gather& g : setup.observed) {
        hash_bytes(h, &g.samples, sizeof g.samples);
        hash_bytes(h, &g.dt_s, sizeof g.dt_s);
        hash_bytes(h, g.traces.data(), g.traces.size() * sizeof(float));
    }
    for (const Shot& shot : setup.acquisition.shots) {
        hash_bytes(h, &shot.source, sizeof shot.source);
        hash_bytes(h, shot.receivers.data(), shot.receivers.size() * sizeof(Point));
    }
    return {double(h >> 32), double(h & 0xffffffffULL)};
}

constexpr const char* fingerprint_key = "inversion.data_fingerprint";
constexpr const char* misfit_key = "inversion.misfit_kind";

/// Where a run starts: stage and iteration counters (the optimizer itself is restored separately).
struct Position {
    int stage = 0;
    int stage_iteration = 0; ///< iterations already done in `stage`
    int iteration = 0;       ///< iterations done over all stages
    bool resumed = false;
};

Position resume_position(const InversionSetup& setup, std::size_t cells) {
    Position p;
    if (setup.resume.empty()) return p;
    const auto& s = setup.resume;
    p.resumed = true;
    // States saved before the fingerprint was kept (2026-11-26) resume as before.
    if (s.count(misfit_key) && state_entry(s, misfit_key, 1)[0] != double(int(setup.objective.misfit.kind)))
        throw ConfigError(
            "inversion state: it was saved with another misfit (--misfit); resuming with this one "
            "would continue L-BFGS on another objective: start again without resuming");
    if (s.count(fingerprint_key) && state_entry(s, fingerprint_key, 2) != data_fingerprint(setup))
        throw ConfigError(
            "inversion state: the observed data or the acquisition changed since it was saved (an "
            "import or a new forward model?); start the inversion again without resuming");
    p.stage = state_count(s, "inversion.stage");
    p.stage_iteration = state_count(s, "inversion.stage_iteration");
    p.iteration = state_count(s, "inversion.iteration");
    if (state_entry(s, "optimizer.x", 0).size() != cells)
        throw ConfigError("inversion state: its model has " +
                          std::to_string(state_entry(s, "optimizer.x", 0).size()) +
                          " cells; the initial model has " + std::to_string(cells));
    if (std::size_t(p.stage) >= setup.stages.size())
        throw ConfigError("inversion state: stage " + std::to_string(p.stage) + " but the setup has " +
                          std::to_string(setup.stages.size()) + " stages");
    const double saved_cutoff = state_entry(s, "inversion.stage_cutoff_hz", 1)[0];
    if (saved_cutoff != setup.stages[std::size_t(p.stage)].cutoff_hz)
        throw ConfigError("inversion state: stage " + std::to_string(p.stage) + " was run at " +
                          std::to_string(saved_cutoff) + " Hz; the setup's stage is at " +
                          std::to_string(setup.stages[std::size_t(p.stage)].cutoff_hz) + " Hz");
    return p;
}

void check_setup(const InversionSetup& setup, double reference) {
    validate_model(setup.initial_model, "initial model");
    if (setup.stages.empty()) throw ConfigError("the inversion has no stages");
    for (std::size_t i = 0; i < setup.stages.size(); ++i)
        if (setup.stages[i].iterations < 0)
            throw ConfigError("stage " + std::to_string(i) + " has a negative iteration count");
    const auto& o = setup.optimizer;
    if (!std::isfinite(o.lower_bound) || !std::isfinite(o.upper_bound) || !(o.lower_bound > 0))
        throw ConfigError("the inversion needs finite velocity bounds with a positive minimum (got " +
                          std::to_string(o.lower_bound) + " .. " + std::to_string(o.upper_bound) + " m/s)");
    if (o.upper_bound > reference * (1 + 1e-9))
        throw ConfigError("velocity upper bound " + std::to_string(o.upper_bound) +
                          " m/s exceeds the reference velocity " + std::to_string(reference) +
                          " m/s that fixes the time step (lower the bound, --vmax, or raise the project's "
                          "reference velocity)");
    if (!setup.true_model.vp_mps.empty() && !(setup.true_model.grid == setup.initial_model.grid))
        throw ConfigError("the true model's grid differs from the initial model's");
}

} // namespace

std::vector<InversionStage> make_stages(const std::vector<double>& cutoffs_hz, int iterations) {
    std::vector<InversionStage> out;
    for (double f : cutoffs_hz)
        out.push_back({f, iterations});
    if (out.empty()) out.push_back({0.0, iterations});
    return out;
}

InversionResult run_inversion(const InversionSetup& setup, Observer* observer, const CancelToken* cancel,
                              std::function<void(const IterationRecord&)> on_iteration,
                              std::function<void(const OptimizerState&)> on_state) {
    const auto t0 = Clock::now();
    const double reference =
        setup.reference_velocity_mps > 0
            ? setup.reference_velocity_mps
            : std::max(setup.optimizer.upper_bound, double(setup.initial_model.max_velocity()));
    check_setup(setup, reference);
    const Grid grid = setup.initial_model.grid;
    Position pos = resume_position(setup, std::size_t(grid.cells()));
    const std::vector<double> fingerprint = data_fingerprint(setup);

    Simulation sim(grid, setup.acquisition, setup.propagation, reference, setup.backend);
    Objective objective(sim, setup.observed, setup.initial_model, setup.objective, observer, cancel);
    auto current_preconditioner = std::make_shared<Preconditioner>(objective.preconditioner());
    OptimizerOptions opt_options = setup.optimizer;
    opt_options.preconditioner = [current_preconditioner](std::vector<double>& v) {
        (*current_preconditioner)(v);
    };
    Optimizer optimizer = pos.resumed
                              ? Optimizer::resume(objective.function(), setup.resume, opt_options)
                              : Optimizer(objective.function(), setup.initial_model.vp_mps, opt_options);
    if (pos.resumed && setup.resume.count("objective.illumination")) {
        objective.set_illumination(
            state_entry(setup.resume, "objective.illumination", std::size_t(grid.cells())));
    }

    InversionResult result;
    result.warnings = sim.warnings();
    result.state = setup.resume;
    const bool subsets = setup.objective.shots_per_iteration > 0;
    auto make_record = [&](int stage, double seconds) {
        IterationRecord r;
        r.iteration = pos.iteration;
        r.stage = stage;
        r.freq_hz = setup.stages[std::size_t(stage)].cutoff_hz;
        r.misfit = optimizer.value();
        r.seconds = seconds;
        Model m{grid, optimizer.x()};
        if (!setup.true_model.vp_mps.empty()) r.model_error = relative_model_error(m, setup.true_model);
        if (setup.keep_models) r.model = std::move(m);
        if (setup.keep_gradients) r.gradient = optimizer.gradient();
        return r;
    };
    auto publish = [&](IterationRecord r) {
        if (observer) {
            Event e;
            e.wall_s = seconds_since(t0);
            std::ostringstream text;
            text << "iteration " << r.iteration << " (stage " << r.stage << ", " << r.freq_hz
                 << " Hz): misfit " << r.misfit;
            e.text = text.str();
            observer->on_event(e);
        }
        if (on_iteration) on_iteration(r);
        result.history.push_back(std::move(r));
    };

    try {
        for (int s = pos.stage; s < int(setup.stages.size()); ++s) {
            const InversionStage& stage = setup.stages[std::size_t(s)];
            if (s != pos.stage) pos.stage_iteration = 0;
            const bool fresh = !(pos.resumed && s == pos.stage && pos.stage_iteration > 0);
            objective.set_frequency(stage.cutoff_hz);
            if (fresh) {
                if (setup.objective.illumination)
                    objective.set_illumination(objective.source_illumination(Model{grid, optimizer.x()}));
                if (s > 0 || pos.resumed) optimizer.objective_changed(false);
            }
            *current_preconditioner = objective.preconditioner();
            if (s == 0 && !pos.resumed && pos.stage_iteration == 0) { // the starting model as iteration 0
                const auto t = Clock::now();
                objective.select_shots(0, 0);
                optimizer.evaluate();
                publish(make_record(0, seconds_since(t)));
            }
            result.reason = StopReason::MaxIterations;
            while (pos.stage_iteration < stage.iterations) {
                const auto t = Clock::now();
                objective.select_shots(s, pos.stage_iteration);
                if (subsets && !(s == 0 && pos.iteration == 0)) optimizer.objective_changed(true);
                const OptimizerIteration it = optimizer.iterate(cancel);
                if (it.stop != StopReason::None) {
                    result.reason = it.stop;
                    break;
                }
                ++pos.stage_iteration;
                ++pos.iteration;
                publish(make_record(s, seconds_since(t)));
                // A stage that stops early is saved as complete, so that a resume goes on with the next one.
                const bool stalled =
                    setup.min_relative_decrease > 0 &&
                    it.value_before - it.value < setup.min_relative_decrease * std::abs(it.value_before);
                OptimizerState state = optimizer.save_state();
                state["inversion.stage"] = {double(s)};
                state["inversion.stage_iteration"] = {
                    double(stalled ? std::max(pos.stage_iteration, stage.iterations) : pos.stage_iteration)};
                state["inversion.iteration"] = {double(pos.iteration)};
                state["inversion.stage_cutoff_hz"] = {stage.cutoff_hz};
                state[fingerprint_key] = fingerprint;
                state[misfit_key] = {double(int(setup.objective.misfit.kind))};
                if (!objective.illumination().empty())
                    state["objective.illumination"] = objective.illumination();
                result.state = state;
                if (on_state) on_state(result.state);
                if (stalled) {
                    result.reason = StopReason::SmallDecrease;
                    break;
                }
            }
        }
    } catch (const Cancelled&) {
        result.reason = StopReason::Cancelled;
    }
    // The optimizer commits a point only when an iteration completes: x is the last completed iterate, also
    // after a cancel, and matches result.state.
    result.model = Model{grid, optimizer.x()};
    result.evaluations = objective.evaluations();
    result.seconds = seconds_since(t0);
    return result;
}

} // namespace fwi
