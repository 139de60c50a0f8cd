// The benchmarks' propagator set-up (bench_propagator.hpp).
#include "engine/bench_propagator.hpp"

namespace fwi::detail {

BenchPropagator make_bench_propagator(std::int64_t nz, std::int64_t nx, int order, int pml_width,
                                      const std::string& backend) {
    const double h = 10, v = 3000;
    BenchPropagator b;
    b.model.grid = Grid(nz, nx, h, h);
    b.model.vp_mps.assign(std::size_t(b.model.grid.cells()), float(v));
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            b.model.vp_mps[b.model.grid.index(iz, ix)] = float(1500 + 1500 * double(iz) / double(nz));
    b.setup.grid = b.model.grid;
    b.setup.order = order;
    b.setup.pml_width = pml_width;
    b.setup.dt_s = 0.6 * h / (v * 1.5);
    b.setup.pml_velocity_mps = v;
    b.setup.freq_hz = 10;
    b.propagator = make_propagator(backend, b.setup);
    b.propagator->set_model(b.model);
    return b;
}

} // namespace fwi::detail
