// fwi forward: model shot gathers.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/distributed_forward.hpp"
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/propagator.hpp"
#include "interrupt.hpp"
#include "job.hpp"
#include "phase_timer.hpp"
#include "progress.hpp"

#include <iostream>
#include <memory>
#include <optional>

namespace fwi::cli {

void add_forward_command(CommandRegistry& r) {
    struct Options {
        std::string project, out, model = "true", backend = "auto";
        bool store = false;
        std::optional<double> snr_db;
        std::uint64_t seed = 1;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = r.app.add_subcommand("forward", "model shot gathers");
    cmd->add_option("project", o->project, "project file (.fwi)")->required();
    cmd->add_option("--out", o->out, "write the gathers (.npy, .segy or .h5)");
    cmd->add_option("--model", o->model,
                    "true | initial | current | a model file (default: true, else current)");
    cmd->add_flag("--store-observed", o->store, "save the gathers in the project as observed data");
    CLI::Option* snr =
        cmd->add_option("--snr", o->snr_db, "add white Gaussian noise at this signal-to-noise ratio (dB)");
    cmd->add_option("--seed", o->seed, "random seed for --snr")->needs(snr);
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->callback([o, &r] {
        *r.selected = [o, &r]() -> nlohmann::json {
            PhaseTimer timer;
            if (o->snr_db && o->out.empty() && !o->store)
                throw ConfigError("--snr adds noise to the gathers that --out or --store-observed write; "
                                  "neither is given");
            // Modelling needs neither the observed data nor the results; saving them back needs all.
            Project p = load_project(
                o->project, o->store ? ProjectParts{} : ProjectParts{.observed = false, .results = false});
            if (o->store) check_project_saveable(o->project); // fail now rather than after modelling
            const Experiment& e = p.experiment;
            Model model;
            if (o->model == "true")
                model = e.true_model.vp_mps.empty() ? working_model(e) : e.true_model;
            else if (o->model == "initial")
                model = e.initial_model;
            else if (o->model == "current")
                model = e.current_model;
            else
                model = load_model_for_project(o->model, e, r.quiet);
            if (model.vp_mps.empty()) throw ConfigError("the project has no " + o->model + " model");
            check_output_file(o->out, "--out", {".npy", ".segy", ".sgy", ".h5", ".hdf5"});
            timer.mark("read");
            start_backend(o->backend); // after reading, never beside it (fwi/propagator.hpp)
            timer.mark("device_start");
            auto sim = make_simulation(e, o->backend);
            sim->set_model(model);
            timer.mark("setup");
            // Under MPI each rank models its share of the shots and rank 0 receives all of them (bit for
            // bit one process's gathers); rank 0's bar shows the whole job (progress.hpp).
            ProgressBar bar("forward", sim->time().inner_nt * std::int64_t(e.acquisition.shots.size()),
                            !r.quiet);
            auto gathers = forward_distributed(*sim, job(), {}, &bar, &interrupt_token());
            timer.mark("compute");
            if (o->snr_db) add_noise(gathers, *o->snr_db, o->seed);
            if (writes_outputs() && !o->out.empty()) write_gathers(o->out, gathers);
            if (writes_outputs() && o->store) {
                p.observed = to_records(gathers);
                save_project_back_or_beside(o->project, p);
            }
            timer.mark("write");
            const double seconds = timer.total();
            if (!r.quiet)
                std::cerr << "fwi: modelled " << gathers.size() << " shots in " << seconds << " s on "
                          << sim->propagator().backend() << (o->out.empty() ? "" : ", wrote " + o->out)
                          << "\n";
            return {{"shots", gathers.size()},
                    {"receivers", gathers.empty() ? 0 : gathers[0].receivers.size()},
                    {"nt", sim->time().nt},
                    {"dt_s", sim->time().dt_s},
                    {"step_ratio", sim->time().step_ratio},
                    {"backend", sim->propagator().backend()},
                    {"out", o->out},
                    {"stored_observed", o->store},
                    {"phases_seconds", timer.phases()},
                    {"seconds", seconds}};
        };
    });
}

} // namespace fwi::cli
