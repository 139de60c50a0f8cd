#pragma once
// CPU reference kernels: 2D constant-density acoustic wave equation, its exact discrete adjoint, and the
// gradient.
//
// EQUATION (Deepwave's "scalar" convention):  d2u/dt2 = v^2 lap(u) + v^2 f,   c := v^2 dt^2 (per padded
// cell). SCHEME: leapfrog in time, order 2R in space (R = 1..4, stencils.hpp), C-PML memory variables per
// axis (Pasalic & McGarry 2010), for each axis ax in {x, z}:
//     psi_ax^n   = a psi_ax^(n-1)  + b D1ax u^n
//     zeta_ax^n  = a zeta_ax^(n-1) + b (D2ax u^n + D1ax psi_ax^n)
//     u^(n+1)    = 2u^n - u^(n-1) + c * B^n,      B^n = sum_ax (D2ax u^n + D1ax psi_ax^n + zeta_ax^n) + S f^n
// S spreads the source onto cells (Hicks weights); receivers record d^n_r = sum_i R_ri u^n_i at the START of
// step n. BOUNDARIES: a, b from pml_profile.hpp (a = 1, b = 0 outside the layers, so psi/zeta stay exactly 0
// there); a halo of R zero cells around the padded grid is never written by the kernels, which makes D2^T =
// D2 and D1^T = -D1 hold exactly. A FREE SURFACE on top is the propagator's, after each step: the top layer
// does not absorb and the planes above the surface mirror those below (free_surface.hpp; the kernels are the
// same, and D2z with the mirror is still symmetric on the state). PASSES per forward step: (1) psi_z on the
// z-layer rows; (2) per row: psi_x in the row's x layers (row-local, so it needs no pass of its own), the
// interior update, then the PML terms on the cells whose stencil touches a layer (the layer plus R cells) for
// x and z, then the Born secondary; (3) source injection (by the caller). Every loop is branch-free
// (snapshot, secondary: template arguments; layer and fringe rows: separate loops), so all of them vectorise
// without AVX-512's masked stores; the x-layer pieces of the next row are prefetched (a piece is one or two
// cache lines a row apart, which the hardware prefetchers do not follow); a row's interior loop runs a short
// head, then its main part from the first cell where u_next starts a cache line (cache_line_split: no vector
// of it straddles two lines); that loop is interior_cells.hpp's (AVX2 intrinsics where the compiler targets
// them, the same bits as its portable loop). The row pieces are shared with the 3D twin (cpu_row_terms.hpp).
//
// ADJOINT (the exact transpose of the step above, derived by reversing its three assignments). With mu := c *
// lambda_u, r_ax := lambda_psi_ax, s_ax := lambda_zeta_ax, mu = mu^(n+1), mu_prev = mu^(n+2), the adjoint of
// step n is:
//     s_ax  <- a (mu + s_ax)                        t_ax := (b/a) s_ax   (= b * lambda_zeta')
//     r_ax  <- a (r_ax - D1ax(mu + t_ax))           w_ax := (b/a) r_ax   (= b * lambda_psi')
//     mu^n   = 2 mu - mu_prev + c [ (D2x + D2z) mu + sum_ax (D2ax t_ax - D1ax w_ax) ]
//     mu^n  += c R^T residual^n
// PASSES: (A) s_z on the z-layer rows; (B) r_z (it reads s_z of neighbouring rows); (C) per row: s_x then
// r_x in the row's x layers (row-local), the gradient term, the interior update, then the PML terms for x
// and z. GRADIENT: u^(n+1) depends on c only through c * B^n, so  dJ/dc = sum_n lambda_u^(n+1) B^n = sum_n
// mu^(n+1) B^n / c. B^n is the "gradient snapshot" the forward writes on request (no cancellation, unlike
// u^(n+1) - 2u^n + u^(n-1)). BORN: the scattered field obeys the same step with the extra term dc * B^n added
// to u^(n+1) ("secondary" below).
//
// INVARIANTS: every cell is computed by the same arithmetic whatever the thread count or schedule (no
// reductions), so a state restored from a copy continues bit for bit, and every checkpoint schedule gives the
// same gradient bit for bit.
#include "propagator/cpu_row_terms.hpp"
#include "propagator/denormals.hpp"
#include "propagator/interior_cells.hpp"
#include "propagator/pml_profile.hpp"
#include "propagator/stencils.hpp"
#include "propagator/stream_store.hpp"

#include <algorithm>
#include <cstdint>

namespace fwi::cpu {

struct KernelGrid {
    std::int64_t nz = 0, nx = 0; ///< padded
    std::int64_t z0 = 0, z1 = 0; ///< computed rows [z0, z1) (everything but the halo)
    std::int64_t x0 = 0, x1 = 0; ///< computed columns [x0, x1)
    float inv_dx = 0, inv_dz = 0, inv_dx2 = 0, inv_dz2 = 0;
    const float* c = nullptr;     ///< v^2 dt^2
    const float* inv_c = nullptr; ///< 1 / c (not read by these kernels: they divide, see adjoint_row)
    const PmlProfile* pml_x = nullptr;
    const PmlProfile* pml_z = nullptr;
};

struct ForwardFields {
    const float* u = nullptr; ///< u^n
    float* u_next = nullptr;  ///< holds u^(n-1) on entry, u^(n+1) on exit
    float* psi_x = nullptr;
    float* psi_z = nullptr;
    float* zeta_x = nullptr;
    float* zeta_z = nullptr;
    float* snapshot = nullptr;        ///< optional: receives B^n (the source term is added by the caller)
    const float* secondary = nullptr; ///< optional: added to u^(n+1) (Born)
    /// Stream the snapshot past the caches (stream_store.hpp): it is kept for the adjoint sweep, not read
    /// soon. Needs the snapshot congruent to u_next modulo a cache line.
    bool stream_snapshot = false;
};

struct AdjointFields {
    const float* mu = nullptr; ///< mu^(n+1)
    float* mu_next = nullptr;  ///< holds mu^(n+2) on entry, mu^n on exit
    float* r_x = nullptr;
    float* r_z = nullptr;
    float* s_x = nullptr;
    float* s_z = nullptr;
    float* grad_c = nullptr;         ///< dJ/dc accumulator (padded)
    const float* snapshot = nullptr; ///< optional B^n
    float weight = 1;                ///< gradient sampling weight
};

/// The interior update of cells [b, e) of a row: u_next, and with Snap B^n of cell i into out[i - b] (the
/// snapshot, or forward_cells_streamed's buffer; PML terms are added to the snapshot after).
template <int R, bool Snap>
[[gnu::always_inline]] inline void interior_cells(const KernelGrid& g, const ForwardFields& f, Index b,
                                                  Index e, float* __restrict out) {
    interior::forward_cells<R, Snap>(f.u, f.u_next, g.c, out, b, e, g.nx, g.inv_dx2, g.inv_dz2);
}

/// The interior update of cells [b, e) of a row: u_next, and B^n into the snapshot (PML terms added after).
template <int R, bool Snap>
[[gnu::always_inline]] inline void forward_cells(const KernelGrid& g, const ForwardFields& f, Index b,
                                                 Index e) {
    if constexpr (Snap)
        interior_cells<R, true>(g, f, b, e, f.snapshot + b);
    else
        interior_cells<R, false>(g, f, b, e, nullptr);
}

/// forward_cells<R, true> for a row whose snapshot is streamed: the cells the x PML terms add to afterwards
/// ([i0, m0) and [m1, i1), the x layers' reach) with ordinary stores, the rest in chunks whose B^n goes to an
/// L1 buffer first and is streamed from there, from the snapshot's first cache line on.
template <int R>
[[gnu::always_inline]] inline void forward_cells_streamed(const KernelGrid& g, const ForwardFields& f,
                                                          Index i0, Index m0, Index m1, Index i1) {
    constexpr Index chunk = 512;
    const Index ms = cache_line_split(f.snapshot, m0, m1);
    forward_cells<R, true>(g, f, i0, ms);
    alignas(64) float lap[chunk];
    for (Index j0 = ms; j0 < m1; j0 += chunk) {
        const Index j1 = std::min(j0 + chunk, m1);
        interior_cells<R, true>(g, f, j0, j1, lap);
        stream_copy(f.snapshot + j0, lap, j1 - j0);
    }
    forward_cells<R, true>(g, f, m1, i1);
}

/// Pass (2) on row iz: psi_x, interior update, PML terms, Born secondary.
template <int R, bool Snap, bool Sec>
[[gnu::flatten]] inline void forward_row(const KernelGrid& g, const ForwardFields& f, const Zones& zx,
                                         const Zones& zz, std::int64_t iz) {
    using namespace stencil;
    const Index nx = g.nx, row = iz * nx;
    const Index i0 = row + g.x0, i1 = row + g.x1;
    const PmlProfile& px = *g.pml_x;
    const float* __restrict u = f.u;
    float* __restrict un = f.u_next;
    float* __restrict snap = f.snapshot;
    const float* __restrict c = g.c;
    const float idx = g.inv_dx, idx2 = g.inv_dx2;
    if (iz + 1 < g.z1) prefetch_x_layers(zx, row + nx, f.psi_x, f.zeta_x);
    psi_x_layers<R>(f.psi_x, u, zx, px, row, idx);
    const bool z_terms = zz.in_layer(iz) || zz.in_fringe(iz);
    bool streamed = false;
    if constexpr (Snap) {
        if (f.stream_snapshot && !z_terms) { // not in z-layer rows: their B^n is added to below
            forward_cells_streamed<R>(g, f, i0, row + zx.reach[0].second, row + zx.reach[1].first, i1);
            streamed = true;
        }
    }
    if (!streamed) {
        const Index ia = cache_line_split(un, i0, i1);
        forward_cells<R, Snap>(g, f, i0, ia);
        forward_cells<R, Snap>(g, f, ia, i1);
    }
    x_pml_terms<R, Snap>(u, un, snap, c, f.psi_x, f.zeta_x, zx, px, row, idx, idx2);
    // z layers and fringes: whole rows.
    if (z_terms)
        pml_row_terms<R, Snap>(u, un, snap, c, f.psi_z, f.zeta_z, i0, i1, nx, zz.in_layer(iz), g.pml_z->a[iz],
                               g.pml_z->b[iz], g.inv_dz, g.inv_dz2);
    if constexpr (Sec) add_secondary(un, f.secondary, i0, i1);
}

template <int R> void forward_step(const KernelGrid& g, const ForwardFields& f) {
    const Zones zx = zones(*g.pml_x, R), zz = zones(*g.pml_z, R);
    const PmlProfile& pz = *g.pml_z;
#pragma omp parallel
    {
        flush_denormals();
        // (1) psi_z^n from u^n, in the z layers only.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
            if (zz.in_layer(iz))
                psi_row<R>(f.psi_z, f.u, iz * g.nx + g.x0, iz * g.nx + g.x1, g.nx, pz.a[iz], pz.b[iz],
                           g.inv_dz);
        // (2) per row.
        const auto rows = [&]<bool Snap, bool Sec>() {
#pragma omp for schedule(static) nowait
            for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
                forward_row<R, Snap, Sec>(g, f, zx, zz, iz);
        };
        if (f.snapshot)
            f.secondary ? rows.template operator()<true, true>() : rows.template operator()<true, false>();
        else
            f.secondary ? rows.template operator()<false, true>() : rows.template operator()<false, false>();
        if (f.stream_snapshot) stream_fence(); // before the region's closing barrier: the caller reads B^n
    }
}

/// The interior adjoint update of cells [b, e) of a row, and the gradient term when a snapshot is given
/// (Snap).
template <int R, bool Snap>
[[gnu::always_inline]] inline void adjoint_cells(const KernelGrid& g, const AdjointFields& f, Index b,
                                                 Index e) {
    interior::adjoint_cells<R, Snap>(f.mu, f.mu_next, g.c, f.snapshot, f.grad_c, f.weight, b, e, g.nx,
                                     g.inv_dx2, g.inv_dz2);
}

/// Pass (C) on row iz: s_x and r_x, gradient (Snap: a snapshot is given), interior adjoint update, PML terms.
template <int R, bool Snap>
[[gnu::flatten]] inline void adjoint_row(const KernelGrid& g, const AdjointFields& f, const Zones& zx,
                                         const Zones& zz, std::int64_t iz) {
    using namespace stencil;
    const Index nx = g.nx, row = iz * nx;
    const Index i0 = row + g.x0, i1 = row + g.x1;
    const float* __restrict mu = f.mu;
    float* __restrict mn = f.mu_next;
    const float* __restrict c = g.c;
    const PmlProfile& px = *g.pml_x;
    if (iz + 1 < g.z1) prefetch_x_layers(zx, row + nx, f.s_x, f.r_x);
    s_r_x_layers<R>(f.s_x, f.r_x, mu, zx, px, row, g.inv_dx);
    const Index ia = cache_line_split(mn, i0, i1);
    adjoint_cells<R, Snap>(g, f, i0, ia);
    adjoint_cells<R, Snap>(g, f, ia, i1);
    adjoint_x_terms<R>(mn, c, f.s_x, f.r_x, zx, px, row, g.inv_dx, g.inv_dx2);
    if (zz.in_layer(iz) || zz.in_fringe(iz))
        adjoint_pml_row_terms<R>(mn, c, f.s_z, f.r_z, g.pml_z->b_over_a.data(), iz, i0, i1, nx, g.inv_dz,
                                 g.inv_dz2);
}

template <int R> void adjoint_step(const KernelGrid& g, const AdjointFields& f) {
    const PmlProfile& pz = *g.pml_z;
    const Zones zx = zones(*g.pml_x, R), zz = zones(pz, R);
    const Index nx = g.nx;
#pragma omp parallel
    {
        flush_denormals();
        // (A) s_z <- a (mu + s_z) in the z layers (s_x and r_x: in pass (C), row-local).
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
            if (zz.in_layer(iz)) s_row(f.s_z, f.mu, iz * nx + g.x0, iz * nx + g.x1, pz.a[iz]);
                // (B) r_z <- a (r_z - D1z(mu + t_z)), t = (b/a) s (reads s_z of neighbouring rows).
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
            if (zz.in_layer(iz))
                r_row<R>(f.r_z, f.mu, f.s_z, pz.b_over_a.data(), iz, iz * nx + g.x0, iz * nx + g.x1, nx,
                         pz.a[iz], g.inv_dz);
        // (C) mu^n = 2 mu - mu_prev + c [lap mu + sum (D2 t - D1 w)],  w = (b/a) r; gradient on the way.
        if (f.snapshot) {
#pragma omp for schedule(static) nowait
            for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
                adjoint_row<R, true>(g, f, zx, zz, iz);
        } else {
#pragma omp for schedule(static) nowait
            for (std::int64_t iz = g.z0; iz < g.z1; ++iz)
                adjoint_row<R, false>(g, f, zx, zz, iz);
        }
    }
}

} // namespace fwi::cpu
