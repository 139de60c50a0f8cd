// A codec measured on the run's own gradient snapshots (run_plan.hpp, estimate_codec_on_wavefields).
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

/// The snapshots of the last probe in this process, so that `fwi plan` over several codecs (and the auto
/// choice beside them) propagates once. Keyed by what decides them short of the velocities, which a
/// propagator does not expose: the simulation, its padded grid, step count and source cells.
struct ProbeSnapshots {
    const Simulation* sim = nullptr;
    std::int64_t cells = 0, steps = 0;
    std::vector<std::int64_t> source_cells;
    std::vector<std::vector<float>> fields;
};

std::mutex probe_mutex;
ProbeSnapshots last_probe;

/// Shot 0 propagated to the middle of the run's eighths 1, 3, 5 and 7, B^n taken there; empty when that
/// would take more than budget_s (checked as it goes) or the propagator cannot run yet.
std::vector<std::vector<float>> run_snapshots(Simulation& sim, double budget_s) {
    Propagator& p = sim.propagator();
    const std::int64_t steps = sim.time().inner_nt;
    const ShotGeometry& geometry = sim.geometry(0);
    const std::span<const float> source = sim.inner_source();
    std::vector<std::vector<float>> snapshots;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        auto state = p.new_state();
        for (int k = 0; k < 4; ++k) {
            const std::int64_t n = (2 * k + 1) * steps / 8;
            // In chunks, so that a grid far slower than the budget gives up after its first chunk.
            while (state->step < n) {
                const std::int64_t chunk = std::min<std::int64_t>(n - state->step, 32);
                p.forward(*state, chunk, geometry, source, nullptr, 0);
                if (seconds_since(t0) * double(steps) / double(state->step) > budget_s) return {};
            }
            std::vector<float>& b = snapshots.emplace_back(std::size_t(p.padded().cells()));
            p.forward_with_snapshot(*state, geometry, source, nullptr, 0, b.data());
        }
    } catch (const Error&) {
        return {}; // no model yet, say: the synthetic probe answers instead
    }
    return snapshots;
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
    if (last.fields.empty() || last.sim != &sim || last.cells != g.cells() ||
        last.steps != sim.time().inner_nt || last.source_cells != sim.geometry(0).source.cell) {
        last = {&sim, g.cells(), sim.time().inner_nt, sim.geometry(0).source.cell,
                run_snapshots(sim, budget_s)};
    }
    const std::vector<std::vector<float>>& snapshots = last.fields;
    if (snapshots.empty()) return std::nullopt;
    // A field that never moved (a source outside the time window) would code like nothing the run stores.
    const auto moved = [](const std::vector<float>& b) {
        return std::any_of(b.begin(), b.end(), [](float x) { return x != 0.0f; });
    };
    if (!std::all_of(snapshots.begin(), snapshots.end(), moved)) return std::nullopt;

    double compress_s = 0, decompress_s = 0, raw = 0, stored = 0;
    for (const std::vector<float>& b : snapshots) {
        const CodecTiming t = measure_store_codec(*codec, {b.data(), g.rows(), g.nx(), g.plane_rows()}, 3);
        compress_s += t.compress_seconds / double(snapshots.size());
        decompress_s += t.decompress_seconds / double(snapshots.size());
        raw += double(t.raw_bytes + codec_frame_header_bytes);
        stored += double(std::max<std::uint64_t>(t.compressed_bytes, 1));
    }
    return CodecEstimate{codec->name(), std::max(1.0, raw / stored), compress_s, decompress_s};
}

} // namespace fwi
