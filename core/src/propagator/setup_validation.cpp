// The checks every backend applies to a PropagatorSetup, so that all of them refuse the same setups with the
// same messages.
#include "fwi/error.hpp"
#include "fwi/model.hpp"
#include "fwi/propagator.hpp"
#include "fwi/time_axis.hpp"
#include "propagator/scheme_checks.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace fwi {
namespace {

void validate_grid_2d(const PropagatorSetup& setup) {
    const Grid& g = setup.grid;
    if (g.nz() < 1 || g.nx() < 1 || g.ny() != 1 || !(g.dz() > 0) || !(g.dx() > 0))
        throw ConfigError("grid must have positive shape and spacing");
    if (g.nz() < setup.order || g.nx() < setup.order)
        throw ConfigError("the model (" + std::to_string(g.nz()) + " x " + std::to_string(g.nx()) +
                          " cells) must be at least " + std::to_string(setup.order) +
                          " cells along each axis for order " + std::to_string(setup.order));
}

void validate_grid_3d(const PropagatorSetup& setup) {
    static const char* const axis_name[3] = {"z", "y", "x"};
    for (std::size_t a = 0; a < 3; ++a) {
        const auto n = setup.grid.shape[a];
        if (n < 1 || !(setup.grid.spacing_m[a] > 0))
            throw ConfigError(std::string("grid must have positive shape and spacing (axis ") + axis_name[a] +
                              ")");
        if (n < setup.order)
            throw ConfigError("the model has " + std::to_string(n) + " cells along " + axis_name[a] +
                              ": it must have at least " + std::to_string(setup.order) + " for order " +
                              std::to_string(setup.order));
    }
}

/// The time step against the leapfrog's CFL limit at the reference velocity (Courant number 1: the loosest
/// bound of any order; the time axis picks steps well inside it).
void validate_time_step(const PropagatorSetup& setup) {
    const double limit = stable_dt(setup.grid, setup.pml_velocity_mps, 1.0);
    if (setup.dt_s > limit) {
        std::ostringstream m;
        m << "CFL: the inner time step " << setup.dt_s << " s exceeds the " << setup.grid.rank
          << "D stability limit " << limit << " s at " << setup.pml_velocity_mps << " m/s";
        throw ConfigError(m.str());
    }
}

} // namespace

void validate_scheme_settings(int order, int pml_width, double dt_s, double pml_velocity_mps) {
    if (order != 2 && order != 4 && order != 6 && order != 8)
        throw ConfigError("spatial order " + std::to_string(order) + " is not one of 2, 4, 6, 8");
    if (pml_width < 0 || pml_width > 1000)
        throw ConfigError("PML width " + std::to_string(pml_width) + " is not in [0, 1000]");
    if (!(dt_s > 0) || !std::isfinite(dt_s)) throw ConfigError("time step must be positive and finite");
    if (!(pml_velocity_mps > 0)) throw ConfigError("PML reference velocity must be positive");
}

void validate_propagator_setup(const PropagatorSetup& setup) {
    validate_scheme_settings(setup.order, setup.pml_width, setup.dt_s, setup.pml_velocity_mps);
    if (setup.grid.rank == 2)
        validate_grid_2d(setup);
    else if (setup.grid.rank == 3)
        validate_grid_3d(setup);
    else
        throw ConfigError("grid rank " + std::to_string(setup.grid.rank) + " is not 2 or 3");
    validate_time_step(setup);
}

void validate_model_for_setup(const PropagatorSetup& setup, const Model& model) {
    if (!(model.grid == setup.grid)) throw ConfigError("model grid differs from the propagator's grid");
    validate_model(model, setup.grid.rank == 3 ? "3D model" : "model");
    const double reference = setup.pml_velocity_mps;
    if (model.max_velocity() <= reference * (1 + 1e-6))
        return; // the vectorised scan; the loop names the cell
    for (std::size_t i = 0; i < model.vp_mps.size(); ++i)
        if (model.vp_mps[i] > reference * (1 + 1e-6)) {
            std::ostringstream m;
            m << "model velocity " << model.vp_mps[i] << " m/s at cell " << i
              << " exceeds the reference velocity " << reference
              << " m/s that fixed the time step; the CFL condition would be violated (raise the project's "
                 "reference velocity: fwi new --max-velocity, or the desktop's propagation settings)";
            throw ConfigError(m.str());
        }
}

} // namespace fwi
