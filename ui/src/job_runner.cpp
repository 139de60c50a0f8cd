#include "fwi/ui/job_runner.hpp"

#include "fwi/error.hpp"
#include "fwi/ui/thread_setting.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <chrono>
#include <mutex>

namespace fwi::ui {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

bool is_step(EventType t) {
    return t == EventType::ForwardStep || t == EventType::Recompute || t == EventType::AdjointStep;
}
// Events the GUI should see without waiting for the next batch.
bool is_milestone(EventType t) {
    return t == EventType::RunStart || t == EventType::RunEnd || t == EventType::ShotStart ||
           t == EventType::ShotEnd || t == EventType::Message;
}
constexpr std::size_t max_pending_events = 20000;

/// What a job's field copies cost the worker (written there, read on the GUI thread).
struct CopyCost {
    std::atomic<std::int64_t> nanoseconds{0};
    std::atomic<int> frames{0};
};
} // namespace

/// The Observer the engine calls from the worker thread. It never blocks on the GUI: it posts.
class JobRunner::Adapter final : public Observer {
  public:
    Adapter(JobRunner* runner, std::uint64_t job, JobThrottle throttle,
            std::shared_ptr<std::atomic<bool>> frame_busy, std::shared_ptr<CopyCost> cost)
        : runner_(runner), job_(job), throttle_(throttle), frame_busy_(std::move(frame_busy)),
          cost_(std::move(cost)) {}

    void on_event(const Event& e) override {
        std::lock_guard lock(mutex_);
        // Merge runs of adjacent steps when the GUI falls far behind, so memory stays bounded on long runs.
        if (pending_.size() >= max_pending_events && !pending_.empty() && is_step(e.type)) {
            Event& last = pending_.back();
            if (last.type == e.type && last.shot == e.shot) {
                last.steps += e.steps;
                last.step = e.step;
                last.wall_s = e.wall_s;
                last.bytes_per_tier = e.bytes_per_tier;
                return;
            }
        }
        pending_.push_back(e);
        if (is_milestone(e.type) || seconds_since(last_flush_) >= 1.0 / throttle_.events_per_second)
            flush_locked();
    }

    bool wants_field(FieldKind kind, std::int64_t step) override {
        const bool wanted = kind == FieldKind::Gradient ? throttle_.gradients
                            : (kind == FieldKind::ForwardWavefield || kind == FieldKind::AdjointWavefield)
                                ? throttle_.wavefields
                                : true;
        if (!wanted || frame_busy_->load()) return false;
        const double copied_s = double(cost_->nanoseconds.load()) * 1e-9;
        if (copied_s > throttle_.copy_budget * seconds_since(start_)) return false;
        const int k = int(kind);
        if (kind == FieldKind::Gradient) return true; // once per shot: cheap, and the GUI wants each one
        if (have_frame_[k] && std::llabs(step - last_step_[k]) < throttle_.field_every_steps) return false;
        return !have_frame_[k] || seconds_since(last_frame_[k]) >= 1.0 / throttle_.frames_per_second;
    }

    void on_field(FieldKind kind, std::int64_t step, ConstFieldView view) override {
        auto frame = std::make_shared<FieldFrame>();
        frame->kind = kind;
        frame->step = step;
        frame->rows = view.rows;
        frame->cols = view.cols;
        const auto copy_start = Clock::now();
        frame->values.assign(view.data, view.data + view.size());
        cost_->nanoseconds +=
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - copy_start).count();
        ++cost_->frames;
        const int k = int(kind);
        have_frame_[k] = true;
        last_step_[k] = step;
        last_frame_[k] = Clock::now();
        frame_busy_->store(true);
        QPointer<JobRunner> runner = runner_;
        const auto job = job_;
        QMetaObject::invokeMethod(
            runner_,
            [runner, job, frame] {
                if (runner) runner->deliver_field(job, frame);
            },
            Qt::QueuedConnection);
    }

    void flush() {
        std::lock_guard lock(mutex_);
        flush_locked();
    }

  private:
    void flush_locked() {
        last_flush_ = Clock::now();
        if (pending_.empty()) return;
        auto batch = std::make_shared<const std::vector<Event>>(std::move(pending_));
        pending_.clear();
        QPointer<JobRunner> runner = runner_;
        const auto job = job_;
        QMetaObject::invokeMethod(
            runner_,
            [runner, job, batch] {
                if (runner) runner->deliver_events(job, batch);
            },
            Qt::QueuedConnection);
    }

    JobRunner* runner_;
    std::uint64_t job_;
    JobThrottle throttle_;
    std::shared_ptr<std::atomic<bool>> frame_busy_;
    std::shared_ptr<CopyCost> cost_;
    const Clock::time_point start_ = Clock::now();
    std::mutex mutex_;
    std::vector<Event> pending_;
    Clock::time_point last_flush_ = Clock::now();
    bool have_frame_[4] = {false, false, false, false};
    std::int64_t last_step_[4] = {0, 0, 0, 0};
    Clock::time_point last_frame_[4];
};

struct JobRunner::Impl {
    JobThrottle throttle;
    QThread* thread = nullptr;
    std::uint64_t job = 0; // id of the current job; deliveries from older jobs are dropped
    QString name;
    std::shared_ptr<CancelToken> token;
    std::shared_ptr<std::atomic<bool>> frame_busy;
    std::shared_ptr<CopyCost> copy_cost = std::make_shared<CopyCost>();
    QElapsedTimer clock;
    bool paused = false;
    // Written by the worker before it ends, read on the GUI thread after QThread::finished.
    std::function<void()> commit;
    Outcome outcome = Succeeded;
    QString error;
};

JobRunner::JobRunner(QObject* parent) : QObject(parent), d_(std::make_unique<Impl>()) {
    qRegisterMetaType<fwi::ui::EventBatch>();
    qRegisterMetaType<fwi::ui::FieldFramePtr>();
    qRegisterMetaType<fwi::ui::JobRunner::Outcome>();
}

JobRunner::~JobRunner() {
    if (d_->thread) {
        d_->token->cancel();
        d_->token->pause(false);
        d_->thread->wait();
        delete d_->thread;
    }
}

void JobRunner::set_throttle(const JobThrottle& throttle) {
    d_->throttle = throttle;
}
JobThrottle JobRunner::throttle() const {
    return d_->throttle;
}
bool JobRunner::running() const {
    return d_->thread != nullptr;
}
QString JobRunner::current_name() const {
    return d_->name;
}
bool JobRunner::paused() const {
    return d_->paused;
}

bool JobRunner::start(const QString& name, JobWork work) {
    if (d_->thread) return false;
    const std::uint64_t job = ++d_->job;
    d_->name = name;
    d_->token = std::make_shared<CancelToken>();
    d_->frame_busy = std::make_shared<std::atomic<bool>>(false);
    d_->commit = {};
    d_->outcome = Succeeded;
    d_->error.clear();
    d_->paused = false;
    d_->copy_cost = std::make_shared<CopyCost>();
    auto adapter = std::make_shared<Adapter>(this, job, d_->throttle, d_->frame_busy, d_->copy_cost);
    auto token = d_->token;
    Impl* impl = d_.get();
    // The lambda owns copies of everything it touches except the result slots in Impl, which the GUI thread
    // reads only after QThread::finished (the thread's end orders the memory accesses).
    QPointer<JobRunner> self = this;
    d_->thread = QThread::create([impl, adapter, token, self, job, work = std::move(work)] {
        JobContext ctx;
        ctx.observer = adapter.get();
        ctx.cancel = token.get();
        ctx.post = [self, job, adapter](std::function<void()> fn) {
            adapter->flush(); // the events before it arrive first
            QMetaObject::invokeMethod(
                self.data(),
                [self, job, fn = std::move(fn)] {
                    if (self && self->d_->job == job) fn();
                },
                Qt::QueuedConnection);
        };
        try {
            apply_thread_setting(); // OpenMP's count is per calling thread
            impl->commit = work(ctx);
            if (ctx.stopped_early) impl->outcome = Cancelled;
        } catch (const fwi::Cancelled&) {
            impl->outcome = Cancelled;
        } catch (const std::exception& e) {
            // The boundary where a UI job starts: the one place (with main) that catches everything.
            impl->outcome = token->cancelled() ? Cancelled : Failed;
            impl->error = QString::fromUtf8(e.what());
        } catch (...) {
            impl->outcome = Failed;
            impl->error = tr("unknown error");
        }
        adapter->flush();
    });
    d_->thread->setObjectName("fwi-job");
    connect(
        d_->thread, &QThread::finished, this, [this, job] { on_thread_finished(job); }, Qt::QueuedConnection);
    d_->clock.start();
    d_->thread->start(QThread::LowPriority);
    emit started(name);
    return true;
}

void JobRunner::pause(bool paused) {
    if (!d_->thread || paused == d_->paused) return;
    d_->paused = paused;
    d_->token->pause(paused);
    emit paused_changed(paused);
}

void JobRunner::cancel() {
    if (!d_->thread) return;
    d_->token->cancel();
    d_->token->pause(false); // a paused job must wake up to see the cancel
}

bool JobRunner::wait(int ms) {
    QElapsedTimer t;
    t.start();
    while (d_->thread && t.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return d_->thread == nullptr;
}

double JobRunner::field_copy_seconds() const {
    return double(d_->copy_cost->nanoseconds.load()) * 1e-9;
}

int JobRunner::fields_copied() const {
    return d_->copy_cost->frames.load();
}

void JobRunner::deliver_events(std::uint64_t job, EventBatch batch) {
    if (job == d_->job && d_->thread) emit events(batch);
}

void JobRunner::deliver_field(std::uint64_t job, FieldFramePtr frame) {
    if (job != d_->job || !d_->thread) return;
    emit field(frame); // direct connections draw (or copy) now
    d_->frame_busy->store(false);
}

void JobRunner::on_thread_finished(std::uint64_t job) {
    if (job != d_->job || !d_->thread) return;
    d_->thread->wait();
    delete d_->thread;
    d_->thread = nullptr;
    const double seconds = double(d_->clock.elapsed()) / 1000.0;
    Outcome outcome = d_->outcome;
    QString error = d_->error;
    auto commit = std::move(d_->commit);
    d_->commit = {};
    if (d_->paused) {
        d_->paused = false;
        emit paused_changed(false);
    }
    if (commit && (outcome == Succeeded || outcome == Cancelled)) { // Cancelled with a commit: stopped early
        try {
            commit();
        } catch (const std::exception& e) {
            outcome = Failed;
            error = QString::fromUtf8(e.what());
        }
    }
    emit finished(d_->name, outcome, error, seconds);
}

} // namespace fwi::ui
