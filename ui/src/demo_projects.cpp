#include "fwi/ui/demo_projects.hpp"

#include "fwi/demo_3d.hpp"
#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/resources.hpp"
#include "fwi/smoothing.hpp"

#include <QObject>

namespace fwi::ui {

QStringList demo_names() {
    return {"toy", "marmousi2", "checkpointing", "marmousi2-3d"};
}

QString demo_title(const QString& name) {
    if (name == "toy") return QObject::tr("Toy layered model (runs in seconds)");
    if (name == "marmousi2") return QObject::tr("Marmousi-II teaching project");
    if (name == "checkpointing") return QObject::tr("Checkpointing explained");
    if (name == "marmousi2-3d") return QObject::tr("3D Marmousi-II under a memory budget");
    return name;
}

Project make_demo_project(const QString& name) {
    Project p;
    Experiment& e = p.experiment;
    p.metadata["created_by"] = "fwi-studio demo " + name.toStdString();
    if (name == "toy") {
        e.true_model = builtin_model("layered");
        e.initial_model = smoothed_model(e.true_model, 60.0);
        const Grid& g = e.true_model.grid;
        e.acquisition = surface_survey(3, 0.2 * g.width_m(), 0.8 * g.width_m(), 2 * g.dz(), 50, 0,
                                       g.width_m(), 2 * g.dz());
        e.propagation.freq_hz = 12;
        e.propagation.dt_s = 0.002;
        e.propagation.nt = 401;
        e.propagation.pml_width = 16;
        e.inversion.iterations = 5;
        e.inversion.min_velocity_mps = 1400;
        e.inversion.max_velocity_mps = 4000;
    } else if (name == "marmousi2") {
        e.true_model = load_marmousi2("true");
        e.initial_model = load_marmousi2("smooth");
        const Grid& g = e.true_model.grid;
        e.acquisition = surface_survey(10, 0.02 * g.width_m(), 0.98 * g.width_m(), 2 * g.dz(), 250, 0,
                                       g.width_m(), 2 * g.dz());
        e.propagation.freq_hz = 5;
        e.propagation.dt_s = 0.004;
        e.propagation.nt = 1001;
        e.inversion.iterations = 10;
        e.inversion.stage_freqs_hz = {3, 5};
        e.inversion.min_velocity_mps = 1450;
        e.inversion.max_velocity_mps = 4800;
    } else if (name == "checkpointing") {
        e.true_model = builtin_model("circle");
        e.initial_model = builtin_model("homogeneous");
        const Grid& g = e.true_model.grid;
        e.acquisition = surface_survey(1, 0.5 * g.width_m(), 0.5 * g.width_m(), 2 * g.dz(), 100, 0,
                                       g.width_m(), 2 * g.dz());
        e.propagation.freq_hz = 10;
        e.propagation.dt_s = 0.002;
        e.propagation.nt = 501;
        e.propagation.pml_width = 16;
        e.gradient.schedule = "revolve:12";
        e.gradient.compression = "zfp-accuracy:1e-05";
        e.gradient.budget_bytes = 8'000'000;
    } else if (name == "marmousi2-3d") {
        // fwi demo --3d's experiment: keeping every snapshot would need over 10 GB; auto fits 1.5 GiB.
        e = demo_3d_experiment();
        e.gradient.budget_bytes = std::uint64_t(1536) << 20;
    } else {
        throw ConfigError("unknown demo project '" + name.toStdString() +
                          "' (toy | marmousi2 | checkpointing | marmousi2-3d)");
    }
    e.current_model = e.initial_model;
    return p;
}

} // namespace fwi::ui
