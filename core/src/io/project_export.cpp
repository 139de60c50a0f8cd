// A project's models, gradient and inversion history as .vti/.pvd files (see fwi/project_export.hpp).
#include "fwi/project_export.hpp"

#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/vti_export.hpp"

#include <cstdio>

namespace fwi {
namespace {

namespace fs = std::filesystem;

/// True when the model's values fill its own grid (a project may keep a model only as a shape).
bool fills(const Model& m) {
    return m.grid.cells() > 0 && std::int64_t(m.vp_mps.size()) == m.grid.cells();
}

ConstFieldView view_of(const std::vector<float>& values, const Grid& g) {
    return {values.data(), g.rows(), g.nx(), g.rank == 3 ? g.ny() : 0};
}

void make_directory(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir)) throw ResourceError("cannot create the folder " + dir.string());
}

std::string iteration_file_name(int iteration) {
    char name[40];
    std::snprintf(name, sizeof name, "iteration_%05d.vti", iteration);
    return name;
}

} // namespace

std::vector<std::string> export_models_vti(const Experiment& e, const fs::path& file,
                                           const std::string& which) {
    const Grid& grid = working_model(e).grid;
    std::vector<VtiArray> arrays;
    std::vector<std::string> names;
    const auto add = [&](const char* name, const Model& m) {
        if (which != "all" && which != name) return;
        if (!fills(m) || !(m.grid == grid)) return; // absent, or on another grid than the working model
        names.push_back(std::string("vp_") + name);
        arrays.push_back({names.back(), view_of(m.vp_mps, m.grid)});
    };
    add("true", e.true_model);
    add("initial", e.initial_model);
    add("current", e.current_model);
    if (arrays.empty())
        throw ConfigError(which == "all" ? std::string("the project has no model to export")
                                         : "the project has no " + which + " model to export");
    write_vti(file, grid, arrays);
    return names;
}

void export_gradient_vti(const Project& p, const fs::path& file) {
    const Model& m = working_model(p.experiment);
    if (p.gradient.empty())
        throw ConfigError("the project holds no gradient: run `fwi gradient PROJECT --store` first");
    if (!fills(m) || std::int64_t(p.gradient.size()) != m.grid.cells())
        throw ConfigError("the project's gradient does not match its model grid");
    write_vti(file, m.grid,
              {{"gradient", view_of(p.gradient, m.grid)}, {"vp_mps", view_of(m.vp_mps, m.grid)}});
}

std::vector<fs::path> export_history_series(const Project& p, const fs::path& vti_dir, const fs::path& pvd) {
    if (p.history.empty())
        throw ConfigError("the project holds no inversion history: run `fwi invert` first");
    make_directory(vti_dir);
    const Grid working_grid = working_model(p.experiment).grid;
    std::vector<PvdEntry> series;
    std::vector<fs::path> files;
    for (const IterationRecord& it : p.history) {
        const Grid& grid = fills(it.model) ? it.model.grid : working_grid;
        std::vector<VtiArray> arrays;
        if (fills(it.model)) arrays.push_back({"vp_mps", view_of(it.model.vp_mps, grid)});
        if (!it.gradient.empty() && std::int64_t(it.gradient.size()) == grid.cells())
            arrays.push_back({"gradient", view_of(it.gradient, grid)});
        if (arrays.empty()) continue; // an iteration kept only as numbers
        files.push_back(vti_dir / iteration_file_name(it.iteration));
        write_vti(files.back(), grid, arrays);
        series.push_back({double(it.iteration), files.back()});
    }
    if (series.empty()) throw ConfigError("the project's inversion history keeps no models or gradients");
    write_pvd(pvd, series);
    return files;
}

} // namespace fwi
