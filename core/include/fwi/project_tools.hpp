#pragma once
// Glue between a Project (what is saved) and the engine (what runs): simulations, observed data as gathers.
#include "fwi/gather.hpp"
#include "fwi/project.hpp"
#include "fwi/simulation.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fwi {

/// The velocity that fixes the CFL step and the PML: propagation.max_velocity_mps if set, else the largest
/// velocity of the project's models (true, initial, current). ConfigError if the project has no model.
double reference_velocity(const Experiment& experiment);

/// The model a run should use by default: current, else initial, else true. ConfigError if none.
const Model& working_model(const Experiment& experiment);

/// ConfigError when the project's grid cannot carry its source: check_grid_resolves_source (time_axis.hpp) on
/// the working model's grid at the slowest velocity of the project's models. make_simulation checks it.
void check_grid_resolves_source(const Experiment& e);

std::unique_ptr<Simulation> make_simulation(const Experiment& experiment,
                                            const std::string& backend = "auto");

/// Observed data as gathers (geometry from the acquisition). ConfigError if the project has none or shapes
/// differ.
std::vector<Gather> observed_gathers(const Project& project);
std::vector<ShotRecord> to_records(const std::vector<Gather>& gathers);

/// Relative L2 distance |a - b| / |b| of two models on the same grid (NaN if b is empty or grids differ).
double relative_model_error(const Model& a, const Model& b);

} // namespace fwi
