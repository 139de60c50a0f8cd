// fwi bench: forward, forward + snapshot and adjoint steps timed on the bench propagator.
#include "fwi/benchmark.hpp"

#include "engine/bench_propagator.hpp"
#include "engine/warm_up.hpp"
#include "fwi/acquisition.hpp"
#include "fwi/byte_text.hpp"
#include "fwi/error.hpp"
#include "fwi/events.hpp"
#include "fwi/propagator.hpp"
#include "runtime/machine_memory.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <chrono>
#include <memory>
#include <vector>

namespace fwi {
namespace {

/// The bench holds a state (and later an adjoint state, about as large) for every shot at once: refused
/// before they are allocated when they cannot fit, instead of the kernel's OOM killer ending the process.
void check_states_fit(int shots, WaveState& state) {
    std::uint64_t bytes = 0;
    for (const FieldView& f : state.fields())
        bytes += std::uint64_t(f.size()) * sizeof(float);
    const std::uint64_t have = detail::machine_memory_bytes(), need = bytes * std::uint64_t(shots);
    if (have > 0 && double(need) > 0.8 * double(have))
        throw ResourceError("bench: " + std::to_string(shots) + " shots hold " + std::to_string(shots) +
                            " states of " + bytes_text(bytes) + " at once, " + bytes_text(need) +
                            ", more than this machine's " + bytes_text(have) +
                            " allows; use fewer --shots or a smaller grid");
}

} // namespace

BenchResult run_benchmark(const BenchCase& bench) {
    detail::BenchPropagator b =
        detail::make_bench_propagator(bench.nz, bench.nx, bench.order, bench.pml_width, bench.backend);
    const Model& model = b.model;
    const PropagatorSetup& setup = b.setup;
    auto& p = b.propagator;
    ShotGeometry g;
    g.source = hicks_stencil(p->padded(), Point{model.grid.width_m() / 2, 20}, "source");
    g.receivers.push_back(hicks_stencil(p->padded(), Point{model.grid.width_m() / 3, 20}, "receiver"));
    const auto src = ricker(10, setup.dt_s, bench.steps);
    std::vector<float> traces(std::size_t(bench.steps));
    ZeroedVector host_snapshot(std::size_t(p->padded().cells())); // on a cache line, like a gradient's slots
    // Snapshots where a gradient keeps them: the backend's own memory (a GPU's) when it offers it.
    const std::unique_ptr<SnapshotMemory> own = p->snapshot_memory(p->padded().cells());
    float* snapshot = own ? own->data() : host_snapshot.data();

    BenchResult r;
    r.bench = bench;
    r.device = backend_device_name(bench.backend);
    r.cells_per_step = p->padded().computed_cells();
    const double updates = double(r.cells_per_step) * double(bench.steps) * bench.shots;
    using clock = std::chrono::steady_clock;
    // A GPU's steps are queued: a timer starts and stops on an idle device.
    auto seconds = [&p](clock::time_point a) {
        p->synchronize();
        return std::chrono::duration<double>(clock::now() - a).count();
    };

    // Polled once per shot and step (one relaxed atomic load; nothing next to a grid update).
    const auto poll = [&] {
        if (bench.cancel) bench.cancel->checkpoint();
    };

    // States are allocated (and their pages touched) before each timer starts, and every kernel has run once.
    auto new_states = [&] {
        std::vector<std::unique_ptr<WaveState>> states;
        for (int s = 0; s < bench.shots; ++s)
            states.push_back(p->new_state());
        return states;
    };
    {
        auto warm = p->new_state();
        check_states_fit(bench.shots, *warm);
        // The process's first steps run slower (warm_up.hpp): a 200-step forward timed right after one
        // warm-up step read 1.1 G/s where 1000 steps read 1.9 G/s (1000^2, order 8).
        p->forward(*warm, 1, g, src, traces.data(), bench.steps);
        p->synchronize();
        warm_up([&] {
            if (warm->step + 1 >= bench.steps) warm->step = 0;
            p->forward(*warm, 1, g, src, nullptr, bench.steps);
            p->synchronize();
        });
        p->forward_with_kept_snapshot(*warm, g, src, nullptr, bench.steps, snapshot);
    }
    auto states = new_states();
    p->synchronize();
    auto t = clock::now();
    for (auto& state : states) {
        poll();
        p->forward(*state, bench.steps, g, src, traces.data(), bench.steps);
    }
    r.forward_seconds = seconds(t);
    r.forward_cell_updates_per_s = updates / r.forward_seconds;
    states.clear(); // one set of states at a time
    states = new_states();
    p->synchronize();
    t = clock::now();
    for (auto& state : states)
        for (std::int64_t n = 0; n < bench.steps; ++n) {
            poll();
            p->forward_with_kept_snapshot(*state, g, src, nullptr, bench.steps, snapshot); // as store-all
        }
    r.forward_snapshot_cell_updates_per_s = updates / seconds(t);
    states.clear();
    std::vector<std::unique_ptr<AdjointState>> adjoints;
    for (int s = 0; s < bench.shots; ++s) {
        adjoints.push_back(p->new_adjoint_state());
        adjoints.back()->step = bench.steps;
    }
    {
        auto warm = p->new_adjoint_state();
        warm->step = bench.steps;
        p->adjoint(*warm, g, traces, bench.steps, snapshot, 1.0f);
    }
    p->synchronize();
    t = clock::now();
    for (auto& adj : adjoints)
        for (std::int64_t n = 0; n < bench.steps; ++n) {
            poll();
            p->adjoint(*adj, g, traces, bench.steps, snapshot, 1.0f);
        }
    r.adjoint_seconds = seconds(t);
    r.adjoint_cell_updates_per_s = updates / r.adjoint_seconds;
    std::vector<float> grad(std::size_t(model.grid.cells()));
    p->take_velocity_gradient(grad);
    return r;
}

} // namespace fwi
