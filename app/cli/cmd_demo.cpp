// fwi demo: the main job on a machine without a display. Builds a Marmousi-II project (true model and the
// usual smoothed start, 20 m grid, order 8), models the observed data, computes the gradient at the starting
// model, and writes gathers, gradient, pictures and a JSON summary.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/image.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/resources.hpp"
#include "interrupt.hpp"
#include "progress.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace fwi::cli {

namespace {

void write_model_png(const std::string& path, const Model& m, double vmin, double vmax) {
    write_png(path, {m.vp_mps.data(), m.grid.nz(), m.grid.nx()}, Colormap::Viridis, vmin, vmax, 2);
}

void write_gather_png(const std::string& path, const Gather& g) {
    // Receivers across, time down: transpose the (receivers, samples) traces.
    const auto nr = std::int64_t(g.receivers.size());
    std::vector<float> img(std::size_t(nr * g.samples));
    for (std::int64_t r = 0; r < nr; ++r)
        for (std::int64_t t = 0; t < g.samples; ++t)
            img[std::size_t(t * nr + r)] = g.traces[std::size_t(r * g.samples + t)];
    const double c = symmetric_clip(img, 0.98);
    write_png(path, {img.data(), g.samples, nr}, Colormap::Seismic, -c, c, 1);
}

} // namespace

void add_demo_command(CommandRegistry& r) {
    struct Options {
        std::string out = "fwi-demo", backend = "auto", schedule = "all";
        int shots = 10, receivers = 250;
        double freq_hz = 5, duration_s = 4;
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
    cmd->callback([o, &r] {
        *r.selected = [o, &r]() -> nlohmann::json {
            namespace fs = std::filesystem;
            fs::create_directories(o->out);
            const auto file = [&](const std::string& name) { return (fs::path(o->out) / name).string(); };
            Project p;
            Experiment& e = p.experiment;
            e.true_model = load_marmousi2("true");
            e.initial_model = load_marmousi2("smooth");
            e.current_model = e.initial_model;
            const Grid2D& g = e.true_model.grid;
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
            write_gather_png(file("observed_shot0.png"), observed.front());
            const std::string middle_shot_png = "observed_shot" + std::to_string(o->shots / 2) + ".png";
            write_gather_png(file(middle_shot_png), observed[std::size_t(o->shots / 2)]);

            ProgressBar bar("gradient", 2 * sim->time().inner_nt * shots, !r.quiet);
            GradientOptions opt;
            opt.settings = e.gradient;
            opt.observer = &bar;
            opt.cancel = &interrupt_token();
            const GradientResult gr = compute_gradient(*sim, e.initial_model, observed, opt);
            write_gathers(file("modelled_initial.npy"), gr.modelled);
            write_gather_png(file("modelled_initial_shot0.png"), gr.modelled.front());
            write_model_array(file("gradient.npy"), g, gr.gradient);
            const double c = symmetric_clip(gr.gradient, 0.98);
            write_png(file("gradient.png"), {gr.gradient.data(), g.nz(), g.nx()}, Colormap::Seismic, -c, c,
                      2);
            write_model_png(file("model_true.png"), e.true_model, 1500, 4800);
            write_model_png(file("model_initial.png"), e.initial_model, 1500, 4800);
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
            if (o->shots / 2 != 0) summary["outputs"].push_back(middle_shot_png);
            std::ofstream(file("summary.json")) << summary.dump(2) << "\n";
            if (!r.quiet)
                std::cerr << "fwi demo: misfit " << gr.misfit << ", gradient in " << gr.seconds
                          << " s; results in " << o->out
                          << "/ (gathers, gradient, pictures, marmousi2.fwi)\n";
            return summary;
        };
    });
}

} // namespace fwi::cli
