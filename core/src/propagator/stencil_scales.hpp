#pragma once
// The floats every backend scales its stencils by, for both ranks: 1/h and 1/h^2 per axis, computed in double
// and rounded once. The CPU and CUDA kernels (and their host twins) take them from here, so that they apply
// the same factors bit for bit.
#include "fwi/grid.hpp"

#include <array>
#include <cstddef>

namespace fwi {

struct StencilScales {
    std::array<float, 3> inv{};  ///< 1/dz, 1/dy, 1/dx (0 for y in 2D)
    std::array<float, 3> inv2{}; ///< 1/dz^2, 1/dy^2, 1/dx^2
};

inline StencilScales stencil_scales(const Grid& g) {
    StencilScales s;
    for (std::size_t a = 0; a < 3; ++a) {
        const double h = g.spacing_m[a];
        if (!(h > 0)) continue; // y of a 2D grid
        s.inv[a] = float(1.0 / h);
        s.inv2[a] = float(1.0 / (h * h));
    }
    return s;
}

/// Sets a 3D kernel argument block's scale fields (inv_dz, inv_dy, inv_dx and their squares: the CPU's and
/// the CUDA kernel's argument blocks share these names) from stencil_scales(grid).
template <class Args> void set_stencil_scales_3d(Args& g, const Grid& grid) {
    const StencilScales k = stencil_scales(grid);
    g.inv_dz = k.inv[0];
    g.inv_dy = k.inv[1];
    g.inv_dx = k.inv[2];
    g.inv_dz2 = k.inv2[0];
    g.inv_dy2 = k.inv2[1];
    g.inv_dx2 = k.inv2[2];
}

} // namespace fwi
