#include "kernel_plan.hpp"

#include "fwi/error.hpp"
#include "propagator/free_surface.hpp"
#include "propagator/pml_profile.hpp"
#include "propagator/stencil_scales.hpp"
#include "propagator/stencils.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace fwi::gpu {
namespace {

template <int R> StencilCoeffs coefficients() {
    using C = stencil::Coefficients<R>;
    StencilCoeffs s;
    for (int k = 0; k <= R; ++k) {
        s.d2[k] = C::d2[std::size_t(k)];
        s.d1[k] = C::d1[std::size_t(k)];
    }
    return s;
}

} // namespace

StencilCoeffs stencil_coefficients(int radius) {
    switch (radius) {
    case 1:
        return coefficients<1>();
    case 2:
        return coefficients<2>();
    case 3:
        return coefficients<3>();
    case 4:
        return coefficients<4>();
    default:
        throw ConfigError("spatial order " + std::to_string(2 * radius) + " is not one of 2, 4, 6, 8");
    }
}

AxisPml axis_pml_of(const PmlProfile& p) {
    AxisPml a;
    a.lo_begin = int(p.lo_begin);
    a.lo_end = int(p.lo_end);
    a.hi_begin = int(p.hi_begin);
    a.hi_end = int(p.hi_end);
    return a;
}

StripLaunch make_strip_launch(StripRect first, StripRect second) {
    StripLaunch l;
    for (StripRect r : {first, second}) {
        if (r.cells() == 0) continue;
        r.begin = l.total;
        l.total += r.cells();
        l.rect[l.count++] = r;
    }
    return l;
}

KernelPlan make_kernel_plan(const PaddedGrid& grid, const PmlProfile& pml_x, const PmlProfile& pml_z) {
    if (grid.order != 2 && grid.order != 4 && grid.order != 6 && grid.order != 8)
        throw ConfigError("spatial order " + std::to_string(grid.order) + " is not one of 2, 4, 6, 8");
    if (grid.nz() > std::numeric_limits<int>::max() / 2 || grid.nx() > std::numeric_limits<int>::max() / 2)
        throw ConfigError("padded grid " + std::to_string(grid.nz()) + " x " + std::to_string(grid.nx()) +
                          " is too large for the CUDA backend");
    KernelPlan plan;
    const int r = grid.order / 2;
    plan.radius = r;
    GridArgs& g = plan.grid;
    g.nz = int(grid.nz());
    g.nx = int(grid.nx());
    const int h = grid.halo;
    g.z0 = int(first_computed_plane(grid)); // below a free surface (whose mirror the propagator writes)
    g.z1 = g.nz - h;
    g.x0 = h;
    g.x1 = g.nx - h;
    const StencilScales k = stencil_scales(grid.model); // the CPU's floats
    g.inv_dx = k.inv[2];
    g.inv_dz = k.inv[0];
    g.inv_dx2 = k.inv2[2];
    g.inv_dz2 = k.inv2[0];
    g.coef = stencil_coefficients(r);
    g.px = axis_pml_of(pml_x);
    g.pz = axis_pml_of(pml_z);
    g.wx_lo = g.px.lo_end - g.px.lo_begin;
    g.wx = g.wx_lo + (g.px.hi_end - g.px.hi_begin);
    g.wz_lo = g.pz.lo_end - g.pz.lo_begin;
    g.wz = g.wz_lo + (g.pz.hi_end - g.pz.hi_begin);

    const bool pml = g.wx > 0 || g.wz > 0;
    if (pml) {
        // cpu_kernels.hpp: influence_lo / influence_hi (when the two x zones meet, the first covers all) and
        // in_zone.
        const bool x_meet = g.px.lo_end + r >= g.px.hi_begin - r;
        g.xi_lo_end = x_meet ? g.x1 : g.px.lo_end + r;
        g.xi_hi_begin = x_meet ? g.x1 : g.px.hi_begin - r;
        g.zi_lo_end = g.pz.lo_end + r;
        g.zi_hi_begin = g.pz.hi_begin - r;
    } else {
        // No PML: no zone at all (the CPU adds exact zeros there).
        g.xi_lo_end = g.x0;
        g.xi_hi_begin = g.x1;
        g.zi_lo_end = g.z0;
        g.zi_hi_begin = g.z1;
    }

    // The z layers' rows within [z0, z1): a free surface's top layer lies wholly above z0 and is not
    // computed.
    const int z_lo_begin = std::max(g.pz.lo_begin, g.z0), z_lo_end = std::max(g.pz.lo_end, z_lo_begin);
    plan.layers = make_strip_launch(
        StripRect{Segs{g.z0, g.z1, 0, 0}, Segs{g.px.lo_begin, g.px.lo_end, g.px.hi_begin, g.px.hi_end},
                  kAxisX},
        StripRect{Segs{z_lo_begin, z_lo_end, g.pz.hi_begin, g.pz.hi_end}, Segs{g.x0, g.x1, 0, 0}, kAxisZ});

    // Zones: full rows where the z-stencil touches a layer, and in the rows between, the x-influence columns.
    const int top_end = std::clamp(g.zi_lo_end, g.z0, g.z1);
    const int bottom_begin = std::clamp(g.zi_hi_begin, top_end, g.z1);
    const int left_end = std::clamp(g.xi_lo_end, g.x0, g.x1);
    const int right_begin = std::clamp(g.xi_hi_begin, left_end, g.x1);
    plan.zones = make_strip_launch(
        StripRect{Segs{g.z0, top_end, bottom_begin, g.z1}, Segs{g.x0, g.x1, 0, 0}, 0},
        StripRect{Segs{top_end, bottom_begin, 0, 0}, Segs{g.x0, left_end, right_begin, g.x1}, 0});

    plan.cells = grid.cells();
    plan.x_strip = std::int64_t(g.nz) * g.wx;
    plan.z_strip = std::int64_t(g.wz) * g.nx;
    return plan;
}

KernelPlan make_kernel_plan(const PropagatorSetup& setup) {
    const PaddedGrid grid{setup.grid, setup.order, setup.pml_width, setup.order / 2, setup.free_surface};
    return make_kernel_plan(grid, setup_pml_profile(setup, grid.halo, 2),
                            setup_pml_profile(setup, grid.halo, 0));
}

} // namespace fwi::gpu
