#pragma once
// Central finite-difference stencils (standard Taylor coefficients), radius R = order / 2, along a stride
// `st` (1 for x, nx for z). Written as value-returning inline functions with `if constexpr` terms: inside
// `omp simd` loops this vectorises fully (a reference-capturing loop body did not, and ran ~2x slower).
//   D2 u_i = c2[0] u_i + sum_k c2[k] (u_{i+k} + u_{i-k})   (times 1/h^2)  -- symmetric:      D2^T = D2
//   D1 u_i = sum_k c1[k] (u_{i+k} - u_{i-k})               (times 1/h)    -- antisymmetric:  D1^T = -D1
// (transposes on arrays extended by zeros, which is what the zero halo provides).
#include <array>
#include <cstdint>

namespace fwi::stencil {

template <int R> struct Coefficients;

template <> struct Coefficients<1> {
    static constexpr std::array<float, 2> d2{-2.0f, 1.0f};
    static constexpr std::array<float, 2> d1{0.0f, 0.5f};
};
template <> struct Coefficients<2> {
    static constexpr std::array<float, 3> d2{-5.0f / 2, 4.0f / 3, -1.0f / 12};
    static constexpr std::array<float, 3> d1{0.0f, 2.0f / 3, -1.0f / 12};
};
template <> struct Coefficients<3> {
    static constexpr std::array<float, 4> d2{-49.0f / 18, 3.0f / 2, -3.0f / 20, 1.0f / 90};
    static constexpr std::array<float, 4> d1{0.0f, 3.0f / 4, -3.0f / 20, 1.0f / 60};
};
template <> struct Coefficients<4> {
    static constexpr std::array<float, 5> d2{-205.0f / 72, 8.0f / 5, -1.0f / 5, 8.0f / 315, -1.0f / 560};
    static constexpr std::array<float, 5> d1{0.0f, 4.0f / 5, -1.0f / 5, 4.0f / 105, -1.0f / 280};
};

using Index = std::int64_t;

/// D2 along stride st, unscaled.
template <int R> inline float d2(const float* p, Index i, Index st) {
    using C = Coefficients<R>;
    float s = C::d2[0] * p[i] + C::d2[1] * (p[i + st] + p[i - st]);
    if constexpr (R >= 2) s += C::d2[2] * (p[i + 2 * st] + p[i - 2 * st]);
    if constexpr (R >= 3) s += C::d2[3] * (p[i + 3 * st] + p[i - 3 * st]);
    if constexpr (R >= 4) s += C::d2[4] * (p[i + 4 * st] + p[i - 4 * st]);
    return s;
}

/// D1 along stride st, unscaled.
template <int R> inline float d1(const float* p, Index i, Index st) {
    using C = Coefficients<R>;
    float s = C::d1[1] * (p[i + st] - p[i - st]);
    if constexpr (R >= 2) s += C::d1[2] * (p[i + 2 * st] - p[i - 2 * st]);
    if constexpr (R >= 3) s += C::d1[3] * (p[i + 3 * st] - p[i - 3 * st]);
    if constexpr (R >= 4) s += C::d1[4] * (p[i + 4 * st] - p[i - 4 * st]);
    return s;
}

/// The 2D Laplacian (scaled): (D2x / dx^2 + D2z / dz^2) p at i, rows nx apart.
template <int R> inline float laplacian(const float* p, Index i, Index nx, float inv_dx2, float inv_dz2) {
    using C = Coefficients<R>;
    float s = C::d2[0] * (inv_dx2 + inv_dz2) * p[i];
    s += C::d2[1] * ((p[i + 1] + p[i - 1]) * inv_dx2 + (p[i + nx] + p[i - nx]) * inv_dz2);
    if constexpr (R >= 2)
        s += C::d2[2] * ((p[i + 2] + p[i - 2]) * inv_dx2 + (p[i + 2 * nx] + p[i - 2 * nx]) * inv_dz2);
    if constexpr (R >= 3)
        s += C::d2[3] * ((p[i + 3] + p[i - 3]) * inv_dx2 + (p[i + 3 * nx] + p[i - 3 * nx]) * inv_dz2);
    if constexpr (R >= 4)
        s += C::d2[4] * ((p[i + 4] + p[i - 4]) * inv_dx2 + (p[i + 4 * nx] + p[i - 4 * nx]) * inv_dz2);
    return s;
}

/// D2 of the product w * p, where w is indexed along the axis (w[j +- k]) and p along stride st (p[i +- k
/// st]).
template <int R> inline float d2_weighted(const float* w, Index j, const float* p, Index i, Index st) {
    using C = Coefficients<R>;
    float s = C::d2[0] * w[j] * p[i] + C::d2[1] * (w[j + 1] * p[i + st] + w[j - 1] * p[i - st]);
    if constexpr (R >= 2) s += C::d2[2] * (w[j + 2] * p[i + 2 * st] + w[j - 2] * p[i - 2 * st]);
    if constexpr (R >= 3) s += C::d2[3] * (w[j + 3] * p[i + 3 * st] + w[j - 3] * p[i - 3 * st]);
    if constexpr (R >= 4) s += C::d2[4] * (w[j + 4] * p[i + 4 * st] + w[j - 4] * p[i - 4 * st]);
    return s;
}

/// D1 of the product w * p (indexing as d2_weighted).
template <int R> inline float d1_weighted(const float* w, Index j, const float* p, Index i, Index st) {
    using C = Coefficients<R>;
    float s = C::d1[1] * (w[j + 1] * p[i + st] - w[j - 1] * p[i - st]);
    if constexpr (R >= 2) s += C::d1[2] * (w[j + 2] * p[i + 2 * st] - w[j - 2] * p[i - 2 * st]);
    if constexpr (R >= 3) s += C::d1[3] * (w[j + 3] * p[i + 3 * st] - w[j - 3] * p[i - 3 * st]);
    if constexpr (R >= 4) s += C::d1[4] * (w[j + 4] * p[i + 4 * st] - w[j - 4] * p[i - 4 * st]);
    return s;
}

} // namespace fwi::stencil
