// fwi invert: full-waveform inversion of the project's observed data, from its initial model, with frequency
// continuation. The project is saved after every iteration (current model, history, optimizer state), so an
// interrupted run (Ctrl-C, or a crash) continues with --resume exactly where it stood.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/inversion_project.hpp"
#include "fwi/inversion_report.hpp"
#include "fwi/project.hpp"
#include "fwi/standard_figures.hpp"
#include "fwi/volume_slice.hpp"
#include "interrupt.hpp"
#include "job.hpp"
#include "slice_pictures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <tuple>

namespace fwi::cli {

namespace {

/// The report's models side by side (start | result | true): models.png in 2D; in 3D one picture per
/// orthogonal slice through the middle (models-inline.png, models-crossline.png, models-depth.png).
void write_panels(const std::string& dir, const std::vector<std::pair<std::string, Model>>& panels,
                  double vmin, double vmax, std::vector<std::string>& written) {
    const Grid& g = panels.front().second.grid;
    if (g.rank != 3) {
        const int scale = g.nx() * 3 <= 1200 ? 2 : 1;
        write_model_panels_png(dir + "/models.png", panels, vmin, vmax, scale);
        written.push_back(dir + "/models.png");
        return;
    }
    for (SliceAxis axis : {SliceAxis::Inline, SliceAxis::Crossline, SliceAxis::Depth}) {
        const std::int64_t index = slice_count(g, axis) / 2;
        std::vector<std::pair<std::string, Model>> slices;
        for (const auto& [name, model] : panels)
            slices.emplace_back(name, slice_model(model, axis, index));
        const int scale = slices.front().second.grid.nx() * 3 <= 1200 ? 2 : 1;
        const std::string file = dir + "/models-" + slice_name(axis) + ".png";
        write_model_panels_png(file, slices, vmin, vmax, scale);
        written.push_back(file);
    }
}

/// The shots of one evaluation (`shots` in batches of `batch`, 0 = one batch) that this rank computes: all of
/// them alone, its share of each batch under MPI (the observer counts only this rank's shots).
std::int64_t shots_computed_here(std::int64_t shots, int batch) {
    const std::int64_t b = batch > 0 ? batch : std::max<std::int64_t>(shots, 1);
    std::int64_t mine = 0;
    for (std::int64_t first = 0; first < shots; first += b) {
        const auto batch_shots = std::size_t(std::min(b, shots - first));
        const auto owner = split_shots_by_cost(std::vector<double>(batch_shots, 1.0), job().size());
        mine += std::count(owner.begin(), owner.end(), job().rank());
    }
    return mine;
}

/// Counts the shots whose gradient was computed (one per ShotEnd), to report evaluations per iteration.
class ShotCounter final : public Observer {
  public:
    void on_event(const Event& e) override {
        if (e.type == EventType::ShotEnd) ++shots;
    }
    std::int64_t shots = 0;
};

nlohmann::json number_or_null(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

} // namespace

void add_invert_command(CommandRegistry& r) {
    struct Options {
        std::string project, png, report, backend = "auto";
        std::vector<int> iterations;
        int batch = 0, shots_per_iteration = 0, memory = OptimizerOptions{}.memory;
        std::vector<double> stages;
        std::string optimizer, misfit;
        double vmin = 0, vmax = 0, smooth_m = 0, water_velocity = 0, water_depth = 0, source_radius = 0;
        double min_offset = 0, max_offset = 0, end_taper = 0, min_decrease = 0;
        double window_start = 0, window_end = 0, start_taper = 0;
        double illumination_epsilon = PreconditionerOptions{}.illumination_epsilon;
        bool illumination = false, resume = false;
        std::uint64_t seed = 1;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = r.app.add_subcommand("invert", "full-waveform inversion of the project's observed data");
    cmd->add_option("project", o->project, "project file (.fwi)")->required();
    cmd->add_option(
           "--iterations", o->iterations,
           "iterations per stage: one count for every stage, or one per stage (e.g. 5,5,20); default: the "
           "project's")
        ->delimiter(',')
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--stages", o->stages,
                    "low-pass cut-offs in Hz, one stage each, e.g. 3,5,8 (0 = unfiltered)")
        ->delimiter(',');
    cmd->add_option("--batch", o->batch, "shots per gradient batch (memory holds one batch; 0 = all)")
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--shots-per-iteration", o->shots_per_iteration,
                    "random subset of shots per iteration (0 = all)")
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--seed", o->seed, "seed of the random shot subsets");
    cmd->add_option("--optimizer", o->optimizer, "lbfgs | cg | gd (default: the project's)");
    cmd->add_option("--memory", o->memory, "L-BFGS correction pairs kept")->check(CLI::Range(1, 1000));
    cmd->add_option("--misfit", o->misfit, "l2 | normalized (default: the project's)");
    cmd->add_option("--vmin", o->vmin, "lower velocity bound (m/s; default: the project's)");
    cmd->add_option("--vmax", o->vmax, "upper velocity bound (m/s; default: the project's)");
    cmd->add_option("--smooth", o->smooth_m, "gradient smoothing length (m, Gaussian sigma)")
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_flag("--illumination,!--no-illumination", o->illumination,
                  "precondition with the source illumination (--no-illumination: do not)");
    cmd->add_option("--illumination-epsilon", o->illumination_epsilon,
                    "illumination stabilisation, relative to the maximum (D = 1 / (E / max E + eps))")
        ->check(CLI::Range(1e-9, 1e9));
    cmd->add_option("--water-velocity", o->water_velocity,
                    "fix cells of the initial model at or below this velocity (m/s)");
    cmd->add_option("--water-depth", o->water_depth, "fix cells shallower than this (m)");
    cmd->add_option("--source-radius", o->source_radius, "fix cells closer than this to a source (m)");
    cmd->add_option("--min-offset", o->min_offset, "ignore traces closer than this to their source (m)");
    cmd->add_option("--max-offset", o->max_offset, "ignore traces farther than this from their source (m)");
    cmd->add_option("--window-start", o->window_start,
                    "ignore samples before this time (s; a mute of early arrivals)")
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_option("--window-end", o->window_end, "ignore samples after this time (s; 0 = to the end)")
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_option("--start-taper", o->start_taper,
                    "cosine taper over the first seconds after --window-start (s)")
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_option("--end-taper", o->end_taper,
                    "cosine taper over the last seconds before --window-end or the trace's end (s)");
    cmd->add_option("--min-decrease", o->min_decrease,
                    "end a stage early after an iteration that lowers its misfit by less than this fraction "
                    "(e.g. 0.01; 0 = run every iteration)")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_flag("--resume", o->resume, "continue from the project's saved optimizer state");
    cmd->add_option(
        "--png", o->png,
        "write a picture of the final model (.png or .svg, as fwi plot draws it; 3D: one per slice)");
    cmd->add_option(
        "--report", o->report,
        "write pictures into this directory: models.png (start | result | true; 3D: models-inline, "
        "-crossline, -depth.png) and history.png (curves)");
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->callback([o, cmd, &r] {
        *r.selected = [o, cmd, &r]() -> nlohmann::json {
            check_picture_name(o->png, "--png"); // now, not after the inversion
            make_output_directory(o->report, "--report");
            Project p = load_project(o->project);
            check_project_saveable(o->project); // saved after every iteration: fail now if it cannot be
            InversionSettings& s = p.experiment.inversion; // the options given are recorded in the project
            if (o->iterations.size() == 1) s.iterations = o->iterations[0];
            if (!o->stages.empty()) s.stage_freqs_hz = o->stages;
            if (!o->optimizer.empty()) s.optimizer = o->optimizer;
            if (!o->misfit.empty()) s.misfit = o->misfit;
            for (const auto& [flag, given, target] : {std::tuple{"--vmin", o->vmin, &s.min_velocity_mps},
                                                      {"--vmax", o->vmax, &s.max_velocity_mps}})
                if (cmd->count(flag)) {
                    if (!(given > 0) || !std::isfinite(given))
                        throw ConfigError(std::string(flag) + " " + std::to_string(given) +
                                          ": a velocity bound must be positive and finite (m/s)");
                    *target = given;
                }
            // The project's run options (from an earlier run or the GUI's settings) are the defaults; a
            // resume also takes the per-stage counts it was started with. Options given override them.
            InversionSetup setup = inversion_setup(p, o->resume);
            if (!o->resume) load_run_options(p, setup, /*stage_counts=*/false);
            setup.backend = o->backend;
            const auto set = [&](const char* flag, auto& target, auto given) {
                if (cmd->count(flag)) target = given;
            };
            if (o->iterations.size() == 1)
                for (auto& st : setup.stages)
                    st.iterations = o->iterations[0];
            if (o->iterations.size() > 1) {
                if (o->iterations.size() != setup.stages.size())
                    throw ConfigError("--iterations gives " + std::to_string(o->iterations.size()) +
                                      " counts for " + std::to_string(setup.stages.size()) + " stages");
                for (std::size_t i = 0; i < o->iterations.size(); ++i)
                    setup.stages[i].iterations = o->iterations[i];
            }
            ObjectiveOptions& obj = setup.objective;
            obj.communicator = &job();
            set("--batch", obj.batch_shots, o->batch);
            set("--shots-per-iteration", obj.shots_per_iteration, o->shots_per_iteration);
            set("--seed", obj.seed, o->seed);
            set("--smooth", obj.preconditioner.smoothing_x_m, o->smooth_m);
            obj.preconditioner.smoothing_z_m = obj.preconditioner.smoothing_x_m;
            set("--illumination", obj.illumination, o->illumination);
            set("--illumination-epsilon", obj.preconditioner.illumination_epsilon, o->illumination_epsilon);
            set("--memory", setup.optimizer.memory, o->memory);
            set("--water-depth", obj.mask.water_depth_m, o->water_depth);
            set("--water-velocity", obj.mask.water_velocity_mps, o->water_velocity);
            set("--source-radius", obj.mask.source_radius_m, o->source_radius);
            set("--min-offset", obj.misfit.window.min_offset_m, o->min_offset);
            set("--max-offset", obj.misfit.window.max_offset_m, o->max_offset);
            set("--end-taper", obj.misfit.window.end_taper_s, o->end_taper);
            set("--window-start", obj.misfit.window.start_s, o->window_start);
            set("--window-end", obj.misfit.window.end_s, o->window_end);
            set("--start-taper", obj.misfit.window.start_taper_s, o->start_taper);
            set("--min-decrease", setup.min_relative_decrease, o->min_decrease);
            save_run_options(p, setup);
            // Kept with the run options for later runs, but of no use to this one: said, not refused (the
            // companion may come from the project's saved options in a later run).
            if (!r.quiet) {
                const auto idle = [&](const char* flag, bool used, const char* needs) {
                    if (cmd->count(flag) && !used)
                        std::cerr << "fwi: note: " << flag << " has no effect without " << needs
                                  << " (kept in the project's run options)\n";
                };
                idle("--illumination-epsilon", obj.illumination, "--illumination");
                idle("--seed", obj.shots_per_iteration > 0, "--shots-per-iteration");
                idle("--memory", s.optimizer == "lbfgs", "--optimizer lbfgs");
            }
            // Said once the run has started (after the setup's checks), not before.
            const std::string restart_note =
                o->resume || p.history.empty()
                    ? std::string()
                    : "fwi: started again from the initial model (" + std::to_string(p.history.size()) +
                          " history entries are replaced as it goes; --resume continues instead)\n";
            if (!o->resume) {
                p.history.clear();
                p.optimizer_state.clear();
            }
            if (!r.quiet)
                std::cerr << "fwi: inverting " << setup.observed.size() << " shots, " << setup.stages.size()
                          << " stage(s), " << s.optimizer << ", bounds " << s.min_velocity_mps << "-"
                          << s.max_velocity_mps << " m/s (Ctrl-C stops after saving)\n";
            CancelToken& cancel = interrupt_token();
            ShotCounter counter;
            std::int64_t counted = 0;
            const auto nshots = std::int64_t(setup.observed.size());
            const std::int64_t shots_per_evaluation =
                shots_computed_here(setup.objective.shots_per_iteration > 0
                                        ? std::min<std::int64_t>(setup.objective.shots_per_iteration, nshots)
                                        : nshots,
                                    setup.objective.batch_shots);
            IterationRecord pending;
            bool have_pending = false;
            int iterations_run = 0;
            nlohmann::json misfits = nlohmann::json::array(), errors = nlohmann::json::array();
            const auto on_iteration = [&](const IterationRecord& rec) {
                if (!r.quiet) {
                    char stage[32];
                    if (rec.freq_hz > 0)
                        std::snprintf(stage, sizeof stage, "%g Hz", rec.freq_hz);
                    else
                        std::snprintf(stage, sizeof stage, "unfiltered");
                    std::fprintf(stderr, "fwi: iteration %3d  stage %d (%s)  misfit %.6g", rec.iteration,
                                 rec.stage, stage, rec.misfit);
                    if (std::isfinite(rec.model_error))
                        std::fprintf(stderr, "  model error %.4f", rec.model_error);
                    std::fprintf(stderr, "  %.1f s", rec.seconds);
                    if (shots_per_evaluation > 0)
                        std::fprintf(stderr, ", %.3g evaluations",
                                     double(counter.shots - counted) / double(shots_per_evaluation));
                    std::fprintf(stderr, "\n");
                    counted = counter.shots;
                }
                misfits.push_back(rec.misfit);
                errors.push_back(number_or_null(rec.model_error));
                if (rec.iteration > 0) ++iterations_run;
                if (rec.iteration == 0) { // the start: no state yet, saved with the first iteration
                    if (!r.quiet) std::cerr << restart_note;
                    apply_record(p, rec);
                    return;
                }
                pending = rec;
                have_pending = true;
            };
            const auto on_state = [&](const OptimizerState& state) {
                if (have_pending) apply_record(p, pending);
                have_pending = false;
                p.optimizer_state = state;
                if (writes_outputs()) save_project_back_or_beside(o->project, p);
            };
            const InversionResult result = run_inversion(setup, &counter, &cancel, on_iteration, on_state);
            if (o->resume && iterations_run == 0 && result.reason != StopReason::Cancelled && !r.quiet)
                std::cerr
                    << "fwi: note: nothing left to run: the saved inversion has done the iterations asked "
                       "for (raise --iterations to go on)\n";
            if (result.history.size() == 1 && result.reason != StopReason::Cancelled)
                if (writes_outputs()) save_project_back_or_beside(o->project, p);
            // 3D: a picture per orthogonal slice through the middle, each titled with its position.
            std::vector<std::string> pictures;
            if (writes_outputs() && !o->png.empty())
                pictures = write_pictures(o->png, result.model, result.model.vp_mps,
                                          [&](const Model& slice, const std::vector<float>&) {
                                              return model_figure(slice, "Inverted model", s.min_velocity_mps,
                                                                  s.max_velocity_mps);
                                          });
            if (writes_outputs() && !o->report.empty()) {
                std::vector<std::pair<std::string, Model>> panels{{"START", setup.initial_model},
                                                                  {"RESULT", result.model}};
                if (!setup.true_model.vp_mps.empty()) panels.emplace_back("TRUE", setup.true_model);
                write_panels(o->report, panels, s.min_velocity_mps, s.max_velocity_mps, pictures);
                if (!p.history.empty()) {
                    write_history_png(o->report + "/history.png", p.history);
                    pictures.push_back(o->report + "/history.png");
                }
            }
            if (!r.quiet) {
                if (!result.warnings.empty()) std::cerr << "fwi: warning: " << result.warnings << "\n";
                std::cerr << "fwi: " << (result.reason == StopReason::Cancelled ? "interrupted" : "done")
                          << " after " << result.seconds << " s (" << result.evaluations
                          << " gradient evaluations, stop: " << to_string(result.reason) << "); saved "
                          << o->project << "\n";
            }
            if (result.reason == StopReason::Cancelled) throw Cancelled(); // exit code 130, project saved
            return {{"project", o->project},
                    {"iterations", int(result.history.size()) - (o->resume ? 0 : 1)},
                    {"evaluations", result.evaluations},
                    {"stop_reason", to_string(result.reason)},
                    {"resumed", o->resume},
                    {"misfit_history", misfits},
                    {"model_error_history", errors},
                    {"final_misfit", result.history.empty() ? nlohmann::json(nullptr)
                                                            : number_or_null(result.history.back().misfit)},
                    {"final_model_error", result.history.empty()
                                              ? nlohmann::json(nullptr)
                                              : number_or_null(result.history.back().model_error)},
                    {"seconds", result.seconds},
                    {"pictures", pictures}};
        };
    });
}

} // namespace fwi::cli
