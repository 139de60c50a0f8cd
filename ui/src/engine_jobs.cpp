#include "fwi/ui/engine_jobs.hpp"

#include "fwi/inversion_project.hpp"
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

JobWork gradient_job(const Project& project, const std::string& backend,
                     std::function<void(GradientOutput)> apply) {
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

JobWork inversion_job(const Project& project, const std::string& backend, bool resume,
                      std::function<void(IterationRecordPtr)> on_record,
                      std::function<void(InversionOutput)> apply) {
    Project copy; // what inversion_setup reads; not the history
    copy.experiment = project.experiment;
    copy.observed = project.observed;
    copy.metadata = project.metadata; // the run options
    if (resume) copy.optimizer_state = project.optimizer_state;
    return [copy, backend, resume, on_record = std::move(on_record),
            apply = std::move(apply)](JobContext& ctx) -> std::function<void()> {
        InversionSetup setup = inversion_setup(copy, resume);
        // A fresh run takes the conditioning from the project's run options (settings panel) and the
        // per-stage counts from its settings; a resumed one takes everything it was started with.
        if (!resume) load_run_options(copy, setup, /*stage_counts=*/false);
        setup.backend = backend;
        Project options; // the run options as the project will keep them
        save_run_options(options, setup);
        const auto on_iteration = [&](const IterationRecord& r) {
            if (!on_record || !ctx.post) return;
            auto shared = std::make_shared<const IterationRecord>(r);
            ctx.post([on_record, shared] { on_record(shared); });
        };
        InversionResult result = run_inversion(setup, ctx.observer, ctx.cancel, on_iteration);
        auto out = std::make_shared<InversionOutput>();
        // run_inversion keeps only completed iterations, and its state matches the last one, also after a
        // cancel.
        out->history = std::move(result.history);
        out->state = std::move(result.state);
        out->reason = result.reason;
        out->evaluations = result.evaluations;
        out->seconds = result.seconds;
        out->warnings = result.warnings;
        out->run_options = options.metadata[run_options_key];
        ctx.stopped_early = result.reason == StopReason::Cancelled;
        return [apply, out] { apply(std::move(*out)); };
    };
}

std::vector<std::string> backends() {
    return available_backends();
}

QString device_description(const std::string& backend) {
    return QString::fromStdString(backend_device_name(backend)); // "CPU (2 OpenMP threads)" or the GPU's name
}

} // namespace fwi::ui
