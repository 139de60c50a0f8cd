#pragma once
// Clearing a CPU propagator state for a new shot (WaveState::clear, AdjointState::clear): the values a new
// state has, written into the memory the state already holds, instead of unmapping its arrays and mapping and
// populating new ones (zeroed_allocator.hpp), which on the 2-core VMs costs tens of milliseconds a shot and
// more while a gradient's snapshots hold gigabytes. The memory variables are zero outside their layers in
// every state (the kernels write them only there), so a state clears only their layers; for the y- and
// z-axis variables of 3D, whose memory outside the layers was never populated, that is also what keeps it so.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace fwi::detail {

/// p[0, n) = 0, split across the OpenMP threads when large (a 3D wavefield is about 100 MB).
inline void zero_floats(float* p, std::size_t n) {
    constexpr std::size_t chunk = std::size_t(1) << 18; // 1 MiB
    if (n == 0) return;
    if (n < 2 * chunk) {
        std::memset(p, 0, n * sizeof(float));
        return;
    }
    const auto chunks = std::int64_t((n + chunk - 1) / chunk);
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < chunks; ++k) {
        const std::size_t begin = std::size_t(k) * chunk;
        std::memset(p + begin, 0, std::min(chunk, n - begin) * sizeof(float));
    }
}

/// zero_floats on each of `arrays` (vectors of floats) whole.
template <class... Arrays> void zero_arrays(Arrays&... arrays) {
    (zero_floats(arrays.data(), arrays.size()), ...);
}

} // namespace fwi::detail
