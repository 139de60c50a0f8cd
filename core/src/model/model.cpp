#include "fwi/model.hpp"

#include "fwi/error.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace fwi {

// NaN compares false, so it never becomes the minimum or maximum; validate_model reports it instead.
float Model::min_velocity() const {
    if (vp_mps.empty()) return 0.0f;
    float lowest = std::numeric_limits<float>::infinity();
    for (float v : vp_mps)
        if (v < lowest) lowest = v;
    return lowest;
}

float Model::max_velocity() const {
    if (vp_mps.empty()) return 0.0f;
    float highest = -std::numeric_limits<float>::infinity();
    for (float v : vp_mps)
        if (v > highest) highest = v;
    return highest;
}

void validate_model(const Model& model, const std::string& what) {
    const Grid2D& g = model.grid;
    if (g.nz() <= 0 || g.nx() <= 0) {
        std::ostringstream msg;
        msg << what << ": grid shape (nz=" << g.nz() << ", nx=" << g.nx() << ") must be positive";
        throw ConfigError(msg.str());
    }
    if (!(g.dz() > 0) || !(g.dx() > 0) || !std::isfinite(g.dz()) || !std::isfinite(g.dx())) {
        std::ostringstream msg;
        msg << what << ": grid spacing (dz=" << g.dz() << " m, dx=" << g.dx()
            << " m) must be positive and finite";
        throw ConfigError(msg.str());
    }
    if (std::int64_t(model.vp_mps.size()) != g.cells()) {
        std::ostringstream msg;
        msg << what << ": " << model.vp_mps.size() << " velocity values, but the grid " << g.nz() << " x "
            << g.nx() << " needs " << g.cells();
        throw ConfigError(msg.str());
    }
    for (std::int64_t iz = 0; iz < g.nz(); ++iz) {
        for (std::int64_t ix = 0; ix < g.nx(); ++ix) {
            const float v = model.at(iz, ix);
            if (std::isfinite(v) && v > 0) continue;
            std::ostringstream msg;
            msg << what << ": velocity at cell (iz=" << iz << ", ix=" << ix << ") is ";
            if (std::isnan(v))
                msg << "NaN";
            else if (std::isinf(v))
                msg << (v > 0 ? "+inf" : "-inf");
            else
                msg << v << " m/s (velocities must be positive)";
            throw ConfigError(msg.str());
        }
    }
}

} // namespace fwi
