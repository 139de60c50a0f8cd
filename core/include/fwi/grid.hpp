#pragma once
// Regular grids. THE axis-order convention of FWI Studio, stated once:
//   arrays are row-major with the slowest axis first: 2D (z, x), 3D (z, y, x);
//   x is the fast (contiguous) axis, z points down, positions are in metres from the model's first cell
//   centre. Element (iz, ix) of a 2D array lives at index iz * nx + ix, element (iz, iy, ix) of a 3D one at
//   (iz * ny + iy) * nx + ix.
// File formats that differ (e.g. x-major raw files where z is fast) are converted at the I/O boundary.
#include <array>
#include <cstddef>
#include <cstdint>

namespace fwi {

/// A grid of rank 2 (z, x) or 3 (z, y, x). One type for both ranks: a 2D grid has ny() == 1 and no y spacing
/// (dy() == 0), so everything that reads nz, nx, dz, dx means the same in both, and cells() and the row
/// count nz * ny cover 3D.
struct Grid {
    Grid() = default;
    /// 2D: shape (nz, nx), spacing (dz, dx) in metres.
    Grid(std::int64_t nz_, std::int64_t nx_, double dz_m, double dx_m)
        : shape{nz_, 1, nx_}, spacing_m{dz_m, 0, dx_m} {}
    /// 3D: shape (nz, ny, nx), spacing (dz, dy, dx) in metres.
    Grid(std::int64_t nz_, std::int64_t ny_, std::int64_t nx_, double dz_m, double dy_m, double dx_m)
        : rank(3), shape{nz_, ny_, nx_}, spacing_m{dz_m, dy_m, dx_m} {}

    int rank = 2;
    std::array<std::int64_t, 3> shape{0, 1, 0}; ///< (nz, ny, nx); ny == 1 in 2D
    std::array<double, 3> spacing_m{0, 0, 0};   ///< (dz, dy, dx); dy == 0 (unused) in 2D

    std::int64_t nz() const { return shape[0]; }
    std::int64_t ny() const { return shape[1]; }
    std::int64_t nx() const { return shape[2]; }
    double dz() const { return spacing_m[0]; }
    double dy() const { return spacing_m[1]; }
    double dx() const { return spacing_m[2]; }
    std::int64_t cells() const { return nz() * ny() * nx(); }
    /// Rows of x: nz in 2D, nz * ny in 3D (how a field is viewed as a 2D array, field.hpp).
    std::int64_t rows() const { return nz() * ny(); }
    double width_m() const { return double(nx() - 1) * dx(); }   ///< x of the last cell centre
    double breadth_m() const { return double(ny() - 1) * dy(); } ///< y of the last cell centre (0 in 2D)
    double depth_m() const { return double(nz() - 1) * dz(); }   ///< z of the last cell centre
    std::size_t index(std::int64_t iz, std::int64_t ix) const { return std::size_t(iz * nx() + ix); }
    std::size_t index(std::int64_t iz, std::int64_t iy, std::int64_t ix) const {
        return std::size_t((iz * ny() + iy) * nx() + ix);
    }
    bool operator==(const Grid&) const = default;
};

} // namespace fwi
