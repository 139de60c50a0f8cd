#pragma once
// Source and receiver stencils (PointStencil: a box of taps with weights per axis) listed tap by tap and
// rearranged for the device:
//   - the source and the adjoint receiver injection as SCATTER tables: one entry list per unique cell,
//   entries
//     in the CPU's order (receiver by receiver, taps in for_each_tap's order), so one thread per cell sums
//     them without atomics and gets the CPU's sums;
//   - receiver recording as a GATHER table (CSR by receiver), summed tap after tap: the CPU sums a box's x
//   rows
//     as lanes (propagator/point_sampling.hpp), so recorded samples differ from the CPU's in the last bits.
// Built on the host, validated (indices inside the padded grid), uploaded once per geometry.
#include "fwi/propagator.hpp"

#include <cstdint>
#include <vector>

namespace fwi::gpu {

struct ScatterTable {
    std::vector<std::int64_t> cell;   ///< unique padded cells, ascending
    std::vector<std::int32_t> offset; ///< cell.size() + 1 entries
    std::vector<std::int32_t> value;  ///< per entry: which value (receiver index; 0 for the source)
    std::vector<float> weight;        ///< per entry
};

struct GatherTable {
    std::vector<std::int32_t> offset; ///< receivers + 1 entries
    std::vector<std::int64_t> cell;
    std::vector<float> weight;
};

struct GeometryTables {
    ScatterTable source;
    GatherTable record;
    ScatterTable inject;
    std::int32_t receivers = 0;
};

/// Throws ConfigError naming the stencil ("receiver 3") for mismatched lengths or cells outside [0,
/// padded_cells).
GeometryTables make_geometry_tables(const ShotGeometry& geometry, std::int64_t padded_cells);

/// True when two geometries hold the same stencils (the cache key check: same address is not enough).
bool same_geometry(const ShotGeometry& a, const ShotGeometry& b);

} // namespace fwi::gpu
