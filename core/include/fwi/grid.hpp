#pragma once
// Regular grids. THE axis-order convention of FWI Studio, stated once:
//   arrays are row-major with the slowest axis first: 2D (z, x), later 3D (z, y, x);
//   x is the fast (contiguous) axis, z points down, positions are in metres from the model's top-left corner.
//   Element (iz, ix) of a 2D array lives at index iz * nx + ix.
// File formats that differ (e.g. x-major raw files where z is fast) are converted at the I/O boundary.
#include <array>
#include <cstddef>
#include <cstdint>

namespace fwi {

template <int Dim> struct Grid {
    static constexpr int dims = Dim;
    std::array<std::int64_t, Dim> shape{}; ///< cells per axis, slowest first (z, [y,] x)
    std::array<double, Dim> spacing_m{};   ///< cell size per axis in metres, same order as shape

    std::int64_t cells() const {
        std::int64_t n = 1;
        for (auto s : shape)
            n *= s;
        return n;
    }
    bool operator==(const Grid&) const = default;
};

/// The 2D grid: shape {nz, nx}, spacing {dz, dx}.
struct Grid2D : Grid<2> {
    Grid2D() = default;
    Grid2D(std::int64_t nz_, std::int64_t nx_, double dz_m, double dx_m)
        : Grid<2>{{nz_, nx_}, {dz_m, dx_m}} {}
    std::int64_t nz() const { return shape[0]; }
    std::int64_t nx() const { return shape[1]; }
    double dz() const { return spacing_m[0]; }
    double dx() const { return spacing_m[1]; }
    double width_m() const { return double(nx() - 1) * dx(); } ///< x of the last cell centre
    double depth_m() const { return double(nz() - 1) * dz(); } ///< z of the last cell centre
    std::size_t index(std::int64_t iz, std::int64_t ix) const { return std::size_t(iz * nx() + ix); }
};

} // namespace fwi
