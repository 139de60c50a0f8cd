#pragma once
// From a simulation and its gradient settings to the checkpoint plan that will run: measured step and codec
// costs (the performance model's calibration), the plan request for `fwi plan` and the GUI, and the resolved
// plan ("auto" chosen by the performance model). The executor runs exactly what resolve_plan() returns.
#include "fwi/performance_model.hpp"
#include "fwi/schedules.hpp"
#include "fwi/settings.hpp"
#include "fwi/simulation.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fwi {

/// Per-step and per-item costs of one shot of `sim` (whose model must be set): forward, snapshot-writing
/// forward and adjoint step times on a scratch state (the least of three batches of at least `probe_steps`
/// steps and 10 ms; the run's own states are untouched); state and snapshot sizes; a RAM tier costed by a
/// measured copy of one state, plus the first touch of new memory; a disk tier (tier 1) assumed at 1 GB/s
/// with 0.2 ms per file, which make_plan_request() and resolve_plan() replace by the disk's measured costs
/// when the run has a disk tier. Compression fields stay at "none"; see with_codec().
StepCosts measure_step_costs(Simulation& sim, int probe_steps = 6);

/// What the performance model prices a run by: its step and per-item costs (codec fields still "none"'s)
/// and its codec's estimate.
struct Calibration {
    StepCosts steps;
    CodecEstimate codec;
};

/// The calibration resolve_plan() prices a run of `sim` with codec `spec` by: this process's (measured once
/// per backend, padded grid, order, PML, codec, thread count, the probed shot's receivers and the inner
/// steps, then refined by learn_from_run after each run), else the calibration cache's (an earlier process on
/// this machine, within a day), else measured now (measure_step_costs and probe_codec). The desktop's
/// prediction panel asks it again after each run.
Calibration run_calibration(Simulation& sim, const std::string& spec);

/// run_calibration's answer where it has one without measuring (this process's, else the calibration
/// cache's); nullopt otherwise. Needs only the simulation's propagator shape and backend, not its model.
std::optional<Calibration> known_calibration(Simulation& sim, const std::string& spec);

/// The codec estimate a run of `sim` would price: the one this process's calibration holds (learnt from a
/// run's own wavefields by learn_from_run, or probed), else one kept in the calibration cache by an earlier
/// process on this machine (within a day), else probe_codec's. Measures no step times.
CodecEstimate calibrated_codec(Simulation& sim, const std::string& spec);

/// calibrated_codec for several codecs, as `fwi plan` compares them, answered in the order of `specs`. The
/// run's own wavefields are propagated once for all of them (estimate_codec_on_wavefields keeps them for the
/// process): a codec whose probe could not pay for the propagation and fell back to synthetic fields, listed
/// before one whose probe could (a costlier codec is allowed more: wavefield_probe_budget), codes the fields
/// that probe propagated. Priced in the order listed alone, the 3D demo's `fwi plan` had zstd, LZ4 and Blosc
/// on synthetic fields (ratios 8.8, 5.5, 8.7; the ZFP rows after them on the run's own), where the run's own
/// fields give 3.3, 2.3 and 3.4. Where four snapshots are too large to keep, each codec has only its own
/// probe. A codec probed here is kept as run_calibration keeps one, with `steps` (measure_step_costs of
/// `sim`), so that a later run with it prices what `fwi plan` showed. `probe(spec)`: probe_codec by default.
std::vector<CodecEstimate> calibrated_codecs(Simulation& sim, const std::vector<std::string>& specs,
                                             const StepCosts& steps);
std::vector<CodecEstimate> calibrated_codecs(Simulation& sim, const std::vector<std::string>& specs,
                                             const StepCosts& steps,
                                             const std::function<CodecEstimate(const std::string&)>& probe);

/// A codec's ratio and per-item times on the run's own gradient snapshots: the middle shot of `sim` (its
/// model, geometry and wavelet) propagated to the middle of the run's eighths 1, 3, 5 and 7, B^n taken there;
/// the states at those steps (all their fields) give the per-state times. The fields a codec sees decide its
/// ratio and time, above all under an absolute tolerance (zfp-accuracy), and a synthetic front codes unlike
/// them. nullopt when the propagation would take more than `budget_s` (checked as it goes: a large 3D grid
/// gives up after a few steps; with a budget of 0 only the fields an earlier probe kept serve), when the
/// propagator has no model yet, or when a snapshot is exactly zero.
std::optional<CodecEstimate> estimate_codec_on_wavefields(Simulation& sim, const std::string& spec,
                                                          double budget_s);

/// Forward steps that keep no snapshot go to the propagator in calls of this many (a two-hundredth of the
/// shot's `inner_nt` steps, at least one): progress events, cancellation and a GPU's receiver downloads come
/// once per call. A shot of 4096 receivers or more takes at least 32 steps a call: the CPU copies a call's
/// samples into the traces once, touching a page per receiver (point_sampling.hpp, forward_recording).
/// measure_step_costs times them the same way.
constexpr std::int64_t forward_steps_per_call(std::int64_t inner_nt, std::int64_t receivers) {
    const std::int64_t steps = inner_nt / 200 > 1 ? inner_nt / 200 : 1;
    return receivers >= 4096 && steps < 32 ? 32 : steps;
}

/// Steps measure_step_costs runs untimed first: on a 2-core VM the first ~0.1 s of a process's steps ran
/// 3-5x slower on small grids, and a probe inside that window priced a 149 x 249 project's steps at 0.16 ms
/// for 0.03 ms (predictions 2-4x over until a run corrected them).
constexpr double probe_warm_up_seconds = 0.15;

/// The first estimate of a codec for a run of `sim`: on its own wavefields where their propagation takes
/// at most wavefield_probe_seconds, or at most wavefield_probe_budget of the synthetic estimate; else
/// estimate_codec's synthetic probe ("none" always the probe: it codes nothing).
CodecEstimate probe_codec(Simulation& sim, const std::string& spec);

/// probe_codec with one attempt on the run's own wavefields, allowed `budget_s` of propagation (or none
/// where the fields an earlier probe kept serve), else the synthetic probe.
CodecEstimate probe_codec(Simulation& sim, const std::string& spec, double budget_s);

/// The propagation a codec probe may take on the run's own wavefields whatever the codec. The synthetic
/// fields price codecs 0.4x to 4x what the run's own fields cost (zstd on the salt 3D project, ZFP fixed
/// accuracy on the 3D Marmousi-II): their character (how dense the tiny values ahead of the front, how rich
/// the coda) is the model's. The probe is paid once per grid and process for all codecs, and its answers are
/// kept in the calibration cache.
constexpr double wavefield_probe_seconds = 10.0;

/// The propagation a wavefield probe may take for a run of `steps` inner steps, given the codec's synthetic
/// estimate: a quarter of coding and decoding one snapshot per step (what keeping every snapshot, or
/// Revolve's one state written and read per step, costs at least), and at least wavefield_probe_seconds.
double wavefield_probe_budget(const CodecEstimate& synthetic, std::int64_t steps);

/// A codec's ratio and per-item times measured on synthetic wavefields of the padded grid's shape (the front
/// of a surface shot at four radii: a Ricker ring, or sphere in 3D, a weak coda behind it, zeros ahead),
/// averaged; viewed as the states' fields are (nz * ny rows of nx). Throws ConfigError for a bad spec.
CodecEstimate estimate_codec(const std::string& spec, const PaddedGrid& grid);

/// `costs` with the codec's times, and a ratio that is safe for sizing slots: 1 for codecs whose ratio
/// depends on the data (lossless, zfp-accuracy/precision), exactly 32/BITS (capped at what was measured) for
/// zfp-rate:BITS. With the codec "none", snapshots are kept in place (StepCosts::snapshots_in_place).
StepCosts with_codec(StepCosts costs, const CodecEstimate& codec, bool size_pessimistically);

/// The request plan_table()/choose_auto() take for this run: its inner step count, budgets, a disk tier when
/// the settings give a disk budget or a scratch directory (its costs measured there: write and read of
/// items through a disk-tier store, once per process and directory), and the given codec estimates.
PlanRequest make_plan_request(const Simulation& sim, const GradientSettings& settings, const StepCosts& costs,
                              const std::vector<CodecEstimate>& codecs);

struct ResolvedPlan {
    std::vector<Action> plan;
    std::string schedule; ///< the spec that ran, e.g. "revolve:12" (auto resolved)
    int tiers = 1;        ///< 2 for multilevel
    StepCosts costs; ///< what the schedule was sized with (a codec's slots at its safe ratio, with_codec)
    Prediction prediction; ///< per shot, priced at the codec's expected ratio (calibrated or learnt)
    /// Set for "adaptive" specs: the executor runs a copy of it through the AdaptiveSchedule protocol; `plan`
    /// is its pessimistic plan (every state at its worst-case size), which bounds its memory, and the
    /// prediction prices the plan it makes at the expected ratio.
    std::shared_ptr<const AdaptiveRevolveSchedule> adaptive;
};

/// A schedule spec (not "auto") built with `costs` (slots at the codec's safe ratio, with_codec) and priced
/// at `expected_ratio` (the codec's calibrated or learnt ratio, clamped to >= 1): the plan resolve_plan()
/// runs and its prediction, without the budget check. "adaptive" takes `budget_bytes`; an adaptive spec is
/// priced on the plan it makes when every state compresses at that ratio, its store coding each state on the
/// caller's thread (StepCosts::coded_on_caller). Throws ConfigError for a bad spec, PlanError for an invalid
/// plan.
ResolvedPlan price_plan(const std::string& spec, std::int64_t steps, const StepCosts& costs,
                        double expected_ratio, std::uint64_t budget_bytes);

/// The plan for one shot of `sim` under `settings`: builds the schedule named by settings.schedule, or for
/// "auto" the fastest predicted schedule that fits the budget (slots sized pessimistically, see with_codec).
/// "adaptive" takes the memory budget (ConfigError without one) and "adaptive:S" the bytes of S states, each
/// sized as auto sizes slots.
/// Validates the plan (simulate_plan) and, for uncompressed runs, refuses up front a plan whose memory cannot
/// fit the budget: ResourceError naming the need and the budget. Throws ConfigError for a bad spec.
/// The step and codec costs are measured once per process for each backend, padded grid, order, PML and
/// codec, and reused by later calls (an inversion's gradients share them).
ResolvedPlan resolve_plan(Simulation& sim, const GradientSettings& settings);

/// The tier-0 bytes a run given no memory budget may hold (checkpoints and snapshots): three quarters of the
/// machine's physical memory (the rest for the program, its wavefields, data and the system), or of
/// FWI_MACHINE_MEMORY (bytes, e.g. 8G) where set, divided among the processes that share the machine; 0 when
/// unknown. A run without a budget is planned, and its
/// explicit schedule checked, against it: "unlimited" never means more than the machine has.
std::uint64_t machine_checkpoint_bytes();
/// How many processes of the job share this machine's memory (MPI ranks on one node):
/// machine_checkpoint_bytes is each one's share. Set once at start-up; 1 by default.
void set_processes_sharing_machine(int processes);

/// A note when `plan` recomputes more than 10 forward steps for each step of the shot (Revolve or online with
/// one or two slots on a long shot: a run that looks hung), with its predicted time; empty otherwise.
std::string recomputation_note(const ResolvedPlan& plan);

/// ConfigError unless `interval` inner steps between gradient snapshots sample the gradient: at least 1, less
/// than the run's steps, and at most the Nyquist interval of the product of the forward and adjoint fields (a
/// Ricker of peak f holds frequencies up to about 3f, their product up to 6f: a snapshot at least every
/// 1/(12 f) s). A longer interval gave a gradient without warning that was wrong in size and sign.
void check_sampling_interval(const Simulation& sim, int interval);

/// What a gradient run measured of the costs the model predicts from its calibration.
struct RunMeasurement {
    struct Steps {
        double seconds = 0;
        std::int64_t count = 0;
        void add(double s, std::int64_t n) {
            seconds += s;
            count += n;
        }
    };
    Steps forward;                         ///< first computations that keep no snapshot
    Steps recompute;                       ///< forward steps computed again (no snapshot kept)
    Steps snapshot_forward;                ///< forward steps that write their gradient snapshot
    Steps adjoint;                         ///< adjoint steps with their gradient accumulation
    bool store_workers = false;            ///< store workers (codec, disk) ran beside the steps, slowing them
    std::uint64_t fresh_touched_bytes = 0; ///< snapshot memory touched for the first time
    double touch_seconds = 0;              ///< and the time that took
    std::int64_t items_stored = 0, items_loaded = 0;   ///< through the codec, states and snapshots
    double compress_seconds = 0;                       ///< summed over the store's single-threaded workers
    double decompress_seconds = 0;                     ///< on the caller's OpenMP team
    std::int64_t states_stored = 0, states_loaded = 0; ///< the states among those items
    double state_compress_seconds = 0, state_decompress_seconds = 0; ///< and their part of the times
    double compression_ratio = 0; ///< raw / stored over the run's items (0: nothing stored)
};

/// The self-check's feedback: later predictions for the same backend, grid, order, PML and codec, in this
/// process and (through the calibration cache) in later ones, use what the run measured instead of the
/// calibration's probes: the first-touch rate (from at least
/// 64 MiB touched), the codec's ratio and per-item times on real wavefields (from at least 8 items), and,
/// for runs without store workers (codec or disk workers would be counted twice: in the steps they slow and
/// as their own time), the forward, snapshot and adjoint step times (from at least 100 steps of each).
void learn_from_run(Simulation& sim, const std::string& codec_spec, const RunMeasurement& m);

} // namespace fwi
