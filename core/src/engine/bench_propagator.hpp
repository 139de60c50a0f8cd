#pragma once
// The propagator every benchmark runs (fwi bench): a vertical velocity gradient from 1500 to 3000 m/s on
// 10 m cells, so that the data are not trivially uniform, with the CFL step of the fastest velocity.
#include "fwi/propagator.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace fwi::detail {

struct BenchPropagator {
    Model model;
    PropagatorSetup setup;
    std::unique_ptr<Propagator> propagator;
};

BenchPropagator make_bench_propagator(std::int64_t nz, std::int64_t nx, int order, int pml_width,
                                      const std::string& backend);

} // namespace fwi::detail
