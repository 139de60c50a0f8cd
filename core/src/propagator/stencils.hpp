#pragma once
// Central finite-difference coefficients (standard Taylor/Fornberg values), radius R = order / 2.
//   D2 u_i = (c2[0] u_i + sum_k c2[k] (u_{i+k} + u_{i-k})) / h^2   -- symmetric:      D2^T = D2
//   D1 u_i = (sum_k c1[k] (u_{i+k} - u_{i-k})) / h                 -- antisymmetric:  D1^T = -D1
// (transposes on arrays extended by zeros, which is what the zero halo provides).
#include <array>

namespace fwi::stencil {

template <int R>
struct Coefficients;

template <>
struct Coefficients<1> {
    static constexpr std::array<float, 2> d2{-2.0f, 1.0f};
    static constexpr std::array<float, 2> d1{0.0f, 0.5f};
};
template <>
struct Coefficients<2> {
    static constexpr std::array<float, 3> d2{-5.0f / 2, 4.0f / 3, -1.0f / 12};
    static constexpr std::array<float, 3> d1{0.0f, 2.0f / 3, -1.0f / 12};
};
template <>
struct Coefficients<3> {
    static constexpr std::array<float, 4> d2{-49.0f / 18, 3.0f / 2, -3.0f / 20, 1.0f / 90};
    static constexpr std::array<float, 4> d1{0.0f, 3.0f / 4, -3.0f / 20, 1.0f / 60};
};
template <>
struct Coefficients<4> {
    static constexpr std::array<float, 5> d2{-205.0f / 72, 8.0f / 5, -1.0f / 5, 8.0f / 315, -1.0f / 560};
    static constexpr std::array<float, 5> d1{0.0f, 4.0f / 5, -1.0f / 5, 4.0f / 105, -1.0f / 280};
};

} // namespace fwi::stencil
