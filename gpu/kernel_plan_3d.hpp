#pragma once
// Host-side planning of the 3D CUDA passes for one padded grid: the constant kernel arguments and the packed
// state layout (kernel_args_3d.hpp). Pure arithmetic on sizes, unit-tested without a GPU.
#include "kernel_args_3d.hpp"

#include "fwi/propagator.hpp"

#include <cstdint>

namespace fwi {
struct PmlProfile;
}

namespace fwi::gpu {

struct KernelPlan3D {
    int radius = 4;
    GridArgs3D grid;          ///< device pointers (c, inv_c, profiles) left null: the propagator fills them
    std::int64_t cells = 0;   ///< padded cells
    std::int64_t x_strip = 0; ///< floats of one packed x variable (nz * ny * wx)
    std::int64_t y_strip = 0; ///< floats of one packed y variable (nz * wy * nx)
    std::int64_t z_strip = 0; ///< floats of one packed z variable (wz * ny * nx)
    /// A forward (or adjoint) state: two full fields and six packed variables,
    ///   [ A | B | psi_x | zeta_x | psi_y | zeta_y | psi_z | zeta_z ]   (adjoint: r in psi's place, s in
    ///   zeta's),
    /// the order of CpuPropagator3D's fields() (u, u_prev, x strips, y strips, z slabs).
    std::int64_t state_floats() const { return 2 * cells + 2 * x_strip + 2 * y_strip + 2 * z_strip; }
};

/// Throws ConfigError for an order other than 2, 4, 6, 8, a grid that is not 3D, or one too large for the
/// kernels' 32-bit axis indices and launch grid (gridDim.z holds the computed planes and gridDim.y the
/// blocks of kCellY rows: at most 65535 each).
KernelPlan3D make_kernel_plan_3d(const PaddedGrid& grid, const PmlProfile& pml_x, const PmlProfile& pml_y,
                                 const PmlProfile& pml_z);
/// The same plan with the propagators' PML layers for `setup` (setup_pml_profile; for tests and tools).
KernelPlan3D make_kernel_plan_3d(const PropagatorSetup& setup);

} // namespace fwi::gpu
