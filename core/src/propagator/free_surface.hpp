#pragma once
// A pressure-free top surface by antisymmetric images, for the 2D and the 3D CPU propagators.
//
// EQUATION: p = 0 on the model's top (z = 0, padded z index s = grid.origin(), model row or plane 0). The
// wavefield below the surface is that of a whole space holding, for each source, an image of opposite sign
// mirrored about z = 0 (the surface reflects with coefficient -1).
// SCHEME: the state is the planes below the surface (iz > s), the only planes the kernels compute. After each
// step (and its source or residual injection), the surface plane is set to 0 and the R planes above it to the
// negated mirror of the R below (u[s - k] = -u[s + k], k = 1..R); the top PML's other planes stay 0. The next
// step's z stencil then reads the image: (D2z u)_j = sum_k c_k (u_{j+k} + u_{j-k}) with u_{-m} = -u_m, u_0 =
// 0, whose matrix on the state, c_|j-m| - c_(j+m), is symmetric. So the adjoint is the same step with the
// same mirror applied to mu (mu = c lambda), as for the whole space, and the kernels are unchanged.
// BOUNDARIES: the top PML keeps its cells (the padded grid is the same) but is not computed
// (first_computed_plane) and does not absorb (make_pml_profile with absorb_low false: a = 1, b = 0, so psi_z,
// zeta_z and the fringe's terms that read them are 0, as without a layer). The sides and the bottom keep
// their C-PML; a side layer's x and y terms are row-local and reach the surface.
// POINTS: Hicks' taps above the surface fold onto their mirror cells with opposite sign and the tap on it is
// dropped (hicks.cpp), so that recording and injection are transposes on the state and no point reaches
// the planes this mirror overwrites.
// GRADIENT: the planes at and above the surface are not state: their c changes nothing below, so the
// gradient there is 0 (fold_velocity_gradient, padding.cpp).
// INVARIANTS: pure copies, negations and zeroes (no arithmetic that rounds), each cell written by one thread:
// results stay bit for bit the same at any thread count.
#include "fwi/propagator.hpp"

#include <cstdint>

namespace fwi {

/// The padded cells of one z plane (a row in 2D).
inline std::int64_t plane_cells(const PaddedGrid& g) {
    return g.ny() * g.nx();
}

/// The first plane the kernels compute: below the surface with one (the planes at and above it are the
/// mirror's), else the first below the halo.
inline std::int64_t first_computed_plane(const PaddedGrid& g) {
    return g.free_surface ? g.origin() + 1 : g.halo;
}

/// Sets the surface plane to 0 and the R = halo planes above it to the negated mirror image (in the halo
/// itself where the PML is thinner than R). The kernels compute no plane at or above the surface
/// (first_computed_plane), so the top PML's other planes stay 0. Nothing without a free surface.
inline void mirror_free_surface(const PaddedGrid& g, float* field) {
    if (!g.free_surface) return;
    const std::int64_t s = g.origin(), r = g.halo, plane = plane_cells(g);
    // Reads only planes below the surface, which it never writes: the planes are independent.
#pragma omp parallel if ((r + 1) * plane >= (std::int64_t(1) << 16))
    for (std::int64_t k = 0; k <= r; ++k) { // plane s - k
        float* out = field + (s - k) * plane;
        const float* image = field + (s + k) * plane;
        if (k >= 1) {
#pragma omp for schedule(static) nowait
            for (std::int64_t i = 0; i < plane; ++i)
                out[i] = -image[i];
        } else {
#pragma omp for schedule(static) nowait
            for (std::int64_t i = 0; i < plane; ++i)
                out[i] = 0.0f;
        }
    }
}

} // namespace fwi
