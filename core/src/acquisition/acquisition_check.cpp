#include "fwi/acquisition_check.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fwi {
namespace {

// Positions computed as x0 + k * step can miss the last cell centre by a rounding error; allow that much.
bool inside(const Point2D& p, const Grid2D& g) {
    const double tol_x = 1e-9 * std::max(1.0, g.width_m()), tol_z = 1e-9 * std::max(1.0, g.depth_m());
    return std::isfinite(p.x_m) && std::isfinite(p.z_m) && p.x_m >= -tol_x && p.x_m <= g.width_m() + tol_x &&
           p.z_m >= -tol_z && p.z_m <= g.depth_m() + tol_z;
}

[[noreturn]] void throw_outside(const std::string& who, const Point2D& p, const Grid2D& g) {
    std::ostringstream msg;
    msg << who << " at (x=" << p.x_m << " m, z=" << p.z_m << " m) is ";
    if (!std::isfinite(p.x_m) || !std::isfinite(p.z_m))
        msg << "not a finite position";
    else
        msg << "outside the model (x in [0, " << g.width_m() << "] m, z in [0, " << g.depth_m() << "] m)";
    throw ConfigError(msg.str());
}

} // namespace

void validate_acquisition(const Acquisition& acquisition, const Grid2D& grid) {
    if (acquisition.shots.empty()) throw ConfigError("acquisition has no shots");
    for (std::size_t s = 0; s < acquisition.shots.size(); ++s) {
        const Shot& shot = acquisition.shots[s];
        const std::string name = "shot " + std::to_string(s);
        if (!inside(shot.source, grid)) throw_outside(name + " source", shot.source, grid);
        if (shot.receivers.empty()) throw ConfigError(name + " has no receivers");
        for (std::size_t r = 0; r < shot.receivers.size(); ++r)
            if (!inside(shot.receivers[r], grid))
                throw_outside(name + " receiver " + std::to_string(r), shot.receivers[r], grid);
    }
}

} // namespace fwi
