// Models as .npy: a 2D array (nz, nx) or a 3D array (nz, ny, nx) in C order, as grid.hpp. The file holds no
// spacing.
#include "fwi/error.hpp"
#include "fwi/model_io.hpp"
#include "fwi/npy.hpp"
#include "io/model_shape.hpp"

#include <cmath>
#include <sstream>

namespace fwi {

namespace {

bool positive_finite(double v) {
    return v > 0 && std::isfinite(v);
}

} // namespace

Model read_model_npy(const std::string& path, double dz_m, double dx_m, double dy_m) {
    NpyArray array = read_npy(path);
    const std::size_t rank = array.shape.size();
    if (rank != 2 && rank != 3) {
        throw FormatError(".npy model '" + path + "' has " + std::to_string(rank) +
                          " dimensions; a model is a 2D array (nz, nx) or a 3D array (nz, ny, nx)");
    }
    if (!positive_finite(dz_m) || !positive_finite(dx_m)) {
        std::ostringstream msg;
        msg << ".npy model '" << path << "': .npy files hold no spacing; give dz and dx (got dz=" << dz_m
            << " m, dx=" << dx_m << " m)";
        throw ConfigError(msg.str());
    }
    if (rank == 3 && !positive_finite(dy_m)) {
        std::ostringstream msg;
        msg << ".npy model '" << path << "' is a 3D array (nz, ny, nx); give dy too (got dy=" << dy_m
            << " m)";
        throw ConfigError(msg.str());
    }
    Model model;
    model.grid = rank == 2 ? Grid(array.shape[0], array.shape[1], dz_m, dx_m)
                           : Grid(array.shape[0], array.shape[1], array.shape[2], dz_m, dy_m, dx_m);
    model.vp_mps = std::move(array.data);
    return model;
}

void write_model_npy(const std::string& path, const Model& model) {
    detail::check_model_shape(model, path);
    const Grid& g = model.grid;
    std::vector<std::int64_t> shape{g.nz(), g.nx()};
    if (g.rank == 3) shape = {g.nz(), g.ny(), g.nx()};
    write_npy(path, NpyArray{shape, model.vp_mps});
}

namespace detail {

void check_model_shape(const Model& model, const std::string& path) {
    const Grid& g = model.grid;
    const bool bad_y = g.rank == 3 ? g.ny() <= 0 || !positive_finite(g.dy()) : g.rank != 2 || g.ny() != 1;
    if (g.nz() <= 0 || g.nx() <= 0 || !positive_finite(g.dz()) || !positive_finite(g.dx()) || bad_y ||
        std::int64_t(model.vp_mps.size()) != g.cells()) {
        std::ostringstream msg;
        msg << "cannot write '" << path << "': model grid " << g.nz() << " x ";
        if (g.rank == 3) msg << g.ny() << " x ";
        msg << g.nx() << " at dz=" << g.dz() << " m, ";
        if (g.rank == 3) msg << "dy=" << g.dy() << " m, ";
        msg << "dx=" << g.dx() << " m with " << model.vp_mps.size() << " values is inconsistent";
        throw ConfigError(msg.str());
    }
}

} // namespace detail
} // namespace fwi
