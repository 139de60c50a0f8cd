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

Model read_model_raw(const std::string& path, const RawLayout& layout) {
    if (layout.nz <= 0 || layout.nx <= 0 || !(layout.dz_m > 0) || !(layout.dx_m > 0) ||
        !std::isfinite(layout.dz_m) || !std::isfinite(layout.dx_m)) {
        std::ostringstream msg;
        msg << "raw model '" << path << "': a raw file needs nz, nx, dz and dx (got nz=" << layout.nz
            << ", nx=" << layout.nx << ", dz=" << layout.dz_m << " m, dx=" << layout.dx_m << " m)";
        throw ConfigError(msg.str());
    }
    const std::uint64_t actual = detail::file_size_bytes(path);
    // Compare in long double so that absurd nz * nx cannot overflow into a false match.
    const long double expected =
        static_cast<long double>(layout.nz) * static_cast<long double>(layout.nx) * 4.0L;
    if (expected != static_cast<long double>(actual)) {
        std::ostringstream msg;
        msg << "raw model '" << path << "': " << layout.nz << " x " << layout.nx << " float32 values need "
            << static_cast<unsigned long long>(expected) << " bytes, but the file has " << actual << " bytes";
        throw FormatError(msg.str());
    }
    const std::vector<char> bytes = detail::read_file_bytes(path);
    if (bytes.size() != actual)
        throw FormatError("raw model '" + path + "': the file changed size while being read");
    Model model;
    model.grid = Grid(layout.nz, layout.nx, layout.dz_m, layout.dx_m);
    const std::size_t n = std::size_t(model.grid.cells());
    std::vector<float> values(n);
    std::memcpy(values.data(), bytes.data(), n * sizeof(float));
    if (!layout.x_major) {
        model.vp_mps = std::move(values);
        return model;
    }
    // x-major: one vertical trace per x, z fast; element (iz, ix) at ix * nz + iz.
    model.vp_mps.resize(n);
    const auto nz = std::size_t(layout.nz), nx = std::size_t(layout.nx);
    for (std::size_t ix = 0; ix < nx; ++ix)
        for (std::size_t iz = 0; iz < nz; ++iz)
            model.vp_mps[iz * nx + ix] = values[ix * nz + iz];
    return model;
}

void write_model_raw(const std::string& path, const Model& model, bool x_major) {
    detail::check_model_shape(model, path);
    if (!x_major) {
        detail::write_file_bytes(path, {{model.vp_mps.data(), model.vp_mps.size() * sizeof(float)}});
        return;
    }
    const auto nz = std::size_t(model.grid.nz()), nx = std::size_t(model.grid.nx());
    std::vector<float> values(model.vp_mps.size());
    for (std::size_t ix = 0; ix < nx; ++ix)
        for (std::size_t iz = 0; iz < nz; ++iz)
            values[ix * nz + iz] = model.vp_mps[iz * nx + ix];
    detail::write_file_bytes(path, {{values.data(), values.size() * sizeof(float)}});
}

} // namespace fwi
