#include "fwi/ui/run_predictor.hpp"

#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/schedules.hpp"
#include "fwi/ui/thread_setting.hpp"

#include <QObject>

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace fwi::ui {
namespace {

// Process-wide: every window and settings edit reuses what this machine measured.
struct CalibrationCache {
    std::mutex mutex;
    std::map<std::string, StepCosts> costs;
    std::map<std::string, CodecEstimate> codecs;
};
CalibrationCache& cache() {
    static CalibrationCache c;
    return c;
}

std::string compression_of(const Experiment& e) {
    return e.gradient.compression.empty() ? "none" : e.gradient.compression;
}

// Step costs depend on the padded shape, the stencil order, the backend and the threads only; a codec's on
// the padded shape.
// "nz x nx" in 2D, "nz x ny x nx" in 3D: a 3D shape must not reuse a 2D (or another 3D) shape's costs.
std::string shape_key(const PaddedGrid& g) {
    return std::to_string(g.nz()) + "x" + (g.three_d() ? std::to_string(g.ny()) + "x" : std::string()) +
           std::to_string(g.nx());
}
std::string step_key(const PaddedGrid& g, const std::string& backend) {
    return shape_key(g) + "/o" + std::to_string(g.order) + "/" + backend + "/t" +
           std::to_string(thread_setting());
}
std::string codec_key(const std::string& spec, const PaddedGrid& g) {
    return spec + "/" + shape_key(g);
}

/// A CPU simulation of the experiment: its time axis and padded grid (cheap: no wavefields, no model copy).
/// Throws ConfigError for settings that cannot run, as the real run would.
std::unique_ptr<Simulation> shape_simulation(const Experiment& e) {
    return make_simulation(e, "cpu");
}

} // namespace

void RunPredictor::set_backend(const std::string& backend) {
    backend_ = backend.empty() ? "auto" : backend;
}

RunPredictor::Measurement RunPredictor::measure(const Experiment& e, const std::string& backend,
                                                bool refresh) {
    Measurement m;
    const std::unique_ptr<Simulation> shape = shape_simulation(e);
    const PaddedGrid g = shape->propagator().padded();
    const std::string spec = compression_of(e);
    const std::string skey = step_key(g, backend), ckey = codec_key(spec, g);
    if (refresh) {
        // After a run: what the engine holds now (learnt from the run), without building the run's
        // simulation (its model and arrays); nothing when it never calibrated these settings.
        if (const std::optional<Calibration> c = known_calibration(*make_simulation(e, backend), spec)) {
            m.costs = c->steps, m.step_key = skey;
            m.codec = c->codec, m.codec_key = ckey;
        }
        return m;
    }
    bool need_costs = false, need_codec = false;
    {
        std::lock_guard lock(cache().mutex);
        need_costs = !cache().costs.count(skey);
        need_codec = !cache().codecs.count(ckey);
    }
    std::unique_ptr<Simulation> sim; // with the project's model: the codec is probed on its own wavefields
    const auto run_simulation = [&]() -> Simulation& {
        if (!sim) {
            sim = make_simulation(e, backend);
            sim->set_model(working_model(e));
        }
        return *sim;
    };
    // The engine's own calibration, as the run will price it: measured once per process (or taken from the
    // calibration cache), then refined by what each run measured (learn_from_run).
    if (need_costs || need_codec) {
        const Calibration c = run_calibration(run_simulation(), spec);
        if (need_costs) m.costs = c.steps, m.step_key = skey;
        if (need_codec) m.codec = c.codec, m.codec_key = ckey;
    }
    return m;
}

void RunPredictor::add(const Measurement& m) {
    std::lock_guard lock(cache().mutex);
    if (!m.step_key.empty()) cache().costs[m.step_key] = m.costs;
    if (!m.codec_key.empty()) cache().codecs[m.codec_key] = m.codec;
}

bool RunPredictor::cached_costs(const Experiment& e, StepCosts& out) const {
    try {
        const std::string key = step_key(shape_simulation(e)->propagator().padded(), backend_);
        std::lock_guard lock(cache().mutex);
        const auto it = cache().costs.find(key);
        if (it == cache().costs.end()) return false;
        out = it->second;
        return true;
    } catch (const Error&) {
        return false;
    }
}

RunPrediction RunPredictor::predict_now(const Experiment& e) {
    try {
        add(measure(e, backend_));
    } catch (const Error&) {
        // predict() reports the same error.
    }
    return predict(e);
}

namespace {

/// The sweep for the prediction panel's chart; empty for no compression or when it cannot be computed (the
/// prediction itself stands without it).
PlanSweep sweep_for(const Simulation& sim, const GradientSettings& s, const StepCosts& measured,
                    const CodecEstimate& codec, const CodecEstimate& none) {
    if (codec.codec == "none") return {};
    try {
        const PlanRequest plan = make_plan_request(sim, s, measured, {none});
        SweepRequest r;
        r.steps = plan.steps;
        r.costs = plan.costs;
        r.uncompressed = none;
        r.codecs = {codec};
        r.budgets_bytes = sweep_budgets(r.steps, uncompressed_costs(r.costs, none), 12);
        if (s.budget_bytes != 0) r.budgets_bytes.push_back(s.budget_bytes);
        return plan_sweep(r);
    } catch (const Error&) {
        return {};
    }
}

} // namespace

RunPrediction RunPredictor::predict(const Experiment& e) const {
    return predict(e, true);
}

RunPrediction RunPredictor::outline(const Experiment& e) const {
    return predict(e, false);
}

RunPrediction RunPredictor::predict(const Experiment& e, bool price_plans) const {
    RunPrediction p;
    try {
        const std::unique_ptr<Simulation> sim = shape_simulation(e);
        const PaddedGrid g = sim->propagator().padded();
        const GradientSettings& s = e.gradient;
        const std::string spec = compression_of(e);
        make_codec(spec); // the engine's own check, before anything is measured
        const std::string schedule_spec = s.schedule.empty() ? "all" : s.schedule;
        if (is_adaptive_spec(schedule_spec)) // validates the spec ("adaptive" needs the budget)
            make_adaptive_schedule(schedule_spec, StepCosts{}, s.budget_bytes);
        else if (schedule_spec != "auto")
            make_schedule(schedule_spec);
        p.inner_steps = sim->time().inner_nt;
        p.step_ratio = sim->time().step_ratio;
        p.shots = std::int64_t(e.acquisition.shots.size());
        p.budget_bytes = s.budget_bytes;
        p.disk_budget_bytes = s.disk_budget_bytes;

        StepCosts measured;
        CodecEstimate codec;
        CodecEstimate none; // Revolve alone's copy times when measured, else free
        bool have_costs = false, have_codec = false;
        {
            std::lock_guard lock(cache().mutex);
            if (auto it = cache().costs.find(step_key(g, backend_)); it != cache().costs.end())
                measured = it->second, have_costs = true;
            if (auto it = cache().codecs.find(codec_key(spec, g)); it != cache().codecs.end())
                codec = it->second, have_codec = true;
            if (auto it = cache().codecs.find(codec_key("none", g)); it != cache().codecs.end())
                none = it->second;
        }
        if (!have_costs || !have_codec) {
            p.calibrating = true;
            p.error = QObject::tr("measuring this machine's step and codec costs…");
            return p;
        }
        if (!price_plans) {
            p.updating = true;
            p.error = QObject::tr("pricing the plans…");
            return p;
        }

        // As resolve_plan(): slots sized with the ratio the codec guarantees, priced at the probed one, auto
        // chosen from the same request.
        StepCosts costs = with_codec(measured, codec, true);
        costs.sampling_interval = s.sampling_interval;
        CodecEstimate expected = codec;
        expected.ratio = std::max(1.0, codec.ratio);
        PlanRequest request = make_plan_request(*sim, s, costs, {expected});
        request.size_with_guaranteed_ratio = true;
        p.alternatives = plan_table(request);
        std::string chosen = schedule_spec;
        if (chosen == "auto") {
            chosen = choose_auto(request, p.alternatives).schedule; // ResourceError: nothing fits
            p.automatic = true;
        }
        const ResolvedPlan plan = price_plan(chosen, p.inner_steps, costs, codec.ratio, s.budget_bytes);
        p.per_shot = plan.prediction;
        p.costs = costs;
        p.schedule = QString::fromStdString(chosen);
        p.compression_ratio = costs.compression_ratio;
        p.measured_ratio = codec.ratio;
        p.codec_source = codec.source;
        p.codec = spec;
        p.forward_seconds = double(p.shots) * double(p.inner_steps) * costs.forward_step_s;
        p.gradient_seconds = double(p.shots) * p.per_shot.total_s;
        const auto stages = std::int64_t(std::max<std::size_t>(e.inversion.stage_freqs_hz.size(), 1));
        p.inversion_gradients = stages * e.inversion.iterations + stages;
        p.inversion_seconds = double(p.inversion_gradients) * p.gradient_seconds;
        // Memory as the table judges it: at the ratio the slots were sized with, a bound whatever the data
        // (an adaptive plan's is its pessimistic plan's); the time is priced at the expected ratio.
        const std::vector<std::uint64_t> peak = fwi::predict(plan.plan, p.inner_steps, costs).peak_bytes;
        p.peak_bytes = peak.empty() ? 0 : peak[0];
        p.disk_peak_bytes = peak.size() > 1 ? peak[1] : 0;
        if (request.budget_is_machine) p.machine_budget_bytes = request.budget_bytes;
        const std::uint64_t ram_limit = request.budget_bytes; // the machine's share when no budget is set
        p.fits_budget = (ram_limit == 0 || p.peak_bytes <= ram_limit) &&
                        (s.disk_budget_bytes == 0 || p.disk_peak_bytes <= s.disk_budget_bytes);
        p.sweep = sweep_for(*sim, s, measured, codec, none);
        p.ok = true;
    } catch (const Error& err) {
        p.ok = false;
        p.error = QString::fromUtf8(err.what());
    }
    return p;
}

QString RunPrediction::summary() const {
    if (calibrating || updating)
        return QObject::tr("%1 steps/shot — %2").arg(inner_steps).arg(error.toHtmlEscaped());
    if (!ok)
        return QObject::tr("<span style='color:#b00020'>No prediction: %1</span>").arg(error.toHtmlEscaped());
    QString s =
        QObject::tr(
            "Forward ≈ <b>%1</b> · gradient ≈ <b>%2</b> with <b>%3</b>%4, %5 · %6 shot(s), %7 steps/shot")
            .arg(format_seconds(forward_seconds), format_seconds(gradient_seconds), schedule,
                 automatic ? QObject::tr(" (auto)") : QString(),
                 QString::fromStdString(codec).toHtmlEscaped())
            .arg(shots)
            .arg(inner_steps);
    if (step_ratio > 1) s += QObject::tr(" (%1 inner steps per sample)").arg(step_ratio);
    s +=
        "<br>" + QObject::tr("Inversion ≈ <b>%1</b> (%2 gradients at least: one per iteration and per stage)")
                     .arg(format_seconds(inversion_seconds))
                     .arg(inversion_gradients);
    const auto of_budget = [](std::uint64_t bytes, std::uint64_t budget) {
        return budget ? QObject::tr("%1 of %2").arg(format_bytes(bytes), format_bytes(budget))
                      : format_bytes(bytes);
    };
    s += "<br>" + QObject::tr("Peak per shot: RAM %1").arg(of_budget(peak_bytes, budget_bytes));
    if (budget_bytes == 0 && machine_budget_bytes > 0)
        s += QObject::tr(" of this machine's %1").arg(format_bytes(machine_budget_bytes));
    if (disk_peak_bytes > 0 || disk_budget_bytes > 0)
        s += QObject::tr(", disk %1").arg(of_budget(disk_peak_bytes, disk_budget_bytes));
    if (compression_ratio > 1) s += QObject::tr(" (sized at %1:1)").arg(compression_ratio, 0, 'g', 3);
    s += " — " + (fits_budget ? QObject::tr("<span style='color:#1b7a1b'>fits the budget</span>")
                              : QObject::tr("<span style='color:#b00020'>over the budget</span>"));
    if (codec != "none") {
        const QString priced =
            codec_source == "wavefields" ? QObject::tr("on four of the project's own wavefields")
            : codec_source == "learnt"   ? QObject::tr("by what the last run measured")
            : codec_source == "synthetic"
                ? QObject::tr(
                      "on synthetic wavefields (the project's own too slow to propagate, or not available)")
                : QString();
        s += "<br>" + QObject::tr("Codec: expected ratio %1:1").arg(measured_ratio, 0, 'g', 3);
        if (!priced.isEmpty()) s += QObject::tr(", priced %1").arg(priced);
    }
    const PlanCounts& c = per_shot.counts;
    s += "<br>" + QObject::tr("Per shot: %1 recomputed steps, %2 state writes, %3 peak snapshots")
                      .arg(c.advance_steps + c.reverse_forward_steps - inner_steps)
                      .arg([&] {
                          std::int64_t n = 0;
                          for (auto w : c.writes)
                              n += w;
                          return n;
                      }())
                      .arg(c.peak_kept_snapshots);
    return s;
}

QString format_bytes(std::uint64_t bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1000 && u < 4)
        v /= 1000, ++u;
    return QString::number(v, 'f', u == 0 ? 0 : (v < 10 ? 2 : 1)) + " " + units[u];
}

QString format_seconds(double s) {
    if (!std::isfinite(s)) return "?";
    if (s < 1) return QString::number(s * 1000, 'f', 0) + " ms";
    if (s < 120) return QString::number(s, 'f', s < 10 ? 1 : 0) + " s";
    if (s < 7200)
        return QString::number(std::floor(s / 60)) + " min " + QString::number(std::fmod(s, 60), 'f', 0) +
               " s";
    return QString::number(std::floor(s / 3600)) + " h " + QString::number(std::fmod(s, 3600) / 60, 'f', 0) +
           " min";
}

} // namespace fwi::ui
