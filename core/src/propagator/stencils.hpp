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

// The second-derivative weights are the Taylor coefficients computed in double,
//   c_k = 2 (-1)^(k+1) (R!)^2 / (k^2 (R-k)! (R+k)!)  (k >= 1),   c_0 = -2 sum_k c_k,
// then rounded to float so that the float set still sums to exactly zero (c_0 + 2 sum_k c_k == 0 with no
// rounding): a non-zero sum e adds e u / h^2 to the Laplacian, a spurious term that grows as the grid is
// refined (it was 7.5e-8, -1.2e-7, -6.4e-8 for orders 4, 6, 8 with plainly rounded coefficients, enough to
// stop the order 6 and 8 errors falling below 1e-3). Each c_k (k >= 2) is moved by at most half an ulp of
// c_(k-1) (6e-8 at most) so that the tail c_k + ... + c_R lies on the ulp grid of c_(k-1); then c_1 + ... +
// c_R is a multiple of ulp(c_1) and c_0 = -2 sum is a float. The first-derivative set needs no such care:
// antisymmetry makes D1 of a constant exactly zero in float, whatever the coefficients' rounding.
namespace detail {

constexpr double factorial(int n) {
    double f = 1;
    for (int i = 2; i <= n; ++i)
        f *= i;
    return f;
}

/// The spacing of floats around |x| (x a normal float, not zero).
constexpr double float_ulp(double x) {
    x = x < 0 ? -x : x;
    double power = 1; // the largest power of two <= x
    while (power > x)
        power /= 2;
    while (power * 2 <= x)
        power *= 2;
    return power / (1 << 23);
}

/// x rounded to the nearest multiple of `grid` (a power of two), ties away from zero.
constexpr double round_to(double x, double grid) {
    const double n = x / grid; // exact: grid is a power of two
    const auto whole = static_cast<long long>(n < 0 ? n - 0.5 : n + 0.5);
    return double(whole) * grid;
}

template <int R> constexpr std::array<float, R + 1> second_derivative_weights() {
    std::array<double, R + 1> exact{};
    for (int k = 1; k <= R; ++k)
        exact[std::size_t(k)] = 2.0 * (k % 2 == 1 ? 1 : -1) * factorial(R) * factorial(R) /
                                (double(k) * k * factorial(R - k) * factorial(R + k));
    std::array<float, R + 1> c{};
    double tail = 0; // c_(k+1) + ... + c_R, exact in double (a few floats of nearby exponents)
    for (int k = R; k >= 2; --k) {
        const double grid = float_ulp(exact[std::size_t(k - 1)]);
        c[std::size_t(k)] = float(round_to(exact[std::size_t(k)] + tail, grid) - tail);
        tail += double(c[std::size_t(k)]);
    }
    c[1] = float(exact[1]);
    c[0] = float(-2 * (double(c[1]) + tail));
    return c;
}

} // namespace detail

template <int R> struct Coefficients;

template <> struct Coefficients<1> {
    static constexpr std::array<float, 2> d2 = detail::second_derivative_weights<1>();
    static constexpr std::array<float, 2> d1{0.0f, 0.5f};
};
template <> struct Coefficients<2> {
    static constexpr std::array<float, 3> d2 = detail::second_derivative_weights<2>();
    static constexpr std::array<float, 3> d1{0.0f, 2.0f / 3, -1.0f / 12};
};
template <> struct Coefficients<3> {
    static constexpr std::array<float, 4> d2 = detail::second_derivative_weights<3>();
    static constexpr std::array<float, 4> d1{0.0f, 3.0f / 4, -3.0f / 20, 1.0f / 60};
};
template <> struct Coefficients<4> {
    static constexpr std::array<float, 5> d2 = detail::second_derivative_weights<4>();
    static constexpr std::array<float, 5> d1{0.0f, 4.0f / 5, -1.0f / 5, 4.0f / 105, -1.0f / 280};
};

namespace detail {
/// c_0 + 2 sum_k c_k in double: exact for these few floats of nearby exponents.
template <std::size_t N> constexpr double weight_sum(const std::array<float, N>& c) {
    double sum = c[0];
    for (std::size_t k = 1; k < N; ++k)
        sum += 2.0 * double(c[k]);
    return sum;
}
} // namespace detail
static_assert(detail::weight_sum(Coefficients<1>::d2) == 0 && detail::weight_sum(Coefficients<2>::d2) == 0 &&
                  detail::weight_sum(Coefficients<3>::d2) == 0 &&
                  detail::weight_sum(Coefficients<4>::d2) == 0,
              "the float32 second-derivative weights must sum to exactly zero");

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

/// The 2D Laplacian (scaled): (D2x / dx^2 + D2z / dz^2) p at i, rows nx apart. Each axis is summed unscaled
/// and scaled once: a pre-scaled centre weight d2[0] * (1/dx^2 + 1/dz^2) would be rounded once for the whole
/// grid, and that fixed rounding (up to 3e-7 / h^2) acts like the non-zero coefficient sum above, a spurious
/// term that grows under refinement (measured: it held the order 6 and 8 errors at 2e-5 - 6e-5 on a 2.5 m
/// grid).
template <int R> inline float laplacian(const float* p, Index i, Index nx, float inv_dx2, float inv_dz2) {
    return d2<R>(p, i, 1) * inv_dx2 + d2<R>(p, i, nx) * inv_dz2;
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
