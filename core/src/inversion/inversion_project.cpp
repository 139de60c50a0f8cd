#include "fwi/inversion_project.hpp"

#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"

#include <algorithm>

namespace fwi {

InversionSetup inversion_setup(const Project& project, bool resume) {
    const Experiment& e = project.experiment;
    InversionSetup s;
    s.initial_model = e.initial_model.vp_mps.empty() ? working_model(e) : e.initial_model;
    s.true_model = e.true_model;
    s.acquisition = e.acquisition;
    s.propagation = e.propagation;
    s.observed = observed_gathers(project);
    s.stages = make_stages(e.inversion.stage_freqs_hz, e.inversion.iterations);
    s.optimizer.method = parse_optimizer_method(e.inversion.optimizer);
    s.optimizer.lower_bound = e.inversion.min_velocity_mps;
    s.optimizer.upper_bound = e.inversion.max_velocity_mps;
    s.objective.misfit.kind = parse_misfit_kind(e.inversion.misfit);
    s.objective.gradient = e.gradient;
    const double own = reference_velocity(e);
    // The upper bound fixes the time step: an absurd one would make every propagation absurdly long.
    if (e.inversion.max_velocity_mps > 4 * own)
        throw ConfigError("velocity upper bound " + std::to_string(e.inversion.max_velocity_mps) +
                          " m/s is more than 4 times the models' maximum (" + std::to_string(own) +
                          " m/s): the time step would shrink as much (lower max_velocity_mps / --vmax)");
    s.reference_velocity_mps = std::max(e.inversion.max_velocity_mps, own);
    if (resume) {
        if (project.optimizer_state.empty())
            throw ConfigError("the project holds no optimizer state to resume from (run an inversion first)");
        s.resume = project.optimizer_state;
    }
    return s;
}

void apply_record(Project& project, const IterationRecord& record) {
    project.history.push_back(record);
    if (!record.model.vp_mps.empty()) project.experiment.current_model = record.model;
    if (!record.gradient.empty()) project.gradient = record.gradient;
    project.misfit = record.misfit;
}

} // namespace fwi
