#pragma once
// Row pieces shared by the 2D and 3D CPU kernels (cpu_kernels.hpp, cpu_kernels_3d.hpp): the PML zones of an
// axis, and the whole-row updates along a slow axis (z in 2D; y and z in 3D) at a given stride. The
// equations, the adjoint's derivation and the invariants are at the top of those two files; each function
// here computes one of their assignments for the cells [i0, i1) of one row, in the same float operations
// and order as written there, so that both kernels (and every thread count) give the same bits.
#include "propagator/pml_profile.hpp"
#include "propagator/stencils.hpp"
#include "runtime/cache_line.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace fwi::cpu {

using stencil::Index;

/// Index ranges along one axis: the two layers, and the R cells inside each layer that a stencil reaches from
/// it ("fringes": no memory variables there, but D1 psi is not zero). Needs n_model >= 2R (checked by the
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

/// Prefetches (for writing) the x-layer parts of a row of the given arrays. An x layer is a short piece of
/// each row (pml cells), one row length apart from the next row's: the hardware prefetchers do not follow
/// that, and each piece was a cache miss waited for (in 3D, perf put as much time on the two x-layer loops as
/// on the interior update of the whole row). Called for the next row while this one is computed.
template <typename... Arrays> inline void prefetch_x_layers(const Zones& zx, Index row, Arrays*... arrays) {
    for (auto [b0, b1] : zx.reach)
        for (Index ix = b0; ix < b1 + 15; ix += 16)
            (__builtin_prefetch(arrays + row + std::min(ix, b1 - 1), 1, 3), ...);
}

/// Where the interior loop over a row's cells [i0, i1) is split: the first i with p + i on a cache line (i1
/// if none). The loop runs as a short head up to there and a main part from there, so that the main part's
/// vectors of p and of every array congruent to it modulo a cache line (the propagator's arrays all are:
/// zeroed_allocator.hpp) start on a line: a 64-byte vector across two lines costs two loads, and a row whose
/// first computed cell sits 16 bytes into a line made every load of the row straddle (one thread, order 8,
/// 1048-float rows: 1.25x on the loop). Splitting changes no cell's arithmetic.
inline Index cache_line_split(const float* p, Index i0, Index i1) {
    constexpr std::uintptr_t line = cache_line_bytes;
    const auto offset = reinterpret_cast<std::uintptr_t>(p + i0) % line;
    const auto head = Index((line - offset) % line / sizeof(float));
    return std::min(i1, i0 + head);
}

/// Memory-variable update of one whole row along a slow axis (stride st; a, b of that axis at this
/// row/plane): p = a p + b D1 u.
template <int R>
[[gnu::flatten]] inline void psi_row(float* __restrict p, const float* __restrict u, Index i0, Index i1,
                                     Index st, float a, float b, float inv_h) {
#pragma omp simd
    for (Index i = i0; i < i1; ++i)
        p[i] = a * p[i] + b * (stencil::d1<R>(u, i, st) * inv_h);
}

/// The PML terms of one whole row along a slow axis (stride st): D1 psi (+ zeta in the layer) added to
/// u_next with weight c, and to the snapshot when there is one. Snap is a template argument and `layer`
/// picks one of two loops, so that neither loop has a branch in it: GCC does not vectorise a loop with
/// control flow ("control flow in loop"), except with AVX-512's masked stores.
template <int R, bool Snap>
[[gnu::flatten]] inline void
pml_row_terms(const float* __restrict u, float* __restrict un, float* __restrict snap,
              const float* __restrict c, const float* __restrict psi, float* __restrict zeta, Index i0,
              Index i1, Index st, bool layer, float a, float b, float inv_h, float inv_h2) {
    using namespace stencil;
    if (layer) {
#pragma omp simd
        for (Index i = i0; i < i1; ++i) {
            float term = d1<R>(psi, i, st) * inv_h;
            zeta[i] = a * zeta[i] + b * (d2<R>(u, i, st) * inv_h2 + term);
            term += zeta[i];
            un[i] += c[i] * term;
            if constexpr (Snap) snap[i] += term;
        }
    } else {
#pragma omp simd
        for (Index i = i0; i < i1; ++i) {
            const float term = d1<R>(psi, i, st) * inv_h;
            un[i] += c[i] * term;
            if constexpr (Snap) snap[i] += term;
        }
    }
}

/// s <- a (mu + s) on one whole row (a of the row's layer along a slow axis).
inline void s_row(float* __restrict s, const float* __restrict mu, Index i0, Index i1, float a) {
#pragma omp simd
    for (Index i = i0; i < i1; ++i)
        s[i] = a * (mu[i] + s[i]);
}

/// r <- a (r - D1(mu + t)) on one whole row along a slow axis (stride st; j the row's or plane's index).
template <int R>
[[gnu::flatten]] inline void r_row(float* __restrict r, const float* __restrict mu, const float* s,
                                   const float* ba, Index j, Index i0, Index i1, Index st, float a,
                                   float inv_h) {
    using namespace stencil;
#pragma omp simd
    for (Index i = i0; i < i1; ++i)
        r[i] = a * (r[i] - (d1<R>(mu, i, st) + d1_weighted<R>(ba, j, s, i, st)) * inv_h);
}

/// The adjoint's PML terms of one whole row along a slow axis (stride st, j the row's or plane's index):
/// mu_next += c (D2(t) / h^2 - D1(w) / h) with t = (b/a) s and w = (b/a) r.
template <int R>
[[gnu::flatten]] inline void adjoint_pml_row_terms(float* __restrict mn, const float* __restrict c,
                                                   const float* s, const float* r, const float* ba, Index j,
                                                   Index i0, Index i1, Index st, float inv_h, float inv_h2) {
    using namespace stencil;
#pragma omp simd
    for (Index i = i0; i < i1; ++i)
        mn[i] += c[i] * (d2_weighted<R>(ba, j, s, i, st) * inv_h2 - d1_weighted<R>(ba, j, r, i, st) * inv_h);
}

/// psi_x^n = a psi_x^(n-1) + b D1x u^n in the x layers of the row starting at `row` (D1x reads this row
/// only).
template <int R>
[[gnu::flatten]] inline void psi_x_layers(float* __restrict psx, const float* __restrict u, const Zones& zx,
                                          const PmlProfile& px, Index row, float inv_dx) {
    using namespace stencil;
    for (auto [b0, b1] : zx.layers) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix)
            psx[row + ix] = px.a[ix] * psx[row + ix] + px.b[ix] * (d1<R>(u, row + ix, 1) * inv_dx);
    }
}

/// The x PML terms of a row: in the x layers D1x psi_x + zeta_x (zeta_x updated first), in the fringes D1x
/// psi_x only; added to u_next with weight c, and to the snapshot when there is one.
template <int R, bool Snap>
[[gnu::flatten]] inline void x_pml_terms(const float* __restrict u, float* __restrict un,
                                         float* __restrict snap, const float* __restrict c,
                                         const float* __restrict psx, float* __restrict zex, const Zones& zx,
                                         const PmlProfile& px, Index row, float inv_dx, float inv_dx2) {
    using namespace stencil;
    for (auto [b0, b1] : zx.layers) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix) {
            const Index i = row + ix;
            float term = d1<R>(psx, i, 1) * inv_dx;
            zex[i] = px.a[ix] * zex[i] + px.b[ix] * (d2<R>(u, i, 1) * inv_dx2 + term);
            term += zex[i];
            un[i] += c[i] * term;
            if constexpr (Snap) snap[i] += term;
        }
    }
    for (auto [b0, b1] : zx.fringes) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix) {
            const Index i = row + ix;
            const float term = d1<R>(psx, i, 1) * inv_dx;
            un[i] += c[i] * term;
            if constexpr (Snap) snap[i] += term;
        }
    }
}

/// The adjoint's x memory variables in the x layers of a row (row-local): s_x <- a (mu + s_x), then r_x <- a
/// (r_x - D1x(mu + t_x)), t = (b/a) s.
template <int R>
[[gnu::flatten]] inline void s_r_x_layers(float* __restrict sx, float* __restrict rx,
                                          const float* __restrict mu, const Zones& zx, const PmlProfile& px,
                                          Index row, float inv_dx) {
    using namespace stencil;
    const float* bax = px.b_over_a.data();
    for (auto [b0, b1] : zx.layers) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix)
            sx[row + ix] = px.a[ix] * (mu[row + ix] + sx[row + ix]);
    }
    for (auto [b0, b1] : zx.layers) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix) {
            const Index i = row + ix;
            rx[i] = px.a[ix] * (rx[i] - (d1<R>(mu, i, 1) + d1_weighted<R>(bax, ix, sx, i, 1)) * inv_dx);
        }
    }
}

/// The adjoint's x PML terms of a row, on the cells whose stencil reaches an x layer: mu_next += c (D2x(t) /
/// dx^2 - D1x(w) / dx), t = (b/a) s_x, w = (b/a) r_x.
template <int R>
[[gnu::flatten]] inline void adjoint_x_terms(float* __restrict mn, const float* __restrict c, const float* sx,
                                             const float* rx, const Zones& zx, const PmlProfile& px,
                                             Index row, float inv_dx, float inv_dx2) {
    using namespace stencil;
    const float* bax = px.b_over_a.data();
    for (auto [b0, b1] : zx.reach) {
#pragma omp simd
        for (Index ix = b0; ix < b1; ++ix) {
            const Index i = row + ix;
            mn[i] += c[i] * (d2_weighted<R>(bax, ix, sx, i, 1) * inv_dx2 -
                             d1_weighted<R>(bax, ix, rx, i, 1) * inv_dx);
        }
    }
}

/// u_next += the Born secondary source, on cells [i0, i1).
inline void add_secondary(float* __restrict un, const float* __restrict sec, Index i0, Index i1) {
#pragma omp simd
    for (Index i = i0; i < i1; ++i)
        un[i] += sec[i];
}

} // namespace fwi::cpu
