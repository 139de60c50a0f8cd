// Raw little-endian float32 models without a header: all shape information comes from RawLayout.
#include "fwi/error.hpp"
#include "fwi/model_io.hpp"
#include "io/file_bytes.hpp"
#include "io/model_shape.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

namespace fwi {

static_assert(std::endian::native == std::endian::little, "raw model files are little-endian float32");

namespace {

bool positive_finite(double v) {
    return v > 0 && std::isfinite(v);
}

/// The grid RawLayout describes, or ConfigError naming what is missing.
Grid raw_grid(const RawLayout& layout, const std::string& path) {
    const bool three_d = layout.ny > 0;
    if (layout.ny < 0 || layout.nz <= 0 || layout.nx <= 0 || !positive_finite(layout.dz_m) ||
        !positive_finite(layout.dx_m) || (three_d && !positive_finite(layout.dy_m))) {
        std::ostringstream msg;
        if (three_d || layout.ny < 0)
            msg << "raw model '" << path
                << "': a 3D raw file needs nz, ny, nx, dz, dy and dx (got nz=" << layout.nz
                << ", ny=" << layout.ny << ", nx=" << layout.nx << ", dz=" << layout.dz_m
                << " m, dy=" << layout.dy_m << " m, dx=" << layout.dx_m << " m)";
        else
            msg << "raw model '" << path << "': a raw file needs nz, nx, dz and dx (got nz=" << layout.nz
                << ", nx=" << layout.nx << ", dz=" << layout.dz_m << " m, dx=" << layout.dx_m << " m)";
        throw ConfigError(msg.str());
    }
    if (three_d) return Grid(layout.nz, layout.ny, layout.nx, layout.dz_m, layout.dy_m, layout.dx_m);
    return Grid(layout.nz, layout.nx, layout.dz_m, layout.dx_m);
}

/// x-major (column-major) index of (iz, iy, ix): one vertical trace per (x, y) column, z fast, then y, then
/// x. In 2D (ny == 1) that is ix * nz + iz, as before.
std::size_t column_index(const Grid& g, std::size_t iz, std::size_t iy, std::size_t ix) {
    return (ix * std::size_t(g.ny()) + iy) * std::size_t(g.nz()) + iz;
}

} // namespace

Model read_model_raw(const std::string& path, const RawLayout& layout) {
    const Grid grid = raw_grid(layout, path);
    const std::uint64_t actual = detail::file_size_bytes(path);
    // Compare in long double so that absurd nz * ny * nx cannot overflow into a false match.
    const long double expected = static_cast<long double>(layout.nz) * static_cast<long double>(grid.ny()) *
                                 static_cast<long double>(layout.nx) * 4.0L;
    if (expected != static_cast<long double>(actual)) {
        std::ostringstream msg;
        msg << "raw model '" << path << "': " << layout.nz << " x ";
        if (grid.rank == 3) msg << grid.ny() << " x ";
        msg << layout.nx << " float32 values need " << static_cast<unsigned long long>(expected)
            << " bytes, but the file has " << actual << " bytes";
        throw FormatError(msg.str());
    }
    const std::vector<char> bytes = detail::read_file_bytes(path);
    if (bytes.size() != actual)
        throw FormatError("raw model '" + path + "': the file changed size while being read");
    Model model;
    model.grid = grid;
    const std::size_t n = std::size_t(model.grid.cells());
    std::vector<float> values(n);
    std::memcpy(values.data(), bytes.data(), n * sizeof(float));
    if (!layout.x_major) {
        model.vp_mps = std::move(values);
        return model;
    }
    model.vp_mps.resize(n);
    const auto nz = std::size_t(grid.nz()), ny = std::size_t(grid.ny()), nx = std::size_t(grid.nx());
    for (std::size_t ix = 0; ix < nx; ++ix)
        for (std::size_t iy = 0; iy < ny; ++iy)
            for (std::size_t iz = 0; iz < nz; ++iz)
                model.vp_mps[(iz * ny + iy) * nx + ix] = values[column_index(grid, iz, iy, ix)];
    return model;
}

void write_model_raw(const std::string& path, const Model& model, bool x_major) {
    detail::check_model_shape(model, path);
    if (!x_major) {
        detail::write_file_bytes(path, {{model.vp_mps.data(), model.vp_mps.size() * sizeof(float)}});
        return;
    }
    const Grid& g = model.grid;
    const auto nz = std::size_t(g.nz()), ny = std::size_t(g.ny()), nx = std::size_t(g.nx());
    std::vector<float> values(model.vp_mps.size());
    for (std::size_t ix = 0; ix < nx; ++ix)
        for (std::size_t iy = 0; iy < ny; ++iy)
            for (std::size_t iz = 0; iz < nz; ++iz)
                values[column_index(g, iz, iy, ix)] = model.vp_mps[(iz * ny + iy) * nx + ix];
    detail::write_file_bytes(path, {{values.data(), values.size() * sizeof(float)}});
}

} // namespace fwi
