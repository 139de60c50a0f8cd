#include "fwi/ui/paraview_export.hpp"

#include "fwi/error.hpp"
#include "fwi/project_export.hpp"

#include <QDir>

#include <filesystem>

namespace fwi::ui {

QStringList export_paraview(const Project& project, const QString& dir) {
    if (!QDir().mkpath(dir)) throw ResourceError("cannot create the folder " + dir.toStdString());
    const std::filesystem::path root = dir.toStdString();
    QStringList written;
    const auto add = [&](const std::filesystem::path& p) { written << QString::fromStdString(p.string()); };

    export_models_vti(project.experiment, root / "model.vti");
    add(root / "model.vti");
    if (!project.gradient.empty()) {
        export_gradient_vti(project, root / "gradient.vti");
        add(root / "gradient.vti");
    }
    if (!project.history.empty()) {
        for (const auto& file : export_history_series(project, root / "history", root / "history.pvd"))
            add(file);
        add(root / "history.pvd");
    }
    return written;
}

} // namespace fwi::ui
