#include "fwi/acquisition_check.hpp"

#include "fwi/byte_text.hpp"
#include "fwi/error.hpp"
#include "runtime/machine_memory.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fwi {
namespace {

// Positions computed as x0 + k * step can miss the last cell centre by a rounding error; allow that much.
bool inside(const Point& p, const Grid& g) {
    const double tol_x = 1e-9 * std::max(1.0, g.width_m()), tol_z = 1e-9 * std::max(1.0, g.depth_m());
    const bool in_xz = std::isfinite(p.x_m) && std::isfinite(p.z_m) && p.x_m >= -tol_x &&
                       p.x_m <= g.width_m() + tol_x && p.z_m >= -tol_z && p.z_m <= g.depth_m() + tol_z;
    if (g.rank == 2) return in_xz; // 2D ignores y
    const double tol_y = 1e-9 * std::max(1.0, g.breadth_m());
    return in_xz && std::isfinite(p.y_m) && p.y_m >= -tol_y && p.y_m <= g.breadth_m() + tol_y;
}

[[noreturn]] void throw_outside(const std::string& who, const Point& p, const Grid& g) {
    std::ostringstream msg;
    const bool three_d = g.rank == 3;
    msg << who << " at (x=" << p.x_m << " m, ";
    if (three_d) msg << "y=" << p.y_m << " m, ";
    msg << "z=" << p.z_m << " m) is ";
    if (!std::isfinite(p.x_m) || !std::isfinite(p.z_m) || (three_d && !std::isfinite(p.y_m)))
        msg << "not a finite position";
    else {
        msg << "outside the model (x in [0, " << g.width_m() << "] m, ";
        if (three_d) msg << "y in [0, " << g.breadth_m() << "] m, ";
        msg << "z in [0, " << g.depth_m() << "] m)";
    }
    throw ConfigError(msg.str());
}

} // namespace

/// A 2D survey lies in the plane y = 0: a point elsewhere (3D gathers imported into a 2D project) would be
/// modelled at y = 0 without a word.
void require_in_plane(const std::string& who, const Point& p, const Grid& g) {
    if (g.rank != 2 || p.y_m == 0) return;
    std::ostringstream msg;
    msg << who << " is at y=" << p.y_m << " m, but the model is 2D (a 3D survey?)";
    throw ConfigError(msg.str());
}

void validate_acquisition(const Acquisition& acquisition, const Grid& grid) {
    if (acquisition.shots.empty()) throw ConfigError("acquisition has no shots");
    for (std::size_t s = 0; s < acquisition.shots.size(); ++s) {
        const Shot& shot = acquisition.shots[s];
        const std::string name = "shot " + std::to_string(s);
        if (!inside(shot.source, grid)) throw_outside(name + " source", shot.source, grid);
        require_in_plane(name + " source", shot.source, grid);
        if (shot.receivers.empty()) throw ConfigError(name + " has no receivers");
        for (std::size_t r = 0; r < shot.receivers.size(); ++r) {
            if (!inside(shot.receivers[r], grid))
                throw_outside(name + " receiver " + std::to_string(r), shot.receivers[r], grid);
            require_in_plane(name + " receiver " + std::to_string(r), shot.receivers[r], grid);
        }
    }
}

void validate_points_below_free_surface(const Acquisition& acquisition, const Grid& grid) {
    const auto on_surface = [&](const Point& p) { return std::abs(p.z_m / grid.dz()) < 1e-6; };
    const auto refuse = [](const std::string& who, const std::string& verb) {
        throw ConfigError(who +
                          " lies on the free surface (z = 0 m), where the pressure is held at zero: it "
                          "would " +
                          verb + " nothing. Place it below the surface (z > 0)");
    };
    for (std::size_t s = 0; s < acquisition.shots.size(); ++s) {
        const Shot& shot = acquisition.shots[s];
        const std::string name = "shot " + std::to_string(s);
        if (on_surface(shot.source)) refuse(name + " source", "inject");
        for (std::size_t r = 0; r < shot.receivers.size(); ++r)
            if (on_surface(shot.receivers[r])) refuse(name + " receiver " + std::to_string(r), "record");
    }
}

std::string data_memory_warning(const Acquisition& acquisition, std::int64_t nt, std::uint64_t memory_bytes) {
    if (memory_bytes == 0) memory_bytes = detail::machine_memory_bytes();
    const std::size_t traces = acquisition.receiver_count();
    const double bytes = double(traces) * double(nt) * sizeof(float);
    if (memory_bytes == 0 || bytes <= 0.5 * double(memory_bytes)) return {};
    return "data size: " + std::to_string(acquisition.shots.size()) + " shots, " + std::to_string(traces) +
           " traces of " + std::to_string(nt) + " samples are " + bytes_text(std::uint64_t(bytes)) +
           " of observed data, more than half of this machine's " + bytes_text(memory_bytes) +
           "; forward --store-observed, gradients and inversions hold them in memory (fewer receivers, shots "
           "or samples, or several projects)";
}

} // namespace fwi
