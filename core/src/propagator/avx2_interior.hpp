#pragma once
// The 2D interior updates of cpu_kernels.hpp written with AVX2 + FMA intrinsics, for the hot loop of both
// sweeps (forward: u_next = 2u - u_next + c lap u, optionally B^n = lap u; adjoint: the same on mu, with the
// gradient term). WHY: GCC 12 vectorises the portable `omp simd` loop (interior_cells.hpp), but gives each
// of the order-8 star's 17 addresses its own pointer register, runs out of the 16 and reloads pointers and
// spilled vectors from the stack every iteration (about 50 instructions per 8 cells); here every load is one
// base register plus a constant or the row stride (37 instructions, no stack; one thread, order 8, 1000^2:
// 1.1x the step).
// INVARIANT: the same float operations in the same order, fused the same way, as GCC makes of the portable
// expressions under -ffp-contract=fast (its default): D2 = fma(c0, p, c1 * (p+1 + p-1)) then fma(ck, p+k +
// p-k, D2) for k = 2..R; lap = fma(D2x, 1/dx^2, D2z * 1/dz^2); u_next = fma(lap, c, fms(2, u, u_next)); grad
// = fma(w, (mu * B) * (1 / c), grad). So a run gives the same bits with and without this file
// (tst_interior_cells compares the two cell by cell). GCC contracts intrinsic products and sums as well, so
// no product here is added with _mm256_add_ps: each fusion is written out. The last partial vector of a row
// goes through the same code with masked loads and stores, so every cell has the same arithmetic wherever
// a row's vectors start.
#include "propagator/stencils.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#define FWI_AVX2_INTERIOR 1
#include <immintrin.h>

namespace fwi::cpu::avx2 {

using stencil::Index;

/// Lanes [0, n) of a vector's mask (n in 0..8).
inline __m256i lane_mask(Index n) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(n)), lanes);
}

/// Loads 8 floats at p, all of them (Full) or the lanes of `mask` (the others 0, never read).
template <bool Full> inline __m256 load(const float* p, __m256i mask) {
    if constexpr (Full)
        return _mm256_loadu_ps(p);
    else
        return _mm256_maskload_ps(p, mask);
}

template <bool Full> inline void store(float* p, __m256 v, __m256i mask) {
    if constexpr (Full)
        _mm256_storeu_ps(p, v);
    else
        _mm256_maskstore_ps(p, mask, v);
}

/// D2 along stride st at the 8 cells from q, unscaled (stencil::d2), given the centre values.
template <int R, bool Full> inline __m256 d2(const float* q, Index st, __m256 centre, __m256i mask) {
    using C = stencil::Coefficients<R>;
    const auto pair = [&](int k) {
        return _mm256_add_ps(load<Full>(q + k * st, mask), load<Full>(q - k * st, mask));
    };
    __m256 s =
        _mm256_fmadd_ps(_mm256_set1_ps(C::d2[0]), centre, _mm256_mul_ps(_mm256_set1_ps(C::d2[1]), pair(1)));
    if constexpr (R >= 2) s = _mm256_fmadd_ps(_mm256_set1_ps(C::d2[2]), pair(2), s);
    if constexpr (R >= 3) s = _mm256_fmadd_ps(_mm256_set1_ps(C::d2[3]), pair(3), s);
    if constexpr (R >= 4) s = _mm256_fmadd_ps(_mm256_set1_ps(C::d2[4]), pair(4), s);
    return s;
}

/// The 8 cells from index i of a row: u_next and (Snap) out[i - b] = lap u.
template <int R, bool Snap, bool Full>
[[gnu::always_inline]] inline void forward_vector(const float* u, float* un, const float* c, float* out,
                                                  Index i, Index b, Index nx, __m256 idx2, __m256 idz2,
                                                  __m256i mask) {
    const __m256 centre = load<Full>(u + i, mask);
    const __m256 lap = _mm256_fmadd_ps(d2<R, Full>(u + i, 1, centre, mask), idx2,
                                       _mm256_mul_ps(d2<R, Full>(u + i, nx, centre, mask), idz2));
    const __m256 old = _mm256_fmsub_ps(_mm256_set1_ps(2.0f), centre, load<Full>(un + i, mask));
    store<Full>(un + i, _mm256_fmadd_ps(lap, load<Full>(c + i, mask), old), mask);
    if constexpr (Snap) store<Full>(out + (i - b), lap, mask);
}

/// cpu_kernels.hpp's interior_cells: cells [b, e) of a row.
template <int R, bool Snap>
inline void forward_cells(const float* __restrict u, float* __restrict un, const float* __restrict c,
                          float* __restrict out, Index b, Index e, Index nx, float inv_dx2, float inv_dz2) {
    const __m256 idx2 = _mm256_set1_ps(inv_dx2), idz2 = _mm256_set1_ps(inv_dz2);
    const __m256i all = _mm256_set1_epi32(-1);
    Index i = b;
    for (; i + 8 <= e; i += 8)
        forward_vector<R, Snap, true>(u, un, c, out, i, b, nx, idx2, idz2, all);
    if (i < e) forward_vector<R, Snap, false>(u, un, c, out, i, b, nx, idx2, idz2, lane_mask(e - i));
}

/// The 8 cells from index i of a row of the adjoint: mu_next, and (Snap) the gradient term.
template <int R, bool Snap, bool Full>
[[gnu::always_inline]] inline void adjoint_vector(const float* mu, float* mn, const float* c,
                                                  const float* snap, float* gr, Index i, Index nx,
                                                  __m256 idx2, __m256 idz2, __m256 w, __m256i mask) {
    const __m256 centre = load<Full>(mu + i, mask);
    const __m256 ci = load<Full>(c + i, mask);
    if constexpr (Snap) {
        // 1 / c of a masked-out lane is 1 / 0: inf, never stored.
        const __m256 term = _mm256_mul_ps(_mm256_mul_ps(centre, load<Full>(snap + i, mask)),
                                          _mm256_div_ps(_mm256_set1_ps(1.0f), ci));
        store<Full>(gr + i, _mm256_fmadd_ps(w, term, load<Full>(gr + i, mask)), mask);
    }
    const __m256 lap = _mm256_fmadd_ps(d2<R, Full>(mu + i, 1, centre, mask), idx2,
                                       _mm256_mul_ps(d2<R, Full>(mu + i, nx, centre, mask), idz2));
    const __m256 old = _mm256_fmsub_ps(_mm256_set1_ps(2.0f), centre, load<Full>(mn + i, mask));
    store<Full>(mn + i, _mm256_fmadd_ps(lap, ci, old), mask);
}

/// cpu_kernels.hpp's adjoint_cells: cells [b, e) of a row.
template <int R, bool Snap>
inline void adjoint_cells(const float* __restrict mu, float* __restrict mn, const float* __restrict c,
                          const float* __restrict snap, float* __restrict gr, float weight, Index b, Index e,
                          Index nx, float inv_dx2, float inv_dz2) {
    const __m256 idx2 = _mm256_set1_ps(inv_dx2), idz2 = _mm256_set1_ps(inv_dz2), w = _mm256_set1_ps(weight);
    const __m256i all = _mm256_set1_epi32(-1);
    Index i = b;
    for (; i + 8 <= e; i += 8)
        adjoint_vector<R, Snap, true>(mu, mn, c, snap, gr, i, nx, idx2, idz2, w, all);
    if (i < e) adjoint_vector<R, Snap, false>(mu, mn, c, snap, gr, i, nx, idx2, idz2, w, lane_mask(e - i));
}

} // namespace fwi::cpu::avx2

#endif
