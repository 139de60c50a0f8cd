#pragma once
// A P-wave velocity model on a regular 2D or 3D grid. Velocities in m/s, layout as in grid.hpp ((z, x) or
// (z, y, x), x fast).
#include "fwi/grid.hpp"

#include <string>
#include <vector>

namespace fwi {

struct Model {
    Grid grid;
    std::vector<float>
        vp_mps; ///< grid.cells() values, index iz * nx + ix (2D), (iz * ny + iy) * nx + ix (3D)

    float at(std::int64_t iz, std::int64_t ix) const { return vp_mps[grid.index(iz, ix)]; } ///< 2D
    float min_velocity() const;
    float max_velocity() const;
};

/// Throws ConfigError naming the first bad cell (NaN, inf, zero or negative velocity) or a bad grid
/// (rank not 2 or 3, non-positive shape or spacing, ny != 1 in 2D, size mismatch). `what` names the model in
/// the message (e.g. "initial model").
void validate_model(const Model& model, const std::string& what = "model");

} // namespace fwi
