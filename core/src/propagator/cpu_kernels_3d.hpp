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
// psi and zeta stay exactly 0 there): C-PML on all six faces, or on five under a free surface, which the
// propagator applies after each step (free_surface.hpp: the top layer does not absorb and the planes above
// the surface mirror those below; these kernels are the same). A halo of R zero cells around the padded grid
// is never written by the kernels, which makes D2^T = D2 and D1^T = -D1 hold exactly. MEMORY VARIABLES are
// full padded arrays (simple indexing; they are only read and written inside their layers and the R-cell
// fringes next to them: the rest costs little bandwidth, and no memory for y and z, the state populating
// their layers; an x layer costs whole cache lines of rows). The state packs them into strips for checkpoints
// (cpu_propagator_3d.cpp). A forward step is ONE blocked sweep (2) over the rows, then (3) source injection
// (by the caller). Per row: psi_x in the row's x layers (row-local), the interior update, then the PML terms
// on the cells whose stencil touches a layer (the layer plus R cells) for x, y and z in that order, then the
// Born secondary. psi_y and psi_z are computed inside the same sweep, just before the rows that read them
// (there was a pass (1) over the y-layer rows and z-layer planes for them, which read u a second time): see
// BLOCKING. BLOCKING: the sweep walks y in blocks and, inside a block, all planes in order, so that the 2R +
// 1 planes a z stencil reads stay in cache (L2) between rows. The two y-layer reaches (layer + fringe) are
// one block each and the rows between them blocks of kBlockRows (y_blocks). Before the rows of plane iz, a
// block computes psi_z of plane iz + R on its own rows (D1z psi_z at plane iz reads planes iz - R .. iz + R
// of the same rows) and, in a layer block, psi_y of plane iz on its layer rows (D1y psi_y of a row reads rows
// of the same reach, so of the same block): every psi a row reads was computed by the same thread, before, so
// the step needs no barrier between passes. A thread takes a whole block (all planes) at a time, handed out
// dynamically, so that a thread the OS preempts on a busy machine does not hold the step back. Every loop is
// branch-free (snapshot, secondary: template arguments), so all of them vectorise; the x-layer pieces of the
// next row are prefetched; a row's interior chunks start on cache lines of u_next after a short first one
// (cache_line_split). DRAM traffic per cell and forward step at order 8 on 256^3 + 20 is about 18 bytes
// for u (1.5 times: the blocks' y halo), u_next and c, plus about 8 for the memory variables (read and
// written once in their layers; x pieces cost whole lines).
//
// ADJOINT (the exact transpose of the step above, derived by reversing its three assignments). With mu := c *
// lambda_u, r_ax := lambda_psi_ax, s_ax := lambda_zeta_ax, mu = mu^(n+1), mu_prev = mu^(n+2), the adjoint of
// step n is:
//     s_ax  <- a (mu + s_ax)                        t_ax := (b/a) s_ax   (= b * lambda_zeta')
//     r_ax  <- a (r_ax - D1ax(mu + t_ax))           w_ax := (b/a) r_ax   (= b * lambda_psi')
//     mu^n   = 2 mu - mu_prev + c [ (D2x + D2y + D2z) mu + sum_ax (D2ax t_ax - D1ax w_ax) ]
//     mu^n  += c R^T residual^n                      (by the caller)
// ONE blocked sweep, as the forward's: per row, s_x then r_x in the row's x layers (row-local), the gradient
// term, the interior update, then the PML terms for x, y, z. s_z and r_z are computed 2R and R planes ahead
// of the rows that read them (r_z reads s_z at +-R planes, the row's terms r_z and s_z at +-R), s_y then r_y
// plane by plane in the layer blocks (there were passes (A) for s_y and s_z and (B) for r_y and r_z, two more
// sweeps over the layers with a barrier after each). GRADIENT: u^(n+1) depends on c only through c * B^n, so
// dJ/dc = sum_n lambda_u^(n+1) B^n = sum_n mu^(n+1) B^n / c; the row adds weight * mu^(n+1) * B^n / c where
// it reads mu anyway. BORN: the scattered field obeys the same step with the extra term dc * B^n added to
// u^(n+1) ("secondary").
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

using cpu::add_secondary;
using cpu::adjoint_pml_row_terms;
using cpu::adjoint_x_terms;
using cpu::cache_line_split;
using cpu::pml_row_terms;
using cpu::prefetch_x_layers;
using cpu::psi_row;
using cpu::psi_x_layers;
using cpu::r_row;
using cpu::s_r_x_layers;
using cpu::s_row;
using cpu::x_pml_terms;
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

/// The y blocks of the blocked sweeps: block 0 is [y0, end of the low y layer's reach), block 1 [start of the
/// high layer's reach, y1), and the rows between them blocks of kBlockRows. A layer's reach
/// (layer + R fringe rows) in one block is what lets the forward sweep compute psi_y in the same block that
/// reads it (BLOCKING above). The reaches never meet: the model has at least 2R cells along y.
struct YBlocks {
    std::int64_t y0 = 0, lo_end = 0, hi_begin = 0, y1 = 0;
    std::int64_t count() const { return 2 + (hi_begin - lo_end + kBlockRows - 1) / kBlockRows; }
    /// Blocks 0 and 1 hold the layers: the largest and costliest blocks go first, so that the dynamic
    /// schedule ends on small ones.
    bool holds_layer(std::int64_t k) const { return k < 2; }
    std::pair<std::int64_t, std::int64_t> rows(std::int64_t k) const {
        if (k == 0) return {y0, lo_end};
        if (k == 1) return {hi_begin, y1};
        const std::int64_t b = lo_end + (k - 2) * kBlockRows;
        return {b, std::min(b + kBlockRows, hi_begin)};
    }
};

inline YBlocks y_blocks(const KernelGrid& g, const Zones& zy) {
    const std::int64_t lo_end = std::clamp(zy.reach[0].second, g.y0, g.y1);
    return {g.y0, lo_end, std::clamp(zy.reach[1].first, lo_end, g.y1), g.y1};
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
    psi_x_layers<R>(f.psi_x, u, zx, px, row, idx);
    alignas(64) float lap_xy[kChunk];
    const float idz2 = g.inv_dz2;
    const Index ia = cache_line_split(un, i0, i1); // a short first chunk, then chunks on cache lines
    for (Index j0 = i0, j1; j0 < i1; j0 = j1) {
        j1 = j0 < ia ? ia : std::min(j0 + kChunk, i1);
        laplacian_xy<R>(u, j0, j1, sy, idx2, g.inv_dy2, lap_xy);
        const float* __restrict t = lap_xy;
#pragma omp simd
        for (Index i = j0; i < j1; ++i) {
            const float lap = t[i - j0] + d2<R>(u, i, sz) * idz2;
            un[i] = 2.0f * u[i] - un[i] + c[i] * lap;
            if constexpr (Snap) snap[i] = lap;
        }
    }
    x_pml_terms<R, Snap>(u, un, snap, c, f.psi_x, f.zeta_x, zx, px, row, idx, idx2);
    // y, then z: whole rows.
    if (zy.in_layer(iy) || zy.in_fringe(iy))
        pml_row_terms<R, Snap>(u, un, snap, c, f.psi_y, f.zeta_y, i0, i1, sy, zy.in_layer(iy), g.pml_y->a[iy],
                               g.pml_y->b[iy], g.inv_dy, g.inv_dy2);
    if (zz.in_layer(iz) || zz.in_fringe(iz))
        pml_row_terms<R, Snap>(u, un, snap, c, f.psi_z, f.zeta_z, i0, i1, sz, zz.in_layer(iz), g.pml_z->a[iz],
                               g.pml_z->b[iz], g.inv_dz, g.inv_dz2);
    if constexpr (Sec) add_secondary(un, f.secondary, i0, i1);
}

/// Calls row(i0, i1) with the computed cells of each row in [yb, ye) of plane iz, when iz is a z-layer plane.
template <class Row>
inline void z_layer_rows(const KernelGrid& g, const Zones& zz, std::int64_t iz, std::int64_t yb,
                         std::int64_t ye, Row&& row) {
    if (!zz.in_layer(iz)) return;
    for (std::int64_t iy = yb; iy < ye; ++iy)
        row(g.row(iz, iy) + g.x0, g.row(iz, iy) + g.x1);
}

/// Calls row(iy, i0, i1) with the computed cells of each y-layer row among [yb, ye) of plane iz.
template <class Row>
inline void y_layer_rows(const KernelGrid& g, const Zones& zy, std::int64_t iz, std::int64_t yb,
                         std::int64_t ye, Row&& row) {
    for (std::int64_t iy = yb; iy < ye; ++iy)
        if (zy.in_layer(iy)) row(iy, g.row(iz, iy) + g.x0, g.row(iz, iy) + g.x1);
}

template <int R> void forward_step(const KernelGrid& g, const ForwardFields& f) {
    const Zones zx = zones(*g.pml_x, R), zy = zones(*g.pml_y, R), zz = zones(*g.pml_z, R);
    const YBlocks blocks = y_blocks(g, zy);
    const PmlProfile &py = *g.pml_y, &pz = *g.pml_z;
    const Index sy = g.nx, sz = g.ny * g.nx;
#pragma omp parallel
    {
        flush_denormals();
        // One sweep: y blocks outermost so that the z stencil's planes stay cached; psi_z R planes ahead of
        // the rows that read it, psi_y plane by plane in the layer blocks.
        const auto sweep = [&]<bool Snap, bool Sec>() {
#pragma omp for schedule(dynamic, 1) nowait
            for (std::int64_t k = 0; k < blocks.count(); ++k) {
                const auto [yb, ye] = blocks.rows(k);
                std::int64_t psi_z_done = g.z0; // planes [z0, psi_z_done) have psi_z^n on these rows
                for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
                    for (; psi_z_done < std::min(iz + R + 1, g.z1); ++psi_z_done) {
                        const std::int64_t p = psi_z_done;
                        z_layer_rows(g, zz, p, yb, ye, [&](Index i0, Index i1) {
                            psi_row<R>(f.psi_z, f.u, i0, i1, sz, pz.a[p], pz.b[p], g.inv_dz);
                        });
                    }
                    if (blocks.holds_layer(k))
                        y_layer_rows(g, zy, iz, yb, ye, [&](std::int64_t iy, Index i0, Index i1) {
                            psi_row<R>(f.psi_y, f.u, i0, i1, sy, py.a[iy], py.b[iy], g.inv_dy);
                        });
                    for (std::int64_t iy = yb; iy < ye; ++iy)
                        forward_row<R, Snap, Sec>(g, f, zx, zy, zz, iz, iy, next_row(g, iz, iy, yb, ye));
                }
            }
        };
        if (f.snapshot)
            f.secondary ? sweep.template operator()<true, true>() : sweep.template operator()<true, false>();
        else
            f.secondary ? sweep.template operator()<false, true>()
                        : sweep.template operator()<false, false>();
    }
}

/// The adjoint sweep on one row: gradient, interior adjoint update, PML terms (Snap: a snapshot is given, so
/// the gradient is accumulated).
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
    prefetch_x_layers(zx, next, f.s_x, f.r_x);
    s_r_x_layers<R>(f.s_x, f.r_x, mu, zx, px, row, g.inv_dx);
    alignas(64) float lap_xy[kChunk];
    const float idz2 = g.inv_dz2;
    const Index ia = cache_line_split(mn, i0, i1); // a short first chunk, then chunks on cache lines
    for (Index j0 = i0, j1; j0 < i1; j0 = j1) {
        j1 = j0 < ia ? ia : std::min(j0 + kChunk, i1);
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
    adjoint_x_terms<R>(mn, c, f.s_x, f.r_x, zx, px, row, g.inv_dx, g.inv_dx2);
    if (zy.in_layer(iy) || zy.in_fringe(iy))
        adjoint_pml_row_terms<R>(mn, c, f.s_y, f.r_y, g.pml_y->b_over_a.data(), iy, i0, i1, sy, g.inv_dy,
                                 g.inv_dy2);
    if (zz.in_layer(iz) || zz.in_fringe(iz))
        adjoint_pml_row_terms<R>(mn, c, f.s_z, f.r_z, g.pml_z->b_over_a.data(), iz, i0, i1, sz, g.inv_dz,
                                 g.inv_dz2);
}

template <int R> void adjoint_step(const KernelGrid& g, const AdjointFields& f) {
    const Zones zx = zones(*g.pml_x, R), zy = zones(*g.pml_y, R), zz = zones(*g.pml_z, R);
    const YBlocks blocks = y_blocks(g, zy);
    const PmlProfile &py = *g.pml_y, &pz = *g.pml_z;
    const Index sy = g.nx, sz = g.ny * g.nx;
#pragma omp parallel
    {
        flush_denormals();
        // One sweep, blocked as the forward's: s_z 2R planes and r_z R planes ahead of the rows that read
        // them, s_y and r_y plane by plane in the layer blocks; then per row mu^n = 2 mu - mu_prev + c [lap
        // mu + sum (D2 t - D1 w)], w = (b/a) r, with the gradient on the way.
        const auto sweep = [&]<bool Snap>() {
#pragma omp for schedule(dynamic, 1) nowait
            for (std::int64_t k = 0; k < blocks.count(); ++k) {
                const auto [yb, ye] = blocks.rows(k);
                std::int64_t s_z_done = g.z0,
                             r_z_done = g.z0; // planes [z0, done) hold s_z, r_z on these rows
                for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
                    // s <- a (mu + s); r <- a (r - D1(mu + t)), t = (b/a) s, reading s at +-R rows or planes.
                    for (; s_z_done < std::min(iz + 2 * R + 1, g.z1); ++s_z_done) {
                        const std::int64_t p = s_z_done;
                        z_layer_rows(g, zz, p, yb, ye,
                                     [&](Index i0, Index i1) { s_row(f.s_z, f.mu, i0, i1, pz.a[p]); });
                    }
                    for (; r_z_done < std::min(iz + R + 1, g.z1); ++r_z_done) {
                        const std::int64_t p = r_z_done;
                        z_layer_rows(g, zz, p, yb, ye, [&](Index i0, Index i1) {
                            r_row<R>(f.r_z, f.mu, f.s_z, pz.b_over_a.data(), p, i0, i1, sz, pz.a[p],
                                     g.inv_dz);
                        });
                    }
                    if (blocks.holds_layer(k)) {
                        y_layer_rows(g, zy, iz, yb, ye, [&](std::int64_t iy, Index i0, Index i1) {
                            s_row(f.s_y, f.mu, i0, i1, py.a[iy]);
                        });
                        y_layer_rows(g, zy, iz, yb, ye, [&](std::int64_t iy, Index i0, Index i1) {
                            r_row<R>(f.r_y, f.mu, f.s_y, py.b_over_a.data(), iy, i0, i1, sy, py.a[iy],
                                     g.inv_dy);
                        });
                    }
                    for (std::int64_t iy = yb; iy < ye; ++iy)
                        adjoint_row<R, Snap>(g, f, zx, zy, zz, iz, iy, next_row(g, iz, iy, yb, ye));
                }
            }
        };
        if (f.snapshot)
            sweep.template operator()<true>();
        else
            sweep.template operator()<false>();
    }
}

} // namespace fwi::cpu3d
