// PlotView and RunMonitor: series draw on screen, CSV export holds exactly the data, and the monitor turns an
// event stream into the timeline, memory and progress it should.
#include "fwi/ui/plan_timeline.hpp"
#include "fwi/ui/plot_view.hpp"
#include "fwi/ui/run_monitor.hpp"
#include "ui_test_main.hpp"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace fwi;
using namespace fwi::ui;

class TestPlotView : public QObject {
    Q_OBJECT
  private slots:
    void series_are_drawn();
    void csv_export_holds_every_point();
    void csv_to_unwritable_path_fails();
    void monitor_builds_timeline_memory_and_progress();
    void plan_timeline_marks_recomputation();
};

void TestPlotView::series_are_drawn() {
    PlotView plot("Test", "x", "y");
    plot.resize(500, 350);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const QImage empty = plot.snapshot();
    const int id = plot.add_series("sine", QColor(200, 0, 0));
    for (int i = 0; i < 100; ++i)
        plot.append(id, i, std::sin(i * 0.1));
    const QImage drawn = plot.snapshot();
    drawn.save(test::output_path("tst_plot_view.png"));
    int red = 0;
    for (int y = 0; y < drawn.height(); ++y)
        for (int x = 0; x < drawn.width(); ++x) {
            const QColor c = drawn.pixelColor(x, y);
            if (c.red() > 150 && c.green() < 80 && c.blue() < 80) ++red;
        }
    QVERIFY2(red > 200, qPrintable(QString("%1 red pixels").arg(red)));
    QVERIFY(test::differing_pixels(empty, drawn) > 200);
    QCOMPARE(plot.point_count(id), std::size_t(100));
}

void TestPlotView::csv_export_holds_every_point() {
    PlotView plot("Memory", "wall time (s)", "MB, in use");
    const int a = plot.add_series("tier 0", Qt::blue);
    const int b = plot.add_series("tier \"1\"", Qt::red, SeriesStyle::Points);
    plot.set_series(a, {0, 0.5, 1.25}, {1, 2, 3.5});
    plot.append(b, 2, 1e-30);
    QTemporaryDir dir;
    const QString path = dir.filePath("plot.csv");
    QVERIFY(plot.export_csv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 3 + 1);
    QCOMPARE(lines[0], QString("series,\"wall time (s)\",\"MB, in use\""));
    QCOMPARE(lines[1], QString("\"tier 0\",0,1"));
    QCOMPARE(lines[3], QString("\"tier 0\",1.25,3.5"));
    QCOMPARE(lines[4], QString("\"tier \"\"1\"\"\",2,1e-30"));
    plot.clear_data();
    QCOMPARE(plot.point_count(a), std::size_t(0));
    QCOMPARE(plot.csv().count('\n'), 1);
}

void TestPlotView::csv_to_unwritable_path_fails() {
    PlotView plot("t", "x", "y");
    plot.add_series("s", Qt::black);
    QVERIFY(!plot.export_csv("/nonexistent-dir/x.csv"));
}

void TestPlotView::monitor_builds_timeline_memory_and_progress() {
    RunMonitor monitor;
    QSignalSpy progress(&monitor, &RunMonitor::progress);
    monitor.begin_run("gradient", 40, 2.0);
    auto batch = std::make_shared<std::vector<Event>>();
    auto ev = [&](EventType t, std::int64_t step, std::int64_t steps, double wall,
                  std::vector<std::uint64_t> bytes = {}) {
        Event e;
        e.type = t;
        e.step = step;
        e.steps = steps;
        e.wall_s = wall;
        e.shot = 0;
        e.bytes_per_tier = std::move(bytes);
        batch->push_back(e);
    };
    ev(EventType::ShotStart, 0, 0, 0.0);
    ev(EventType::ForwardStep, 10, 10, 0.1, {1'000'000});
    ev(EventType::Store, 10, 1, 0.11, {2'000'000, 500});
    ev(EventType::ForwardStep, 20, 10, 0.2, {2'000'000, 500});
    ev(EventType::Recompute, 15, 5, 0.3);
    ev(EventType::Load, 10, 1, 0.35);
    ev(EventType::AdjointStep, 10, 10, 0.4, {0, 0});
    monitor.on_events(batch);
    PlotView* timeline = monitor.timeline_plot();
    QCOMPARE(timeline->point_count(timeline->find_series("forward")), std::size_t(2));
    QCOMPARE(timeline->point_count(timeline->find_series("recompute")), std::size_t(1));
    QCOMPARE(timeline->point_count(timeline->find_series("store")), std::size_t(1));
    QCOMPARE(timeline->point_count(timeline->find_series("load")), std::size_t(1));
    QCOMPARE(timeline->point_count(timeline->find_series("adjoint")), std::size_t(1));
    PlotView* memory = monitor.memory_plot();
    QCOMPARE(memory->point_count(memory->find_series("tier 0")), std::size_t(4));
    QCOMPARE(memory->point_count(memory->find_series("tier 1")), std::size_t(3));
    // The CSV holds the values exactly (17 significant digits): parse the tier-0 rows back.
    std::vector<std::pair<double, double>> rows;
    for (const QString& line : memory->csv().split('\n', Qt::SkipEmptyParts))
        if (line.startsWith("\"tier 0\","))
            rows.emplace_back(line.section(',', 1, 1).toDouble(), line.section(',', 2, 2).toDouble());
    QCOMPARE(rows.size(), std::size_t(4));
    QCOMPARE(rows[1].first, 0.11);
    QCOMPARE(rows[1].second, 2.0);
    // Progress counts forward + adjoint steps (not recomputation): 30 of 40.
    QCOMPARE(monitor.steps_done(), std::int64_t(30));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(0).toDouble(), 0.75);
    monitor.end_run(true, 2.5);
    PlotView* timing = monitor.timing_plot();
    QCOMPARE(timing->point_count(timing->find_series("predicted")), std::size_t(1));
    QCOMPARE(timing->point_count(timing->find_series("measured")), std::size_t(1));
    monitor.end_run(false, 1.0); // failed runs are not timed
    QCOMPARE(timing->point_count(timing->find_series("measured")), std::size_t(1));
}

void TestPlotView::plan_timeline_marks_recomputation() {
    // 4 steps with one checkpoint at state 0 and state 2: store 0, advance to 2, store 2, advance 2..4 with
    // snapshots, reverse 3 and 2 from the buffer; restore 0, recompute step 0, reverse 1 with its own forward
    // step; restore 0 and reverse 0 with its own forward step.
    using A = ActionType;
    const std::vector<Action> plan = {
        {A::Store, 0, 0, 0, 0},      {A::Advance, 0, 2, -1, 0}, {A::Store, 2, 0, 1, 0},
        {A::AdvanceSnapshots, 2, 4}, {A::Reverse, 3, 0},        {A::Reverse, 2, 0},
        {A::Free, 0, 0, 1, 0},       {A::Restore, 0, 0, 0, 0},  {A::Advance, 0, 1, -1, 0},
        {A::Reverse, 1, 0},          {A::Restore, 0, 0, 0, 0},  {A::Reverse, 0, 0},
        {A::Free, 0, 0, 0, 0}};
    const auto marks = plan_timeline(plan, {1.0, 2.0, 0.5, 0.25});
    auto count = [&](EventType t) {
        return std::count_if(marks.begin(), marks.end(), [&](auto& m) { return m.type == t; });
    };
    QCOMPARE(count(EventType::ForwardStep), 4); // steps 0..3 computed once
    QCOMPARE(count(EventType::Recompute), 3);   // step 0 again, then steps 1 and 0 inside their reverses
    QCOMPARE(count(EventType::AdjointStep), 4);
    QCOMPARE(count(EventType::Store), 2);
    QCOMPARE(count(EventType::Load), 2);
    // Time: 7 forward steps x 1 + 4 adjoint x 2 + 2 stores x 0.5 + 2 loads x 0.25.
    QCOMPARE(marks.back().time_s, 7.0 + 8.0 + 1.0 + 0.5);
    QCOMPARE(marks.back().step, std::int64_t(0));
    // Decimation keeps storage marks and bounds the total.
    std::vector<Action> long_plan = {{A::Store, 0, 0, 0, 0}, {A::AdvanceSnapshots, 0, 100000}};
    for (std::int64_t s = 99999; s >= 0; --s)
        long_plan.push_back({A::Reverse, s, 0});
    const auto decimated = plan_timeline(long_plan, {}, 1000);
    QVERIFY(decimated.size() <= 1001 && decimated.size() > 500);
    QCOMPARE(decimated.front().type, EventType::Store);
    // The monitor draws the plan once per shot.
    RunMonitor monitor;
    monitor.show_plan(marks, 3);
    PlotView* timeline = monitor.timeline_plot();
    QVERIFY(timeline->point_count(timeline->find_series("planned forward")) >= 3 * 4);
    monitor.begin_run("gradient", 10, 1.0); // a new run keeps the plan, clears the live marks
    QVERIFY(timeline->point_count(timeline->find_series("planned adjoint")) >= 3 * 4);
    monitor.show_plan({}, 1);
    QCOMPARE(timeline->point_count(timeline->find_series("planned adjoint")), std::size_t(0));
}

FWI_UI_TEST_MAIN(TestPlotView)
#include "tst_plot_view.moc"
