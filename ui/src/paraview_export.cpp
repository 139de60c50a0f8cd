#include "fwi/ui/paraview_export.hpp"

#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/vti_export.hpp"

#include <QDir>

#include <cstdio>
#include <filesystem>

namespace fwi::ui {
namespace {

bool fills(const Model& m) {
    return m.grid.cells() > 0 && std::int64_t(m.vp_mps.size()) == m.grid.cells();
}

VtiArray array(const char* name, const std::vector<float>& values, const Grid2D& g) {
    return {name, ConstFieldView(values.data(), g.nz(), g.nx())};
}

} // namespace

QStringList export_paraview(const Project& project, const QString& dir) {
    if (!QDir().mkpath(dir)) throw ResourceError("cannot create the folder " + dir.toStdString());
    const std::filesystem::path root = dir.toStdString();
    QStringList written;
    auto write = [&](const std::filesystem::path& path, const Grid2D& g,
                     const std::vector<VtiArray>& arrays) {
        write_vti(path, g, arrays);
        written << QString::fromStdString(path.string());
    };

    const Experiment& e = project.experiment;
    const Model& model = working_model(e);
    if (!fills(model)) throw ConfigError("the project has no model to export");
    const Grid2D& g = model.grid;
    std::vector<VtiArray> models{array("vp_mps", model.vp_mps, g)};
    if (fills(e.true_model) && e.true_model.grid == g)
        models.push_back(array("true_vp_mps", e.true_model.vp_mps, g));
    if (fills(e.initial_model) && e.initial_model.grid == g)
        models.push_back(array("initial_vp_mps", e.initial_model.vp_mps, g));
    write(root / "model.vti", g, models);

    if (std::int64_t(project.gradient.size()) == g.cells())
        write(root / "gradient.vti", g, {array("gradient", project.gradient, g)});

    std::vector<PvdEntry> series;
    for (const IterationRecord& r : project.history) {
        if (!fills(r.model)) continue; // a record without its model (kept only as numbers)
        std::vector<VtiArray> arrays{array("vp_mps", r.model.vp_mps, r.model.grid)};
        if (std::int64_t(r.gradient.size()) == r.model.grid.cells())
            arrays.push_back(array("gradient", r.gradient, r.model.grid));
        char name[32];
        std::snprintf(name, sizeof name, "iteration_%03d.vti", r.iteration);
        const std::filesystem::path file = root / "history" / name;
        if (!QDir().mkpath(QString::fromStdString(file.parent_path().string())))
            throw ResourceError("cannot create the folder " + file.parent_path().string());
        write(file, r.model.grid, arrays);
        series.push_back({double(r.iteration), file});
    }
    if (!series.empty()) {
        write_pvd(root / "history.pvd", series);
        written << QString::fromStdString((root / "history.pvd").string());
    }
    return written;
}

} // namespace fwi::ui
