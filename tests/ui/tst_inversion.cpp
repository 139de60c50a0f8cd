// Run › Invert end to end on the toy demo with the real engine: two iterations lower the misfit, the model
// view and the misfit plot follow each iteration live, the result is one undoable edit; a cancel mid-run
// keeps exactly the completed iterations with their optimizer state, and Run › Resume inversion continues
// from them to the very model an uninterrupted run reaches.
#include "fwi/inversion_project.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/plot_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/run_monitor.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "ui_test_main.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QUndoStack>

#include <cmath>
#include <memory>

using namespace fwi;
using namespace fwi::ui;

class TestInversion : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void cleanupTestCase();
    void two_iterations_lower_the_misfit_and_update_the_views();
    void cancel_keeps_the_last_completed_iteration();
    void resume_reaches_the_uninterrupted_result();
    void conditioning_fields_reach_the_run();

  private:
    std::size_t inversion_points() const {
        PlotView* plot = window_->run_monitor()->misfit_plot();
        return plot->point_count(plot->find_series("inversion"));
    }
    void set_iterations(int iterations) {
        InversionSettings inv = window_->document()->experiment().inversion;
        inv.iterations = iterations;
        window_->document()->edit_inversion(inv);
    }
    std::unique_ptr<MainWindow> window_;
};

void TestInversion::initTestCase() {
    set_message_boxes(false);
    window_ = std::make_unique<MainWindow>();
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(window_->open_demo("toy"));
    // Observed data from the true model, through the GUI's own forward job.
    QVERIFY(window_->run_forward());
    QVERIFY(window_->job_runner()->wait(120'000));
    QVERIFY(!window_->document()->project().observed.empty());
}

void TestInversion::cleanupTestCase() {
    window_.reset();
}

void TestInversion::two_iterations_lower_the_misfit_and_update_the_views() {
    MainWindow& w = *window_;
    ProjectDocument* doc = w.document();
    set_iterations(2);
    const Model initial = doc->experiment().initial_model;
    const Grid& g = initial.grid;
    const int undo_before = doc->undo_stack()->count();
    QSignalSpy finished(w.job_runner(), &JobRunner::finished);
    QVERIFY(w.run_invert());
    // Live: the starting model's misfit, then iteration 1 reaches the plot and the model view before the run
    // ends.
    QTRY_VERIFY_WITH_TIMEOUT(inversion_points() >= 2, 120'000);
    QVERIFY(w.job_runner()->wait(180'000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).value<JobRunner::Outcome>(), JobRunner::Succeeded);
    QCOMPARE(inversion_points(), std::size_t(3));

    const Project& p = doc->project();
    QCOMPARE(p.history.size(), std::size_t(3));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(p.history[std::size_t(i)].iteration, i);
    QVERIFY2(p.history[1].misfit < p.history[0].misfit && p.history[2].misfit < p.history[1].misfit,
             qPrintable(QString("misfits %1, %2, %3")
                            .arg(p.history[0].misfit)
                            .arg(p.history[1].misfit)
                            .arg(p.history[2].misfit)));
    QVERIFY(p.history[2].model_error < p.history[0].model_error); // closer to the true model, too
    QVERIFY(p.experiment.current_model.vp_mps == p.history.back().model.vp_mps);
    QVERIFY(p.experiment.current_model.vp_mps != initial.vp_mps);
    QCOMPARE(p.misfit, p.history.back().misfit);
    QCOMPARE(p.optimizer_state.at("inversion.iteration").at(0), 2.0);
    QVERIFY(doc->dirty());
    QCOMPARE(doc->undo_stack()->count(), undo_before + 1); // one undo step for the whole inversion

    // The model view shows the inverted model: at the cell that changed most, it reads the new velocity.
    std::size_t most = 0;
    for (std::size_t i = 0; i < initial.vp_mps.size(); ++i)
        if (std::abs(p.experiment.current_model.vp_mps[i] - initial.vp_mps[i]) >
            std::abs(p.experiment.current_model.vp_mps[most] - initial.vp_mps[most]))
            most = i;
    const double x = double(std::int64_t(most) % g.nx()) * g.dx(),
                 z = double(std::int64_t(most) / g.nx()) * g.dz();
    float shown = 0;
    QVERIFY(w.model_view()->value_at(x, z, shown));
    QCOMPARE(shown, p.experiment.current_model.vp_mps[most]);
    QVERIFY(std::abs(shown - initial.vp_mps[most]) > 1.0f);

    // Undo restores the project as it was before the run, redo brings the result back.
    doc->undo_stack()->undo();
    QVERIFY(doc->project().history.empty());
    QVERIFY(doc->experiment().current_model.vp_mps == initial.vp_mps);
    QVERIFY(doc->project().optimizer_state.empty());
    QVERIFY(w.model_view()->value_at(x, z, shown));
    QCOMPARE(shown, initial.vp_mps[most]);
    doc->undo_stack()->redo();
    QCOMPARE(doc->project().history.size(), std::size_t(3));
}

void TestInversion::cancel_keeps_the_last_completed_iteration() {
    MainWindow& w = *window_;
    ProjectDocument* doc = w.document();
    set_iterations(6);
    QSignalSpy finished(w.job_runner(), &JobRunner::finished);
    QVERIFY(w.run_invert());
    QTRY_VERIFY_WITH_TIMEOUT(inversion_points() >= 2, 120'000); // iteration 1 completed
    w.job_runner()->cancel();
    QVERIFY(w.job_runner()->wait(60'000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).value<JobRunner::Outcome>(), JobRunner::Cancelled);

    const Project& p = doc->project();
    QVERIFY(!p.history.empty());
    const int last = p.history.back().iteration;
    QVERIFY2(last >= 1 && last < 6, qPrintable(QString("last completed iteration %1").arg(last)));
    QCOMPARE(p.history.size(), std::size_t(last + 1)); // 0..last, no partial iteration
    QCOMPARE(inversion_points(), p.history.size());    // everything plotted was kept, and only that
    for (std::size_t i = 1; i < p.history.size(); ++i)
        QVERIFY(p.history[i].misfit < p.history[i - 1].misfit);
    QVERIFY(p.experiment.current_model.vp_mps == p.history.back().model.vp_mps);
    QCOMPARE(p.optimizer_state.at("inversion.iteration").at(0), double(last));
    QVERIFY(doc->undo_stack()->undoText().contains("Invert"));
    // The saved state is one the engine resumes from.
    const InversionSetup resume = inversion_setup(p, true);
    QVERIFY(!resume.resume.empty());
    // The GUI is free for the next run.
    QVERIFY(!w.job_runner()->running());
}

void TestInversion::resume_reaches_the_uninterrupted_result() {
    // Continues the run the previous test cancelled (6 iterations planned).
    MainWindow& w = *window_;
    ProjectDocument* doc = w.document();
    QVERIFY(!doc->project().optimizer_state.empty());
    const std::size_t kept = doc->project().history.size();
    const std::size_t plotted = inversion_points();
    const int undo_before = doc->undo_stack()->count();
    QVERIFY(w.run_invert(true));
    QVERIFY(w.job_runner()->wait(180'000));
    const Project& p = doc->project();
    QCOMPARE(p.history.size(), std::size_t(7)); // the kept records, then the resumed ones up to 6
    for (int i = 0; i < 7; ++i)
        QCOMPARE(p.history[std::size_t(i)].iteration, i);
    QCOMPARE(inversion_points(), plotted + (7 - kept)); // the curve goes on
    QCOMPARE(doc->undo_stack()->count(), undo_before + 1);

    // The same inversion uninterrupted, straight through the engine.
    Project fresh;
    fresh.experiment = p.experiment;
    fresh.observed = p.observed;
    const InversionResult straight = run_inversion(inversion_setup(fresh, false), nullptr, nullptr, {});
    QCOMPARE(straight.history.size(), std::size_t(7));
    QVERIFY(straight.model.vp_mps == p.experiment.current_model.vp_mps); // bit for bit
    for (std::size_t i = 0; i < 7; ++i)
        QCOMPARE(p.history[i].misfit, straight.history[i].misfit);

    // Undo takes back only the resumed part.
    doc->undo_stack()->undo();
    QCOMPARE(doc->project().history.size(), kept);
    doc->undo_stack()->redo();
    QCOMPARE(doc->project().history.size(), std::size_t(7));
}

void TestInversion::conditioning_fields_reach_the_run() {
    // Illumination, smoothing, the water mask and the L-BFGS memory set in the settings panel are the
    // project's run options; Invert runs with them and keeps them for a resume.
    MainWindow& w = *window_;
    ProjectDocument* doc = w.document();
    set_iterations(2);
    SettingsPanel* s = w.settings_panel();
    const int undo_before = doc->undo_stack()->count();
    s->findChild<QCheckBox*>("illumination")->setChecked(true);
    auto* smoothing = s->findChild<QDoubleSpinBox*>("smoothing");
    smoothing->setValue(25);
    emit smoothing->editingFinished();
    auto* memory = s->findChild<QSpinBox*>("lbfgs_memory");
    memory->setValue(3);
    emit memory->editingFinished();
    QCOMPARE(doc->undo_stack()->count(), undo_before + 3); // one undoable edit each
    InversionSetup saved;
    load_run_options(doc->project(), saved, false);
    QVERIFY(saved.objective.illumination);
    QCOMPARE(saved.objective.preconditioner.smoothing_z_m, 25.0);
    QCOMPARE(saved.optimizer.memory, 3);

    QVERIFY(w.run_invert());
    QVERIFY(w.job_runner()->wait(180'000));
    const Project& p = doc->project();
    QCOMPARE(p.history.size(), std::size_t(3));
    // The same inversion through the engine with those options, and without them: the GUI's is the first.
    Project fresh;
    fresh.experiment = p.experiment;
    fresh.observed = p.observed;
    InversionSetup with = inversion_setup(fresh, false);
    with.objective.illumination = true;
    with.objective.preconditioner.smoothing_x_m = with.objective.preconditioner.smoothing_z_m = 25;
    with.optimizer.memory = 3;
    QVERIFY(run_inversion(with, nullptr, nullptr, {}).model.vp_mps == p.experiment.current_model.vp_mps);
    QVERIFY(run_inversion(inversion_setup(fresh, false), nullptr, nullptr, {}).model.vp_mps !=
            p.experiment.current_model.vp_mps);
    InversionSetup kept;
    kept.stages = {{0.0, 1}};
    load_run_options(p, kept); // what a resume would run with
    QVERIFY(kept.objective.illumination);
    QCOMPARE(kept.optimizer.memory, 3);
    QCOMPARE(kept.stages[0].iterations, 2);

    // Undo of a field brings the panel back to the document's value.
    doc->undo_stack()->undo(); // the inversion
    doc->undo_stack()->undo(); // memory 3
    QCOMPARE(memory->value(), OptimizerOptions{}.memory);
}

FWI_UI_TEST_MAIN(TestInversion)
#include "tst_inversion.moc"
