// fwi bench --dims 3: the forward and adjoint steps of a 3D propagator (CPU by default) timed on a
// velocity-gradient model, and the triad that sets the roofline (benchmark_3d.hpp).
#include "fwi/acquisition.hpp"
#include "fwi/benchmark_3d.hpp"
#include "fwi/events.hpp"
#include "fwi/propagator.hpp"
#include "fwi/time_axis.hpp"
#include "runtime/seconds_since.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

namespace fwi {
namespace {

using Clock = std::chrono::steady_clock;
/// A vertical gradient from 1500 to 3000 m/s on 10 m cells (as the 2D bench), CFL step of the fastest
/// velocity.
std::unique_ptr<Propagator> make_bench_propagator_3d(const Bench3DCase& b) {
    const double h = 10, v = 3000;
    PropagatorSetup s;
    s.grid = Grid(b.nz, b.ny, b.nx, h, h, h);
    s.order = b.order;
    s.pml_width = b.pml_width;
    s.dt_s = stable_dt(s.grid, v, 0.6);
    s.pml_velocity_mps = v;
    s.freq_hz = 10;
    auto p = make_propagator(b.backend, s);
    Model model{s.grid, std::vector<float>(std::size_t(s.grid.cells()))};
    std::vector<float>& vp = model.vp_mps;
    const std::int64_t plane = b.ny * b.nx;
    for (std::int64_t iz = 0; iz < b.nz; ++iz)
        std::fill_n(vp.begin() + iz * plane, plane, float(1500 + 1500 * double(iz) / double(b.nz)));
    p->set_model(model);
    return p;
}

} // namespace

Bench3DResult run_benchmark_3d(const Bench3DCase& bench) {
    auto p = make_bench_propagator_3d(bench);
    const Grid& m = p->padded().model;
    const double w = m.width_m(), d = m.breadth_m();
    ShotGeometry g;
    g.source = hicks_stencil(p->padded(), Point{w / 2, 20, d / 2}, "source");
    g.receivers.push_back(hicks_stencil(p->padded(), Point{w / 3, 20, d / 2}, "receiver"));
    const auto src = ricker(10, p->setup().dt_s, bench.steps);
    std::vector<float> traces(std::size_t(bench.steps)), host_snapshot(std::size_t(p->padded().cells()));
    // Snapshots where a gradient keeps them: the backend's own memory (a GPU's) when it offers it.
    const std::unique_ptr<SnapshotMemory> own = p->snapshot_memory(p->padded().cells());
    float* snapshot = own ? own->data() : host_snapshot.data();

    Bench3DResult r;
    r.cells_per_step = p->padded().computed_cells();
    r.padded_cells = p->padded().cells();
    const double updates = double(r.cells_per_step) * double(bench.steps);
    const auto poll = [&] {
        if (bench.cancel) bench.cancel->checkpoint();
    };
    double best_forward = 1e300, best_adjoint = 1e300;
    for (int round = 0; round < std::max(1, bench.repeats); ++round) {
        // States are allocated (and their pages touched by a first step) before each timer starts.
        {
            auto state = p->new_state();
            p->forward_with_snapshot(*state, g, src, traces.data(), bench.steps, snapshot);
            p->synchronize(); // a GPU's steps are queued: timers start and stop on an idle device
            const auto t = Clock::now();
            for (std::int64_t n = 1; n <= bench.steps; ++n) {
                poll();
                p->forward(*state, 1, g, src, traces.data(), bench.steps);
            }
            p->synchronize();
            best_forward = std::min(best_forward, seconds_since(t));
        }
        auto adj = p->new_adjoint_state();
        adj->step = bench.steps + 1;
        p->adjoint(*adj, g, traces, bench.steps, snapshot, 1.0f);
        p->synchronize();
        const auto t = Clock::now();
        for (std::int64_t n = 0; n < bench.steps; ++n) {
            poll();
            p->adjoint(*adj, g, traces, bench.steps, snapshot, 1.0f);
        }
        p->synchronize();
        best_adjoint = std::min(best_adjoint, seconds_since(t));
    }
    std::vector<float> grad(std::size_t(m.cells()));
    p->take_velocity_gradient(grad);
    r.forward_cell_updates_per_s = updates / best_forward;
    r.adjoint_cell_updates_per_s = updates / best_adjoint;
    return r;
}

double measure_triad_bandwidth(std::size_t floats_per_array, int repeats) {
    const auto n = std::int64_t(floats_per_array);
    std::unique_ptr<float[]> a(new float[floats_per_array]), b(new float[floats_per_array]),
        c(new float[floats_per_array]);
    float* __restrict pa = a.get();
    float* __restrict pb = b.get();
    float* __restrict pc = c.get();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
        pa[i] = 0;
        pb[i] = 1;
        pc[i] = 2;
    }
    double best = 1e300;
    for (int k = 0; k < std::max(1, repeats); ++k) {
        const auto t = Clock::now();
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i)
            pa[i] = pb[i] + 1.5f * pc[i];
        best = std::min(best, seconds_since(t));
    }
    volatile float sink = pa[n / 2]; // keep the stores
    (void)sink;
    return 12.0 * double(n) / best;
}

} // namespace fwi
