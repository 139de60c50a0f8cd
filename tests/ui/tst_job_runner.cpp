// JobRunner: events and fields reach the GUI thread throttled; cancel is prompt and leaves the GUI
// responsive; pause stops progress; errors arrive as messages; results are applied only on success.
#include "fwi/error.hpp"
#include "fwi/ui/job_runner.hpp"
#include "ui_test_main.hpp"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTimer>

#include <atomic>
#include <thread>

using namespace fwi;
using namespace fwi::ui;

namespace {
struct Collected {
    std::int64_t steps = 0;
    int batches = 0;
    int frames = 0;
    std::int64_t last_frame_step = -1;
};
} // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
  private slots:
    void events_and_fields_are_throttled();
    void cancel_is_prompt_and_gui_stays_responsive();
    void pause_stops_progress();
    void failure_is_reported_and_not_applied();
    void second_job_refused_while_running();
    void posts_arrive_in_order_before_finished();
    void stopped_early_is_cancelled_but_applied();
};

void TestJobRunner::events_and_fields_are_throttled() {
    JobRunner runner;
    JobThrottle t;
    t.events_per_second = 20;
    t.frames_per_second = 10;
    t.field_every_steps = 1;
    runner.set_throttle(t);
    Collected c;
    connect(&runner, &JobRunner::events, this, [&](EventBatch b) {
        ++c.batches;
        for (const Event& e : *b)
            if (e.type == EventType::ForwardStep) c.steps += e.steps;
    });
    connect(&runner, &JobRunner::field, this, [&](FieldFramePtr f) {
        ++c.frames;
        QCOMPARE(f->values.size(), std::size_t(12));
        QCOMPARE(f->values[5], float(f->step)); // the copy holds what the engine showed at that step
        c.last_frame_step = f->step;
    });
    std::atomic<int> copies_offered{0};
    bool applied = false;
    const int steps = 20000;
    QVERIFY(runner.start("fake", [&](JobContext& ctx) -> std::function<void()> {
        std::vector<float> field(12);
        const auto t0 = std::chrono::steady_clock::now();
        for (int s = 0; s < steps; ++s) {
            ctx.cancel->checkpoint();
            Event e;
            e.type = EventType::ForwardStep;
            e.step = s;
            e.steps = 1;
            e.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            ctx.observer->on_event(e);
            if (ctx.observer->wants_field(FieldKind::ForwardWavefield, s)) {
                ++copies_offered;
                std::fill(field.begin(), field.end(), float(s));
                ctx.observer->on_field(FieldKind::ForwardWavefield, s, {field.data(), 3, 4});
            }
            if (s % 100 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5)); // ~1 s in all
        }
        return [&] { applied = true; };
    }));
    QElapsedTimer clock;
    clock.start();
    QSignalSpy finished(&runner, &JobRunner::finished);
    QVERIFY(runner.wait(30000));
    const double seconds = clock.elapsed() / 1000.0;
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).value<JobRunner::Outcome>(), JobRunner::Succeeded);
    QVERIFY(applied);
    QCOMPARE(c.steps, std::int64_t(steps)); // nothing lost
    // Bounded rates: batches at <= 20/s and frames at <= 10/s (plus the final flush / first frame).
    QVERIFY2(c.batches <= int(seconds * 20) + 3,
             qPrintable(QString("%1 batches in %2 s").arg(c.batches).arg(seconds)));
    QVERIFY2(c.frames <= int(seconds * 10) + 2,
             qPrintable(QString("%1 frames in %2 s").arg(c.frames).arg(seconds)));
    QVERIFY(c.frames >= 2);
    QCOMPARE(copies_offered.load(), c.frames); // a copy is made only when one is delivered
}

void TestJobRunner::cancel_is_prompt_and_gui_stays_responsive() {
    JobRunner runner;
    int ticks = 0;
    QTimer timer;
    connect(&timer, &QTimer::timeout, this, [&] { ++ticks; });
    timer.start(10);
    bool applied = false;
    std::atomic<int> progress{0};
    QVERIFY(runner.start("long", [&](JobContext& ctx) -> std::function<void()> {
        for (int s = 0; s < 60000; ++s) { // a minute if nobody cancels
            ctx.cancel->checkpoint();
            ++progress;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return [&] { applied = true; };
    }));
    QTRY_VERIFY_WITH_TIMEOUT(progress.load() > 50, 5000);
    const int ticks_before = ticks;
    QTest::qWait(300); // the job runs; the event loop must keep turning
    QVERIFY2(ticks - ticks_before >= 10,
             qPrintable(QString("timer fired %1 times in 300 ms").arg(ticks - ticks_before)));
    QSignalSpy finished(&runner, &JobRunner::finished);
    QElapsedTimer clock;
    clock.start();
    runner.cancel();
    QVERIFY(runner.wait(5000));
    QVERIFY2(clock.elapsed() < 1000, "cancel is prompt");
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).value<JobRunner::Outcome>(), JobRunner::Cancelled);
    QVERIFY(!applied);
    QVERIFY(!runner.running());
}

void TestJobRunner::pause_stops_progress() {
    JobRunner runner;
    std::atomic<int> progress{0};
    QVERIFY(runner.start("pausable", [&](JobContext& ctx) -> std::function<void()> {
        for (;;) {
            ctx.cancel->checkpoint();
            ++progress;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }));
    QTRY_VERIFY(progress.load() > 20);
    QSignalSpy paused(&runner, &JobRunner::paused_changed);
    runner.pause(true);
    QVERIFY(runner.paused());
    QTest::qWait(100); // let the worker reach its next checkpoint
    const int at_pause = progress.load();
    QTest::qWait(300);
    QVERIFY2(progress.load() <= at_pause + 1, "no progress while paused");
    runner.pause(false);
    QTRY_VERIFY(progress.load() > at_pause + 20);
    QCOMPARE(paused.count(), 2);
    runner.cancel();
    QVERIFY(runner.wait(5000));
    // Cancel while paused also ends the job.
    progress = 0;
    QVERIFY(runner.start("pausable", [&](JobContext& ctx) -> std::function<void()> {
        for (;;) {
            ctx.cancel->checkpoint();
            ++progress;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }));
    QTRY_VERIFY(progress.load() > 5);
    runner.pause(true);
    runner.cancel();
    QVERIFY(runner.wait(5000));
    QVERIFY(!runner.paused());
}

void TestJobRunner::failure_is_reported_and_not_applied() {
    JobRunner runner;
    bool applied = false;
    QSignalSpy finished(&runner, &JobRunner::finished);
    QVERIFY(runner.start("bad", [&](JobContext&) -> std::function<void()> {
        throw ConfigError("receiver 3 at (9000, 10) m is outside the model");
        return [&] { applied = true; };
    }));
    QVERIFY(runner.wait(5000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).value<JobRunner::Outcome>(), JobRunner::Failed);
    QVERIFY(finished.first().at(2).toString().contains("outside the model"));
    QVERIFY(!applied);
}

void TestJobRunner::second_job_refused_while_running() {
    JobRunner runner;
    std::atomic<bool> release{false};
    QVERIFY(runner.start("first", [&](JobContext& ctx) -> std::function<void()> {
        while (!release) {
            ctx.cancel->checkpoint();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return {};
    }));
    QVERIFY(!runner.start("second", [](JobContext&) -> std::function<void()> { return {}; }));
    QCOMPARE(runner.current_name(), QString("first"));
    release = true;
    QVERIFY(runner.wait(5000));
    QVERIFY(runner.start("third", [](JobContext&) -> std::function<void()> { return {}; }));
    QVERIFY(runner.wait(5000));
}

void TestJobRunner::posts_arrive_in_order_before_finished() {
    JobRunner runner;
    std::vector<int> order; // GUI thread only
    connect(&runner, &JobRunner::events, this, [&](EventBatch b) {
        for (const Event& e : *b)
            if (e.type == EventType::Message) order.push_back(-int(e.step));
    });
    connect(&runner, &JobRunner::finished, this, [&] { order.push_back(1000); });
    // The posted closures run on the GUI thread, where `order` lives.
    QVERIFY(runner.start("posts", [&order](JobContext& ctx) -> std::function<void()> {
        for (int i = 1; i <= 5; ++i) {
            Event e;
            e.type = EventType::Message;
            e.step = i;
            ctx.observer->on_event(e);
            ctx.post([&order, i] { order.push_back(i); });
        }
        return {};
    }));
    QVERIFY(runner.wait(10000));
    // Each event (negative) before the post that followed it, and every post before finished.
    QCOMPARE(order, (std::vector<int>{-1, 1, -2, 2, -3, 3, -4, 4, -5, 5, 1000}));
}

void TestJobRunner::stopped_early_is_cancelled_but_applied() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    std::vector<int> delivered;
    bool applied = false;
    QVERIFY(runner.start("partial", [&](JobContext& ctx) -> std::function<void()> {
        for (int i = 0; i < 1000 && !ctx.cancel->cancelled(); ++i) {
            ctx.post([&delivered, i] { delivered.push_back(i); });
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ctx.stopped_early = ctx.cancel->cancelled();
        return [&] { applied = true; };
    }));
    QTRY_VERIFY_WITH_TIMEOUT(delivered.size() >= 3, 10000);
    runner.cancel();
    QVERIFY(runner.wait(10000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).value<JobRunner::Outcome>(), JobRunner::Cancelled);
    QVERIFY(applied);
    for (std::size_t i = 0; i < delivered.size(); ++i)
        QCOMPARE(delivered[i], int(i)); // in order, none lost
    QVERIFY(delivered.size() < 1000);
}

FWI_UI_TEST_MAIN(TestJobRunner)
#include "tst_job_runner.moc"
