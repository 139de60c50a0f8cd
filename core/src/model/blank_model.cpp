#include "model/blank_model.hpp"

#include "fwi/error.hpp"

#include <cmath>
#include <sstream>

namespace fwi::detail {

Model blank_model(const Grid& g, const char* what) {
    const bool three_d = g.rank == 3;
    const auto usable = [](double d) { return d > 0 && std::isfinite(d); };
    const double cells = double(g.nz()) * double(g.ny()) * double(g.nx());
    if (g.nz() <= 0 || g.nx() <= 0 || g.ny() <= 0 || cells > max_model_cells || !usable(g.dz()) ||
        !usable(g.dx()) || (three_d && !usable(g.dy()))) {
        std::ostringstream msg;
        msg << what << ": grid " << g.nz() << " x ";
        if (three_d) msg << g.ny() << " x ";
        msg << g.nx() << " cells at dz=" << g.dz() << " m, ";
        if (three_d) msg << "dy=" << g.dy() << " m, ";
        msg << "dx=" << g.dx() << " m is not usable (need positive sizes and spacing, at most "
            << max_model_cells << " cells)";
        throw ConfigError(msg.str());
    }
    Model m;
    m.grid = g;
    m.vp_mps.resize(std::size_t(g.cells()));
    return m;
}

void check_velocity(double v, const char* what, const char* field) {
    if (!(v > 0) || !std::isfinite(v)) {
        std::ostringstream msg;
        msg << what << ": " << field << " = " << v << " m/s must be positive and finite";
        throw ConfigError(msg.str());
    }
}

} // namespace fwi::detail
