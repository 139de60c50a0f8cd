#pragma once
// Long work (forward modelling, gradients, inversions) runs on a worker thread. The job gets an fwi::Observer
// and a CancelToken; the observer forwards events and field snapshots to the GUI thread through queued calls,
// throttled: events are batched at a bounded rate, and a field is copied only when the GUI wants one (a
// frame-rate limit, every k steps, and never while the previous frame is still undelivered). Pause, resume
// and cancel go through the token.
//
// A job returns, from the worker thread, a "commit" closure that the runner calls on the GUI thread if and
// only if the job returned: that is where results enter the project. Failed jobs and jobs cancelled by
// fwi::Cancelled therefore leave the project untouched. A job that stops early on cancel with a partial
// result worth keeping (an inversion's completed iterations) sets JobContext::stopped_early and returns its
// commit: the runner applies it and reports Cancelled. Errors escape as exceptions and arrive as
// finished(Failed, message). Live results other than events and fields (an inversion's iterations) go through
// JobContext::post.
#include "fwi/events.hpp"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace fwi::ui {

/// A copy of one field for display: layout (z, x), x fast, model cells.
struct FieldFrame {
    FieldKind kind = FieldKind::ForwardWavefield;
    std::int64_t step = 0;
    std::int64_t rows = 0, cols = 0;
    std::vector<float> values;
};
using FieldFramePtr = std::shared_ptr<const FieldFrame>;
using EventBatch = std::shared_ptr<const std::vector<Event>>;

struct JobThrottle {
    double events_per_second = 20;      ///< event batches delivered per second, at most
    double frames_per_second = 12;      ///< field copies per second and kind, at most
    std::int64_t field_every_steps = 1; ///< at least this many steps between two frames of a kind
    bool wavefields = true;             ///< forward/adjoint wavefield frames wanted
    bool gradients = true;              ///< gradient frames wanted
    /// Field copies may take at most this fraction of the job's wall time so far (the worker pays for
    /// them): a 3D field is the whole volume, and at 256^3 one copy takes tens of milliseconds.
    double copy_budget = 0.02;
};

/// What a job sees: the observer to give the engine, and the token the engine polls.
struct JobContext {
    Observer* observer = nullptr;
    const CancelToken* cancel = nullptr;
    /// Runs `fn` on the GUI thread, queued after the events and fields posted before it, and before
    /// finished(); dropped when the runner is gone. Callable from the worker thread only.
    std::function<void(std::function<void()>)> post;
    /// Set by the job when it returns a partial result after a cancel (see above).
    bool stopped_early = false;
};

/// Runs on the worker thread; returns what to apply on the GUI thread on success (may be empty).
using JobWork = std::function<std::function<void()>(JobContext&)>;

class JobRunner : public QObject {
    Q_OBJECT
  public:
    enum Outcome { Succeeded, Cancelled, Failed };
    Q_ENUM(Outcome)

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override; ///< cancels and waits for a running job

    void set_throttle(const JobThrottle& throttle); ///< applies to the next job
    JobThrottle throttle() const;

    /// Starts `work` on a worker thread; false (and nothing started) while another job runs.
    bool start(const QString& name, JobWork work);
    bool running() const;
    QString current_name() const;
    bool paused() const;
    /// Waits up to `ms` for the worker to finish, processing events; true if no job is running afterwards.
    bool wait(int ms);
    /// The running (or last) job's field copies on the worker thread: seconds spent and how many.
    double field_copy_seconds() const;
    int fields_copied() const;

  public slots:
    void pause(bool paused);
    void cancel();

  signals:
    void started(const QString& name);
    void events(fwi::ui::EventBatch batch);
    void field(fwi::ui::FieldFramePtr frame);
    void paused_changed(bool paused);
    void finished(const QString& name, fwi::ui::JobRunner::Outcome outcome, const QString& error,
                  double seconds);

  private:
    class Adapter;
    void deliver_events(std::uint64_t job, EventBatch batch);
    void deliver_field(std::uint64_t job, FieldFramePtr frame);
    void on_thread_finished(std::uint64_t job);
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
