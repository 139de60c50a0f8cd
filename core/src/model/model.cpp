#include "fwi/model.hpp"

#include "fwi/error.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace fwi {

// NaN compares false, so it never becomes the minimum or maximum; validate_model reports it instead. The
// selects (not branches) let these scans vectorise: a 3D model has tens of millions of cells, and every run
// scans it several times.
float Model::min_velocity() const {
    if (vp_mps.empty()) return 0.0f;
    const float* v = vp_mps.data();
    float lowest = std::numeric_limits<float>::infinity();
#pragma omp simd reduction(min : lowest)
    for (std::size_t i = 0; i < vp_mps.size(); ++i)
        lowest = v[i] < lowest ? v[i] : lowest;
    return lowest;
}

float Model::max_velocity() const {
    if (vp_mps.empty()) return 0.0f;
    const float* v = vp_mps.data();
    float highest = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : highest)
    for (std::size_t i = 0; i < vp_mps.size(); ++i)
        highest = v[i] > highest ? v[i] : highest;
    return highest;
}

namespace {

/// "(nz=.., nx=..)" or "(nz=.., ny=.., nx=..)": the grid's shape in the messages.
std::string shape_text(const Grid& g) {
    std::ostringstream s;
    s << "(nz=" << g.nz();
    if (g.rank == 3) s << ", ny=" << g.ny();
    s << ", nx=" << g.nx() << ")";
    return s.str();
}

std::string cell_text(const Grid& g, std::size_t i) {
    const auto n = std::int64_t(i);
    std::ostringstream s;
    s << "(iz=" << n / (g.ny() * g.nx());
    if (g.rank == 3) s << ", iy=" << n / g.nx() % g.ny();
    s << ", ix=" << n % g.nx() << ")";
    return s.str();
}

} // namespace

void validate_model(const Model& model, const std::string& what) {
    const Grid& g = model.grid;
    if (g.rank != 2 && g.rank != 3)
        throw ConfigError(what + ": grid rank " + std::to_string(g.rank) + " is not 2 or 3");
    if (g.nz() <= 0 || g.nx() <= 0 || g.ny() <= 0 || (g.rank == 2 && g.ny() != 1)) {
        std::ostringstream msg;
        msg << what << ": grid shape " << shape_text(g) << " must be positive";
        throw ConfigError(msg.str());
    }
    const bool bad_dy = g.rank == 3 && (!(g.dy() > 0) || !std::isfinite(g.dy()));
    if (!(g.dz() > 0) || !(g.dx() > 0) || !std::isfinite(g.dz()) || !std::isfinite(g.dx()) || bad_dy) {
        std::ostringstream msg;
        msg << what << ": grid spacing (dz=" << g.dz() << " m, ";
        if (g.rank == 3) msg << "dy=" << g.dy() << " m, ";
        msg << "dx=" << g.dx() << " m) must be positive and finite";
        throw ConfigError(msg.str());
    }
    if (std::int64_t(model.vp_mps.size()) != g.cells()) {
        std::ostringstream msg;
        msg << what << ": " << model.vp_mps.size() << " velocity values, but the grid " << g.nz() << " x ";
        if (g.rank == 3) msg << g.ny() << " x ";
        msg << g.nx() << " needs " << g.cells();
        throw ConfigError(msg.str());
    }
    // A vectorised count first (NaN fails both comparisons); the scan that names the cell runs only on a bad
    // model.
    const float* values = model.vp_mps.data();
    std::size_t bad = 0;
#pragma omp simd reduction(+ : bad)
    for (std::size_t i = 0; i < model.vp_mps.size(); ++i)
        bad += !(values[i] > 0 && values[i] <= std::numeric_limits<float>::max());
    for (std::size_t i = 0; bad > 0 && i < model.vp_mps.size(); ++i) {
        const float v = model.vp_mps[i];
        if (std::isfinite(v) && v > 0) continue;
        std::ostringstream msg;
        msg << what << ": velocity at cell " << cell_text(g, i) << " is ";
        if (std::isnan(v))
            msg << "NaN";
        else if (std::isinf(v))
            msg << (v > 0 ? "+inf" : "-inf");
        else
            msg << v << " m/s (velocities must be positive)";
        throw ConfigError(msg.str());
    }
}

} // namespace fwi
