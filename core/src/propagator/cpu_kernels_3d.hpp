#pragma once
// CPU reference kernels in 3D: the constant-density acoustic wave equation, its exact discrete adjoint, and
// the gradient. The twin of cpu_kernels.hpp (same passes, same recurrences, same invariants) with a third
// axis.
//
// ARRAYS: (z, y, x) row-major, x fastest (grid.hpp): padded cell (iz, iy, ix) is at (iz * ny + iy) * nx + ix,
// so the y stride is nx and the z stride ny * nx. A "row" is one (iz, iy) line of x; a "plane" one iz.
//
// EQUATION (Deepwave's "scalar" convention):  d2u/dt2 = v^2 lap(u) + v^2 f,   c := v^2 dt^2 (per padded
// cell). SCHEME: leapfrog in time, order 2R in space (R = 1..4, stencils.hpp), C-PML memory variables per
// axis (Pasalic & McGarry 2010), for each axis ax in {x, y, z}:
//     psi_ax^n   = a psi_ax^(n-1)  + b D1ax u^n
//     zeta_ax^n  = a zeta_ax^(n-1) + b (D2ax u^n + D1ax psi_ax^n)
//     u^(n+1)    = 2u^n - u^(n-1) + c * B^n,      B^n = sum_ax (D2ax u^n + D1ax psi_ax^n + zeta_ax^n) + S f^n
// S spreads the source onto cells (Hicks weights, 8 x 8 x 8); receivers record d^n_r = sum_i R_ri u^n_i at
// the START of step n. BOUNDARIES: a, b from pml_profile.hpp per axis (a = 1, b = 0 outside the layers, so
// psi and zeta stay exactly 0 there): C-PML on all six faces. A halo of R zero cells around the padded grid
// is never written, which makes D2^T = D2 and D1^T = -D1 hold exactly. MEMORY VARIABLES are full padded
// arrays (simple indexing; they are only read and written inside their layers and the R-cell fringes next to
// them, so the untouched parts cost memory but little bandwidth; an x layer is a short piece of each row, and
// costs whole cache lines). The state packs them into strips for checkpoints (cpu_propagator_3d.cpp). PASSES
// per forward step: (1) psi_y on the y-layer rows and psi_z on the z-layer planes; (2) per row: psi_x in the
// row's x layers (row-local, so it needs no pass of its own), the interior update, then the PML terms on the
// cells whose stencil touches a layer (the layer plus R cells) for x, y and z in that order, then the Born
// secondary; (3) source injection (by the caller).
// BLOCKING: pass (2) walks y in blocks of kBlockRows rows and, inside a block, all planes in order, so that
// the 2R + 1 planes a z stencil reads stay in cache (L2) between rows. A thread takes a whole block (all
// planes) at a time, handed out dynamically, so that a thread the OS preempts on a busy machine does not hold
// the step back. Every loop is branch-free (snapshot, secondary: template arguments), so all of them
// vectorise; the x-layer pieces of the next row are prefetched. DRAM traffic per cell and forward step at
// order 8 on 256^3 + 20 is about 18 bytes for u (1.5 times: the blocks' y halo), u_next and c, plus about 10
// for the memory variables (pass (1) re-reads u and psi, x pieces cost whole lines): about 28 bytes.
//
// ADJOINT (the exact transpose of the step above, derived by reversing its three assignments). With mu := c *
// lambda_u, r_ax := lambda_psi_ax, s_ax := lambda_zeta_ax, mu = mu^(n+1), mu_prev = mu^(n+2), the adjoint of
// step n is:
//     s_ax  <- a (mu + s_ax)                        t_ax := (b/a) s_ax   (= b * lambda_zeta')
//     r_ax  <- a (r_ax - D1ax(mu + t_ax))           w_ax := (b/a) r_ax   (= b * lambda_psi')
//     mu^n   = 2 mu - mu_prev + c [ (D2x + D2y + D2z) mu + sum_ax (D2ax t_ax - D1ax w_ax) ]
//     mu^n  += c R^T residual^n                      (by the caller)
// PASSES: (A) s_y on the y-layer rows, s_z on the z-layer planes; (B) r_y and r_z (they read s at
// neighbouring rows and planes); (C) per row, blocked as pass (2): s_x then r_x in the row's x layers
// (row-local, so they need no pass of their own), the gradient term, the interior update, then the PML terms
// for x, y, z. GRADIENT: u^(n+1) depends on c only through c * B^n, so  dJ/dc = sum_n lambda_u^(n+1) B^n =
// sum_n mu^(n+1) B^n / c; pass (C) adds weight * mu^(n+1) * B^n / c where it reads mu anyway. BORN: the
// scattered field obeys the same step with the extra term dc * B^n added to u^(n+1) ("secondary").
//
// INVARIANTS: every cell is computed by the same arithmetic, in the same order, whatever the thread count,
// the block size or the schedule (no reductions; threads only split rows and planes), so a state restored
// from a copy continues bit for bit, runs with 1 and 2 threads agree bit for bit, and every checkpoint
// schedule gives the same gradient bit for bit. Denormals are flushed to zero on every thread
// (denormals.hpp).
#include "propagator/cpu_row_terms.hpp"
#include "propagator/denormals.hpp"
#include "propagator/pml_profile.hpp"
#include "propagator/stencils.hpp"

#include <algorithm>
#include <cstdint>

namespace fwi::cpu3d {

using cpu::adjoint_pml_row_terms;
using cpu::pml_row_terms;
using cpu::prefetch_x_layers;
using cpu::psi_row;
using cpu::r_row;
using cpu::s_row;
using cpu::Zones;
using cpu::zones;
using stencil::Index;

// The row functions are [[gnu::flatten]]: with three axes GCC's inlining budget stopped inlining d2<4> into
// the order 8 loops, which then did not vectorise at all (75 M/s instead of ~400 M/s single-threaded).

/// Rows of y per cache block in pass (2) and (C): (2R + 1) planes x (kBlockRows + 2R) rows x nx floats should
/// fit in L2 (9 x 24 x 304 x 4 bytes = 263 kB of the 512 kB at order 8 on a 304-cell row). 8 and 32 rows
/// measured slower on 232^3 + 20.
inline constexpr std::int64_t kBlockRows = 16;

struct KernelGrid {
    std::int64_t nz = 0, ny = 0, nx = 0; ///< padded
    std::int64_t z0 = 0, z1 = 0;         ///< computed planes [z0, z1) (everything but the halo)
    std::int64_t y0 = 0, y1 = 0;         ///< computed rows in a plane [y0, y1)
    std::int64_t x0 = 0, x1 = 0;         ///< computed columns [x0, x1)
    float inv_dx = 0, inv_dy = 0, inv_dz = 0;
    float inv_dx2 = 0, inv_dy2 = 0, inv_dz2 = 0;
    const float* c = nullptr;     ///< v^2 dt^2
    const float* inv_c = nullptr; ///< 1 / c (not read by these kernels: they divide, see adjoint_row)
    const PmlProfile* pml_x = nullptr;
    const PmlProfile* pml_y = nullptr;
    const PmlProfile* pml_z = nullptr;
    Index row(std::int64_t iz, std::int64_t iy) const { return (iz * ny + iy) * nx; }
};

struct ForwardFields {
    const float* u = nullptr; ///< u^n
    float* u_next = nullptr;  ///< holds u^(n-1) on entry, u^(n+1) on exit
    float* psi_x = nullptr;
    float* psi_y = nullptr;
    float* psi_z = nullptr;
    float* zeta_x = nullptr;
    float* zeta_y = nullptr;
    float* zeta_z = nullptr;
    float* snapshot = nullptr;        ///< optional: receives B^n (the source term is added by the caller)
    const float* secondary = nullptr; ///< optional: added to u^(n+1) (Born)
};

struct AdjointFields {
    const float* mu = nullptr; ///< mu^(n+1)
    float* mu_next = nullptr;  ///< holds mu^(n+2) on entry, mu^n on exit
    float* r_x = nullptr;
    float* r_y = nullptr;
    float* r_z = nullptr;
    float* s_x = nullptr;
    float* s_y = nullptr;
    float* s_z = nullptr;
    float* grad_c = nullptr;         ///< dJ/dc accumulator (padded)
    const float* snapshot = nullptr; ///< optional B^n
    float weight = 1;                ///< gradient sampling weight
};

/// Cells per chunk of a row in the split Laplacian below (a stack buffer of 2 kB, in L1).
inline constexpr Index kChunk = 512;

/// The x and y part of the 3D Laplacian, D2x p / dx^2 + D2y p / dy^2, for cells [i0, i1) into t[0, i1 - i0).
/// The Laplacian is (D2x / dx^2 + D2y / dy^2) + D2z / dz^2, each axis summed unscaled and scaled once
/// (stencils.hpp explains why), evaluated in two loops: one loop over the whole 25-point star has 17 address
/// streams, more than x86-64's 16 registers, and GCC spilled them. The sum is the same float expression in
/// the same order, so the results are bit for bit those of one loop. (A third loop, y apart from x, removed
/// more spills but gained nothing measurable: the step waits on memory, not on these loads.)
template <int R>
[[gnu::flatten]] inline void laplacian_xy(const float* __restrict p, Index i0, Index i1, Index sy, float idx2,
                                          float idy2, float* __restrict t) {
    using stencil::d2;
#pragma omp simd
    for (Index i = i0; i < i1; ++i)
        t[i - i0] = d2<R>(p, i, 1) * idx2 + d2<R>(p, i, sy) * idy2;
}

/// Number of y blocks of kBlockRows rows in [y0, y1).
inline std::int64_t y_blocks(const KernelGrid& g) {
    return (g.y1 - g.y0 + kBlockRows - 1) / kBlockRows;
}

/// The row after (iz, iy) in the blocked sweep (rows yb..ye-1 of each plane in turn).
inline Index next_row(const KernelGrid& g, std::int64_t iz, std::int64_t iy, std::int64_t yb,
                      std::int64_t ye) {
    return iy + 1 < ye ? g.row(iz, iy + 1) : g.row(iz + 1, yb);
}

/// Pass (2) on one row: psi_x, interior update, PML terms, Born secondary. Snap and Sec are template
/// arguments, not run-time tests inside the loops: GCC does not vectorise a loop with a branch in it
/// ("control flow in loop"), and the x-layer, fringe and y/z PML loops ran scalar that way (the PML cost 3x
/// the interior).
template <int R, bool Snap, bool Sec>
[[gnu::flatten]] inline void forward_row(const KernelGrid& g, const ForwardFields& f, const Zones& zx,
                                         const Zones& zy, const Zones& zz, std::int64_t iz, std::int64_t iy,
                                         Index next) {
    using namespace stencil;
    const Index sy = g.nx, sz = g.ny * g.nx, row = g.row(iz, iy);
    const Index i0 = row + g.x0, i1 = row + g.x1;
    const PmlProfile& px = *g.pml_x;
    const float* __restrict u = f.u;
    float* __restrict un = f.u_next;
    float* __restrict snap = f.snapshot;
    const float* __restrict c = g.c;
    const float idx = g.inv_dx, idx2 = g.inv_dx2;
    prefetch_x_layers(zx, next, f.psi_x, f.zeta_x);
    // psi_x^n from u^n in this row's x layers (D1x reads this row only).
    float* __restrict psx = f.psi_x;
    for (auto [b0, b1] : zx.layers) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix)
            psx[row + ix] = px.a[ix] * psx[row + ix] + px.b[ix] * (d1<R>(u, row + ix, 1) * idx);
    }
    alignas(64) float lap_xy[kChunk];
    const float idz2 = g.inv_dz2;
    for (Index j0 = i0; j0 < i1; j0 += kChunk) {
        const Index j1 = std::min(j0 + kChunk, i1);
        laplacian_xy<R>(u, j0, j1, sy, idx2, g.inv_dy2, lap_xy);
        const float* __restrict t = lap_xy;
#pragma omp simd
        for (Index i = j0; i < j1; ++i) {
            const float lap = t[i - j0] + d2<R>(u, i, sz) * idz2;
            un[i] = 2.0f * u[i] - un[i] + c[i] * lap;
            if constexpr (Snap) snap[i] = lap;
        }
    }
    // x layers: D1x psi_x + zeta_x; fringes: D1x psi_x only.
    float* __restrict zex = f.zeta_x;
    for (auto [b0, b1] : zx.layers) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix) {
            const Index i = row + ix;
            float term = d1<R>(psx, i, 1) * idx;
            zex[i] = px.a[ix] * zex[i] + px.b[ix] * (d2<R>(u, i, 1) * idx2 + term);
            term += zex[i];
            un[i] += c[i] * term;
            if constexpr (Snap) snap[i] += term;
        }
    }
    for (auto [b0, b1] : zx.fringes) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix) {
            const Index i = row + ix;
            const float term = d1<R>(psx, i, 1) * idx;
            un[i] += c[i] * term;
            if constexpr (Snap) snap[i] += term;
        }
    }
    // y, then z: whole rows.
    if (zy.in_layer(iy) || zy.in_fringe(iy))
        pml_row_terms<R, Snap>(u, un, snap, c, f.psi_y, f.zeta_y, i0, i1, sy, zy.in_layer(iy), g.pml_y->a[iy],
                               g.pml_y->b[iy], g.inv_dy, g.inv_dy2);
    if (zz.in_layer(iz) || zz.in_fringe(iz))
        pml_row_terms<R, Snap>(u, un, snap, c, f.psi_z, f.zeta_z, i0, i1, sz, zz.in_layer(iz), g.pml_z->a[iz],
                               g.pml_z->b[iz], g.inv_dz, g.inv_dz2);
    if constexpr (Sec) {
        const float* __restrict sec = f.secondary;
#pragma omp simd
        for (Index i = i0; i < i1; ++i)
            un[i] += sec[i];
    }
}

template <int R> void forward_step(const KernelGrid& g, const ForwardFields& f) {
    const Zones zx = zones(*g.pml_x, R), zy = zones(*g.pml_y, R), zz = zones(*g.pml_z, R);
    const Index sy = g.nx, sz = g.ny * g.nx;
#pragma omp parallel
    {
        flush_denormals();
        // (1) psi_y^n and psi_z^n from u^n, in their layers only.
#pragma omp for schedule(dynamic, 4)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const bool z_layer = zz.in_layer(iz);
            for (std::int64_t iy = g.y0; iy < g.y1; ++iy) {
                const Index row = g.row(iz, iy);
                if (zy.in_layer(iy))
                    psi_row<R>(f.psi_y, f.u, row + g.x0, row + g.x1, sy, g.pml_y->a[iy], g.pml_y->b[iy],
                               g.inv_dy);
                if (z_layer)
                    psi_row<R>(f.psi_z, f.u, row + g.x0, row + g.x1, sz, g.pml_z->a[iz], g.pml_z->b[iz],
                               g.inv_dz);
            }
        }
        // (2) per row, y blocks outermost so that the z stencil's planes stay cached.
        const auto rows = [&]<bool Snap, bool Sec>() {
#pragma omp for schedule(dynamic, 1) nowait
            for (std::int64_t block = 0; block < y_blocks(g); ++block) {
                const std::int64_t yb = g.y0 + block * kBlockRows, ye = std::min(yb + kBlockRows, g.y1);
                for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
                    for (std::int64_t iy = yb; iy < ye; ++iy)
                        forward_row<R, Snap, Sec>(g, f, zx, zy, zz, iz, iy, next_row(g, iz, iy, yb, ye));
            }
        };
        if (f.snapshot)
            f.secondary ? rows.template operator()<true, true>() : rows.template operator()<true, false>();
        else
            f.secondary ? rows.template operator()<false, true>() : rows.template operator()<false, false>();
    }
}

/// Pass (C) on one row: gradient, interior adjoint update, PML terms (Snap: a snapshot is given, so the
/// gradient is accumulated).
template <int R, bool Snap>
[[gnu::flatten]] inline void adjoint_row(const KernelGrid& g, const AdjointFields& f, const Zones& zx,
                                         const Zones& zy, const Zones& zz, std::int64_t iz, std::int64_t iy,
                                         Index next) {
    using namespace stencil;
    const Index sy = g.nx, sz = g.ny * g.nx, row = g.row(iz, iy);
    const Index i0 = row + g.x0, i1 = row + g.x1;
    const float* __restrict mu = f.mu;
    float* __restrict mn = f.mu_next;
    const float* __restrict c = g.c;
    const PmlProfile& px = *g.pml_x;
    const float* bax = px.b_over_a.data();
    prefetch_x_layers(zx, next, f.s_x, f.r_x);
    // (A) for x, row-local: s_x <- a (mu + s_x), then r_x <- a (r_x - D1x(mu + t_x)) in this row's x layers.
    {
        float* __restrict sx = f.s_x;
        float* __restrict rx = f.r_x;
        for (auto [b0, b1] : zx.layers) {
#pragma omp simd
            for (Index ix = b0; ix < b1; ++ix)
                sx[row + ix] = px.a[ix] * (mu[row + ix] + sx[row + ix]);
        }
        for (auto [b0, b1] : zx.layers) {
#pragma omp simd
            for (Index ix = b0; ix < b1; ++ix) {
                const Index i = row + ix;
                rx[i] = px.a[ix] * (rx[i] - (d1<R>(mu, i, 1) + d1_weighted<R>(bax, ix, sx, i, 1)) * g.inv_dx);
            }
        }
    }
    alignas(64) float lap_xy[kChunk];
    const float idz2 = g.inv_dz2;
    for (Index j0 = i0; j0 < i1; j0 += kChunk) {
        const Index j1 = std::min(j0 + kChunk, i1);
        laplacian_xy<R>(mu, j0, j1, sy, g.inv_dx2, g.inv_dy2, lap_xy);
        const float* __restrict t = lap_xy;
        if constexpr (Snap) {
            const float* __restrict snap = f.snapshot;
            float* __restrict gr = f.grad_c;
            const float w = f.weight;
            // 1 / c is divided here rather than read from g.inv_c: the same correctly rounded float
            // (set_model divides the same way), one stream of 4 bytes per cell less in a step that is
            // bandwidth-heavy.
#pragma omp simd
            for (Index i = j0; i < j1; ++i) {
                gr[i] += w * (mu[i] * snap[i] * (1.0f / c[i]));
                mn[i] = 2.0f * mu[i] - mn[i] + c[i] * (t[i - j0] + d2<R>(mu, i, sz) * idz2);
            }
        } else {
#pragma omp simd
            for (Index i = j0; i < j1; ++i)
                mn[i] = 2.0f * mu[i] - mn[i] + c[i] * (t[i - j0] + d2<R>(mu, i, sz) * idz2);
        }
    }
    for (auto [b0, b1] : zx.reach) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix) {
            const Index i = row + ix;
            mn[i] += c[i] * (d2_weighted<R>(bax, ix, f.s_x, i, 1) * g.inv_dx2 -
                             d1_weighted<R>(bax, ix, f.r_x, i, 1) * g.inv_dx);
        }
    }
    if (zy.in_layer(iy) || zy.in_fringe(iy))
        adjoint_pml_row_terms<R>(mn, c, f.s_y, f.r_y, g.pml_y->b_over_a.data(), iy, i0, i1, sy, g.inv_dy,
                                 g.inv_dy2);
    if (zz.in_layer(iz) || zz.in_fringe(iz))
        adjoint_pml_row_terms<R>(mn, c, f.s_z, f.r_z, g.pml_z->b_over_a.data(), iz, i0, i1, sz, g.inv_dz,
                                 g.inv_dz2);
}

template <int R> void adjoint_step(const KernelGrid& g, const AdjointFields& f) {
    using namespace stencil;
    const PmlProfile& px = *g.pml_x;
    const PmlProfile& py = *g.pml_y;
    const PmlProfile& pz = *g.pml_z;
    const Zones zx = zones(px, R), zy = zones(py, R), zz = zones(pz, R);
    const Index sy = g.nx, sz = g.ny * g.nx;
    const float* __restrict mu = f.mu;
#pragma omp parallel
    {
        flush_denormals();
        // (A) s <- a (mu + s) in the y and z layers (s_x and r_x: in pass (C), row-local).
#pragma omp for schedule(dynamic, 4)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const bool z_layer = zz.in_layer(iz);
            for (std::int64_t iy = g.y0; iy < g.y1; ++iy) {
                const Index row = g.row(iz, iy);
                if (zy.in_layer(iy)) s_row(f.s_y, mu, row + g.x0, row + g.x1, py.a[iy]);
                if (z_layer) s_row(f.s_z, mu, row + g.x0, row + g.x1, pz.a[iz]);
            }
        }
        // (B) r_y, r_z (they read s_y, s_z of neighbouring rows and planes).
#pragma omp for schedule(dynamic, 4)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const bool z_layer = zz.in_layer(iz);
            for (std::int64_t iy = g.y0; iy < g.y1; ++iy) {
                const Index row = g.row(iz, iy);
                if (zy.in_layer(iy))
                    r_row<R>(f.r_y, mu, f.s_y, py.b_over_a.data(), iy, row + g.x0, row + g.x1, sy, py.a[iy],
                             g.inv_dy);
                if (z_layer)
                    r_row<R>(f.r_z, mu, f.s_z, pz.b_over_a.data(), iz, row + g.x0, row + g.x1, sz, pz.a[iz],
                             g.inv_dz);
            }
        }
        // (C) mu^n = 2 mu - mu_prev + c [lap mu + sum (D2 t - D1 w)],  w = (b/a) r; gradient on the way.
#pragma omp for schedule(dynamic, 1) nowait
        for (std::int64_t block = 0; block < y_blocks(g); ++block) {
            const std::int64_t yb = g.y0 + block * kBlockRows, ye = std::min(yb + kBlockRows, g.y1);
            for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
                for (std::int64_t iy = yb; iy < ye; ++iy) {
                    const Index next = next_row(g, iz, iy, yb, ye);
                    if (f.snapshot)
                        adjoint_row<R, true>(g, f, zx, zy, zz, iz, iy, next);
                    else
                        adjoint_row<R, false>(g, f, zx, zy, zz, iz, iy, next);
                }
        }
    }
}

} // namespace fwi::cpu3d
