// fwi export: a project's models, last gradient, inversion history and wavefield snapshots as ParaView files
// (.vti images; .pvd series for the history and the wavefield).
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/events.hpp"
#include "fwi/project.hpp"
#include "fwi/project_export.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/simulation.hpp"
#include "fwi/vti_export.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

namespace fwi::cli {
namespace {

namespace fs = std::filesystem;

struct ExportOptions {
    std::string project, what, out, model = "all";
    int shot = 0;
    std::int64_t every = 0;
};

std::string numbered(const char* stem, std::int64_t n) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%05lld.vti", stem, static_cast<long long>(n));
    return name;
}

fs::path output_directory(const std::string& out) {
    make_output_directory(out, "--out");
    return fs::path(out);
}

nlohmann::json export_models(const Experiment& e, const ExportOptions& o) {
    return {{"files", {o.out}}, {"arrays", export_models_vti(e, o.out, o.model)}};
}

nlohmann::json export_gradient(const Project& p, const ExportOptions& o) {
    export_gradient_vti(p, o.out);
    return {{"files", {o.out}}, {"arrays", {"gradient", "vp_mps"}}};
}

nlohmann::json export_history(const Project& p, const ExportOptions& o) {
    const fs::path dir(o.out); // made by export_history_series once it knows there is a history
    const auto files = export_history_series(p, dir, dir / "history.pvd");
    return {{"files", files.size() + 1}, {"series", (dir / "history.pvd").string()}};
}

/// Writes the model-region pressure every `every` inner steps as it is computed.
class SnapshotWriter final : public Observer {
  public:
    SnapshotWriter(fs::path dir, Grid grid, std::int64_t every, double inner_dt_s)
        : dir_(std::move(dir)), grid_(grid), every_(every), dt_(inner_dt_s) {}
    bool wants_field(FieldKind kind, std::int64_t step) override {
        return kind == FieldKind::ForwardWavefield && step % every_ == 0;
    }
    void on_field(FieldKind, std::int64_t step, ConstFieldView field) override {
        const fs::path file = dir_ / numbered("wavefield", step);
        write_vti(file, grid_, {{"pressure", field}});
        series_.push_back({double(step) * dt_, file});
    }
    const std::vector<PvdEntry>& series() const { return series_; }

  private:
    fs::path dir_;
    Grid grid_;
    std::int64_t every_;
    double dt_;
    std::vector<PvdEntry> series_;
};

nlohmann::json export_wavefield(const Project& p, const ExportOptions& o) {
    const Experiment& e = p.experiment;
    const int shots = int(e.acquisition.shots.size());
    if (o.shot < 0 || o.shot >= shots)
        throw ConfigError("--shot " + std::to_string(o.shot) + ": the project has shots 0.." +
                          std::to_string(shots - 1));
    Model model;
    if (o.model == "true" || (o.model == "all" && !e.true_model.vp_mps.empty()))
        model = e.true_model;
    else if (o.model == "initial")
        model = e.initial_model;
    else
        model = working_model(e);
    if (model.vp_mps.empty()) throw ConfigError("the project has no " + o.model + " model");
    auto sim = make_simulation(e, "auto");
    sim->set_model(model);
    const std::int64_t steps = sim->time().inner_nt;
    // The simulation reports fields at the end of its calls (forward_steps_per_call): a multiple of them.
    const std::int64_t chunk = forward_steps_per_call(
        steps, std::int64_t(e.acquisition.shots[std::size_t(o.shot)].receivers.size()));
    std::int64_t every = o.every > 0 ? o.every : std::max<std::int64_t>(1, steps / 50);
    if (every > steps)
        throw ConfigError("--every " + std::to_string(o.every) + ": the run has only " +
                          std::to_string(steps) + " inner steps, so no snapshot would be written");
    every = std::max(chunk, (every + chunk - 1) / chunk * chunk);
    const fs::path dir = output_directory(o.out);
    SnapshotWriter writer(dir, model.grid, every, sim->time().inner_dt_s);
    sim->forward({o.shot}, &writer);
    write_pvd(dir / "wavefield.pvd", writer.series());
    return {{"files", writer.series().size() + 1},
            {"series", (dir / "wavefield.pvd").string()},
            {"every_inner_steps", every},
            {"inner_dt_s", sim->time().inner_dt_s}};
}

} // namespace

void add_export_command(CommandRegistry& r) {
    auto o = std::make_shared<ExportOptions>();
    CLI::App* cmd = r.app.add_subcommand(
        "export", "write models, the gradient, the inversion history or wavefield snapshots for ParaView");
    cmd->add_option("project", o->project, "project file (.fwi)")->required();
    cmd->add_option(
           "what", o->what,
           "model (.vti) | gradient (.vti) | history (directory: .vti per iteration + history.pvd) | "
           "wavefield (directory: .vti per snapshot + wavefield.pvd)")
        ->required()
        ->check(CLI::IsMember({"model", "gradient", "history", "wavefield"}));
    cmd->add_option("-o,--out", o->out,
                    "output .vti file (model, gradient) or directory (history, wavefield)")
        ->required();
    cmd->add_option(
           "--model", o->model,
           "model: all | true | initial | current (default all); wavefield: which model to propagate in "
           "(default the true model, else the current one)")
        ->check(CLI::IsMember({"all", "true", "initial", "current"}));
    cmd->add_option("--shot", o->shot, "wavefield: shot index (default 0)");
    cmd->add_option("--every", o->every,
                    "wavefield: inner steps between snapshots (default: about 50 snapshots)")
        ->check(CLI::Range(std::int64_t(1), std::int64_t(1) << 40));
    cmd->callback([o, cmd, &r] {
        *r.selected = [o, cmd, &r]() -> nlohmann::json {
            refuse_options_the_kind_ignores(
                "export", o->what, [cmd](const char* flag) { return cmd->count(flag) > 0; },
                {{"--model", {"model", "wavefield"}}, {"--shot", {"wavefield"}}, {"--every", {"wavefield"}}});
            const Project p = load_project(o->project);
            if ((o->what == "model" || o->what == "gradient") && extension_of(o->out) != ".vti")
                throw ConfigError("--out " + o->out + ": " + o->what + " is written as a .vti file");
            nlohmann::json j;
            try {
                j = o->what == "model"      ? export_models(p.experiment, *o)
                    : o->what == "gradient" ? export_gradient(p, *o)
                    : o->what == "history"  ? export_history(p, *o)
                                            : export_wavefield(p, *o);
            } catch (const ConfigError& e) { // core's messages say "the project": name it
                throw ConfigError(o->project + ": " + e.what());
            }
            j["what"] = o->what;
            j["out"] = o->out;
            if (!r.quiet)
                std::cerr << "fwi: exported " << o->what << " of " << o->project << " to " << o->out << "\n";
            return j;
        };
    });
}

} // namespace fwi::cli
