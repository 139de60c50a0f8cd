// fwi info: what a project holds.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/time_axis.hpp"

#include <iostream>
#include <memory>

namespace fwi::cli {

namespace {
nlohmann::json model_json(const Model& m) {
    if (m.vp_mps.empty()) return nullptr;
    nlohmann::json j{{"rank", m.grid.rank},        {"nz", m.grid.nz()},   {"nx", m.grid.nx()},
                     {"dz_m", m.grid.dz()},        {"dx_m", m.grid.dx()}, {"min_mps", m.min_velocity()},
                     {"max_mps", m.max_velocity()}};
    if (m.grid.rank == 3) {
        j["ny"] = m.grid.ny();
        j["dy_m"] = m.grid.dy();
    }
    return j;
}
} // namespace

void add_info_command(CommandRegistry& r) {
    auto path = std::make_shared<std::string>();
    CLI::App* cmd = r.app.add_subcommand("info", "describe a project");
    cmd->add_option("project", *path, "project file (.fwi)")->required();
    cmd->callback([path, &r] {
        *r.selected = [path, &r]() -> nlohmann::json {
            const Project p = load_project(*path);
            const Experiment& e = p.experiment;
            const auto& prop = e.propagation;
            std::size_t receivers = 0;
            for (const auto& s : e.acquisition.shots)
                receivers += s.receivers.size();
            nlohmann::json j{{"project", *path},
                             {"true_model", model_json(e.true_model)},
                             {"initial_model", model_json(e.initial_model)},
                             {"current_model", model_json(e.current_model)},
                             {"shots", e.acquisition.shots.size()},
                             {"receivers", receivers}, // in all shots (every trace); per shot below
                             {"receivers_per_shot",
                              e.acquisition.shots.empty() ? 0 : e.acquisition.shots.front().receivers.size()},
                             {"order", prop.order},
                             {"pml_width", prop.pml_width},
                             {"free_surface", prop.free_surface},
                             {"freq_hz", prop.freq_hz},
                             {"dt_s", prop.dt_s},
                             {"nt", prop.nt},
                             {"observed_shots", p.observed.size()},
                             {"iterations", p.history.size()},
                             {"schedule", e.gradient.schedule},
                             {"compression", e.gradient.compression}};
            if (!std::isnan(p.misfit)) j["misfit"] = p.misfit;
            // What a plain `fwi invert` would use: the project's settings, then its last run's options.
            const InversionSettings& inv = e.inversion;
            j["inversion"] = {{"min_velocity_mps", inv.min_velocity_mps},
                              {"max_velocity_mps", inv.max_velocity_mps},
                              {"optimizer", inv.optimizer},
                              {"misfit", inv.misfit},
                              {"iterations", inv.iterations},
                              {"stage_freqs_hz", inv.stage_freqs_hz}};
            if (const auto it = p.metadata.find("fwi_invert_options"); it != p.metadata.end())
                j["inversion"]["last_run_options"] = nlohmann::json::parse(it->second, nullptr, false);
            try {
                const Model& m = working_model(e);
                const TimeAxis t = make_time_axis(m.grid, reference_velocity(e), prop);
                j["step_ratio"] = t.step_ratio;
                j["inner_steps"] = t.inner_nt;
            } catch (const std::exception&) {
            }
            if (!r.quiet) std::cerr << j.dump(2) << "\n";
            return j;
        };
    });
}

} // namespace fwi::cli
