// Models as .npy: a 2D array (nz, nx) in C order, as grid.hpp. The file holds no spacing.
#include "fwi/error.hpp"
#include "fwi/model_io.hpp"
#include "fwi/npy.hpp"
#include "io/model_shape.hpp"

#include <cmath>
#include <sstream>

namespace fwi {

Model read_model_npy(const std::string& path, double dz_m, double dx_m) {
    NpyArray array = read_npy(path);
    if (array.shape.size() != 2) {
        throw FormatError(".npy model '" + path + "' has " + std::to_string(array.shape.size()) +
                          " dimensions; a model is a 2D array (nz, nx)");
    }
    if (!(dz_m > 0) || !(dx_m > 0) || !std::isfinite(dz_m) || !std::isfinite(dx_m)) {
        std::ostringstream msg;
        msg << ".npy model '" << path << "': .npy files hold no spacing; give dz and dx (got dz=" << dz_m
            << " m, dx=" << dx_m << " m)";
        throw ConfigError(msg.str());
    }
    Model model;
    model.grid = Grid(array.shape[0], array.shape[1], dz_m, dx_m);
    model.vp_mps = std::move(array.data);
    return model;
}

void write_model_npy(const std::string& path, const Model& model) {
    detail::check_model_shape(model, path);
    write_npy(path, NpyArray{{model.grid.nz(), model.grid.nx()}, model.vp_mps});
}

namespace detail {

void check_model_shape(const Model& model, const std::string& path) {
    const Grid& g = model.grid;
    if (g.nz() <= 0 || g.nx() <= 0 || !(g.dz() > 0) || !(g.dx() > 0) || !std::isfinite(g.dz()) ||
        !std::isfinite(g.dx()) || std::int64_t(model.vp_mps.size()) != g.cells()) {
        std::ostringstream msg;
        msg << "cannot write '" << path << "': model grid " << g.nz() << " x " << g.nx()
            << " at dz=" << g.dz() << " m, dx=" << g.dx() << " m with " << model.vp_mps.size()
            << " values is inconsistent";
        throw ConfigError(msg.str());
    }
}

} // namespace detail
} // namespace fwi
