// fwi import: observed shot gathers from SEG-Y (geometry from the trace headers) into a project. The
// project's acquisition becomes the file's, and its sampling (dt, nt) the file's; every position is checked
// against the model.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/acquisition_check.hpp"
#include "fwi/error.hpp"
#include "fwi/gather.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"

#include <iostream>
#include <memory>

namespace fwi::cli {

void add_import_command(CommandRegistry& r) {
    struct Options {
        std::string project, data;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd =
        r.app.add_subcommand("import", "observed data from SEG-Y shot gathers (geometry from the headers)");
    cmd->add_option("project", o->project, "project file (.fwi)")->required();
    cmd->add_option("data", o->data, "SEG-Y file: one trace per receiver, shots in order (.segy, .sgy)")
        ->required();
    cmd->callback([o, &r] {
        *r.selected = [o, &r]() -> nlohmann::json {
            Project p = load_project(o->project);
            const std::vector<Gather> gathers = read_gathers_segy(o->data);
            if (gathers.empty()) throw FormatError(o->data + ": no traces");
            for (std::size_t s = 0; s < gathers.size(); ++s)
                check_finite_samples(gathers[s], o->data + ", shot " + std::to_string(s));
            Acquisition acquisition;
            for (const Gather& g : gathers)
                acquisition.shots.push_back({g.source, g.receivers});
            const Grid& grid = working_model(p.experiment).grid;
            validate_acquisition(acquisition, grid); // positions inside the model, y = 0 in 2D
            // Said, not silent: the project's own acquisition and sampling are replaced.
            const Acquisition& before = p.experiment.acquisition;
            const PropagationSettings& was = p.experiment.propagation;
            const bool acquisition_changed = !(acquisition == before);
            const bool sampling_changed =
                was.dt_s != gathers.front().dt_s || was.nt != gathers.front().samples;
            if (!r.quiet && acquisition_changed)
                std::cerr << "fwi: note: the project's acquisition is now the file's: " << before.shots.size()
                          << " -> " << acquisition.shots.size() << " shots, " << before.receiver_count()
                          << " -> " << acquisition.receiver_count() << " receivers in all\n";
            if (!r.quiet && sampling_changed)
                std::cerr << "fwi: note: the project's sampling is now the file's: dt " << was.dt_s << " -> "
                          << gathers.front().dt_s << " s, nt " << was.nt << " -> " << gathers.front().samples
                          << "\n";
            p.experiment.acquisition = acquisition;
            p.experiment.propagation.dt_s = gathers.front().dt_s;
            p.experiment.propagation.nt = gathers.front().samples;
            if (!p.experiment.propagation.wavelet.empty() && !r.quiet)
                std::cerr
                    << "fwi: the project's own wavelet was sampled for the old dt; using a Ricker instead\n";
            p.experiment.propagation.wavelet.clear();
            make_simulation(p.experiment, "cpu"); // refuses a CFL-impossible or otherwise bad setup
            p.observed = to_records(gathers);
            save_project_back_or_beside(o->project, p);
            if (!r.quiet)
                std::cerr << "fwi: imported " << gathers.size() << " shots, " << gathers.front().samples
                          << " samples at " << gathers.front().dt_s << " s, from " << o->data << "\n";
            return {{"shots", gathers.size()},
                    {"samples", gathers.front().samples},
                    {"dt_s", gathers.front().dt_s},
                    {"acquisition_changed", acquisition_changed},
                    {"sampling_changed", sampling_changed}};
        };
    });
}

} // namespace fwi::cli
