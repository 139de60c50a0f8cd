// fwi demo: the main job on a machine without a display. Builds a Marmousi-II project (true model and the
// usual smoothed start, 20 m grid, order 8), models the observed data, computes the gradient at the starting
// model, and writes gathers, gradient, pictures (models, gathers, gradient, a wavefield snapshot of the
// middle shot) and a JSON summary.
#include "cli_common.hpp"
#include "commands.hpp"
#include "demo_3d.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/resources.hpp"
#include "fwi/standard_figures.hpp"
#include "fwi/text_file.hpp"
#include "interrupt.hpp"
#include "progress.hpp"
#include "snapshot_at.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

namespace fwi::cli {

namespace {

void write_gather_picture(const std::string& path, const Gather& g, const std::string& title) {
    std::vector<float> image;
    write_figure(path, gather_figure(g, image, title, 98)); // 98th: the direct wave holds the top 1%
}

} // namespace

void add_demo_command(CommandRegistry& r) {
    struct Options {
        std::string out = "fwi-demo", backend = "auto", schedule = "all";
        int shots = 10, receivers = 250;
        double freq_hz = 5, duration_s = 4;
        bool three_d = false;
        Demo3DOptions demo3d;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd =
        r.app.add_subcommand("demo", "Marmousi-II demo: project, observed data, gradient, pictures");
    cmd->add_option("--out", o->out, "output directory");
    cmd->add_option("--shots", o->shots, "number of shots")->check(CLI::Range(1, 500));
    cmd->add_option("--receivers", o->receivers, "receivers per shot")->check(CLI::Range(1, 500));
    cmd->add_option("--freq", o->freq_hz, "Ricker peak frequency (Hz)")->check(CLI::Range(0.5, 20.0));
    cmd->add_option("--duration", o->duration_s, "record length (s)")->check(CLI::Range(0.5, 20.0));
    cmd->add_option("--schedule", o->schedule, "checkpoint schedule for the gradient");
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->add_flag(
        "--3d", o->three_d,
        "the 3D demo: Marmousi-II extruded along y at 40 m, a gradient whose store-all need is over "
        "10 GB run within --budget (defaults: 1 shot, 3 Hz, 3.5 s, schedule auto; docs/3d.md)");
    cmd->add_option("--budget", o->demo3d.budget, "--3d: RAM budget of the gradient (default 1.5G)");
    cmd->add_option("--compress", o->demo3d.compression, "--3d: codec of the gradient's checkpoints");
    cmd->add_option("--ny", o->demo3d.ny, "--3d: cells across (40 m each; default 64)")
        ->check(CLI::Range(8, 2000));
    // The 3D demo's own options mean nothing without --3d: refused rather than ignored.
    for (const char* option : {"--budget", "--compress", "--ny"})
        cmd->get_option(option)->needs(cmd->get_option("--3d"));
    cmd->callback([o, &r, cmd] {
        *r.selected = [o, &r, cmd]() -> nlohmann::json {
            if (o->three_d) {
                Demo3DOptions d = o->demo3d;
                d.backend = o->backend;
                if (cmd->count("--out")) d.out = o->out;
                if (cmd->count("--shots")) d.shots = o->shots;
                if (cmd->count("--freq")) d.freq_hz = o->freq_hz;
                if (cmd->count("--duration")) d.duration_s = o->duration_s;
                if (cmd->count("--schedule")) d.schedule = o->schedule;
                return run_demo_3d(d, r.quiet);
            }
            namespace fs = std::filesystem;
            if (o->out.empty()) throw ConfigError("--out: name the directory for the demo's files");
            make_output_directory(o->out, "--out");
            const auto file = [&](const std::string& name) { return (fs::path(o->out) / name).string(); };
            Project p;
            Experiment& e = p.experiment;
            e.true_model = load_marmousi2("true");
            e.initial_model = load_marmousi2("smooth");
            e.current_model = e.initial_model;
            const Grid& g = e.true_model.grid;
            e.acquisition = surface_survey(o->shots, 0.02 * g.width_m(), 0.98 * g.width_m(), 2 * g.dz(),
                                           o->receivers, 0, g.width_m(), 2 * g.dz());
            e.propagation.order = 8;
            e.propagation.freq_hz = o->freq_hz;
            e.propagation.dt_s = 0.004;
            e.propagation.nt = std::int64_t(o->duration_s / 0.004) + 1;
            e.gradient.schedule = o->schedule;
            p.metadata["created_by"] = "fwi demo";
            auto sim = make_simulation(e, o->backend);
            // Snapshots every step_ratio inner steps: the data hold nothing above the user's Nyquist
            // frequency.
            e.gradient.sampling_interval = sim->time().step_ratio;
            const auto shots = std::int64_t(o->shots);
            if (!r.quiet)
                std::cerr << "fwi demo: Marmousi-II " << g.nz() << " x " << g.nx() << " cells at " << g.dx()
                          << " m, " << o->shots << " shots, order 8, " << sim->time().inner_nt
                          << " steps per shot on " << backend_device_name(o->backend) << "\n";

            sim->set_model(e.true_model);
            ProgressBar fwd("observed", sim->time().inner_nt * shots, !r.quiet);
            const auto observed = sim->forward({}, &fwd, &interrupt_token());
            p.observed = to_records(observed);
            write_gathers(file("observed.npy"), observed);
            write_gathers(file("observed.segy"), observed);
            write_gather_picture(file("observed_shot0.png"), observed.front(), "Observed data, shot 0");
            const int middle = o->shots / 2;
            const std::string middle_shot_png = "observed_shot" + std::to_string(middle) + ".png";
            write_gather_picture(file(middle_shot_png), observed[std::size_t(middle)],
                                 "Observed data, shot " + std::to_string(middle));
            // One snapshot of the middle shot at 40% of the record, over the true model.
            SnapshotAt snap(std::int64_t(0.4 * double(sim->time().inner_nt)));
            sim->forward({middle}, &snap);
            const bool wavefield_drawn = snap.step() >= 0;
            if (wavefield_drawn) {
                char title[96];
                std::snprintf(title, sizeof title, "Wavefield, shot %d, t = %.2f s", middle,
                              double(snap.step()) * sim->time().inner_dt_s);
                write_figure(file("wavefield.png"), wavefield_figure(e.true_model, snap.pressure(), title));
            }

            ProgressBar bar("gradient", 2 * sim->time().inner_nt * shots, !r.quiet);
            GradientOptions opt;
            opt.settings = e.gradient;
            opt.observer = &bar;
            opt.cancel = &interrupt_token();
            const GradientResult gr = compute_gradient(*sim, e.initial_model, observed, opt);
            write_gathers(file("modelled_initial.npy"), gr.modelled);
            write_gather_picture(file("modelled_initial_shot0.png"), gr.modelled.front(),
                                 "Modelled data in the initial model, shot 0");
            write_model_array(file("gradient.npy"), g, gr.gradient);
            write_figure(file("gradient.png"), gradient_figure(e.initial_model, gr.gradient,
                                                               "Misfit gradient at the initial model"));
            write_figure(file("model_true.png"),
                         model_figure(e.true_model, "Marmousi-II, true model", 1500, 4800));
            write_figure(file("model_initial.png"),
                         model_figure(e.initial_model, "Marmousi-II, initial model (smoothed)", 1500, 4800));
            p.gradient = gr.gradient;
            p.misfit = gr.misfit;
            save_project(file("marmousi2.fwi"), p);

            nlohmann::json summary{{"project", file("marmousi2.fwi")},
                                   {"shots", o->shots},
                                   {"grid", {g.nz(), g.nx()}},
                                   {"spacing_m", g.dx()},
                                   {"inner_steps", sim->time().inner_nt},
                                   {"misfit", gr.misfit},
                                   {"forward_steps", gr.forward_steps},
                                   {"adjoint_steps", gr.adjoint_steps},
                                   {"peak_snapshot_bytes", gr.peak_snapshot_bytes},
                                   {"gradient_seconds", gr.seconds},
                                   {"outputs",
                                    {"observed.npy", "observed.segy", "observed_shot0.png",
                                     "modelled_initial.npy", "modelled_initial_shot0.png", "gradient.npy",
                                     "gradient.png", "model_true.png", "model_initial.png"}}};
            if (middle != 0) summary["outputs"].push_back(middle_shot_png);
            if (wavefield_drawn) summary["outputs"].push_back("wavefield.png");
            write_text_file(file("summary.json"), summary.dump(2) + "\n");
            if (!r.quiet)
                std::cerr << "fwi demo: misfit " << gr.misfit << ", gradient in " << gr.seconds
                          << " s; results in " << o->out
                          << "/ (gathers, gradient, pictures, marmousi2.fwi)\n";
            return summary;
        };
    });
}

} // namespace fwi::cli
