// fwi gradient: misfit and velocity gradient over all shots, with a checkpoint schedule, compression and
// budget.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/propagator.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/standard_figures.hpp"
#include "interrupt.hpp"
#include "job.hpp"
#include "phase_timer.hpp"
#include "progress.hpp"
#include "slice_pictures.hpp"

#include <iostream>
#include <memory>

namespace fwi::cli {

void add_gradient_command(CommandRegistry& r) {
    struct Options {
        std::string project, model, out, png, events, budget, backend = "auto";
        GradientSettings settings;
        bool store = false;
        bool schedule_given = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = r.app.add_subcommand("gradient", "misfit and velocity gradient summed over shots");
    cmd->add_option("project", o->project, "project file (.fwi)")->required();
    cmd->add_option("--model", o->model, "model file to use instead of the project's current model");
    cmd->add_option("--out", o->out, "write the gradient (.npy or .h5)");
    cmd->add_option("--png", o->png, "write a picture of the gradient (.png or .svg, as fwi plot draws it)");
    cmd->add_option(
        "--schedule", o->settings.schedule,
        "all | uniform:K | revolve:S | multilevel:RAM_SLOTS,DISK_SLOTS | online:S | adaptive[:S] | auto");
    cmd->add_option(
        "--compress", o->settings.compression,
        "none | zstd | lz4 | blosc | zfp-accuracy:TOL | zfp-precision:BITS | zfp-rate:BITS | zfp-reversible");
    cmd->add_option("--budget", o->budget, "memory budget BYTES[,DISK_BYTES] (e.g. 2G or 512M,20G)");
    cmd->add_option("--scratch", o->settings.scratch_dir, "directory for the disk tier")
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--sampling-interval", o->settings.sampling_interval,
                    "gradient sampling interval (inner steps)")
        ->check(CLI::Range(1, 1000000));
    cmd->add_option("--events", o->events, "write the event stream as JSON lines");
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->add_flag("--store", o->store, "save the gradient and misfit in the project");
    cmd->callback([o, &r] {
        *r.selected = [o, &r]() -> nlohmann::json {
            PhaseTimer timer;
            // Before the gradient, not after it: a long run must not end in "cannot write".
            check_picture_name(o->png, "--png");
            check_output_file(o->out, "--out", {".npy", ".h5", ".hdf5"});
            check_output_file(o->events, "--events");
            Project p = load_project(o->project);
            if (o->store) check_project_saveable(o->project); // fail now rather than after the gradient
            GradientSettings settings = o->settings;
            if (!o->budget.empty()) apply_budget(settings, o->budget);
            // A disk tier only multilevel and auto plans use would be ignored without a word by the others.
            if (settings.schedule.rfind("multilevel", 0) != 0 && settings.schedule != "auto" &&
                (!settings.scratch_dir.empty() || settings.disk_budget_bytes != 0))
                throw ConfigError(std::string(settings.scratch_dir.empty()
                                                  ? "a disk budget (--budget RAM,DISK)"
                                                  : "--scratch") +
                                  " is for the disk tier of --schedule multilevel:R,D and auto; --schedule " +
                                  settings.schedule + " keeps its checkpoints in memory");
            const Model model = o->model.empty() ? working_model(p.experiment)
                                                 : load_model_for_project(o->model, p.experiment, r.quiet);
            const auto observed = observed_gathers(p);
            timer.mark("read");
            start_backend(o->backend); // after reading, never beside it (fwi/propagator.hpp)
            timer.mark("device_start");
            auto sim = make_simulation(p.experiment, o->backend);
            if (!(model.grid == sim->propagator().setup().grid))
                throw ConfigError("model " + o->model + " does not have the project's grid");
            const auto shots = std::int64_t(p.experiment.acquisition.shots.size());
            sim->set_model(model);
            timer.mark("setup");
            // The bar's 100%: the plan's forward (recomputation included) and adjoint steps for every shot.
            // The calibration and plan are kept for the process, so compute_gradient reuses them.
            const ResolvedPlan plan = resolve_plan(*sim, settings);
            const PlanCounts& per_shot = plan.prediction.counts;
            if (const std::string note = recomputation_note(plan); !note.empty() && !r.quiet)
                std::cerr << "fwi: note: " << note << "\n";
            timer.mark("plan");
            ProgressBar bar(
                "gradient",
                (per_shot.advance_steps + per_shot.reverse_forward_steps + per_shot.reverse_steps) * shots,
                !r.quiet);
            std::unique_ptr<EventLog> log;
            if (!o->events.empty() && writes_outputs()) log = std::make_unique<EventLog>(o->events);
            Tee tee;
            tee.add(&bar);
            tee.add(log.get());
            GradientOptions opt;
            opt.settings = settings;
            opt.observer = &tee;
            opt.keep_modelled = false;
            opt.communicator = &job();
            opt.cancel = &interrupt_token();
            const GradientResult g = compute_gradient(*sim, model, observed, opt);
            timer.mark("compute");
            if (writes_outputs() && !o->out.empty()) write_model_array(o->out, model.grid, g.gradient);
            std::vector<std::string> pictures;
            if (writes_outputs() && !o->png.empty())
                pictures = write_pictures(o->png, model, g.gradient,
                                          [](const Model& m, const std::vector<float>& v) {
                                              return gradient_figure(m, v, "Misfit gradient");
                                          });
            if (writes_outputs() && o->store) {
                p.gradient = g.gradient;
                p.misfit = g.misfit;
                save_project_back_or_beside(o->project, p);
            }
            timer.mark("write");
            if (!r.quiet)
                std::cerr << "fwi: misfit " << g.misfit << ", schedule " << g.schedule << ", "
                          << g.forward_steps << " forward + " << g.adjoint_steps << " adjoint steps ("
                          << g.recompute_steps << " recomputed), peak snapshots "
                          << format_bytes(double(g.peak_snapshot_bytes)) << ", " << g.seconds << " s\n";
            nlohmann::json out = {
                {"misfit", g.misfit},
                {"forward_steps", g.forward_steps},
                {"adjoint_steps", g.adjoint_steps},
                {"recompute_steps", g.recompute_steps},
                {"checkpoint_writes", g.checkpoint_writes},
                {"checkpoint_reads", g.checkpoint_reads},
                {"peak_snapshot_bytes", g.peak_snapshot_bytes},
                {"peak_bytes_per_tier", g.peak_bytes_per_tier},
                {"compression_ratio", g.compression_ratio},
                {"predicted_seconds", g.predicted_seconds},
                // The model's self-check (later gradients of the same process learn from this run).
                {"measured_over_predicted",
                 g.predicted_seconds > 0 ? (g.seconds - g.planning_seconds) / g.predicted_seconds : 0.0},
                {"schedule", g.schedule},
                {"backend", sim->propagator().backend()},
                {"planning_seconds", g.planning_seconds},
                {"seconds", g.seconds},
                {"phases_seconds", timer.phases()},
                {"command_seconds", timer.total()}};
            if (!pictures.empty()) out["pictures"] = pictures;
            return out;
        };
    });
}

} // namespace fwi::cli
