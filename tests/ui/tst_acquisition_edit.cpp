// The pure pieces behind the editors: acquisition edits (shared spreads, refusals), the undoable document,
// the prediction adapter's response to settings, and the codec spec check.
#include "fwi/acquisition_check.hpp"
#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/schedules.hpp"
#include "fwi/ui/acquisition_edit.hpp"
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/run_predictor.hpp"
#include "ui_test_main.hpp"

#include <QSignalSpy>
#include <QUndoStack>

using namespace fwi;
using namespace fwi::ui;

class TestAcquisitionEdit : public QObject {
    Q_OBJECT
  private slots:
    void shared_spread_stays_shared();
    void per_shot_receivers_edit_the_active_shot();
    void refusals_name_the_problem();
    void document_undo_and_dirty();
    void prediction_follows_settings();
    void prediction_reports_bad_settings();
    void demos_are_valid_projects();
};

namespace {
const Grid grid(101, 201, 10, 10); // 2000 m x 1000 m
}

void TestAcquisitionEdit::shared_spread_stays_shared() {
    Acquisition a = surface_survey(2, 100, 1900, 20, 3, 0, 2000, 10);
    QVERIFY(receivers_shared(a));
    a = with_point_added(a, grid, PointKind::Receiver, {500, 500}, 1);
    QCOMPARE(a.shots[0].receivers.size(), std::size_t(4));
    QVERIFY(receivers_shared(a));
    a = with_point_added(a, grid, PointKind::Source, {700, 30}, 0);
    QCOMPARE(a.shots.size(), std::size_t(3));
    QCOMPARE(a.shots[2].receivers, a.shots[0].receivers); // the new shot is recorded by the spread
    a = with_point_moved(a, grid, {PointKind::Receiver, 0}, {5, 6}, 2);
    QVERIFY(receivers_shared(a));
    QCOMPARE(a.shots[1].receivers[0], (Point{5, 6}));
    a = with_points_deleted(a, {{PointKind::Receiver, 0}, {PointKind::Receiver, 2}, {PointKind::Receiver, 0}},
                            0);
    QCOMPARE(a.shots[0].receivers.size(), std::size_t(2));
    QCOMPARE(a.shots[0].receivers[0].x_m, 1000.0);
    QVERIFY(receivers_shared(a));
    a = with_receiver_line(a, grid, {0, 100}, {1000, 100}, 5, 0);
    QCOMPARE(a.shots[1].receivers.size(), std::size_t(7));
    QCOMPARE(a.shots[1].receivers[3].x_m, 250.0); // appended after the 2 left: 0, 250, 500, ...
}

void TestAcquisitionEdit::per_shot_receivers_edit_the_active_shot() {
    Acquisition a;
    a.shots = {{{100, 10}, {{0, 10}, {50, 10}}}, {{900, 10}, {{0, 10}}}};
    QVERIFY(!receivers_shared(a));
    a = with_point_added(a, grid, PointKind::Receiver, {70, 10}, 1);
    QCOMPARE(a.shots[0].receivers.size(), std::size_t(2));
    QCOMPARE(a.shots[1].receivers.size(), std::size_t(2));
    QCOMPARE(receivers_of(a, 1)[1].x_m, 70.0);
    QCOMPARE(receivers_of(a, 99).size(), std::size_t(2)); // clamped to the last shot
    a = with_points_deleted(a, {{PointKind::Source, 0}}, 0);
    QCOMPARE(a.shots.size(), std::size_t(1));
    QCOMPARE(a.shots[0].source.x_m, 900.0);
}

void TestAcquisitionEdit::refusals_name_the_problem() {
    const Acquisition a = surface_survey(1, 100, 100, 20, 2, 0, 2000, 10);
    try {
        with_point_added(a, grid, PointKind::Receiver, {2000.5, 10}, 0);
        QFAIL("outside point accepted");
    } catch (const ConfigError& e) {
        QVERIFY(
            QString(e.what()).contains("Receiver at (2000.5, 10.0) m is outside the model (x 0..2000.0 m"));
    }
    QVERIFY(inside_model(grid, {2000, 1000}));
    QVERIFY(!inside_model(grid, {0, -0.1}));
    QVERIFY_THROWS_EXCEPTION(ConfigError,
                             with_point_added(Acquisition{}, grid, PointKind::Receiver, {1, 1}, 0));
    QVERIFY_THROWS_EXCEPTION(ConfigError, with_point_moved(a, grid, {PointKind::Receiver, 2}, {1, 1}, 0));
    QVERIFY_THROWS_EXCEPTION(ConfigError, with_points_deleted(a, {{PointKind::Source, 1}}, 0));
    QVERIFY_THROWS_EXCEPTION(ConfigError, with_receiver_line(a, grid, {0, 0}, {10, 0}, 0, 0));
    QVERIFY_THROWS_EXCEPTION(ConfigError, with_receiver_line(a, grid, {0, 0}, {10, 1001}, 3, 0));
}

void TestAcquisitionEdit::document_undo_and_dirty() {
    ProjectDocument doc;
    Project p;
    p.experiment.initial_model = builtin_model("homogeneous");
    p.experiment.acquisition = surface_survey(1, 100, 100, 20, 2, 0, 2000, 10);
    doc.reset(p, "/tmp/x.fwi");
    QCOMPARE(doc.title(), QString("x.fwi"));
    QSignalSpy dirty(&doc, &ProjectDocument::dirty_changed);
    QSignalSpy changed(&doc, &ProjectDocument::changed);
    QVERIFY(!doc.dirty());
    doc.edit_acquisition(p.experiment.acquisition, "no-op"); // equal value: no undo step
    QCOMPARE(doc.undo_stack()->count(), 0);
    PropagationSettings prop = doc.experiment().propagation;
    prop.freq_hz = 7;
    doc.edit_propagation(prop);
    QVERIFY(doc.dirty());
    QCOMPARE(changed.last().first().toInt(), int(ProjectDocument::PropagationPart));
    doc.edit_gradient_result({1, 2, 3}, 4.5, "gradient");
    QCOMPARE(doc.project().misfit, 4.5);
    doc.undo_stack()->undo();
    QVERIFY(doc.project().gradient.empty());
    QVERIFY(std::isnan(doc.project().misfit));
    doc.undo_stack()->undo();
    QCOMPARE(doc.experiment().propagation.freq_hz, 5.0);
    QVERIFY(!doc.dirty());
    QCOMPARE(dirty.count(), 2);
    doc.undo_stack()->redo();
    doc.mark_saved("/tmp/y.fwi", {});
    QVERIFY(!doc.dirty());
    QCOMPARE(doc.path(), QString("/tmp/y.fwi"));
    doc.set_active_shot(5); // clamped: one shot
    QCOMPARE(doc.active_shot(), 0);
}

void TestAcquisitionEdit::prediction_follows_settings() {
    Experiment e;
    e.initial_model = builtin_model("layered");
    e.acquisition = surface_survey(2, 100, 1900, 20, 10, 0, 2000, 20);
    e.propagation.dt_s = 0.002;
    e.propagation.nt = 501;
    e.propagation.pml_width =
        17; // a padded shape no other test measures: the first predict() cannot be cached
    RunPredictor predictor;
    predictor.set_backend("cpu");
    const RunPrediction unmeasured = predictor.predict(e);
    QVERIFY(!unmeasured.ok && unmeasured.calibrating);
    QVERIFY(unmeasured.inner_steps >= 500); // the steps are known before the costs

    const RunPrediction all = predictor.predict_now(e);
    QVERIFY2(all.ok, qPrintable(all.error));
    QVERIFY(!all.calibrating && all.fits_budget && !all.automatic);
    StepCosts measured;
    QVERIFY(predictor.cached_costs(e, measured));
    QVERIFY(measured.forward_step_s > 0 && measured.adjoint_step_s > 0);
    // Store-all, uncompressed: every step once forward (writing its snapshot in place) and once adjoint, one
    // raw snapshot per step held (no copy, no codec frame), the first touch of the peak memory and the shot's
    // set-up, nothing else.
    const auto l = all.inner_steps;
    const Prediction& shot = all.per_shot;
    QCOMPARE(shot.counts.snapshot_steps, l);
    QCOMPARE(shot.counts.peak_snapshots, l);
    QCOMPARE(shot.recompute_s, 0.0);
    const StepCosts& c = all.costs;
    QVERIFY(c.snapshots_in_place);
    const std::uint64_t raw = measured.snapshot_bytes - fwi::codec_frame_header_bytes;
    QCOMPARE(c.stored_snapshot_bytes(), (raw + 63) / 64 * 64); // an arena slot: whole cache lines
    QCOMPARE(all.peak_bytes, std::uint64_t(l) * c.stored_snapshot_bytes());
    const double expected =
        double(l) * (measured.forward_step_s + measured.snapshot_write_s + measured.adjoint_step_s) +
        measured.first_touch_s_per_byte * double(shot.peak_total_bytes) + measured.shot_setup_s;
    QVERIFY(measured.shot_setup_s > 0);
    QVERIFY2(std::abs(shot.total_s - expected) <= 1e-9 * expected,
             qPrintable(QString("%1 vs %2").arg(shot.total_s).arg(expected)));
    QCOMPARE(all.gradient_seconds, 2 * shot.total_s); // two shots, one after the other
    QCOMPARE(all.forward_seconds, 2.0 * double(l) * measured.forward_step_s);
    // An inversion: a gradient per iteration, and one per stage for its starting point.
    const auto stages = std::int64_t(std::max<std::size_t>(e.inversion.stage_freqs_hz.size(), 1));
    QCOMPARE(all.inversion_gradients, stages * e.inversion.iterations + stages);
    QCOMPARE(all.inversion_seconds, double(all.inversion_gradients) * all.gradient_seconds);
    QVERIFY(!all.alternatives.empty());

    // zfp-rate:8 guarantees 4:1, so slots are sized at (almost) a quarter.
    e.gradient.compression = "zfp-rate:8";
    const RunPrediction zfp = predictor.predict_now(e);
    QVERIFY2(zfp.ok, qPrintable(zfp.error));
    QVERIFY(zfp.compression_ratio > 3.5 && zfp.compression_ratio <= 4.0);
    QVERIFY(zfp.peak_bytes * 3 < all.peak_bytes);

    // revolve:S holds exactly S states at its peak and no snapshot buffer; it pays with recomputation.
    e.gradient.compression = "none";
    e.gradient.schedule = "revolve:10";
    const RunPrediction revolve = predictor.predict(e);
    QVERIFY2(revolve.ok, qPrintable(revolve.error));
    QCOMPARE(revolve.peak_bytes, 10 * measured.state_bytes);
    QCOMPARE(revolve.per_shot.counts.peak_slots.at(0), 10);
    QCOMPARE(revolve.per_shot.counts.advance_steps, revolve_advance_steps(l, 10));
    QVERIFY(revolve.gradient_seconds > all.gradient_seconds);
    QCOMPARE(revolve.forward_seconds, all.forward_seconds);

    // Over the budget: a fixed schedule is predicted but does not fit; auto picks one that does.
    e.gradient.schedule = "all";
    e.gradient.budget_bytes = all.peak_bytes / 2;
    const RunPrediction over = predictor.predict(e);
    QVERIFY(over.ok && !over.fits_budget);
    QVERIFY(over.summary().contains("over the budget"));
    e.gradient.schedule = "auto";
    const RunPrediction chosen = predictor.predict(e);
    QVERIFY2(chosen.ok, qPrintable(chosen.error));
    QVERIFY(chosen.automatic && chosen.fits_budget);
    QVERIFY(chosen.schedule != "all" && chosen.peak_bytes <= e.gradient.budget_bytes);
    QVERIFY(chosen.summary().contains(chosen.schedule) && chosen.summary().contains("(auto)"));
    // Auto with a budget below one state: the performance model's ResourceError.
    e.gradient.budget_bytes = measured.state_bytes / 2;
    const RunPrediction none_fits = predictor.predict(e);
    QVERIFY(!none_fits.ok && !none_fits.calibrating);
    QVERIFY2(none_fits.error.contains("no checkpoint schedule fits"), qPrintable(none_fits.error));
    // No budget: the machine's share is the limit (here a machine whose three quarters hold half of
    // store-all).
    qputenv("FWI_MACHINE_MEMORY", QByteArray::number(qulonglong(all.peak_bytes / 3 * 2)));
    const auto restore = qScopeGuard([] { qunsetenv("FWI_MACHINE_MEMORY"); });
    e.gradient.budget_bytes = 0;
    e.gradient.schedule = "all";
    const RunPrediction machine = predictor.predict(e);
    QVERIFY(machine.ok && !machine.fits_budget);
    QCOMPARE(machine.machine_budget_bytes, all.peak_bytes / 3 * 2 / 4 * 3);
    QVERIFY2(machine.summary().contains("of this machine's") && machine.summary().contains("over the budget"),
             qPrintable(machine.summary()));
}

void TestAcquisitionEdit::prediction_reports_bad_settings() {
    Experiment e;
    e.initial_model = builtin_model("layered");
    e.acquisition = surface_survey(1, 100, 100, 20, 2, 0, 2000, 20);
    RunPredictor predictor;
    e.gradient.compression = "zfp-accuracy:-1";
    RunPrediction p = predictor.predict(e);
    QVERIFY(!p.ok);
    QVERIFY(p.error.contains("zfp-accuracy:-1"));
    e.gradient.compression = "gzip";
    QVERIFY(predictor.predict(e).error.contains("unknown codec"));
    e.gradient.compression = "none";
    e.gradient.schedule = "fancy:3";
    QVERIFY(predictor.predict(e).error.contains("unknown schedule"));
    e.gradient.schedule = "all";
    e.propagation.dt_s = -1;
    QVERIFY(!predictor.predict(e).ok);
    QVERIFY(predictor.predict(Experiment{}).error.size() > 0); // no model
    QCOMPARE(format_bytes(1'500'000), QString("1.50 MB"));
    QCOMPARE(format_seconds(0.25), QString("250 ms"));
    QCOMPARE(format_seconds(125), QString("2 min 5 s"));
}

void TestAcquisitionEdit::demos_are_valid_projects() {
    for (const QString& name : demo_names()) {
        const Project p = make_demo_project(name);
        const Experiment& e = p.experiment;
        validate_model(e.true_model, "true model");
        validate_model(e.current_model, "current model");
        QVERIFY(e.true_model.grid == e.initial_model.grid);
        validate_acquisition(e.acquisition, e.true_model.grid); // throws if a point is outside
        QVERIFY(!e.acquisition.shots.empty());
        const RunPrediction prediction = RunPredictor().predict_now(e);
        QVERIFY2(prediction.ok, qPrintable(name + ": " + prediction.error));
    }
    QVERIFY_THROWS_EXCEPTION(ConfigError, make_demo_project("nope"));
    // The toy demo must stay small enough to run in seconds.
    const Project toy = make_demo_project("toy");
    QVERIFY(toy.experiment.true_model.grid.cells() <= 30000);
}

FWI_UI_TEST_MAIN(TestAcquisitionEdit)
#include "tst_acquisition_edit.moc"
