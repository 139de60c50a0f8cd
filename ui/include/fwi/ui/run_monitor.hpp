#pragma once
// Turns a job's event stream into the live plots: memory per tier against wall time, the schedule timeline
// (simulated step against wall time, one mark per forward / recompute / adjoint / store / load), misfit per
// iteration, and predicted against measured time per run. Also reports progress.
#include "fwi/ui/job_runner.hpp"
#include "fwi/ui/plan_timeline.hpp"

#include <QObject>

namespace fwi::ui {

class PlotView;

class RunMonitor : public QObject {
    Q_OBJECT
  public:
    explicit RunMonitor(QObject* parent = nullptr);
    ~RunMonitor() override;

    PlotView* memory_plot() const;
    PlotView* timeline_plot() const;
    PlotView* misfit_plot() const;
    PlotView* timing_plot() const;

    /// A new run: clears the memory and timeline plots. `expected_steps` (forward + adjoint steps over all
    /// shots) scales the progress; `predicted_s` is kept for the timing plot.
    void begin_run(const QString& name, std::int64_t expected_steps, double predicted_s);
    /// The RAM tier's budget, drawn on the memory plot as a horizontal "budget" line across the run (0 =
    /// none).
    void set_memory_budget(std::uint64_t bytes);
    /// The timing plot's per-run measured/predicted ratios (NaN where the run had no prediction), in run
    /// order.
    const std::vector<double>& timing_ratios() const;
    /// Records the measured time against the prediction (timing plot) when the run succeeded.
    void end_run(bool succeeded, double seconds);
    void add_misfit(double iteration, double misfit);
    /// The misfit plot's "inversion" series: cleared when an inversion starts, one point per completed
    /// iteration.
    void begin_inversion();
    void add_inversion_misfit(int iteration, double misfit);
    /// Draws a plan's predicted timeline (plan_timeline.hpp) in light colours under the live marks; an empty
    /// list removes it. Shots run one after the other, so the plan repeats `shots` times.
    void show_plan(const std::vector<TimelineMark>& marks, int shots);
    /// Empties every plot (a different project was opened).
    void clear_all();
    std::int64_t steps_done() const;
    std::size_t events_seen() const;

  public slots:
    void on_events(fwi::ui::EventBatch batch);

  signals:
    /// fraction in [0, 1] (negative when unknown) and a short text such as "shot 2/10, step 1200".
    void progress(double fraction, const QString& text);

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
