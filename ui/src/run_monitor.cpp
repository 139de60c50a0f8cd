#include "fwi/ui/run_monitor.hpp"

#include "fwi/ui/plot_view.hpp"

#include <QElapsedTimer>
#include <QPointer>

#include <algorithm>
#include <cmath>

namespace fwi::ui {

struct RunMonitor::Impl {
    // QPointer: the window's docks own the plots once shown and may delete them before this monitor.
    QPointer<PlotView> memory, timeline, misfit, timing;
    int forward = 0, recompute = 0, adjoint = 0, store = 0, load = 0;
    int misfit_series = 0, inversion_series = 0, predicted = 0, measured = 0;
    int planned_forward = 0, planned_recompute = 0, planned_adjoint = 0;
    std::int64_t expected = 0, done = 0;
    std::size_t events = 0;
    int shot = -1, shots_seen = 0;
    int runs = 0;
    int budget = -1;            // the memory plot's budget line, added when a budget is first set
    double budget_mb = 0;       // 0 = no line
    std::vector<double> ratios; // measured / predicted per run
    QStringList predicted_labels, measured_labels;
    void draw_budget() {
        if (!memory || budget < 0) return;
        if (budget_mb <= 0) return memory->set_series(budget, {}, {});
        // Spans the run so far (at least a second, so that it shows before the first event).
        memory->set_series(budget, {0.0, std::max(last_wall, 1.0)}, {budget_mb, budget_mb});
    }
    QElapsedTimer since_progress; // progress is shown at most 4 times a second: each status repaint costs
    double predicted_s = 0;
    // Each gradient evaluation's clock starts at 0 (an inversion runs many): its marks continue the previous
    // ones.
    double wall_offset = 0, last_wall = 0;
    QString name;
};

RunMonitor::RunMonitor(QObject* parent) : QObject(parent), d_(std::make_unique<Impl>()) {
    d_->memory = new PlotView(tr("Memory per tier"), tr("wall time (s)"), tr("MB in use"));
    d_->timeline = new PlotView(tr("Schedule timeline"), tr("wall time (s)"), tr("simulated step"));
    d_->misfit = new PlotView(tr("Misfit"), tr("iteration"), tr("misfit"));
    d_->timing = new PlotView(tr("Time per run"), tr("run number"), tr("seconds"));
    d_->memory->set_y_headroom(0.1);
    d_->timing->set_legend_left();
    d_->timing->set_y_headroom(0.25); // room for the legend above the points
    // Planned marks first so that the live ones draw on top.
    d_->planned_forward =
        d_->timeline->add_series(tr("planned forward"), QColor(170, 200, 240), SeriesStyle::Line, 4);
    d_->planned_recompute =
        d_->timeline->add_series(tr("planned recompute"), QColor(245, 210, 160), SeriesStyle::Line, 4);
    d_->planned_adjoint =
        d_->timeline->add_series(tr("planned adjoint"), QColor(240, 180, 190), SeriesStyle::Line, 4);
    d_->forward = d_->timeline->add_series(tr("forward"), QColor(30, 110, 220), SeriesStyle::Points);
    d_->recompute = d_->timeline->add_series(tr("recompute"), QColor(240, 150, 20), SeriesStyle::Points);
    d_->adjoint = d_->timeline->add_series(tr("adjoint"), QColor(200, 30, 60), SeriesStyle::Points);
    d_->store = d_->timeline->add_series(tr("store"), QColor(30, 160, 70), SeriesStyle::Points);
    d_->load = d_->timeline->add_series(tr("load"), QColor(130, 60, 180), SeriesStyle::Points);
    d_->misfit_series = d_->misfit->add_series(tr("misfit"), QColor(200, 30, 60), SeriesStyle::Points);
    d_->inversion_series =
        d_->misfit->add_series(tr("inversion"), QColor(30, 110, 220), SeriesStyle::Line, 3);
    d_->predicted = d_->timing->add_series(tr("predicted"), QColor(120, 120, 120), SeriesStyle::Points);
    d_->measured = d_->timing->add_series(tr("measured"), QColor(30, 110, 220), SeriesStyle::Points);
    d_->misfit->set_log_y(false);
}

RunMonitor::~RunMonitor() {
    // The plots are parented by the window's docks; delete only those that never were.
    for (PlotView* p : {d_->memory.data(), d_->timeline.data(), d_->misfit.data(), d_->timing.data()})
        if (p && !p->parent()) delete p;
}

PlotView* RunMonitor::memory_plot() const {
    return d_->memory;
}
PlotView* RunMonitor::timeline_plot() const {
    return d_->timeline;
}
PlotView* RunMonitor::misfit_plot() const {
    return d_->misfit;
}
PlotView* RunMonitor::timing_plot() const {
    return d_->timing;
}
std::int64_t RunMonitor::steps_done() const {
    return d_->done;
}
std::size_t RunMonitor::events_seen() const {
    return d_->events;
}

void RunMonitor::begin_run(const QString& name, std::int64_t expected_steps, double predicted_s) {
    d_->name = name;
    d_->expected = expected_steps;
    d_->done = 0;
    d_->events = 0;
    d_->shot = -1;
    d_->shots_seen = 0;
    d_->predicted_s = predicted_s;
    d_->wall_offset = d_->last_wall = 0;
    d_->since_progress.invalidate();
    d_->memory->clear_data();
    d_->draw_budget();
    for (int id : {d_->forward, d_->recompute, d_->adjoint, d_->store, d_->load})
        d_->timeline->set_series(id, {}, {});
    emit progress(expected_steps > 0 ? 0.0 : -1.0, tr("%1 started").arg(name));
}

void RunMonitor::set_memory_budget(std::uint64_t bytes) {
    if (d_->budget < 0 && bytes > 0)
        d_->budget = d_->memory->add_series(tr("budget"), QColor(200, 30, 60), SeriesStyle::Line, 1.5f);
    d_->budget_mb = double(bytes) / 1e6;
    d_->draw_budget();
}

const std::vector<double>& RunMonitor::timing_ratios() const {
    return d_->ratios;
}

void RunMonitor::end_run(bool succeeded, double seconds) {
    if (!succeeded) return;
    const int run = ++d_->runs;
    const double ratio = d_->predicted_s > 0 ? seconds / d_->predicted_s : std::nan("");
    d_->ratios.push_back(ratio);
    const QString what = tr("run %1 (%2)").arg(run).arg(d_->name);
    const QString ratio_text =
        std::isnan(ratio) ? tr("no prediction") : tr("measured/predicted %1").arg(ratio, 0, 'f', 2);
    if (d_->predicted_s > 0) {
        d_->timing->append(d_->predicted, run, d_->predicted_s);
        d_->predicted_labels
            << tr("%1: predicted %2 s, %3").arg(what).arg(d_->predicted_s, 0, 'g', 3).arg(ratio_text);
        d_->timing->set_point_labels(d_->predicted, d_->predicted_labels);
    }
    d_->timing->append(d_->measured, run, seconds);
    d_->measured_labels << tr("%1: measured %2 s, %3").arg(what).arg(seconds, 0, 'g', 3).arg(ratio_text);
    d_->timing->set_point_labels(d_->measured, d_->measured_labels);
    // The axis holds run numbers; the title says the last run's ratio, short enough for a narrow dock.
    d_->timing->set_x_title(tr("run %1: %2").arg(run).arg(ratio_text));
    d_->timing->set_x_range(0.5, run + 0.5);
}

void RunMonitor::show_plan(const std::vector<TimelineMark>& marks, int shots) {
    std::vector<double> fx, fy, rx, ry, ax, ay;
    const double plan_s = marks.empty() ? 0.0 : marks.back().time_s;
    // Each kind is drawn as a line broken (NaN) wherever that kind stops, so a sweep reads as one stroke.
    auto add = [](std::vector<double>& x, std::vector<double>& y, double t, double step, bool contiguous) {
        if (!contiguous && !x.empty()) x.push_back(t), y.push_back(std::nan(""));
        x.push_back(t);
        y.push_back(step);
    };
    EventType previous = EventType::Message;
    for (int shot = 0; shot < std::max(shots, 1); ++shot)
        for (const TimelineMark& m : marks) {
            const double t = shot * plan_s + m.time_s;
            const bool contiguous = m.type == previous;
            if (m.type == EventType::ForwardStep)
                add(fx, fy, t, double(m.step), contiguous);
            else if (m.type == EventType::Recompute)
                add(rx, ry, t, double(m.step), contiguous);
            else if (m.type == EventType::AdjointStep)
                add(ax, ay, t, double(m.step), contiguous);
            else
                continue;
            previous = m.type;
        }
    d_->timeline->set_series(d_->planned_forward, std::move(fx), std::move(fy));
    d_->timeline->set_series(d_->planned_recompute, std::move(rx), std::move(ry));
    d_->timeline->set_series(d_->planned_adjoint, std::move(ax), std::move(ay));
}

void RunMonitor::clear_all() {
    for (PlotView* p : {d_->memory.data(), d_->timeline.data(), d_->misfit.data(), d_->timing.data()})
        if (p) p->clear_data();
    d_->runs = 0;
    d_->ratios.clear();
    d_->predicted_labels.clear();
    d_->measured_labels.clear();
    if (d_->timing) {
        d_->timing->set_point_labels(d_->predicted, {});
        d_->timing->set_point_labels(d_->measured, {});
        d_->timing->set_x_title(tr("run number"));
        d_->timing->set_x_range(0, 0);
    }
    d_->draw_budget();
}

void RunMonitor::add_misfit(double iteration, double misfit) {
    d_->misfit->append(d_->misfit_series, iteration, misfit);
}

void RunMonitor::begin_inversion() {
    d_->misfit->set_series(d_->inversion_series, {}, {});
}

void RunMonitor::add_inversion_misfit(int iteration, double misfit) {
    d_->misfit->append(d_->inversion_series, double(iteration), misfit);
}

void RunMonitor::on_events(EventBatch batch) {
    if (!batch) return;
    for (const Event& e : *batch) {
        ++d_->events;
        int series = -1;
        switch (e.type) {
        case EventType::ForwardStep:
            series = d_->forward;
            break;
        case EventType::Recompute:
            series = d_->recompute;
            break;
        case EventType::AdjointStep:
            series = d_->adjoint;
            break;
        case EventType::Store:
            series = d_->store;
            break;
        case EventType::Load:
            series = d_->load;
            break;
        case EventType::ShotStart:
            d_->shot = e.shot;
            ++d_->shots_seen;
            break;
        default:
            break;
        }
        if (e.type == EventType::Message) continue; // other clocks (the inversion's); nothing to plot
        double wall = e.wall_s + d_->wall_offset;
        if (wall + 1e-3 < d_->last_wall) { // a new evaluation's clock
            d_->wall_offset = d_->last_wall - e.wall_s;
            wall = d_->last_wall;
        }
        d_->last_wall = wall;
        if (series >= 0) d_->timeline->append(series, wall, double(e.step));
        if (e.type == EventType::ForwardStep || e.type == EventType::AdjointStep) d_->done += e.steps;
        for (std::size_t t = 0; t < e.bytes_per_tier.size(); ++t) {
            const QString name = tr("tier %1").arg(t);
            int id = d_->memory->find_series(name);
            if (id < 0) {
                static const QColor colours[] = {QColor(30, 110, 220), QColor(240, 150, 20),
                                                 QColor(30, 160, 70)};
                id = d_->memory->add_series(name, colours[t % 3]);
            }
            d_->memory->append(id, wall, double(e.bytes_per_tier[t]) / 1e6);
        }
    }
    if (d_->budget_mb > 0) d_->draw_budget();
    if (d_->since_progress.isValid() && d_->since_progress.elapsed() < 250) return;
    d_->since_progress.start();
    const double fraction = d_->expected > 0 ? std::min(1.0, double(d_->done) / double(d_->expected)) : -1.0;
    emit progress(fraction, tr("%1: shot %2, %3 steps").arg(d_->name).arg(d_->shot).arg(d_->done));
}

} // namespace fwi::ui
