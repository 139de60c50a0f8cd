#include "fwi/project_tools.hpp"

#include "fwi/error.hpp"
#include "fwi/time_axis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fwi {

double reference_velocity(const Experiment& e) {
    if (e.propagation.max_velocity_mps > 0) return e.propagation.max_velocity_mps;
    double v = 0;
    for (const Model* m : {&e.true_model, &e.initial_model, &e.current_model})
        if (m->grid.cells() > 0 && !m->vp_mps.empty()) v = std::max(v, double(m->max_velocity()));
    if (!(v > 0)) throw ConfigError("the project has no velocity model");
    return v;
}

const Model& working_model(const Experiment& e) {
    for (const Model* m : {&e.current_model, &e.initial_model, &e.true_model})
        if (!m->vp_mps.empty()) return *m;
    throw ConfigError("the project has no velocity model");
}

void check_grid_resolves_source(const Experiment& e) {
    const Model& m = working_model(e);
    double min_velocity = m.min_velocity();
    for (const Model* other : {&e.true_model, &e.initial_model, &e.current_model})
        if (!other->vp_mps.empty()) min_velocity = std::min(min_velocity, double(other->min_velocity()));
    check_grid_resolves_source(m.grid, min_velocity, e.propagation.freq_hz);
}

std::unique_ptr<Simulation> make_simulation(const Experiment& e, const std::string& backend) {
    // A project whose grid cannot carry its source (made elsewhere, or its frequency raised in the desktop
    // application) is refused here, for every command and the desktop application's runs.
    check_grid_resolves_source(e);
    const Model& m = working_model(e);
    return std::make_unique<Simulation>(m.grid, e.acquisition, e.propagation, reference_velocity(e), backend);
}

std::vector<Gather> observed_gathers(const Project& p) {
    const auto& shots = p.experiment.acquisition.shots;
    if (p.observed.empty())
        throw ConfigError(
            "the project has no observed data (model them with `fwi forward PROJECT --store-observed` "
            "or import them)");
    if (p.observed.size() != shots.size())
        throw ConfigError("the project has observed data for " + std::to_string(p.observed.size()) +
                          " shots but its acquisition has " + std::to_string(shots.size()));
    std::vector<Gather> out;
    for (std::size_t s = 0; s < shots.size(); ++s) {
        const ShotRecord& r = p.observed[s];
        if (r.receivers != std::int64_t(shots[s].receivers.size()))
            throw ConfigError("observed data of shot " + std::to_string(s) + " has " +
                              std::to_string(r.receivers) + " traces but the shot has " +
                              std::to_string(shots[s].receivers.size()) + " receivers");
        Gather g;
        g.source = shots[s].source;
        g.receivers = shots[s].receivers;
        g.samples = r.samples;
        g.dt_s = r.dt_s;
        g.traces = r.traces;
        check_finite_samples(g, "observed data of shot " + std::to_string(s));
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<ShotRecord> to_records(const std::vector<Gather>& gathers) {
    std::vector<ShotRecord> out;
    for (const Gather& g : gathers)
        out.push_back({std::int64_t(g.receivers.size()), g.samples, g.dt_s, g.traces});
    return out;
}

double relative_model_error(const Model& a, const Model& b) {
    if (b.vp_mps.empty() || !(a.grid == b.grid)) return std::numeric_limits<double>::quiet_NaN();
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.vp_mps.size(); ++i) {
        const double d = double(a.vp_mps[i]) - b.vp_mps[i];
        num += d * d;
        den += double(b.vp_mps[i]) * b.vp_mps[i];
    }
    return std::sqrt(num / den);
}

} // namespace fwi
