// The performance model's calibrations (this process's, the cache's, learnt from runs; step prices:
// step_cost_probe.cpp) and the plan an executor runs.
#include "fwi/run_plan.hpp"

#include "engine/calibration_cache.hpp"
#include "engine/disk_tier_probe.hpp"
#include "engine/store_codec_timing.hpp"
#include "engine/touched_memory_pool.hpp"

#include "fwi/byte_text.hpp"
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"
#include "fwi/error.hpp"
#include "fwi/schedules.hpp"
#include "runtime/machine_memory.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <omp.h>
#include <optional>
#include <sstream>

namespace fwi {

namespace {

/// `c` with tier 1 measured in the run's scratch directory when the settings give the run a disk tier.
StepCosts with_disk_tier(StepCosts c, const GradientSettings& s) {
    if (s.disk_budget_bytes == 0 && s.scratch_dir.empty()) return c;
    if (const auto disk = measured_disk_tier(s.scratch_dir, c.state_bytes)) {
        if (c.tiers.size() < 2) c.tiers.resize(2);
        c.tiers[1] = *disk;
    }
    return c;
}

/// The tier-0 bytes a run of `s` is planned against: its budget, else this machine's share (0: unknown).
struct RamLimit {
    std::uint64_t bytes = 0;
    bool machine = false; ///< no budget was given
};
RamLimit ram_limit(const GradientSettings& s) {
    if (s.budget_bytes != 0) return {s.budget_bytes, false};
    const std::uint64_t machine = machine_checkpoint_bytes();
    return {machine, machine != 0};
}

/// Refuses an uncompressed plan that cannot fit: the store would refuse it part-way through the run anyway.
void check_fits(const ResolvedPlan& r, const GradientSettings& s) {
    const auto& peak = r.prediction.peak_bytes;
    if (const RamLimit limit = ram_limit(s); limit.bytes != 0 && !peak.empty() && peak[0] > limit.bytes) {
        const auto [need, budget] = compared_bytes(peak[0], limit.bytes);
        if (limit.machine)
            throw ResourceError(
                "schedule " + r.schedule + " needs " + need +
                " of checkpoint memory for one shot, more than this machine can hold: with no "
                "--budget a run may keep " +
                budget +
                " (three quarters of its memory). Use --schedule auto, fewer slots, a "
                "codec, or a budget with a disk tier (--budget RAM,DISK)");
        const auto& counts = r.prediction.counts;
        const int slots = counts.peak_slots.empty() ? 0 : counts.peak_slots[0];
        throw ResourceError(
            "schedule " + r.schedule + " needs " + need + " of checkpoint memory for one shot (at most " +
            std::to_string(slots) + " checkpointed states and " + std::to_string(counts.peak_kept_snapshots) +
            " snapshots at once; a state is " + bytes_text(r.costs.state_bytes) + ", a snapshot " +
            bytes_text(r.costs.snapshot_bytes) + "); the memory budget is " + budget +
            ". Choose fewer slots, a codec, or --schedule auto");
    }
    if (s.disk_budget_bytes != 0 && peak.size() > 1 && peak[1] > s.disk_budget_bytes) {
        const auto [need, budget] = compared_bytes(peak[1], s.disk_budget_bytes);
        throw ResourceError("schedule " + r.schedule + " needs " + need + " of disk; the disk budget is " +
                            budget);
    }
}

/// This process's calibrations, by CalibrationKey::text(), refined by learn_from_run().
struct SessionCalibrations {
    std::mutex mutex;
    std::map<std::string, Calibration> entries;
};

SessionCalibrations& session_calibrations() {
    static SessionCalibrations s;
    return s;
}

/// Keyed by the codec's canonical name: "zstd" and "zstd:3" are one calibration (and one cache file).
CalibrationKey calibration_key(Simulation& sim, const std::string& codec_spec) {
    const PaddedGrid& g = sim.propagator().padded();
    const auto& shots = sim.acquisition().shots;
    // The shot measure_step_costs probes.
    const auto receivers = shots.empty() ? 0 : std::int64_t(sim.geometry(shots.size() / 2).receivers.size());
    return {sim.propagator().backend(),
            g.nz(),
            g.nx(),
            g.order,
            g.pml,
            make_codec(codec_spec)->name(),
            omp_get_max_threads(),
            g.ny(),
            receivers,
            sim.time().inner_nt,
            g.free_surface};
}

/// This process's calibration under `key`, else the calibration cache's; measures nothing.
std::optional<Calibration> known(const CalibrationKey& key) {
    {
        SessionCalibrations& session = session_calibrations();
        const std::lock_guard lock(session.mutex);
        if (const auto it = session.entries.find(key.text()); it != session.entries.end()) return it->second;
    }
    return load_cached_calibration(key);
}

/// Into this process's calibrations (where it may be already), for learn_from_run to refine.
Calibration into_session(const CalibrationKey& key, const Calibration& c) {
    SessionCalibrations& session = session_calibrations();
    const std::lock_guard lock(session.mutex);
    return session.entries.emplace(key.text(), c).first->second;
}

/// A calibration just measured: kept in the calibration cache for later processes and in this process's.
Calibration keep_measured(const CalibrationKey& key, const Calibration& c) {
    store_cached_calibration(key, c);
    return into_session(key, c);
}

} // namespace

/// Costs depend on the backend, grid shape, order, codec and thread count, not on the velocities: an
/// inversion's many gradients share one calibration per process (measured once, then refined by what each
/// run measures), and later processes on the same machine reuse it from the calibration cache.
Calibration run_calibration(Simulation& sim, const std::string& codec_spec) {
    const CalibrationKey key = calibration_key(sim, codec_spec);
    if (const std::optional<Calibration> c = known(key)) return into_session(key, *c);
    return keep_measured(key, Calibration{measure_step_costs(sim), probe_codec(sim, codec_spec)});
}

std::optional<Calibration> known_calibration(Simulation& sim, const std::string& codec_spec) {
    return known(calibration_key(sim, codec_spec));
}

CodecEstimate estimate_codec(const std::string& spec, const PaddedGrid& grid) {
    const auto codec = make_codec(spec);
    const std::int64_t nz = grid.nz(), ny = grid.ny(), nx = grid.nx(), rows = grid.rows(), cols = nx;
    const bool three_d = grid.three_d();
    std::vector<float> field(std::size_t(rows * cols));
    // The wavefield of a surface shot as it sweeps the model: a Ricker wavefront of radius r around a source
    // near the top, a weak coda behind it and exact zeros ahead of it (nothing has arrived there: codecs
    // pass such blocks quickly), at four radii from a fifth to the whole of the grid. Times and sizes are
    // the averages over the four fields, as a run's stores average over its steps. In 3D the front is a
    // sphere around a source in the middle of the top plane, laid out as the states are (nz * ny rows of nx).
    const double cz = 0.05 * double(nz), cy = 0.5 * double(ny), cx = 0.5 * double(nx);
    const double reach = three_d ? std::hypot(double(nz) - cz, cy, cx) : std::hypot(double(nz) - cz, cx);
    const double width = 6.0;
    double compress_s = 0, decompress_s = 0, raw = 0, stored = 0;
    constexpr int fields = 4;
    for (int k = 0; k < fields; ++k) {
        const double radius = reach * (0.2 + 0.8 * double(k) / double(fields - 1));
        for (std::int64_t i = 0; i < nz; ++i)
            for (std::int64_t y = 0; y < ny; ++y)
                for (std::int64_t j = 0; j < nx; ++j) {
                    const double r = three_d ? std::hypot(double(i) - cz, double(y) - cy, double(j) - cx)
                                             : std::hypot(double(i) - cz, double(j) - cx);
                    const double a = (r - radius) / width;
                    double v = 0;
                    if (a < 3) {
                        const double ricker = (1 - 2 * a * a) * std::exp(-a * a);
                        const double coda =
                            r < radius ? 1e-3 * std::sin(0.05 * double(i)) * std::cos(0.07 * double(j)) : 0;
                        v = ricker / (1 + 0.05 * r) + coda;
                    }
                    field[std::size_t((i * ny + y) * nx + j)] = float(v);
                }
        const CodecTiming t = measure_store_codec(*codec, {field.data(), rows, cols, grid.plane_rows()}, 3);
        compress_s += t.compress_seconds / fields;
        decompress_s += t.decompress_seconds / fields;
        // Relative to the uncompressed frame (raw + header): the sizes StepCosts carries include the header.
        raw += double(t.raw_bytes + codec_frame_header_bytes);
        stored += double(std::max<std::uint64_t>(t.compressed_bytes, 1));
    }
    return {codec->name(), std::max(1.0, raw / stored), compress_s, decompress_s, 0, 0, "synthetic"};
}

StepCosts with_codec(StepCosts c, const CodecEstimate& codec, bool size_pessimistically) {
    c.snapshots_in_place = codec.codec == "none"; // as make_item_storage keeps them
    codec.price(c);
    c.compression_ratio =
        size_pessimistically ? safe_compression_ratio(codec.codec, codec.ratio) : std::max(1.0, codec.ratio);
    return c;
}

PlanRequest make_plan_request(const Simulation& sim, const GradientSettings& s, const StepCosts& costs,
                              const std::vector<CodecEstimate>& codecs) {
    PlanRequest r;
    r.steps = sim.time().inner_nt;
    r.costs = with_disk_tier(costs, s);
    r.costs.sampling_interval = s.sampling_interval;
    const RamLimit limit = ram_limit(s);
    r.budget_bytes = limit.bytes;
    r.budget_is_machine = limit.machine;
    r.disk_tier = s.disk_budget_bytes != 0 || !s.scratch_dir.empty();
    r.disk_budget_bytes = s.disk_budget_bytes;
    r.codecs = codecs;
    return r;
}

namespace {

/// learn_from_run's update of one calibration; false when nothing was learnt.
bool learn(Calibration& c, const RunMeasurement& m) {
    bool learnt = false;
    // Smaller samples are too noisy to replace a probe: a few pages, or a handful of codec calls.
    if (m.fresh_touched_bytes >= (std::uint64_t(64) << 20) && m.touch_seconds > 0) {
        c.steps.first_touch_s_per_byte = m.touch_seconds / double(m.fresh_touched_bytes);
        learnt = true;
    }
    if (c.codec.codec == "none") {
        // A backend with memory of its own (a GPU) queues its steps: the executor's per-call times are mostly
        // launch times, so the calibration's synchronised batches stand.
        if (m.store_workers || c.steps.backend_memory) return learnt;
        const auto mean = [&learnt](const RunMeasurement::Steps& s, double fallback) {
            if (s.count < 100) return fallback;
            learnt = true;
            return s.seconds / double(s.count);
        };
        const double f = c.steps.forward_step_s, w = c.steps.snapshot_write_s;
        const bool plain_steps = m.forward.count >= 100;
        c.steps.recompute_step_s = mean(m.recompute, c.steps.recompute_price());
        c.steps.forward_step_s = mean(m.forward, f);
        const double with_snapshot = mean(m.snapshot_forward, c.steps.forward_step_s + w);
        if (plain_steps || m.snapshot_forward.count < 100 || !(f + w > 0)) {
            c.steps.snapshot_write_s = std::max(0.0, with_snapshot - c.steps.forward_step_s);
        } else {
            // Only snapshot steps ran (store-all): they measure the sum, which is split as the calibration
            // split it. Subtracting the old forward price instead kept a forward step priced too high by
            // an earlier, busier run for good (the write clamped at 0, every later store-all over-predicted).
            c.steps.forward_step_s = with_snapshot * f / (f + w);
            c.steps.snapshot_write_s = with_snapshot * w / (f + w);
        }
        c.steps.adjoint_step_s = mean(m.adjoint, c.steps.adjoint_step_s);
        return learnt;
    }
    // Stores compress on single-threaded workers beside the propagation, store_codec_parallelism() items at a
    // time (measure_store_codec prices the probe the same way). States and snapshots are priced apart.
    const double parallel = double(store_codec_parallelism());
    bool codec_learnt = false;
    const auto mean = [&codec_learnt](double seconds, std::int64_t items, double& price) {
        if (items < 8) return;
        price = seconds / double(items);
        codec_learnt = true;
    };
    mean(m.state_compress_seconds / parallel, m.states_stored, c.codec.state_compress_s);
    mean(m.state_decompress_seconds, m.states_loaded, c.codec.state_decompress_s);
    mean((m.compress_seconds - m.state_compress_seconds) / parallel, m.items_stored - m.states_stored,
         c.codec.compress_s);
    mean(m.decompress_seconds - m.state_decompress_seconds, m.items_loaded - m.states_loaded,
         c.codec.decompress_s);
    if (m.items_stored >= 8 && m.compression_ratio >= 1) c.codec.ratio = m.compression_ratio;
    if (codec_learnt) c.codec.source = "learnt";
    return learnt || codec_learnt;
}

} // namespace

void learn_from_run(Simulation& sim, const std::string& codec_spec, const RunMeasurement& m) {
    SessionCalibrations& session = session_calibrations();
    const CalibrationKey key = calibration_key(sim, codec_spec.empty() ? "none" : codec_spec);
    const std::lock_guard lock(session.mutex);
    const auto it = session.entries.find(key.text());
    if (it == session.entries.end()) return;
    // Kept for later processes too: the next `fwi gradient` or `fwi plan` on this grid and codec prices what
    // the run measured over all of its steps and items, not the first probe.
    if (learn(it->second, m)) store_cached_calibration(key, it->second);
}

CodecEstimate calibrated_codec(Simulation& sim, const std::string& spec) {
    if (const std::optional<Calibration> c = known_calibration(sim, spec)) return c->codec;
    return probe_codec(sim, spec);
}

namespace {

/// A probed estimate as the run will pay it: compression charged for sharing the cores, and a state's
/// coding priced by its fields where the probe coded no state.
CodecEstimate as_run_pays(Simulation& sim, CodecEstimate e) {
    if (e.codec != "none") { // "none" copies on the caller's thread (no workers without a disk tier)
        const double sharing = store_codec_core_sharing(sim.propagator().backend() == "cpu");
        e.compress_s *= sharing;
        e.state_compress_s *= sharing;
    }
    if (e.state_compress_s > 0) return e; // states coded (a coded item always takes some time)
    // No state was coded (the synthetic probe, or states too large to keep): one is priced as that many
    // probed fields' worth of floats (exact for "none"'s copy; an over-estimate for codecs, whose PML strips
    // and u^(n-1) code faster than a front).
    double state_floats = 0;
    for (const FieldView& f : sim.propagator().new_state()->fields())
        state_floats += double(f.size());
    const double fields_per_state = state_floats / double(sim.propagator().padded().cells());
    e.state_compress_s = e.compress_s * fields_per_state;
    e.state_decompress_s = e.decompress_s * fields_per_state;
    return e;
}

} // namespace

std::vector<CodecEstimate> calibrated_codecs(Simulation& sim, const std::vector<std::string>& specs,
                                             const StepCosts& steps) {
    return calibrated_codecs(sim, specs, steps,
                             [&sim](const std::string& spec) { return probe_codec(sim, spec); });
}

std::vector<CodecEstimate> calibrated_codecs(Simulation& sim, const std::vector<std::string>& specs,
                                             const StepCosts& steps,
                                             const std::function<CodecEstimate(const std::string&)>& probe) {
    std::vector<CodecEstimate> estimates(specs.size());
    std::vector<std::size_t> probed;
    std::vector<std::size_t> before_fields; // probed on synthetic fields before any probe had the run's own
    bool fields = false;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (const std::optional<Calibration> c = known_calibration(sim, specs[i])) {
            estimates[i] = c->codec;
            continue;
        }
        probed.push_back(i);
        estimates[i] = probe(specs[i]);
        if (estimates[i].source == "wavefields")
            fields = true;
        else if (!fields && estimates[i].codec != "none")
            before_fields.push_back(i);
    }
    // A later codec's probe propagated the run's fields, which estimate_codec_on_wavefields keeps for the
    // process: the codecs probed before it code those now (allowed no propagation of their own).
    if (fields)
        for (const std::size_t i : before_fields)
            if (const std::optional<CodecEstimate> real = estimate_codec_on_wavefields(sim, specs[i], 0.0))
                estimates[i] = as_run_pays(sim, *real);
    // What `fwi plan` showed is what the next `fwi gradient` with that codec prices, not a probe of its own.
    for (const std::size_t i : probed)
        keep_measured(calibration_key(sim, specs[i]), Calibration{steps, estimates[i]});
    return estimates;
}

double wavefield_probe_budget(const CodecEstimate& synthetic, std::int64_t steps) {
    return std::max(wavefield_probe_seconds,
                    0.25 * double(steps) * (synthetic.compress_s + synthetic.decompress_s));
}

CodecEstimate probe_codec(Simulation& sim, const std::string& spec) {
    const PaddedGrid& grid = sim.propagator().padded();
    std::optional<CodecEstimate> real;
    std::optional<CodecEstimate> synthetic;
    if (make_codec(spec)->name() != "none") {
        real = estimate_codec_on_wavefields(sim, spec, wavefield_probe_seconds);
        if (!real) {
            // Too slow for that (it gave up after its first steps): still worth it where the run's coding
            // costs far more than the propagation, as the synthetic fields tell.
            synthetic = estimate_codec(spec, grid);
            const double budget_s = wavefield_probe_budget(*synthetic, sim.time().inner_nt);
            if (budget_s > wavefield_probe_seconds) real = estimate_codec_on_wavefields(sim, spec, budget_s);
        }
    }
    return as_run_pays(sim, real ? *real : synthetic ? *synthetic : estimate_codec(spec, grid));
}

CodecEstimate probe_codec(Simulation& sim, const std::string& spec, double budget_s) {
    std::optional<CodecEstimate> real;
    if (make_codec(spec)->name() != "none") real = estimate_codec_on_wavefields(sim, spec, budget_s);
    return as_run_pays(sim, real ? *real : estimate_codec(spec, sim.propagator().padded()));
}

void check_sampling_interval(const Simulation& sim, int interval) {
    if (interval < 1) throw ConfigError("gradient sampling interval must be >= 1");
    if (interval == 1) return;
    const double dt = sim.time().inner_dt_s, freq = sim.settings().freq_hz;
    const int longest = std::max(1, int(std::floor(1 / (12 * freq * dt))));
    if (interval < sim.time().inner_nt && interval <= longest) return;
    std::ostringstream msg;
    msg << "gradient sampling interval " << interval << " (--sampling-interval): ";
    if (interval >= sim.time().inner_nt)
        msg << "the run has only " << sim.time().inner_nt << " inner steps";
    else
        msg << "a snapshot every " << interval * dt * 1e3 << " ms undersamples the gradient of a " << freq
            << " Hz source (its wavefields' product holds frequencies up to about " << 6 * freq
            << " Hz, which needs a snapshot at least every " << 1e3 / (12 * freq) << " ms)";
    msg << "; at most " << longest << " here";
    throw ConfigError(msg.str());
}

ResolvedPlan price_plan(const std::string& spec, std::int64_t steps, const StepCosts& costs,
                        double expected_ratio, std::uint64_t budget_bytes) {
    // Slots are sized with the safe ratio (costs); time and memory are priced with the expected one: a run
    // copies, touches and holds the compressed bytes, not the worst case. Pricing the worst case charged a
    // store-all under zfp-accuracy the first touch of every snapshot at full size.
    StepCosts priced = costs;
    priced.compression_ratio = std::max(1.0, expected_ratio);
    ResolvedPlan r;
    r.costs = costs;
    if (is_adaptive_spec(spec)) {
        std::shared_ptr<const AdaptiveRevolveSchedule> adaptive =
            make_adaptive_schedule(spec, costs, budget_bytes);
        r.adaptive = adaptive;
        r.schedule = adaptive->name();
        r.plan = adaptive->plan(steps);
        r.prediction = adaptive->predict_run(steps, priced);
    } else {
        const auto schedule = make_schedule(spec, costs);
        r.schedule = schedule->name();
        r.plan = schedule->plan(steps);
        r.prediction = predict(r.plan, steps, priced); // validates the plan too
    }
    r.tiers = int(std::max<std::size_t>(1, r.prediction.counts.writes.size()));
    return r;
}

ResolvedPlan resolve_plan(Simulation& sim, const GradientSettings& s) {
    check_sampling_interval(sim, s.sampling_interval);
    const std::int64_t steps = sim.time().inner_nt;
    const Calibration calibration = run_calibration(sim, s.compression.empty() ? "none" : s.compression);
    const CodecEstimate& codec = calibration.codec;
    StepCosts costs = with_disk_tier(with_codec(calibration.steps, codec, true), s);
    costs.sampling_interval = s.sampling_interval;
    costs.retained_touched_bytes = retained_touched_bytes();

    std::string spec = s.schedule.empty() ? "all" : s.schedule;
    if (spec == "auto") {
        CodecEstimate expected = codec;
        expected.ratio = std::max(1.0, codec.ratio);
        PlanRequest request = make_plan_request(sim, s, costs, {expected});
        request.size_with_guaranteed_ratio = true; // so that the chosen plan surely fits
        spec = choose_auto(request).schedule;
    }
    ResolvedPlan r = price_plan(spec, steps, costs, codec.ratio, s.budget_bytes);
    if (s.compression.empty() || s.compression == "none") check_fits(r, s);
    return r;
}

namespace {
std::atomic<int> processes_sharing_machine{1};
} // namespace

void set_processes_sharing_machine(int processes) {
    processes_sharing_machine = std::max(1, processes);
}

std::uint64_t machine_checkpoint_bytes() {
    return detail::machine_memory_bytes() / 4 * 3 / std::uint64_t(processes_sharing_machine.load());
}

std::string recomputation_note(const ResolvedPlan& plan) {
    const PlanCounts& c = plan.prediction.counts;
    const std::int64_t steps = c.reverse_steps;
    const std::int64_t recomputed = c.advance_steps + c.reverse_forward_steps - steps;
    if (steps <= 0 || recomputed <= 10 * steps) return {};
    std::ostringstream m;
    m.precision(3);
    m << "schedule " << plan.schedule << " recomputes " << recomputed << " forward steps per shot, "
      << double(recomputed) / double(steps) << "x the shot's " << steps << " (predicted "
      << plan.prediction.total_s << " s per shot); more slots, a codec or --schedule auto recompute less";
    return m.str();
}

} // namespace fwi
