#pragma once
// Synthetic fields for codec and store tests: a smooth wavefield-like Ricker ring, random values and special
// values.
#include "fwi/field.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace fwi::test {

/// A 2D field that owns its values.
struct Field2D {
    std::int64_t rows = 0, cols = 0;
    std::vector<float> values;
    Field2D() = default;
    Field2D(std::int64_t r, std::int64_t c, float fill = 0)
        : rows(r), cols(c), values(std::size_t(r * c), fill) {}
    FieldView view() { return {values.data(), rows, cols}; }
    ConstFieldView cview() const { return {values.data(), rows, cols}; }
    float& at(std::int64_t iz, std::int64_t ix) { return values[std::size_t(iz * cols + ix)]; }
};

/// A wavefront some time after a point source fired: a Ricker pulse (width `sigma_cells`) on a ring of radius
/// `radius_cells` around (cz, cx) with 1/sqrt(r) geometric spreading, plus a weaker reflected ring, scaled so
/// the largest |value| is about `amplitude`. Far from the rings the values fall to (almost) zero, as in a
/// real snapshot.
inline Field2D ricker_ring(std::int64_t rows, std::int64_t cols, double amplitude = 1.0,
                           double sigma_cells = 5.0) {
    Field2D f(rows, cols);
    const double cz = 0.41 * double(rows), cx = 0.53 * double(cols);
    const double r0 = 0.3 * double(std::min(rows, cols)), r1 = 0.18 * double(std::min(rows, cols));
    const auto ricker = [](double x) { return (1 - 2 * x * x) * std::exp(-x * x); };
    for (std::int64_t iz = 0; iz < rows; ++iz)
        for (std::int64_t ix = 0; ix < cols; ++ix) {
            const double r = std::hypot(double(iz) - cz, double(ix) - cx);
            const double spread = std::sqrt(r0 / (r + 1.0));
            const double v = spread * (ricker((r - r0) / sigma_cells) - 0.3 * ricker((r - r1) / sigma_cells));
            f.at(iz, ix) = float(amplitude * v / 1.7);
        }
    return f;
}

/// Uniform random values in [-scale, scale] (incompressible for lossless codecs beyond the exponent bits).
inline Field2D random_field(std::int64_t rows, std::int64_t cols, unsigned seed, float scale = 1.0f) {
    Field2D f(rows, cols);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-scale, scale);
    for (auto& v : f.values)
        v = dist(rng);
    return f;
}

/// Random bit patterns: every float class, NaNs with payloads, infinities, denormals, -0.
inline Field2D random_bits_field(std::int64_t rows, std::int64_t cols, unsigned seed) {
    Field2D f(rows, cols);
    std::mt19937 rng(seed);
    for (auto& v : f.values)
        v = std::bit_cast<float>(std::uint32_t(rng()));
    return f;
}

/// A smooth field with NaN (several payloads), +-inf, denormals and -0 sprinkled in.
inline Field2D special_values_field(std::int64_t rows, std::int64_t cols) {
    Field2D f = ricker_ring(rows, cols);
    const std::uint32_t specials[] = {0x7fc00000u, 0x7fc12345u, 0xffc00001u, 0x7f800001u, 0x7f800000u,
                                      0xff800000u, 0x00000001u, 0x807fffffu, 0x80000000u};
    std::size_t k = 0;
    for (std::size_t i = 3; i < f.values.size(); i += 17, ++k)
        f.values[i] = std::bit_cast<float>(specials[k % std::size(specials)]);
    return f;
}

inline bool bit_equal(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

inline double max_abs_error(const std::vector<float>& a, const std::vector<float>& b) {
    double e = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        e = std::max(e, std::abs(double(a[i]) - double(b[i])));
    return e;
}

inline double max_abs(const std::vector<float>& a) {
    double m = 0;
    for (float v : a)
        m = std::max(m, std::abs(double(v)));
    return m;
}

} // namespace fwi::test
