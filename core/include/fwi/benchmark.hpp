#pragma once
// Throughput of the propagator: cell-updates per second for forward and adjoint steps on a chosen grid.
// Cells counted are the padded cells computed per step (model + PML), the same convention Deepwave's figures
// use.
#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

class CancelToken;

struct BenchCase {
    std::int64_t nz = 1000, nx = 1000;
    int order = 8;
    int pml_width = 20;
    std::int64_t steps = 200;
    int shots = 1; ///< shots run one after the other (each uses every thread)
    std::string backend = "auto";
    const CancelToken* cancel = nullptr; ///< polled between steps; Cancelled is thrown when it fires
};

struct BenchResult {
    BenchCase bench;
    std::string device;
    double forward_cell_updates_per_s = 0;
    double adjoint_cell_updates_per_s = 0;          ///< adjoint step with gradient accumulation
    double forward_snapshot_cell_updates_per_s = 0; ///< forward step that also writes the gradient snapshot
    double forward_seconds = 0, adjoint_seconds = 0;
    std::int64_t cells_per_step = 0;
};

/// Throws Cancelled when `bench.cancel` fires.
BenchResult run_benchmark(const BenchCase& bench);

} // namespace fwi
