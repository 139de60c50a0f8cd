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
// there); a halo of R zero cells around the padded grid is never written, which makes D2^T = D2 and D1^T =
// -D1 hold exactly. PASSES per forward step: (1) psi in the layers; (2) per row: interior update, then the
// PML terms on the cells whose stencil touches a layer (the layer plus R cells); (3) source injection.
//
// ADJOINT (the exact transpose of the step above, derived by reversing its three assignments). With mu := c *
// lambda_u, r_ax := lambda_psi_ax, s_ax := lambda_zeta_ax, mu = mu^(n+1), mu_prev = mu^(n+2), the adjoint of
// step n is:
//     s_ax  <- a (mu + s_ax)                        t_ax := (b/a) s_ax   (= b * lambda_zeta')
//     r_ax  <- a (r_ax - D1ax(mu + t_ax))           w_ax := (b/a) r_ax   (= b * lambda_psi')
//     mu^n   = 2 mu - mu_prev + c [ (D2x + D2z) mu + sum_ax (D2ax t_ax - D1ax w_ax) ]
//     mu^n  += c R^T residual^n
// GRADIENT: u^(n+1) depends on c only through c * B^n, so  dJ/dc = sum_n lambda_u^(n+1) B^n = sum_n mu^(n+1)
// B^n / c. B^n is the "gradient snapshot" the forward writes on request (no cancellation, unlike u^(n+1) -
// 2u^n + u^(n-1)). BORN: the scattered field obeys the same step with the extra term dc * B^n added to
// u^(n+1) ("secondary" below).
//
// INVARIANTS: every cell is computed by the same arithmetic whatever the thread count or schedule (no
// reductions), so a state restored from a copy continues bit for bit, and every checkpoint schedule gives the
// same gradient bit for bit.
#include "propagator/denormals.hpp"
#include "propagator/pml_profile.hpp"
#include "propagator/stencils.hpp"

#include <cstdint>
#include <utility>

namespace fwi::cpu {

struct KernelGrid {
    std::int64_t nz = 0, nx = 0; ///< padded
    std::int64_t z0 = 0, z1 = 0; ///< computed rows [z0, z1) (everything but the halo)
    std::int64_t x0 = 0, x1 = 0; ///< computed columns [x0, x1)
    float inv_dx = 0, inv_dz = 0, inv_dx2 = 0, inv_dz2 = 0;
    const float* c = nullptr;     ///< v^2 dt^2
    const float* inv_c = nullptr; ///< 1 / c
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

/// Index ranges along one axis: the two layers, and the R cells inside each layer that a stencil reaches from
/// it
/// ("fringes": no memory variables there, but D1 psi is not zero). Needs n_model >= 2R (checked by the
/// propagator).
struct Zones {
    std::pair<std::int64_t, std::int64_t> layers[2];
    std::pair<std::int64_t, std::int64_t> fringes[2];
    std::pair<std::int64_t, std::int64_t> reach[2]; ///< layer + fringe
    bool in_layer(std::int64_t i) const {
        return (i >= layers[0].first && i < layers[0].second) ||
               (i >= layers[1].first && i < layers[1].second);
    }
    bool in_fringe(std::int64_t i) const {
        return (i >= fringes[0].first && i < fringes[0].second) ||
               (i >= fringes[1].first && i < fringes[1].second);
    }
};

inline Zones zones(const PmlProfile& p, int r) {
    Zones z;
    z.layers[0] = {p.lo_begin, p.lo_end};
    z.layers[1] = {p.hi_begin, p.hi_end};
    z.fringes[0] = {p.lo_end, p.lo_end + r};
    z.fringes[1] = {p.hi_begin - r, p.hi_begin};
    z.reach[0] = {p.lo_begin, p.lo_end + r};
    z.reach[1] = {p.hi_begin - r, p.hi_end};
    return z;
}

template <int R> void forward_step(const KernelGrid& g, const ForwardFields& f) {
    using namespace stencil;
    const std::int64_t nx = g.nx;
    const PmlProfile& px = *g.pml_x;
    const PmlProfile& pz = *g.pml_z;
    const Zones zx = zones(px, R), zz = zones(pz, R);
    const float* __restrict u = f.u;
    const float idx = g.inv_dx, idz = g.inv_dz, idx2 = g.inv_dx2, idz2 = g.inv_dz2;
#pragma omp parallel
    {
        flush_denormals();
        // (1) psi^n from u^n, in the layers only.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            float* __restrict psx = f.psi_x;
            for (auto [b0, b1] : zx.layers) {
#pragma omp simd
                for (std::int64_t ix = b0; ix < b1; ++ix)
                    psx[row + ix] = px.a[ix] * psx[row + ix] + px.b[ix] * (d1<R>(u, row + ix, 1) * idx);
            }
            if (zz.in_layer(iz)) {
                const float a = pz.a[iz], b = pz.b[iz];
                float* __restrict psz = f.psi_z;
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix)
                    psz[row + ix] = a * psz[row + ix] + b * (d1<R>(u, row + ix, nx) * idz);
            }
        }
        // (2) per row: interior update, then the PML terms.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            float* __restrict un = f.u_next;
            float* __restrict snap = f.snapshot;
            const float* __restrict c = g.c;
            if (snap) {
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i) {
                    const float lap = laplacian<R>(u, i, nx, idx2, idz2);
                    un[i] = 2.0f * u[i] - un[i] + c[i] * lap;
                    snap[i] = lap;
                }
            } else {
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i)
                    un[i] = 2.0f * u[i] - un[i] + c[i] * laplacian<R>(u, i, nx, idx2, idz2);
            }
            // x layers: D1x psi_x + zeta_x; fringes: D1x psi_x only.
            float* __restrict zex = f.zeta_x;
            const float* __restrict psx = f.psi_x;
            for (auto [b0, b1] : zx.layers) {
#pragma omp simd
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    float term = d1<R>(psx, i, 1) * idx;
                    zex[i] = px.a[ix] * zex[i] + px.b[ix] * (d2<R>(u, i, 1) * idx2 + term);
                    term += zex[i];
                    un[i] += c[i] * term;
                    if (snap) snap[i] += term;
                }
            }
            for (auto [b0, b1] : zx.fringes) {
#pragma omp simd
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    const float term = d1<R>(psx, i, 1) * idx;
                    un[i] += c[i] * term;
                    if (snap) snap[i] += term;
                }
            }
            // z layers and fringes: whole rows.
            const bool layer = zz.in_layer(iz);
            if (layer || zz.in_fringe(iz)) {
                const float a = pz.a[iz], b = pz.b[iz];
                float* __restrict zez = f.zeta_z;
                const float* __restrict psz = f.psi_z;
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i) {
                    float term = d1<R>(psz, i, nx) * idz;
                    if (layer) {
                        zez[i] = a * zez[i] + b * (d2<R>(u, i, nx) * idz2 + term);
                        term += zez[i];
                    }
                    un[i] += c[i] * term;
                    if (snap) snap[i] += term;
                }
            }
            if (f.secondary) {
                const float* __restrict sec = f.secondary;
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i)
                    un[i] += sec[i];
            }
        }
    }
}

template <int R> void adjoint_step(const KernelGrid& g, const AdjointFields& f) {
    using namespace stencil;
    const std::int64_t nx = g.nx;
    const PmlProfile& px = *g.pml_x;
    const PmlProfile& pz = *g.pml_z;
    const Zones zx = zones(px, R), zz = zones(pz, R);
    const float* __restrict mu = f.mu;
    const float idx = g.inv_dx, idz = g.inv_dz, idx2 = g.inv_dx2, idz2 = g.inv_dz2;
    const float* bax = px.b_over_a.data();
    const float* baz = pz.b_over_a.data();
#pragma omp parallel
    {
        flush_denormals();
        // Gradient with mu^(n+1), and s <- a (mu + s) in the layers.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            if (f.snapshot) {
                const float* __restrict snap = f.snapshot;
                const float* __restrict ic = g.inv_c;
                float* __restrict gr = f.grad_c;
                const float w = f.weight;
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i)
                    gr[i] += w * (mu[i] * snap[i] * ic[i]);
            }
            float* __restrict sx = f.s_x;
            for (auto [b0, b1] : zx.layers) {
#pragma omp simd
                for (std::int64_t ix = b0; ix < b1; ++ix)
                    sx[row + ix] = px.a[ix] * (mu[row + ix] + sx[row + ix]);
            }
            if (zz.in_layer(iz)) {
                const float a = pz.a[iz];
                float* __restrict sz = f.s_z;
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i)
                    sz[i] = a * (mu[i] + sz[i]);
            }
        }
        // r <- a (r - D1(mu + t)),  t = (b/a) s.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            float* __restrict rx = f.r_x;
            for (auto [b0, b1] : zx.layers) {
#pragma omp simd
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    rx[i] =
                        px.a[ix] * (rx[i] - (d1<R>(mu, i, 1) + d1_weighted<R>(bax, ix, f.s_x, i, 1)) * idx);
                }
            }
            if (zz.in_layer(iz)) {
                const float a = pz.a[iz];
                float* __restrict rz = f.r_z;
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i)
                    rz[i] = a * (rz[i] - (d1<R>(mu, i, nx) + d1_weighted<R>(baz, iz, f.s_z, i, nx)) * idz);
            }
        }
        // mu^n = 2 mu - mu_prev + c [lap mu + sum (D2 t - D1 w)],  w = (b/a) r.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            float* __restrict mn = f.mu_next;
            const float* __restrict c = g.c;
#pragma omp simd
            for (std::int64_t i = row + g.x0; i < row + g.x1; ++i)
                mn[i] = 2.0f * mu[i] - mn[i] + c[i] * laplacian<R>(mu, i, nx, idx2, idz2);
            for (auto [b0, b1] : zx.reach) {
#pragma omp simd
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    mn[i] += c[i] * (d2_weighted<R>(bax, ix, f.s_x, i, 1) * idx2 -
                                     d1_weighted<R>(bax, ix, f.r_x, i, 1) * idx);
                }
            }
            if (zz.in_layer(iz) || zz.in_fringe(iz)) {
#pragma omp simd
                for (std::int64_t i = row + g.x0; i < row + g.x1; ++i)
                    mn[i] += c[i] * (d2_weighted<R>(baz, iz, f.s_z, i, nx) * idz2 -
                                     d1_weighted<R>(baz, iz, f.r_z, i, nx) * idz);
            }
        }
    }
}

} // namespace fwi::cpu
