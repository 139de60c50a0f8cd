#include "kernel_plan_3d.hpp"

#include "kernel_plan.hpp" // stencil_coefficients, axis_pml_of

#include "fwi/error.hpp"
#include "propagator/free_surface.hpp"
#include "propagator/pml_profile.hpp"
#include "propagator/stencil_scales.hpp"

#include <limits>
#include <string>

namespace fwi::gpu {

KernelPlan3D make_kernel_plan_3d(const PaddedGrid& grid, const PmlProfile& pml_x, const PmlProfile& pml_y,
                                 const PmlProfile& pml_z) {
    if (grid.order != 2 && grid.order != 4 && grid.order != 6 && grid.order != 8)
        throw ConfigError("spatial order " + std::to_string(grid.order) + " is not one of 2, 4, 6, 8");
    if (!grid.three_d()) throw ConfigError("the 3D CUDA kernels need a 3D grid");
    constexpr std::int64_t max_axis = std::numeric_limits<int>::max() / 2, max_planes = 65535;
    if (grid.nz() > max_axis || grid.ny() > max_axis || grid.nx() > max_axis ||
        grid.nz() - 2 * grid.halo > max_planes ||
        (grid.ny() - 2 * grid.halo + kCellY - 1) / kCellY > max_planes)
        throw ConfigError("padded grid " + std::to_string(grid.nz()) + " x " + std::to_string(grid.ny()) +
                          " x " + std::to_string(grid.nx()) + " is too large for the CUDA backend");
    KernelPlan3D plan;
    const int r = grid.order / 2;
    plan.radius = r;
    GridArgs3D& g = plan.grid;
    g.nz = int(grid.nz());
    g.ny = int(grid.ny());
    g.nx = int(grid.nx());
    const int h = grid.halo;
    g.y0 = g.x0 = h;
    g.z0 = int(first_computed_plane(grid)); // below a free surface (whose mirror the propagator writes)
    g.z1 = g.nz - h;
    g.y1 = g.ny - h;
    g.x1 = g.nx - h;
    set_stencil_scales_3d(g, grid.model); // the CPU's floats
    g.coef = stencil_coefficients(r);
    g.px = axis_pml_of(pml_x);
    g.py = axis_pml_of(pml_y);
    g.pz = axis_pml_of(pml_z);
    g.wx_lo = g.px.lo_end - g.px.lo_begin;
    g.wx = g.wx_lo + (g.px.hi_end - g.px.hi_begin);
    g.wy_lo = g.py.lo_end - g.py.lo_begin;
    g.wy = g.wy_lo + (g.py.hi_end - g.py.hi_begin);
    g.wz_lo = g.pz.lo_end - g.pz.lo_begin;
    g.wz = g.wz_lo + (g.pz.hi_end - g.pz.hi_begin);

    // The kernels offset stencil points from a cell in 32 bits (cuda_kernels_3d.cuh, d2s_at).
    if (std::int64_t(g.ny) * g.nx * r > std::numeric_limits<int>::max())
        throw ConfigError("padded grid " + std::to_string(grid.nz()) + " x " + std::to_string(grid.ny()) +
                          " x " + std::to_string(grid.nx()) + " has planes too large for the CUDA backend");
    if (layer_launch(g).blocks > std::numeric_limits<int>::max())
        throw ConfigError("padded grid " + std::to_string(grid.nz()) + " x " + std::to_string(grid.ny()) +
                          " x " + std::to_string(grid.nx()) + " has too many PML cells for the CUDA backend");

    plan.cells = grid.cells();
    plan.x_strip = std::int64_t(g.nz) * g.ny * g.wx;
    plan.y_strip = std::int64_t(g.nz) * g.wy * g.nx;
    plan.z_strip = std::int64_t(g.wz) * g.ny * g.nx;
    return plan;
}

KernelPlan3D make_kernel_plan_3d(const PropagatorSetup& setup) {
    const PaddedGrid grid{setup.grid, setup.order, setup.pml_width, setup.order / 2, setup.free_surface};
    return make_kernel_plan_3d(grid, setup_pml_profile(setup, grid.halo, 2),
                               setup_pml_profile(setup, grid.halo, 1),
                               setup_pml_profile(setup, grid.halo, 0));
}

} // namespace fwi::gpu
