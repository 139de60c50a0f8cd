// fwi new: make a project from a model, an acquisition pattern and propagation settings.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/acquisition_check.hpp"
#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/npy.hpp"
#include "fwi/project.hpp"
#include "fwi/propagator.hpp"
#include "fwi/simulation.hpp"
#include "fwi/smoothing.hpp"
#include "fwi/time_axis.hpp"
#include "survey_options.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

namespace fwi::cli {

namespace {

/// What `fwi new` was given.
struct NewOptions {
    std::string project, model, initial;
    RawLayout layout;
    bool z_major = false, force = false;
    double resample_m = 0, smooth_m = 0;
    int shots = 10, receivers = 100;
    // Not given = the default (a given negative value is a position, refused if outside the model).
    std::optional<double> sx0, sx1, sz, rx0, rx1, rz;
    AreaOptions area;
    double duration_s = 0;
    PropagationSettings prop;
    std::string wavelet;
    CLI::Option* shots_option = nullptr;
    CLI::Option* receivers_option = nullptr;
    CLI::Option* max_velocity_option = nullptr;
};

/// A project (with its observed data and history), or any other file given by mistake (a model), is not
/// replaced unless asked.
void refuse_to_replace(const std::string& path, bool force) {
    std::error_code ec;
    const auto status = std::filesystem::symlink_status(path, ec);
    if (!std::filesystem::exists(status)) return;
    if (std::filesystem::is_directory(status))
        throw ConfigError("'" + path + "' is a directory; name the project file to create");
    if (!force)
        throw ConfigError("'" + path +
                          "' exists; `fwi new` would replace it and everything in it (observed "
                          "data, results, history): give --force to replace it, or another name");
}

/// Values that parse but mean nothing, refused before any work: a length given as 0, negative or NaN (they
/// used to mean "the default" without a word) and a position that is not finite.
void refuse_unusable_values(const NewOptions& o, const CLI::App& cmd) {
    for (const auto& [flag, value] : {std::pair{"--duration", o.duration_s},
                                      {"--resample", o.resample_m},
                                      {"--smooth", o.smooth_m},
                                      {"--receiver-spacing", o.area.receiver_spacing_m}})
        if (cmd.count(flag) > 0 && (!(value > 0) || !std::isfinite(value))) {
            std::ostringstream msg;
            msg << flag << " " << value << ": give a positive, finite number";
            throw ConfigError(msg.str());
        }
    for (const auto& [flag, value] : {std::pair{"--source-x0", o.sx0},
                                      {"--source-x1", o.sx1},
                                      {"--source-z", o.sz},
                                      {"--receiver-x0", o.rx0},
                                      {"--receiver-x1", o.rx1},
                                      {"--receiver-z", o.rz},
                                      {"--source-y0", o.area.sy0},
                                      {"--source-y1", o.area.sy1},
                                      {"--receiver-y0", o.area.ry0},
                                      {"--receiver-y1", o.area.ry1}})
        if (value && !std::isfinite(*value))
            throw ConfigError(std::string(flag) + " " + std::to_string(*value) + ": not a finite position");
}

/// The options that say how to read a model file, refused where no given model reads them: a built-in
/// model has its own grid, spacing and units, and a .npy, SEG-Y or HDF5 file its own shape, so the option
/// would be ignored without a word (`--nz 800` with builtin:salt3d made 61 x 81 x 81 cells).
void refuse_layout_options_nothing_reads(const NewOptions& o, const CLI::App& cmd) {
    std::vector<std::string> specs{o.model};
    if (!o.initial.empty()) specs.push_back(o.initial);
    const auto builtin = [](const std::string& spec) { return spec.rfind("builtin:", 0) == 0; };
    const auto raw = [&](const std::string& spec) { return !builtin(spec) && is_raw_model_file(spec); };
    const bool any_raw = std::any_of(specs.begin(), specs.end(), raw);
    const bool any_file = !std::all_of(specs.begin(), specs.end(), builtin);
    const bool one = specs.size() == 1;
    const std::string models = one ? "--model " + o.model : "--model and --initial";
    for (const char* flag : {"--nz", "--nx", "--ny", "--z-major"})
        if (cmd.count(flag) > 0 && !any_raw)
            throw ConfigError(
                std::string(flag) +
                " is for raw float32 model files, whose shape and order the file does not hold; " + models +
                (any_file ? (one ? " holds them itself" : " hold them themselves")
                          : (one ? " has its own grid" : " have their own grids") +
                                std::string(" (--resample changes the spacing)")));
    for (const char* flag : {"--dz", "--dx", "--dy", "--units", "--dataset"})
        if (cmd.count(flag) > 0 && !any_file)
            throw ConfigError(std::string(flag) + " is for model files; " + models +
                              (one ? " has its own grid" : " have their own grids") +
                              " and velocities in m/s (--resample changes the spacing)");
}

/// A wavelet file is one trace of finite samples, not all zero: a NaN made every trace NaN at the first run,
/// a 2D array was read as one trace row after row, and zeros make data of zeros.
void check_wavelet(const NpyArray& a, const std::string& path) {
    if (a.shape.size() != 1)
        throw ConfigError("wavelet " + path + " is a " + std::to_string(a.shape.size()) +
                          "D array; give one trace (a 1D array of nt samples)");
    for (std::size_t i = 0; i < a.data.size(); ++i)
        if (!std::isfinite(a.data[i]))
            throw ConfigError("wavelet " + path + ": sample " + std::to_string(i) + " is not finite");
    if (std::all_of(a.data.begin(), a.data.end(), [](float w) { return w == 0.0f; }))
        throw ConfigError("wavelet " + path + " is all zeros: the data would be zeros");
}

/// A reference velocity below the models' would fix a time step that violates the CFL condition.
void check_reference_velocity(double given_mps, double models_mps) {
    if (given_mps >= models_mps && std::isfinite(given_mps)) return;
    std::ostringstream msg;
    msg << "--max-velocity " << given_mps << " m/s: ";
    if (!std::isfinite(given_mps))
        msg << "not a finite velocity";
    else
        msg << "below the models' largest velocity " << models_mps
            << " m/s, so the time step it fixes would violate the CFL condition (give at least " << models_mps
            << " m/s, or leave it out)";
    throw ConfigError(msg.str());
}

} // namespace

void add_new_command(CommandRegistry& r) {
    auto o = std::make_shared<NewOptions>();
    CLI::App* cmd =
        r.app.add_subcommand("new", "make a project (.fwi) from a model and an acquisition pattern");
    cmd->add_option("project", o->project, "project file to create (.fwi)")->required();
    cmd->add_option("--model", o->model, "true model: a file (.npy .segy .h5 or raw) or builtin:NAME")
        ->required();
    cmd->add_flag("--force", o->force, "replace the project file if it exists (default: refuse)");
    cmd->add_option("--initial", o->initial,
                    "initial model (file or builtin:NAME); default: the true model smoothed");
    cmd->add_option("--smooth", o->smooth_m,
                    "Gaussian smoothing length (m) for the default initial model; default 4 cells x 10");
    cmd->add_option("--nz", o->layout.nz, "raw files: cells in z");
    cmd->add_option("--nx", o->layout.nx, "raw files: cells in x");
    cmd->add_option("--ny", o->layout.ny, "raw files: cells in y (makes the file a 3D volume)");
    cmd->add_option("--dz", o->layout.dz_m, "cell size in z (m), where the file does not say");
    cmd->add_option("--dx", o->layout.dx_m, "cell size in x (m), where the file does not say");
    cmd->add_option("--dy", o->layout.dy_m, "cell size in y (m) of a 3D model, where the file does not say");
    cmd->add_option("--dataset", o->layout.dataset,
                    "HDF5 models: the dataset to read (default: 'vp', else the only 2D or 3D float dataset)");
    cmd->add_option("--units", o->layout.units, "auto | m/s | km/s")
        ->check(CLI::IsMember({"auto", "m/s", "km/s"}));
    cmd->add_flag("--z-major", o->z_major, "raw files are (z, x) with x fast (default: x-major, z fast)");
    cmd->add_option("--resample", o->resample_m,
                    "resample the models to this spacing (m; averaged over the new cells when coarser)");
    o->shots_option = cmd->add_option("--shots", o->shots, "number of shots along the source line")
                          ->check(CLI::Range(1, 100000));
    cmd->add_option("--source-x0", o->sx0, "first source x (m); default 5% of the width");
    cmd->add_option("--source-x1", o->sx1, "last source x (m); default 95% of the width");
    cmd->add_option("--source-z", o->sz, "source depth (m); default 2 cells");
    o->receivers_option =
        cmd->add_option("--receivers", o->receivers, "receivers per shot")->check(CLI::Range(1, 1000000));
    cmd->add_option("--receiver-x0", o->rx0, "first receiver x (m); default 0");
    cmd->add_option("--receiver-x1", o->rx1, "last receiver x (m); default the width");
    cmd->add_option("--receiver-z", o->rz, "receiver depth (m); default 2 cells");
    add_area_options(cmd, o->area);
    cmd->add_option("--freq", o->prop.freq_hz, "Ricker peak frequency (Hz)");
    cmd->add_option("--dt", o->prop.dt_s, "data sample interval (s)");
    cmd->add_option("--nt", o->prop.nt, "data samples per trace");
    cmd->add_option("--duration", o->duration_s, "record length (s); sets nt from dt");
    cmd->add_option("--order", o->prop.order, "spatial order")->check(CLI::IsMember({2, 4, 6, 8}));
    cmd->add_option("--pml", o->prop.pml_width, "PML width (cells)")->check(CLI::Range(0, 1000));
    cmd->add_flag("--free-surface", o->prop.free_surface,
                  "pressure-free top (z = 0) instead of an absorbing one: surface reflections and ghosts "
                  "(sources and receivers below z = 0)");
    o->max_velocity_option =
        cmd->add_option("--max-velocity", o->prop.max_velocity_mps,
                        "CFL/PML reference velocity (m/s, at least the models' maximum); "
                        "default the models' maximum");
    cmd->add_option("--wavelet", o->wavelet, "source wavelet (.npy, nt samples at dt) instead of a Ricker");
    // Options that say the same thing two ways: one of them would be dropped without a word.
    const auto exclude = [cmd](const char* a, const char* b) {
        cmd->get_option(a)->excludes(cmd->get_option(b));
    };
    exclude("--duration", "--nt");
    exclude("--shots", "--shots-x");
    for (const char* count : {"--receivers", "--receivers-x", "--receivers-y"})
        exclude("--receiver-spacing", count);
    for (const char* line : {"--shots", "--shots-x", "--shots-y", "--source-x0", "--source-x1", "--source-z",
                             "--source-y0", "--source-y1"})
        exclude("--source-file", line);
    for (const char* line :
         {"--receivers", "--receivers-x", "--receivers-y", "--receiver-x0", "--receiver-x1", "--receiver-z",
          "--receiver-y0", "--receiver-y1", "--receiver-spacing"})
        exclude("--receiver-file", line);
    cmd->callback([o, cmd, &r] {
        *r.selected = [o, cmd, &r]() -> nlohmann::json {
            refuse_to_replace(o->project, o->force);
            // Another name would read as a model or data file elsewhere (`--model out.h5` is not a model).
            if (extension_of(o->project) != ".fwi")
                throw ConfigError("'" + o->project + "': a project file's name ends in .fwi");
            refuse_unusable_values(*o, *cmd);
            refuse_layout_options_nothing_reads(*o, *cmd);
            o->layout.x_major = !o->z_major;
            Model truth = load_model_spec(o->model, o->layout, r.quiet);
            if (cmd->count("--dy") > 0 && truth.grid.rank == 2)
                throw ConfigError("--dy needs a 3D model (this one is 2D)");
            if (o->resample_m > 0) truth = resample_model(truth, o->resample_m, o->resample_m, o->resample_m);
            Model initial;
            if (!o->initial.empty()) {
                initial = load_model_spec(o->initial, o->layout, r.quiet);
                if (o->resample_m > 0)
                    initial = resample_model(initial, o->resample_m, o->resample_m, o->resample_m);
                if (!(initial.grid == truth.grid))
                    throw ConfigError("the initial model's grid (" + grid_text(initial.grid) +
                                      ") differs from the true model's (" + grid_text(truth.grid) + ")");
            } else {
                const double sigma =
                    o->smooth_m > 0 ? o->smooth_m : 10 * std::max(truth.grid.dx(), truth.grid.dz());
                initial = smoothed_model(truth, sigma);
            }
            const Grid& g = truth.grid;
            const double w = g.width_m();
            const double sz = o->sz.value_or(2 * g.dz()), rz = o->rz.value_or(2 * g.dz());
            SurveyLayout line;
            line.shots = o->shots;
            line.receivers = o->receivers;
            line.shots_given = o->shots_option->count() > 0;
            line.receivers_given = o->receivers_option->count() > 0;
            line.sources = {1, 1, o->sx0.value_or(0.05 * w), o->sx1.value_or(0.95 * w), 0, 0, sz};
            line.receiver_line = {1, 1, o->rx0.value_or(0), o->rx1.value_or(w), 0, 0, rz};
            Project p;
            p.experiment.true_model = truth;
            p.experiment.initial_model = initial;
            p.experiment.current_model = initial;
            p.experiment.acquisition = make_survey(g, line, o->area);
            validate_acquisition(p.experiment.acquisition, g);
            const auto shots = p.experiment.acquisition.shots.size();
            const auto receivers = p.experiment.acquisition.shots.front().receivers.size();
            PropagationSettings prop = o->prop;
            if (prop.free_surface) validate_points_below_free_surface(p.experiment.acquisition, g);
            if (o->duration_s > 0) prop.nt = std::int64_t(std::llround(o->duration_s / prop.dt_s)) + 1;
            if (!o->wavelet.empty()) {
                NpyArray a = read_npy(o->wavelet);
                check_wavelet(a, o->wavelet);
                prop.wavelet = a.data;
                if (std::int64_t(prop.wavelet.size()) != prop.nt)
                    throw ConfigError("wavelet " + o->wavelet + " has " +
                                      std::to_string(prop.wavelet.size()) + " samples; nt is " +
                                      std::to_string(prop.nt));
            }
            p.experiment.propagation = prop;
            const double v_models = std::max(truth.max_velocity(), initial.max_velocity());
            if (o->max_velocity_option->count() > 0)
                check_reference_velocity(prop.max_velocity_mps, v_models);
            const double vref = prop.max_velocity_mps > 0 ? prop.max_velocity_mps : v_models;
            // Settings no run could use are refused now, not at the first run: a frequency that is not one,
            // CFL-impossible time axes, a model smaller than the stencil.
            if (!(prop.freq_hz > 0) || !std::isfinite(prop.freq_hz)) {
                std::ostringstream msg;
                msg << "--freq " << prop.freq_hz
                    << " Hz: the source frequency must be positive and finite (it "
                    << "also tunes the PML)";
                throw ConfigError(msg.str());
            }
            const TimeAxis t = make_time_axis(g, vref, prop);
            // The inversion's bounds default to the models' range: its upper bound fixes the inversion's time
            // step, and a higher one (the old fixed 5000 m/s) made `invert` model on a finer step than
            // `forward` and `gradient`, so its misfit differed from theirs and was not 0 at the true model.
            InversionSettings& bounds = p.experiment.inversion;
            bounds.max_velocity_mps = vref;
            bounds.min_velocity_mps = std::min(
                bounds.min_velocity_mps, double(std::min(truth.min_velocity(), initial.min_velocity())));
            validate_propagator_setup(make_propagator_setup(g, prop, t, vref));
            const double min_velocity = std::min(truth.min_velocity(), initial.min_velocity());
            check_grid_resolves_source(g, min_velocity, prop.freq_hz);
            const std::string warning = dispersion_warning(g, min_velocity, prop.freq_hz);
            std::vector<std::string> warnings = propagation_warnings(g, min_velocity, prop);
            if (std::string data = data_memory_warning(p.experiment.acquisition, prop.nt); !data.empty())
                warnings.push_back(std::move(data));
            if (!r.quiet)
                for (const std::string& text : warnings)
                    std::cerr << "fwi: warning: " << text << "\n";
            p.metadata["created_by"] = "fwi new";
            p.metadata["model_source"] = o->model;
            save_project(o->project, p);
            if (!r.quiet)
                std::cerr << "fwi: wrote " << o->project << ": " << g.nz() << " x "
                          << (g.rank == 3 ? std::to_string(g.ny()) + " x " : "") << g.nx() << " cells, "
                          << shots << " shots x " << receivers << " receivers, " << prop.nt << " samples at "
                          << prop.dt_s << " s (" << t.step_ratio << " inner steps per sample)\n";
            nlohmann::json out = {{"project", o->project},
                                  {"rank", g.rank},
                                  {"nz", g.nz()},
                                  {"nx", g.nx()},
                                  {"dz_m", g.dz()},
                                  {"dx_m", g.dx()},
                                  {"shots", shots},
                                  {"receivers", receivers},
                                  {"nt", prop.nt},
                                  {"dt_s", prop.dt_s},
                                  {"step_ratio", t.step_ratio},
                                  {"inner_dt_s", t.inner_dt_s},
                                  {"warning", warning},
                                  {"warnings", warnings}};
            if (g.rank == 3) {
                out["ny"] = g.ny();
                out["dy_m"] = g.dy();
            }
            return out;
        };
    });
}

} // namespace fwi::cli
