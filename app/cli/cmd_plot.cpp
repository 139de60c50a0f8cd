// fwi plot: publication pictures of a project's model, gradient, a shot gather or a wavefield snapshot (.png
// or .svg), with axes in m/km or s, a colour bar with units and, for signed fields, the stated percentile
// clip.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/simulation.hpp"
#include "fwi/standard_figures.hpp"
#include "slice_pictures.hpp"
#include "snapshot_at.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace fwi::cli {
namespace {

struct PlotOptions {
    std::string project, what, out, model, title;
    int shot = 0;
    double time_s = -1, percentile = 0; ///< percentile 0: 98 for gathers, else 99
    std::optional<double> vmin, vmax;   ///< not given: the model's own
};

const Model& chosen_model(const Experiment& e, const std::string& which) {
    const Model& m = which == "true" ? e.true_model : which == "initial" ? e.initial_model : e.current_model;
    if (m.vp_mps.empty()) throw ConfigError("the project has no " + which + " model");
    return m;
}

std::string capitalised(std::string s) {
    if (!s.empty()) s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

std::string seconds(double t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", t);
    return buf;
}

nlohmann::json plot(const Project& p, const PlotOptions& o) {
    const Experiment& e = p.experiment;
    const std::string which =
        !o.model.empty() ? o.model
                         : (o.what == "wavefield" && !e.true_model.vp_mps.empty() ? "true" : "current");
    const auto shot_index = [&](std::size_t shots) {
        if (o.shot < 0 || std::size_t(o.shot) >= shots)
            throw ConfigError("--shot " + std::to_string(o.shot) + ": the project has shots 0.." +
                              std::to_string(std::int64_t(shots) - 1));
        return std::size_t(o.shot);
    };
    // Gathers: the direct wave holds the top percent of |x|; a lower clip shows the reflections.
    const double percent = o.percentile > 0 ? o.percentile : o.what == "gather" ? 98 : 99;
    nlohmann::json j{{"what", o.what}, {"out", o.out}};
    if (o.what == "model") {
        const Model& m = chosen_model(e, which);
        // One colour scale for all three slices of a volume: the volume's own range unless given.
        const bool own_range = !o.vmin && !o.vmax;
        const double vmin = o.vmin.value_or(m.min_velocity()), vmax = o.vmax.value_or(m.max_velocity());
        if (!own_range && (!std::isfinite(vmin) || !std::isfinite(vmax) || !(vmin < vmax))) {
            std::ostringstream msg;
            msg << "colour scale " << vmin << " - " << vmax
                << " m/s (--vmin, --vmax): the minimum must be below "
                << "the maximum, both finite";
            throw ConfigError(msg.str());
        }
        double range[2] = {0, 0};
        j["pictures"] =
            write_pictures(o.out, m, m.vp_mps, [&](const Model& slice, const std::vector<float>&) {
                const Figure f = model_figure(
                    slice, o.title.empty() ? capitalised(which) + " model" : o.title,
                    m.grid.rank == 3 || !own_range ? vmin : 0, m.grid.rank == 3 || !own_range ? vmax : 0);
                range[0] = f.vmin, range[1] = f.vmax;
                return f;
            });
        j["model"] = which;
        j["range_mps"] = {range[0], range[1]};
    } else if (o.what == "gradient") {
        if (p.gradient.empty())
            throw ConfigError("project " + o.project + " holds no gradient: run `fwi gradient " + o.project +
                              " --store` first");
        double clip = 0;
        j["pictures"] = write_pictures(
            o.out, working_model(e), p.gradient, [&](const Model& m, const std::vector<float>& v) {
                const Figure f =
                    gradient_figure(m, v, o.title.empty() ? "Misfit gradient" : o.title, percent);
                clip = std::max(clip, f.vmax);
                return f;
            });
        j["clip"] = clip;
    } else if (o.what == "gather") {
        if (p.observed.empty())
            throw ConfigError("project " + o.project + " holds no observed data: run `fwi forward " +
                              o.project + " --store-observed` or `fwi import` first");
        const std::vector<Gather> gathers = observed_gathers(p);
        const std::size_t s = shot_index(gathers.size());
        std::vector<float> image;
        const Figure f =
            gather_figure(gathers[s], image,
                          o.title.empty() ? "Observed data, shot " + std::to_string(s) : o.title, percent);
        write_figure(o.out, f);
        j["shot"] = s;
        j["clip"] = f.vmax;
    } else {
        const Model& m = chosen_model(e, which);
        const std::size_t s = shot_index(e.acquisition.shots.size());
        auto sim = make_simulation(e, "auto");
        sim->set_model(m);
        const double dt = sim->time().inner_dt_s;
        const double duration = double(sim->time().inner_nt) * dt;
        const double t = o.time_s >= 0 ? o.time_s : 0.4 * duration;
        if (t > duration)
            throw ConfigError("--time " + std::to_string(t) + ": the record is " + seconds(duration) +
                              " long");
        SnapshotAt snap(std::int64_t(std::ceil(t / dt - 1e-9)));
        sim->forward({int(s)}, &snap);
        if (snap.step() < 0) throw ConfigError("no wavefield snapshot at or after " + seconds(t));
        const double at = double(snap.step()) * dt;
        // In 3D the slices go through the source, where the wavefield is.
        const Grid& g = m.grid;
        const Point& source = e.acquisition.shots[s].source;
        const std::array<std::int64_t, 3> centre{std::llround(source.z_m / g.dz()),
                                                 g.rank == 3 ? std::llround(source.y_m / g.dy()) : 0,
                                                 std::llround(source.x_m / g.dx())};
        double clip = 0;
        j["pictures"] = write_pictures(
            o.out, m, snap.pressure(),
            [&](const Model& slice, const std::vector<float>& v) {
                const Figure f = wavefield_figure(slice, v,
                                                  o.title.empty() ? "Wavefield, shot " + std::to_string(s) +
                                                                        ", t = " + seconds(at)
                                                                  : o.title,
                                                  percent);
                clip = std::max(clip, f.vmax);
                return f;
            },
            centre);
        j["shot"] = s;
        j["time_s"] = at;
        j["model"] = which;
        j["clip"] = clip;
    }
    if (o.what != "model") j["percentile"] = percent;
    return j;
}

} // namespace

void add_plot_command(CommandRegistry& r) {
    auto o = std::make_shared<PlotOptions>();
    CLI::App* cmd = r.app.add_subcommand(
        "plot",
        "pictures for publication (.png or .svg): model, gradient, gather or wavefield, with axes and scale");
    cmd->add_option("project", o->project, "project file (.fwi)")->required();
    cmd->add_option(
           "what", o->what,
           "model | gradient (the stored one) | gather (observed, one shot) | wavefield (a snapshot of one "
           "shot, over the model in grey)")
        ->required()
        ->check(CLI::IsMember({"model", "gradient", "gather", "wavefield"}));
    cmd->add_option("-o,--out", o->out, "output picture (.png or .svg)")->required();
    cmd->add_option("--model", o->model,
                    "true | initial | current: the model drawn (model: default current) or propagated in "
                    "(wavefield: default true, else current)")
        ->check(CLI::IsMember({"true", "initial", "current"}));
    cmd->add_option("--shot", o->shot, "gather, wavefield: shot index (default 0)");
    cmd->add_option("--time", o->time_s, "wavefield: snapshot time in s (default 40% of the record)")
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_option("--percentile", o->percentile,
                    "gradient, gather, wavefield: symmetric colour scale clipped at this percentile of |x| "
                    "(default 99; 98 for gathers)")
        ->check(CLI::Range(0.1, 100.0));
    cmd->add_option("--vmin", o->vmin, "model: colour scale minimum in m/s (default the model's own range)");
    cmd->add_option("--vmax", o->vmax, "model: colour scale maximum in m/s");
    cmd->add_option("--title", o->title, "title (default names the picture)");
    cmd->callback([o, cmd, &r] {
        *r.selected = [o, cmd, &r]() -> nlohmann::json {
            refuse_options_the_kind_ignores("plot", o->what,
                                            [cmd](const char* flag) { return cmd->count(flag) > 0; },
                                            {{"--model", {"model", "wavefield"}},
                                             {"--shot", {"gather", "wavefield"}},
                                             {"--time", {"wavefield"}},
                                             {"--percentile", {"gradient", "gather", "wavefield"}},
                                             {"--vmin", {"model"}},
                                             {"--vmax", {"model"}}});
            check_picture_name(o->out, "--out");
            const nlohmann::json j = plot(load_project(o->project), *o);
            if (!r.quiet) {
                std::string files;
                for (const auto& file : j.value("pictures", std::vector<std::string>{o->out}))
                    files += (files.empty() ? "" : ", ") + file;
                std::cerr << "fwi: " << o->what << " of " << o->project << " drawn in " << files << "\n";
            }
            return j;
        };
    });
}

} // namespace fwi::cli
