#include "fwi/ui/engine_jobs.hpp"

#include "fwi/project_tools.hpp"
#include "fwi/propagator.hpp"
#include "fwi/simulation.hpp"

#include <chrono>

namespace fwi::ui {

JobWork forward_job(const Experiment& experiment, const Model& model, const std::string& backend,
                    std::function<void(ForwardOutput)> apply) {
    return [experiment, model, backend, apply = std::move(apply)](JobContext& ctx) -> std::function<void()> {
        const auto t0 = std::chrono::steady_clock::now();
        auto sim = make_simulation(experiment, backend);
        sim->set_model(model);
        auto out = std::make_shared<ForwardOutput>();
        out->gathers = sim->forward({}, ctx.observer, ctx.cancel);
        out->inner_steps = sim->time().inner_nt;
        out->cells = sim->propagator().padded().cells();
        out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return [apply, out] { apply(std::move(*out)); };
    };
}

JobWork gradient_job(const Project& project, const std::string& backend, std::function<void(GradientOutput)> apply) {
    // Only what the gradient needs: the experiment and the observed data (not the history).
    Project copy;
    copy.experiment = project.experiment;
    copy.observed = project.observed;
    return [copy, backend, apply = std::move(apply)](JobContext& ctx) -> std::function<void()> {
        auto sim = make_simulation(copy.experiment, backend);
        auto out = std::make_shared<GradientOutput>();
        out->observed = observed_gathers(copy);
        GradientOptions options;
        options.settings = copy.experiment.gradient;
        options.observer = ctx.observer;
        options.cancel = ctx.cancel;
        out->result = compute_gradient(*sim, working_model(copy.experiment), out->observed, options);
        out->inner_steps = sim->time().inner_nt;
        out->cells = sim->propagator().padded().cells();
        return [apply, out] { apply(std::move(*out)); };
    };
}

std::vector<std::string> backends() { return available_backends(); }

QString device_description(const std::string& backend) {
    return QString::fromStdString(backend_device_name(backend));  // "CPU (2 OpenMP threads)" or the GPU's name
}

} // namespace fwi::ui
