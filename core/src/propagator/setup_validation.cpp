// The checks every backend applies to a PropagatorSetup, so that all of them refuse the same setups with the
// same messages.
#include "fwi/error.hpp"
#include "fwi/propagator.hpp"
#include "propagator/scheme_checks.hpp"

#include <cmath>
#include <string>

namespace fwi {

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
    if (setup.grid.nz() < 1 || setup.grid.nx() < 1 || !(setup.grid.dz() > 0) || !(setup.grid.dx() > 0))
        throw ConfigError("grid must have positive shape and spacing");
    if (setup.grid.nz() < setup.order || setup.grid.nx() < setup.order)
        throw ConfigError("the model (" + std::to_string(setup.grid.nz()) + " x " +
                          std::to_string(setup.grid.nx()) + " cells) must be at least " +
                          std::to_string(setup.order) + " cells along each axis for order " +
                          std::to_string(setup.order));
}

} // namespace fwi
