#pragma once
// Throughput of a 3D propagator (issue 11; the CPU one unless `backend` says otherwise) against this
// machine's DRAM roofline: forward and adjoint (with gradient accumulation) cell-updates per second at each
// order on an nz x ny x nx model plus PML, and a STREAM-like triad measured in the same process. A 3D update
// moves at least 16 bytes per cell from DRAM (read u^n, read and write u^(n-1) -> u^(n+1), read c) once the
// neighbouring planes are cached, so roofline = bandwidth / 16 cell-updates per second. Cells counted are the
// padded cells computed per step (model + PML), as in benchmark.hpp.
#include <cstddef>
#include <cstdint>
#include <string>

namespace fwi {

class CancelToken;

struct Bench3DCase {
    std::int64_t nz = 256, ny = 256, nx = 256;
    int order = 8;
    int pml_width = 20;
    std::int64_t steps = 20;
    int repeats = 3;             ///< rounds of forward then adjoint; the fastest round of each counts
    std::string backend = "cpu"; ///< cpu | cuda | auto (the CUDA adjoint reads host snapshots over PCIe)
    const CancelToken* cancel = nullptr; ///< polled between steps; Cancelled is thrown when it fires
};

struct Bench3DResult {
    double forward_cell_updates_per_s = 0;
    double adjoint_cell_updates_per_s = 0; ///< adjoint step with gradient accumulation (snapshot read)
    std::int64_t cells_per_step = 0;
    std::int64_t padded_cells = 0; ///< with the halo: the size of one array, in floats
};

/// Throws Cancelled when `bench.cancel` fires, ConfigError for a grid the propagator refuses.
Bench3DResult run_benchmark_3d(const Bench3DCase& bench);

/// STREAM-style triad a[i] = b[i] + 1.5 c[i] over three float arrays of `floats_per_array` (choose far beyond
/// L3), OpenMP-parallel with first touch by the same threads; the best of `repeats` in bytes per second,
/// counting 12 bytes per element (STREAM's convention: two reads and one write).
double measure_triad_bandwidth(std::size_t floats_per_array = std::size_t(1) << 26, int repeats = 5);

} // namespace fwi
