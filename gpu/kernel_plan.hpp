#pragma once
// Host-side planning of the CUDA passes for one padded grid: the constant kernel arguments, the two strip
// launches (PML layers; PML zones), and the packed state layout. Pure arithmetic on sizes, so it is
// unit-tested without a GPU.
#include "kernel_args.hpp"

#include "fwi/propagator.hpp"

#include <cstdint>

namespace fwi {
struct PmlProfile;
}

namespace fwi::gpu {

struct KernelPlan {
    int radius = 4;
    GridArgs grid;            ///< device pointers (c, inv_c, profiles) left null: the propagator fills them
    StripLaunch layers;       ///< x-layer cells (kind X) and z-layer cells (kind Z): the psi, s and r passes
    StripLaunch zones;        ///< every cell whose x- or z-stencil touches a layer, once: the PML-term passes
    std::int64_t cells = 0;   ///< padded cells
    std::int64_t x_strip = 0; ///< floats of one packed x-strip variable (nz * wx)
    std::int64_t z_strip = 0; ///< floats of one packed z-strip variable (wz * nx)
    /// A forward (or adjoint) state: two full fields and four packed strip variables.
    std::int64_t state_floats() const { return 2 * cells + 2 * x_strip + 2 * z_strip; }
};

/// Throws ConfigError for an order other than 2, 4, 6, 8 or a grid too large for 32-bit padded indices.
KernelPlan make_kernel_plan(const PaddedGrid& grid, const PmlProfile& pml_x, const PmlProfile& pml_z);
/// The same plan with the propagators' PML layers for `setup` (setup_pml_profile; for tests and tools).
KernelPlan make_kernel_plan(const PropagatorSetup& setup);

/// The stencil weights of stencils.hpp for radius 1..4 (ConfigError otherwise), as the kernels take them.
StencilCoeffs stencil_coefficients(int radius);
/// The layer bounds of a PML profile (device pointers left null).
AxisPml axis_pml_of(const PmlProfile& p);

/// A strip launch over up to two rectangles; empty rectangles are dropped and thread offsets assigned.
StripLaunch make_strip_launch(StripRect first, StripRect second);

} // namespace fwi::gpu
