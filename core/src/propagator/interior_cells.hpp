#pragma once
// The interior updates of the 2D kernels (cpu_kernels.hpp), the loop every cell of a row goes through:
//   forward: lap = D2x u / dx^2 + D2z u / dz^2, u_next = 2u - u_next + c lap (and lap into the snapshot)
//   adjoint: mu_next = 2 mu - mu_next + c lap mu (and grad += w mu B^n / c with a snapshot)
// written twice: `portable` (omp simd over the expressions of stencils.hpp) and `avx2` (avx2_interior.hpp:
// the same operations in intrinsics, 37 instructions per 8 cells at order 8 where GCC makes about 50 of
// the portable loop). `interior` is the one the kernels use: avx2 where the compiler targets AVX2 and FMA,
// else portable. Both give the same bits (tst_interior_cells).
#include "propagator/avx2_interior.hpp"
#include "propagator/stencils.hpp"

namespace fwi::cpu::portable {

using stencil::Index;

/// Cells [b, e) of a row: u_next, and with Snap lap u of cell i into out[i - b].
template <int R, bool Snap>
inline void forward_cells(const float* __restrict u, float* __restrict un, const float* __restrict c,
                          float* __restrict out, Index b, Index e, Index nx, float inv_dx2, float inv_dz2) {
#pragma omp simd
    for (Index i = b; i < e; ++i) {
        const float lap = stencil::laplacian<R>(u, i, nx, inv_dx2, inv_dz2);
        un[i] = 2.0f * u[i] - un[i] + c[i] * lap;
        if constexpr (Snap) out[i - b] = lap;
    }
}

/// Cells [b, e) of an adjoint row: mu_next, and with Snap the gradient term weight * mu * snap / c into gr.
template <int R, bool Snap>
inline void adjoint_cells(const float* __restrict mu, float* __restrict mn, const float* __restrict c,
                          const float* __restrict snap, float* __restrict gr, float weight, Index b, Index e,
                          Index nx, float inv_dx2, float inv_dz2) {
    if constexpr (Snap) {
        // 1 / c is divided here rather than read from a 1/c array: the same correctly rounded float
        // (set_model divides the same way), one stream of 4 bytes per cell less.
#pragma omp simd
        for (Index i = b; i < e; ++i) {
            gr[i] += weight * (mu[i] * snap[i] * (1.0f / c[i]));
            mn[i] = 2.0f * mu[i] - mn[i] + c[i] * stencil::laplacian<R>(mu, i, nx, inv_dx2, inv_dz2);
        }
    } else {
#pragma omp simd
        for (Index i = b; i < e; ++i)
            mn[i] = 2.0f * mu[i] - mn[i] + c[i] * stencil::laplacian<R>(mu, i, nx, inv_dx2, inv_dz2);
    }
}

} // namespace fwi::cpu::portable

namespace fwi::cpu {
#ifdef FWI_AVX2_INTERIOR
namespace interior = avx2;
#else
namespace interior = portable;
#endif
} // namespace fwi::cpu
