#pragma once
// CPU reference kernels: 2D constant-density acoustic wave equation, its exact discrete adjoint, and the gradient.
//
// EQUATION (Deepwave's "scalar" convention):  d2u/dt2 = v^2 lap(u) + v^2 f,   c := v^2 dt^2 (per padded cell).
// SCHEME: leapfrog in time, order 2R in space (R = 1..4, stencils.hpp), C-PML memory variables per axis
// (Pasalic & McGarry 2010), for each axis ax in {x, z}:
//     psi_ax^n   = a psi_ax^(n-1)  + b D1ax u^n
//     zeta_ax^n  = a zeta_ax^(n-1) + b (D2ax u^n + D1ax psi_ax^n)
//     u^(n+1)    = 2u^n - u^(n-1) + c * B^n,      B^n = sum_ax (D2ax u^n + D1ax psi_ax^n + zeta_ax^n) + S f^n
// S spreads the source onto cells (Hicks weights); receivers record d^n_r = sum_i R_ri u^n_i at the START of step n.
// BOUNDARIES: a, b from pml_profile.hpp (a = 1, b = 0 outside the layers, so psi/zeta stay exactly 0 there); a halo of
// R zero cells around the padded grid is never written, which makes D2^T = D2 and D1^T = -D1 hold exactly.
// PASSES per forward step: (1) psi in the layers; (2) per row: interior update, then the PML terms on the cells whose
// stencil touches a layer (the layer plus R cells); (3) source injection.
//
// ADJOINT (the exact transpose of the step above, derived by reversing its three assignments). With mu := c * lambda_u,
// r_ax := lambda_psi_ax, s_ax := lambda_zeta_ax, mu = mu^(n+1), mu_prev = mu^(n+2), the adjoint of step n is:
//     s_ax  <- a (mu + s_ax)                        t_ax := (b/a) s_ax   (= b * lambda_zeta')
//     r_ax  <- a (r_ax - D1ax(mu + t_ax))           w_ax := (b/a) r_ax   (= b * lambda_psi')
//     mu^n   = 2 mu - mu_prev + c [ (D2x + D2z) mu + sum_ax (D2ax t_ax - D1ax w_ax) ]
//     mu^n  += c R^T residual^n
// GRADIENT: u^(n+1) depends on c only through c * B^n, so  dJ/dc = sum_n lambda_u^(n+1) B^n = sum_n mu^(n+1) B^n / c.
// B^n is the "gradient snapshot" the forward writes on request (no cancellation, unlike u^(n+1) - 2u^n + u^(n-1)).
// BORN: the scattered field obeys the same step with the extra term dc * B^n added to u^(n+1) ("secondary" below).
//
// INVARIANTS: every cell is computed by the same arithmetic whatever the thread count or schedule (no reductions), so a
// state restored from a copy continues bit for bit, and every checkpoint schedule gives the same gradient bit for bit.
#include "propagator/pml_profile.hpp"
#include "propagator/stencils.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace fwi::cpu {

/// Calls f(k) for k = 1..R with k a compile-time constant: the stencil loops vanish before vectorisation.
template <int R, class F>
inline __attribute__((always_inline)) void for_k(F&& f) {
    [&]<int... K>(std::integer_sequence<int, K...>) { (f(std::integral_constant<int, K + 1>{}), ...); }(
        std::make_integer_sequence<int, R>{});
}

struct KernelGrid {
    std::int64_t nz = 0, nx = 0;  ///< padded
    std::int64_t z0 = 0, z1 = 0;  ///< computed rows [z0, z1) (everything but the halo)
    std::int64_t x0 = 0, x1 = 0;  ///< computed columns [x0, x1)
    float inv_dx = 0, inv_dz = 0, inv_dx2 = 0, inv_dz2 = 0;
    const float* c = nullptr;     ///< v^2 dt^2
    const float* inv_c = nullptr; ///< 1 / c
    const PmlProfile* pml_x = nullptr;
    const PmlProfile* pml_z = nullptr;
};

struct ForwardFields {
    const float* u = nullptr;   ///< u^n
    float* u_next = nullptr;    ///< holds u^(n-1) on entry, u^(n+1) on exit
    float* psi_x = nullptr;
    float* psi_z = nullptr;
    float* zeta_x = nullptr;
    float* zeta_z = nullptr;
    float* snapshot = nullptr;         ///< optional: receives B^n
    const float* secondary = nullptr;  ///< optional: added to u^(n+1) (Born)
};

struct AdjointFields {
    const float* mu = nullptr;  ///< mu^(n+1)
    float* mu_next = nullptr;   ///< holds mu^(n+2) on entry, mu^n on exit
    float* r_x = nullptr;
    float* r_z = nullptr;
    float* s_x = nullptr;
    float* s_z = nullptr;
    float* grad_c = nullptr;            ///< dJ/dc accumulator (padded)
    const float* snapshot = nullptr;    ///< optional B^n
    float weight = 1;                   ///< gradient sampling weight
};

/// Column ranges [lo, hi) of cells whose x-stencil touches an x layer; when the two zones meet, the first covers all.
inline std::pair<std::int64_t, std::int64_t> influence_lo(const PmlProfile& p, std::int64_t b0, std::int64_t b1, int r) {
    return {b0, p.lo_end + r >= p.hi_begin - r ? b1 : p.lo_end + r};
}
inline std::pair<std::int64_t, std::int64_t> influence_hi(const PmlProfile& p, std::int64_t b1, int r) {
    return {p.lo_end + r >= p.hi_begin - r ? b1 : p.hi_begin - r, b1};
}
/// Rows whose z-stencil touches a z layer.
inline bool in_zone(const PmlProfile& p, std::int64_t i, int r) {
    return i < p.lo_end + r || i >= p.hi_begin - r;
}
inline bool in_layer(const PmlProfile& p, std::int64_t i) {
    return (i >= p.lo_begin && i < p.lo_end) || (i >= p.hi_begin && i < p.hi_end);
}

template <int R>
void forward_step(const KernelGrid& g, const ForwardFields& f) {
    using C = stencil::Coefficients<R>;
    const std::int64_t nx = g.nx;
    const PmlProfile& px = *g.pml_x;
    const PmlProfile& pz = *g.pml_z;
    const float* __restrict u = f.u;
#pragma omp parallel
    {
        // (1) psi^n from u^n, in the layers only.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            for (auto [b0, b1] : {std::pair{px.lo_begin, px.lo_end}, std::pair{px.hi_begin, px.hi_end}}) {
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    float d1 = 0;
                    for_k<R>([&](auto k) { d1 += C::d1[k] * (u[i + k] - u[i - k]); });
                    f.psi_x[i] = px.a[ix] * f.psi_x[i] + px.b[ix] * (d1 * g.inv_dx);
                }
            }
            if (in_layer(pz, iz)) {
                const float a = pz.a[iz], b = pz.b[iz];
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) {
                    const std::int64_t i = row + ix;
                    float d1 = 0;
                    for_k<R>([&](auto k) { d1 += C::d1[k] * (u[i + k * nx] - u[i - k * nx]); });
                    f.psi_z[i] = a * f.psi_z[i] + b * (d1 * g.inv_dz);
                }
            }
        }
        // (2) per row: interior update, then the PML terms.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            float* __restrict un = f.u_next + row;
            float* __restrict snap = f.snapshot ? f.snapshot + row : nullptr;
            const float* __restrict ur = u + row;
            const float* __restrict cr = g.c + row;
            const float c0 = C::d2[0] * (g.inv_dx2 + g.inv_dz2);
            if (snap) {
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) {
                    float lap = c0 * ur[ix];
                    for_k<R>([&](auto k) { lap += C::d2[k] * ((ur[ix + k] + ur[ix - k]) * g.inv_dx2 + (ur[ix + k * nx] + ur[ix - k * nx]) * g.inv_dz2); });
                    un[ix] = 2.0f * ur[ix] - un[ix] + cr[ix] * lap;
                    snap[ix] = lap;
                }
            } else {
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) {
                    float lap = c0 * ur[ix];
                    for_k<R>([&](auto k) { lap += C::d2[k] * ((ur[ix + k] + ur[ix - k]) * g.inv_dx2 + (ur[ix + k * nx] + ur[ix - k * nx]) * g.inv_dz2); });
                    un[ix] = 2.0f * ur[ix] - un[ix] + cr[ix] * lap;
                }
            }
            // x layers: D1x psi_x everywhere in the influence zone, zeta_x inside the layer.
            for (auto [b0, b1] : {influence_lo(px, g.x0, g.x1, R), influence_hi(px, g.x1, R)}) {
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    float d1 = 0;
                    for_k<R>([&](auto k) { d1 += C::d1[k] * (f.psi_x[i + k] - f.psi_x[i - k]); });
                    float term = d1 * g.inv_dx;
                    if (in_layer(px, ix)) {
                        float d2 = C::d2[0] * ur[ix];
                        for_k<R>([&](auto k) { d2 += C::d2[k] * (ur[ix + k] + ur[ix - k]); });
                        f.zeta_x[i] = px.a[ix] * f.zeta_x[i] + px.b[ix] * (d2 * g.inv_dx2 + term);
                        term += f.zeta_x[i];
                    }
                    un[ix] += cr[ix] * term;
                    if (snap) snap[ix] += term;
                }
            }
            // z layers: whole rows within R of a layer.
            const bool z_zone = in_zone(pz, iz, R);
            if (z_zone) {
                const bool layer = in_layer(pz, iz);
                const float a = pz.a[iz], b = pz.b[iz];
                float* __restrict zz = f.zeta_z + row;
                const float* __restrict ps = f.psi_z + row;
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) {
                    float d1 = 0;
                    for_k<R>([&](auto k) { d1 += C::d1[k] * (ps[ix + k * nx] - ps[ix - k * nx]); });
                    float term = d1 * g.inv_dz;
                    if (layer) {
                        float d2 = C::d2[0] * ur[ix];
                        for_k<R>([&](auto k) { d2 += C::d2[k] * (ur[ix + k * nx] + ur[ix - k * nx]); });
                        zz[ix] = a * zz[ix] + b * (d2 * g.inv_dz2 + term);
                        term += zz[ix];
                    }
                    un[ix] += cr[ix] * term;
                    if (snap) snap[ix] += term;
                }
            }
            if (f.secondary) {
                const float* __restrict sec = f.secondary + row;
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) un[ix] += sec[ix];
            }
        }
    }
}

template <int R>
void adjoint_step(const KernelGrid& g, const AdjointFields& f) {
    using C = stencil::Coefficients<R>;
    const std::int64_t nx = g.nx;
    const PmlProfile& px = *g.pml_x;
    const PmlProfile& pz = *g.pml_z;
    const float* __restrict mu = f.mu;
#pragma omp parallel
    {
        // Gradient with mu^(n+1), and s <- a (mu + s) in the layers.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            if (f.snapshot) {
                const float* __restrict snap = f.snapshot + row;
                const float* __restrict ic = g.inv_c + row;
                float* __restrict gr = f.grad_c + row;
                const float w = f.weight;
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) gr[ix] += w * (mu[row + ix] * snap[ix] * ic[ix]);
            }
            for (auto [b0, b1] : {std::pair{px.lo_begin, px.lo_end}, std::pair{px.hi_begin, px.hi_end}})
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    f.s_x[i] = px.a[ix] * (mu[i] + f.s_x[i]);
                }
            if (in_layer(pz, iz)) {
                const float a = pz.a[iz];
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) f.s_z[row + ix] = a * (mu[row + ix] + f.s_z[row + ix]);
            }
        }
        // r <- a (r - D1(mu + t)),  t = (b/a) s.
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            for (auto [b0, b1] : {std::pair{px.lo_begin, px.lo_end}, std::pair{px.hi_begin, px.hi_end}})
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    float d1 = 0;
                    for_k<R>([&](auto k) { d1 += C::d1[k] * ((mu[i + k] + px.b_over_a[ix + k] * f.s_x[i + k]) - (mu[i - k] + px.b_over_a[ix - k] * f.s_x[i - k])); });
                    f.r_x[i] = px.a[ix] * (f.r_x[i] - d1 * g.inv_dx);
                }
            if (in_layer(pz, iz)) {
                const float a = pz.a[iz];
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) {
                    const std::int64_t i = row + ix;
                    float d1 = 0;
                    for_k<R>([&](auto k) { d1 += C::d1[k] * ((mu[i + k * nx] + pz.b_over_a[iz + k] * f.s_z[i + k * nx]) - (mu[i - k * nx] + pz.b_over_a[iz - k] * f.s_z[i - k * nx])); });
                    f.r_z[i] = a * (f.r_z[i] - d1 * g.inv_dz);
                }
            }
        }
        // mu^n = 2 mu - mu_prev + c [lap mu + sum (D2 t - D1 w)].
#pragma omp for schedule(static)
        for (std::int64_t iz = g.z0; iz < g.z1; ++iz) {
            const std::int64_t row = iz * nx;
            float* __restrict mn = f.mu_next + row;
            const float* __restrict mr = mu + row;
            const float* __restrict cr = g.c + row;
            const float c0 = C::d2[0] * (g.inv_dx2 + g.inv_dz2);
#pragma omp simd
            for (std::int64_t ix = g.x0; ix < g.x1; ++ix) {
                float lap = c0 * mr[ix];
                for_k<R>([&](auto k) { lap += C::d2[k] * ((mr[ix + k] + mr[ix - k]) * g.inv_dx2 + (mr[ix + k * nx] + mr[ix - k * nx]) * g.inv_dz2); });
                mn[ix] = 2.0f * mr[ix] - mn[ix] + cr[ix] * lap;
            }
            for (auto [b0, b1] : {influence_lo(px, g.x0, g.x1, R), influence_hi(px, g.x1, R)})
                for (std::int64_t ix = b0; ix < b1; ++ix) {
                    const std::int64_t i = row + ix;
                    float d2 = C::d2[0] * px.b_over_a[ix] * f.s_x[i];
                    float d1 = 0;
                    for_k<R>([&](auto k) {
                        d2 += C::d2[k] * (px.b_over_a[ix + k] * f.s_x[i + k] + px.b_over_a[ix - k] * f.s_x[i - k]);
                        d1 += C::d1[k] * (px.b_over_a[ix + k] * f.r_x[i + k] - px.b_over_a[ix - k] * f.r_x[i - k]);
                    });
                    mn[ix] += cr[ix] * (d2 * g.inv_dx2 - d1 * g.inv_dx);
                }
            const bool z_zone = in_zone(pz, iz, R);
            if (z_zone) {
                float ba[2 * R + 1];
                for (int k = -R; k <= R; ++k) ba[k + R] = pz.b_over_a[iz + k];
#pragma omp simd
                for (std::int64_t ix = g.x0; ix < g.x1; ++ix) {
                    const std::int64_t i = row + ix;
                    float d2 = C::d2[0] * ba[R] * f.s_z[i];
                    float d1 = 0;
                    for_k<R>([&](auto k) {
                        d2 += C::d2[k] * (ba[R + k] * f.s_z[i + k * nx] + ba[R - k] * f.s_z[i - k * nx]);
                        d1 += C::d1[k] * (ba[R + k] * f.r_z[i + k * nx] - ba[R - k] * f.r_z[i - k * nx]);
                    });
                    mn[ix] += cr[ix] * (d2 * g.inv_dz2 - d1 * g.inv_dz);
                }
            }
        }
    }
}

} // namespace fwi::cpu
