// The 3D demo (its experiment: fwi/demo_3d.hpp): Marmousi-II extruded along y at 40 m (88 x ny x 251 cells),
// one shot in the middle of an areal receiver grid, order 8, 3 Hz, 3.5 s (876 samples, 1752 inner steps). Its
// gradient keeps 876 snapshots (every other inner step: the data hold nothing above their Nyquist frequency)
// of a 3.1M-cell padded grid if it stores them all (over 10 GB); `auto` under the default 1.5 GB budget picks
// a checkpoint schedule that fits, and the summary says what it picked, what store-all would have needed and
// what the run held at its peak.
#include "demo_3d.hpp"

#include "cli_common.hpp"
#include "fwi/byte_text.hpp"
#include "fwi/demo_3d.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/standard_figures.hpp"
#include "fwi/text_file.hpp"
#include "interrupt.hpp"
#include "progress.hpp"
#include "slice_pictures.hpp"
#include "snapshot_at.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace fwi::cli {

namespace {

/// What keeping every snapshot would hold at its peak (the performance model's store-all prediction).
std::uint64_t store_all_need(Simulation& sim, const GradientSettings& settings) {
    GradientSettings all = settings;
    all.schedule = "all";
    all.compression = "none";
    all.budget_bytes = 0;
    all.disk_budget_bytes = 0;
    return resolve_plan(sim, all).prediction.peak_total_bytes;
}

} // namespace

nlohmann::json run_demo_3d(const Demo3DOptions& o, bool quiet) {
    namespace fs = std::filesystem;
    if (o.out.empty()) throw ConfigError("--out: name the directory for the demo's files");
    make_output_directory(o.out, "--out");
    const auto file = [&](const std::string& name) { return (fs::path(o.out) / name).string(); };

    Project p;
    p.experiment = demo_3d_experiment({o.ny, o.shots, o.freq_hz, o.duration_s});
    Experiment& e = p.experiment;
    const Grid& g = e.true_model.grid;
    e.gradient.schedule = o.schedule;
    e.gradient.compression = o.compression;
    apply_budget(e.gradient, o.budget);
    p.metadata["created_by"] = "fwi demo --3d";

    auto sim = make_simulation(e, o.backend);
    sim->set_model(e.initial_model);
    const std::uint64_t need = store_all_need(*sim, e.gradient);
    const ResolvedPlan plan = resolve_plan(*sim, e.gradient);
    const auto shots = std::int64_t(o.shots);
    if (!quiet)
        std::cerr << "fwi demo --3d: Marmousi-II extruded, " << grid_text(g) << ", " << o.shots
                  << " shot(s) x " << e.acquisition.shots.front().receivers.size() << " receivers, order 8, "
                  << sim->time().inner_nt << " steps per shot on " << backend_device_name(o.backend)
                  << "\nfwi demo --3d: storing every snapshot would hold " << bytes_text(need)
                  << "; the budget is " << bytes_text(e.gradient.budget_bytes) << ", so the gradient runs "
                  << plan.schedule << " (predicted " << plan.prediction.total_s * double(shots) << " s)\n";

    sim->set_model(e.true_model);
    ProgressBar fwd("observed", sim->time().inner_nt * shots, !quiet);
    const auto observed = sim->forward({}, &fwd, &interrupt_token());
    p.observed = to_records(observed);
    write_gathers(file("observed.h5"), observed);
    save_project(file("marmousi2-3d.fwi"), p); // the project with its data, whatever the gradient does

    // A snapshot of the first shot at 40% of the record, sliced through the source.
    SnapshotAt snap(std::int64_t(0.4 * double(sim->time().inner_nt)));
    sim->forward({0}, &snap);
    const Point& source = e.acquisition.shots.front().source;
    const std::array<std::int64_t, 3> at_source{std::llround(source.z_m / g.dz()),
                                                std::llround(source.y_m / g.dy()),
                                                std::llround(source.x_m / g.dx())};
    std::vector<std::string> pictures;
    const auto keep = [&](const std::vector<std::string>& written) {
        for (const auto& path : written)
            pictures.push_back(fs::path(path).filename().string());
    };
    if (snap.step() >= 0) {
        char title[96];
        std::snprintf(title, sizeof title, "Wavefield, t = %.2f s",
                      double(snap.step()) * sim->time().inner_dt_s);
        keep(write_pictures(
            file("wavefield.png"), e.true_model, snap.pressure(),
            [&](const Model& m, const std::vector<float>& v) { return wavefield_figure(m, v, title); },
            at_source));
    }

    const PlanCounts& c = plan.prediction.counts;
    ProgressBar bar("gradient", (c.advance_steps + c.reverse_forward_steps + c.reverse_steps) * shots,
                    !quiet);
    GradientOptions opt;
    opt.settings = e.gradient;
    opt.observer = &bar;
    opt.cancel = &interrupt_token();
    opt.keep_modelled = false;
    const GradientResult gr = compute_gradient(*sim, e.initial_model, observed, opt);
    write_model_array(file("gradient.npy"), g, gr.gradient);
    keep(write_pictures(
        file("gradient.png"), e.initial_model, gr.gradient,
        [](const Model& m, const std::vector<float>& v) { return gradient_figure(m, v, "Misfit gradient"); },
        at_source));
    keep(write_pictures(file("model_true.png"), e.true_model, e.true_model.vp_mps,
                        [](const Model& m, const std::vector<float>&) {
                            return model_figure(m, "Marmousi-II 3D, true model", 1500, 4800);
                        }));
    keep(write_pictures(file("model_initial.png"), e.initial_model, e.initial_model.vp_mps,
                        [](const Model& m, const std::vector<float>&) {
                            return model_figure(m, "Marmousi-II 3D, initial model", 1500, 4800);
                        }));
    p.gradient = gr.gradient;
    p.misfit = gr.misfit;
    save_project(file("marmousi2-3d.fwi"), p);

    std::uint64_t peak_held = 0;
    for (std::uint64_t bytes : gr.peak_bytes_per_tier)
        peak_held += bytes;
    nlohmann::json summary{{"project", file("marmousi2-3d.fwi")},
                           {"grid", {g.nz(), g.ny(), g.nx()}},
                           {"spacing_m", g.dx()},
                           {"shots", o.shots},
                           {"inner_steps", sim->time().inner_nt},
                           {"store_all_need_bytes", need},
                           {"budget_bytes", e.gradient.budget_bytes},
                           {"schedule", gr.schedule},
                           {"peak_bytes_per_tier", gr.peak_bytes_per_tier},
                           {"peak_held_bytes", peak_held},
                           {"misfit", gr.misfit},
                           {"forward_steps", gr.forward_steps},
                           {"recompute_steps", gr.recompute_steps},
                           {"adjoint_steps", gr.adjoint_steps},
                           {"predicted_seconds", gr.predicted_seconds},
                           {"gradient_seconds", gr.seconds},
                           {"outputs", pictures}};
    summary["outputs"].push_back("observed.h5");
    summary["outputs"].push_back("gradient.npy");
    write_text_file(file("summary.json"), summary.dump(2) + "\n");
    if (!quiet)
        std::cerr << "fwi demo --3d: misfit " << gr.misfit << ", gradient in " << gr.seconds << " s with "
                  << gr.schedule << ", peak " << bytes_text(peak_held)
                  << " held (store-all: " << bytes_text(need) << "); results in " << o.out << "/\n";
    return summary;
}

} // namespace fwi::cli
