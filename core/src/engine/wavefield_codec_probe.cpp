// A codec measured on the run's own gradient snapshots and states (run_plan.hpp,
// estimate_codec_on_wavefields).
#include "engine/store_codec_timing.hpp"
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"
#include "fwi/error.hpp"
#include "fwi/run_plan.hpp"
#include "runtime/seconds_since.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>

namespace fwi {
namespace {

/// One field of a propagator state, copied.
struct StateField {
    std::vector<float> values;
    std::int64_t rows = 0, cols = 0, plane_rows = 0;
};

/// The snapshots B^n and the states (u, u^(n-1), C-PML strips) at the probe's steps.
struct ProbeFields {
    std::vector<std::vector<float>> snapshots;
    std::vector<std::vector<StateField>> states;
};

/// The fields of the last probe in this process, so that `fwi plan` over several codecs (and the auto
/// choice beside them) propagates once. Keyed by what decides them: the simulation's wavefield serial (its
/// model and wavelet; keyed by its address, a probe after set_model, or of the next simulation built at the
/// same place, coded the old model's fields), its padded grid, step count and source stencil.
struct ProbeSnapshots {
    std::uint64_t serial = 0;
    std::int64_t cells = 0, steps = 0;
    PointStencil source;
    ProbeFields fields;
};

std::mutex probe_mutex;
ProbeSnapshots last_probe;

/// The four states are kept only while they fit this: a large grid's states (hundreds of MB each) would stay
/// in the process, and probe_codec prices them by their floats instead. The snapshots are measured whatever
/// their size, but kept for the next codec only within the same bound.
constexpr double max_kept_state_bytes = 512.0 * (1 << 20);

/// The shot the probe propagates: the middle one. An end shot's wavefield reaches less of the model in the
/// same time and codes better than most shots' (Marmousi, 3 shots: zstd ratio 7.8 on shot 0's states against
/// 5.0 over the middle shot's run).
std::size_t probe_shot(const Simulation& sim) {
    return sim.acquisition().shots.size() / 2;
}

/// The probe shot propagated to the middle of the run's eighths 1, 3, 5 and 7, B^n and (up to
/// max_kept_state_bytes) the state taken there; empty when that would take more than budget_s (checked as it
/// goes) or the propagator cannot run yet.
ProbeFields run_snapshots(Simulation& sim, double budget_s) {
    Propagator& p = sim.propagator();
    const std::int64_t steps = sim.time().inner_nt;
    const ShotGeometry& geometry = sim.geometry(probe_shot(sim));
    const std::span<const float> source = sim.inner_source();
    ProbeFields probe;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        auto state = p.new_state();
        std::int64_t chunk = 1;
        for (int k = 0; k < 4; ++k) {
            const std::int64_t n = (2 * k + 1) * steps / 8;
            // In chunks growing from one step to 32, so that a grid far slower than the budget gives up
            // within a few steps. The projection over the whole run is trusted once it rests on 32 steps or
            // a quarter of the budget (the first steps also fault the state's pages in).
            while (state->step < n) {
                p.forward(*state, std::min(n - state->step, chunk), geometry, source, nullptr, 0);
                chunk = std::min<std::int64_t>(2 * chunk, 32);
                const double elapsed_s = seconds_since(t0);
                if ((state->step >= 32 || elapsed_s >= 0.25 * budget_s) &&
                    elapsed_s * double(steps) / double(state->step) > budget_s)
                    return {};
            }
            std::vector<float>& b = probe.snapshots.emplace_back(std::size_t(p.padded().cells()));
            p.forward_with_snapshot(*state, geometry, source, nullptr, 0, b.data());
            state->to_host();
            const std::vector<FieldView> state_fields = state->fields();
            double state_bytes = 0;
            for (const FieldView& f : state_fields)
                state_bytes += double(f.size()) * sizeof(float);
            if (4 * state_bytes > max_kept_state_bytes) continue;
            std::vector<StateField>& fields = probe.states.emplace_back();
            for (const FieldView& f : state_fields)
                fields.push_back(
                    {std::vector<float>(f.data, f.data + f.size()), f.rows, f.cols, f.plane_rows});
        }
    } catch (const Error&) {
        return {}; // no model yet, say: the synthetic probe answers instead
    }
    return probe;
}

} // namespace

std::optional<CodecEstimate> estimate_codec_on_wavefields(Simulation& sim, const std::string& spec,
                                                          double budget_s) {
    const auto codec = make_codec(spec); // a bad spec fails here, before any propagation
    if (sim.acquisition().shots.empty() || sim.time().inner_nt < 8) return std::nullopt;
    const PaddedGrid& g = sim.propagator().padded();
    const std::lock_guard lock(probe_mutex);
    ProbeSnapshots& last = last_probe;
    // A probe that gave up is not kept: a later call may allow more time.
    const PointStencil& source = sim.geometry(probe_shot(sim)).source;
    if (last.fields.snapshots.empty() || last.serial != sim.wavefield_serial() || last.cells != g.cells() ||
        last.steps != sim.time().inner_nt || !(last.source == source)) {
        // No time at all: only kept fields serve (no state made and stepped once before giving up).
        if (budget_s <= 0) return std::nullopt;
        last = {sim.wavefield_serial(), g.cells(), sim.time().inner_nt, source, run_snapshots(sim, budget_s)};
    }
    const std::vector<std::vector<float>>& snapshots = last.fields.snapshots;
    if (snapshots.empty()) return std::nullopt;
    // A field that never moved (a source outside the time window) would code like nothing the run stores.
    const auto moved = [](const std::vector<float>& b) {
        return std::any_of(b.begin(), b.end(), [](float x) { return x != 0.0f; });
    };
    if (!std::all_of(snapshots.begin(), snapshots.end(), moved)) return std::nullopt;

    CodecEstimate e{codec->name()};
    e.source = "wavefields";
    double raw = 0, stored = 0;
    const double n = double(snapshots.size());
    for (const std::vector<float>& b : snapshots) {
        const CodecTiming t = measure_store_codec(*codec, {b.data(), g.rows(), g.nx(), g.plane_rows()}, 3);
        e.compress_s += t.compress_seconds / n;
        e.decompress_s += t.decompress_seconds / n;
        raw += double(t.raw_bytes + codec_frame_header_bytes);
        stored += double(std::max<std::uint64_t>(t.compressed_bytes, 1));
    }
    // A state is stored as its fields, one frame each: priced as the sum over them (u^(n-1) and the PML
    // strips code unlike B^n: on the salt 3D project a state took 1.6x a snapshot's time, not its 4x size).
    for (const std::vector<StateField>& state : last.fields.states)
        for (const StateField& f : state) {
            const CodecTiming t =
                measure_store_codec(*codec, {f.values.data(), f.rows, f.cols, f.plane_rows}, 3);
            e.state_compress_s += t.compress_seconds / n;
            e.state_decompress_s += t.decompress_seconds / n;
        }
    e.ratio = std::max(1.0, raw / stored);
    // Kept for the next codec only while they fit what the states may hold: a large grid's four snapshots
    // (gigabytes) would stay in the process for good; the next codec propagates again instead.
    if (double(snapshots.size()) * double(g.cells()) * sizeof(float) > max_kept_state_bytes) last = {};
    return e;
}

} // namespace fwi
