#include "fwi/inversion_project.hpp"

#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"

#include <nlohmann/json.hpp>

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
        load_run_options(project, s);
    }
    return s;
}

void save_run_options(Project& project, const InversionSetup& setup, bool stage_counts) {
    nlohmann::json j = nlohmann::json::object();
    if (stage_counts) {
        std::vector<int> counts;
        for (const InversionStage& st : setup.stages)
            counts.push_back(st.iterations);
        j["stage_iterations"] = counts;
    } else if (const auto found = project.metadata.find(run_options_key); found != project.metadata.end()) {
        const auto saved = nlohmann::json::parse(found->second, nullptr, /*allow_exceptions=*/false);
        if (saved.is_object() && saved.contains("stage_iterations"))
            j["stage_iterations"] = saved["stage_iterations"];
    }
    const ObjectiveOptions& o = setup.objective;
    const DataWindow& w = o.misfit.window;
    j["min_offset_m"] = w.min_offset_m;
    j["max_offset_m"] = w.max_offset_m;
    j["end_taper_s"] = w.end_taper_s;
    j["window_start_s"] = w.start_s;
    j["window_end_s"] = w.end_s;
    j["start_taper_s"] = w.start_taper_s;
    j["batch"] = o.batch_shots;
    j["shots_per_iteration"] = o.shots_per_iteration;
    j["seed"] = o.seed;
    j["smooth_m"] = o.preconditioner.smoothing_x_m;
    j["illumination"] = o.illumination;
    j["illumination_epsilon"] = o.preconditioner.illumination_epsilon;
    j["memory"] = setup.optimizer.memory;
    j["water_depth_m"] = o.mask.water_depth_m;
    j["water_velocity_mps"] = o.mask.water_velocity_mps;
    j["source_radius_m"] = o.mask.source_radius_m;
    j["min_relative_decrease"] = setup.min_relative_decrease;
    project.metadata[run_options_key] = j.dump();
}

void load_run_options(const Project& project, InversionSetup& setup, bool stage_counts) {
    const auto found = project.metadata.find(run_options_key);
    if (found == project.metadata.end() || found->second.empty()) return;
    try {
        const nlohmann::json j = nlohmann::json::parse(found->second);
        // Options saved by an older version may lack a key: those keep the setup's value.
        const auto get = [&](const char* key, auto& value) {
            if (j.contains(key)) value = j.at(key).get<std::remove_reference_t<decltype(value)>>();
        };
        if (stage_counts && j.contains("stage_iterations")) {
            const auto counts = j.at("stage_iterations").get<std::vector<int>>();
            if (counts.size() != setup.stages.size())
                throw ConfigError("saved run options (" + std::string(run_options_key) + ") give " +
                                  std::to_string(counts.size()) + " iteration counts for " +
                                  std::to_string(setup.stages.size()) + " stages");
            for (std::size_t i = 0; i < counts.size(); ++i)
                setup.stages[i].iterations = counts[i];
        }
        ObjectiveOptions& o = setup.objective;
        DataWindow& w = o.misfit.window;
        get("min_offset_m", w.min_offset_m);
        get("max_offset_m", w.max_offset_m);
        get("end_taper_s", w.end_taper_s);
        get("window_start_s", w.start_s);
        get("window_end_s", w.end_s);
        get("start_taper_s", w.start_taper_s);
        get("batch", o.batch_shots);
        get("shots_per_iteration", o.shots_per_iteration);
        get("seed", o.seed);
        get("smooth_m", o.preconditioner.smoothing_x_m);
        o.preconditioner.smoothing_z_m = o.preconditioner.smoothing_x_m;
        get("illumination", o.illumination);
        get("illumination_epsilon", o.preconditioner.illumination_epsilon);
        get("memory", setup.optimizer.memory);
        get("water_depth_m", o.mask.water_depth_m);
        get("water_velocity_mps", o.mask.water_velocity_mps);
        get("source_radius_m", o.mask.source_radius_m);
        get("min_relative_decrease", setup.min_relative_decrease);
    } catch (const nlohmann::json::exception& e) {
        throw ConfigError("saved run options (" + std::string(run_options_key) +
                          ") are malformed: " + e.what());
    }
}

void apply_record(Project& project, const IterationRecord& record) {
    project.history.push_back(record);
    if (!record.model.vp_mps.empty()) project.experiment.current_model = record.model;
    if (!record.gradient.empty()) project.gradient = record.gradient;
    project.misfit = record.misfit;
}

} // namespace fwi
