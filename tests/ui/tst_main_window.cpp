// The main window end to end with the real engine on the toy demo: clicks land at the right metres, a forward
// run changes the wavefield view's pixels, cancelling mid-run leaves the GUI responsive and the project
// unchanged, save then load gives the same project, the prediction follows the compression, and bad settings
// are refused.
#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "fwi/ui/acquisition_edit.hpp"
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/file_check.hpp"
#include "fwi/ui/image_view.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "ui_test_main.hpp"

#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>

using namespace fwi;
using namespace fwi::ui;

namespace {
bool models_equal(const Model& a, const Model& b) {
    return a.grid == b.grid && a.vp_mps == b.vp_mps;
}

void set_combo(QComboBox* box, const QString& text) {
    box->setCurrentText(text);
    emit box->activated(box->currentIndex());
}
void set_line(QLineEdit* edit, const QString& text) {
    edit->setText(text);
    emit edit->editingFinished();
}
QByteArray file_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { set_message_boxes(false); }
    void demo_opens_and_click_places_receiver();
    void forward_run_changes_wavefield_pixels();
    void cancel_mid_run_keeps_gui_responsive_and_project_unchanged();
    void save_then_load_is_equal();
    void a_file_another_program_saved_is_not_replaced_unasked();
    void compression_changes_predicted_memory();
    void plans_are_priced_off_the_gui_thread();
    void bad_settings_refused_with_message();
    void codec_specs_accepted_as_the_engine_does_data();
    void codec_specs_accepted_as_the_engine_does();
    void failed_open_leaves_project_untouched();
    void a_reader_crash_is_reported_and_the_window_lives_on();
    void floating_dock_keeps_rendering();
};

void TestMainWindow::demo_opens_and_click_places_receiver() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("toy"));
    QVERIFY(w.status_device_text().contains("CPU") || w.status_device_text().contains("GPU") ||
            w.status_device_text().contains("NVIDIA"));
    QVERIFY(w.status_memory_text().contains("MB"));
    ModelView* view = w.model_view();
    const Grid g = view->grid();
    QCOMPARE(g.nx(), std::int64_t(201));
    // The model's right edge is drawn at x = width + dx/2 (cell edges): a click 30% across and 40% down the
    // drawn image must land at 30% / 40% of the extent between the cell edges.
    const QPointF top_left = view->to_widget({-0.5 * g.dx(), -0.5 * g.dz()});
    const QPointF bottom_right = view->to_widget({g.width_m() + 0.5 * g.dx(), g.depth_m() + 0.5 * g.dz()});
    const QPoint click((top_left + 0.3 * (bottom_right - top_left)).x(),
                       (top_left + 0.4 * (bottom_right - top_left)).y());
    view->set_edit_mode(EditMode::AddReceiver);
    const auto before = w.document()->experiment().acquisition.shots[0].receivers.size();
    QTest::mouseClick(view, Qt::LeftButton, {}, click);
    const auto& rec = w.document()->experiment().acquisition.shots[0].receivers;
    QCOMPARE(rec.size(), before + 1);
    const double mpp = view->view_transform().metres_per_pixel;
    const double x_expect = -0.5 * g.dx() + 0.3 * (g.width_m() + g.dx());
    const double z_expect = -0.5 * g.dz() + 0.4 * (g.depth_m() + g.dz());
    QVERIFY2(std::abs(rec.back().x_m - x_expect) <= mpp && std::abs(rec.back().z_m - z_expect) <= mpp,
             qPrintable(QString("at %1, %2; expected %3, %4")
                            .arg(rec.back().x_m)
                            .arg(rec.back().z_m)
                            .arg(x_expect)
                            .arg(z_expect)));
    QVERIFY(w.isWindowModified());
    w.document()->undo_stack()->undo();
    QVERIFY(!w.isWindowModified());
}

void TestMainWindow::forward_run_changes_wavefield_pixels() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("toy"));
    ImageView* wave = w.wavefield_view();
    const QImage before = wave->snapshot();
    int frames = 0;
    connect(w.job_runner(), &JobRunner::field, this, [&](FieldFramePtr f) {
        if (f->kind == FieldKind::ForwardWavefield) ++frames;
    });
    // Frames are throttled by the GUI's pace (a frame waits until the last one is drawn): on a loaded
    // machine a short run may end after one. Four times the demo's 401 samples give several when quiet.
    PropagationSettings longer = w.document()->experiment().propagation;
    longer.nt = 1601;
    w.document()->edit_propagation(longer);
    QVERIFY(w.run_forward());
    QTRY_VERIFY_WITH_TIMEOUT(frames >= 2 || !w.job_runner()->running(), 60000);
    QVERIFY2(frames >= 1, "no wavefield frame reached the view during the run");
    const QImage during = wave->snapshot();
    during.save(test::output_path("tst_main_window_wavefield.png"));
    const int changed = test::differing_pixels(before, during);
    QVERIFY2(changed > during.width() * during.height() / 20,
             qPrintable(QString("%1 pixels changed").arg(changed)));
    // Later frames differ from earlier ones: the wave moves.
    const int seen = frames;
    QTRY_VERIFY_WITH_TIMEOUT(frames >= seen + 2 || !w.job_runner()->running(), 60000);
    if (frames >= seen + 2) QVERIFY(test::differing_pixels(during, wave->snapshot()) > 100);
    QVERIFY(w.job_runner()->wait(120000));
    const Project& p = w.document()->project();
    QCOMPARE(p.observed.size(), p.experiment.acquisition.shots.size());
    QVERIFY(p.observed[0].samples == p.experiment.propagation.nt);
    QVERIFY(w.document()->dirty());
}

void TestMainWindow::cancel_mid_run_keeps_gui_responsive_and_project_unchanged() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("toy"));
    // Long enough (32 s of data, about 10 s of run on a quiet machine) that the run is still going when we
    // cancel it after the two seconds watched below.
    PropagationSettings longer = w.document()->experiment().propagation;
    longer.nt = 16001;
    w.document()->edit_propagation(longer);
    const Project before = w.document()->project();
    const int undo_count = w.document()->undo_stack()->count();
    QElapsedTimer clock;
    clock.start();
    std::vector<qint64> ticks;
    QTimer timer;
    connect(&timer, &QTimer::timeout, this, [&] { ticks.push_back(clock.elapsed()); });
    timer.start(10);
    int frames = 0;
    connect(w.job_runner(), &JobRunner::field, this, [&] { ++frames; });
    QSignalSpy finished(w.job_runner(), &JobRunner::finished);
    QVERIFY(w.run_forward());
    QTRY_VERIFY_WITH_TIMEOUT(frames >= 1, 60000);
    // The event loop keeps turning while the engine runs and the views repaint live. The bar is set for
    // software OpenGL under Xvfb on 2 busy cores, where one window repaint takes ~60-200 ms and a 10 ms timer
    // cannot keep its rate: the timer must keep firing, and the GUI thread must never be held for long. A GUI
    // thread that waited on the engine would show one gap over the whole window; a loaded machine (the suite
    // runs two tests at once on 2 cores) starved it for up to a second in an 800 ms window, so the window is
    // two seconds and the bar three quarters of it.
    const std::size_t first = ticks.size();
    const qint64 t0 = clock.elapsed();
    QTest::qWait(2000);
    QVERIFY(w.job_runner()->running());
    qint64 longest_gap = 0, previous = t0;
    for (std::size_t i = first; i < ticks.size(); ++i)
        longest_gap = std::max(longest_gap, ticks[i] - previous), previous = ticks[i];
    longest_gap = std::max(longest_gap, clock.elapsed() - previous);
    qInfo() << "10 ms timer fired" << ticks.size() - first << "times in 2000 ms of the run; longest gap"
            << longest_gap << "ms";
    QVERIFY2(ticks.size() - first >= 3 && longest_gap < 1500, "the event loop keeps turning during the run");
    QVERIFY(w.job_runner()->running());
    w.job_runner()->cancel();
    QVERIFY(w.job_runner()->wait(10000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).value<JobRunner::Outcome>(), JobRunner::Cancelled);
    QCOMPARE(w.document()->undo_stack()->count(), undo_count);
    QVERIFY(w.document()->project().observed.empty());
    QVERIFY(w.document()->experiment().acquisition == before.experiment.acquisition);
    QVERIFY(w.document()->experiment().propagation == longer);
}

void TestMainWindow::save_then_load_is_equal() {
    QTemporaryDir dir;
    const QString path = dir.filePath("saved.fwi");
    MainWindow w;
    QVERIFY(w.open_demo("toy"));
    ProjectDocument* doc = w.document();
    // Some edits of each kind, so that the file holds more than the demo's defaults.
    doc->edit_acquisition(with_point_added(doc->experiment().acquisition, doc->display_model().grid,
                                           PointKind::Receiver, {123.25, 456.5}, 0),
                          "add");
    GradientSettings g = doc->experiment().gradient;
    g.schedule = "revolve:7";
    g.compression = "zfp-accuracy:1e-06";
    g.budget_bytes = 123456789;
    doc->edit_gradient(g);
    InversionSettings inv = doc->experiment().inversion;
    inv.stage_freqs_hz = {2.5, 4, 7};
    doc->edit_inversion(inv);
    QVERIFY(w.save_project_as(path));
    QVERIFY(!doc->dirty());
    QCOMPARE(doc->path(), path);
    QVERIFY(w.recent_projects().contains(QFileInfo(path).absoluteFilePath()));

    MainWindow other;
    QVERIFY(other.open_project(path));
    const Experiment& a = doc->experiment();
    const Experiment& b = other.document()->experiment();
    QVERIFY(a.acquisition == b.acquisition);
    QVERIFY(a.propagation == b.propagation);
    QVERIFY(a.gradient == b.gradient);
    QVERIFY(a.inversion == b.inversion);
    QVERIFY(models_equal(a.true_model, b.true_model));
    QVERIFY(models_equal(a.initial_model, b.initial_model));
    QVERIFY(models_equal(a.current_model, b.current_model));
    QVERIFY(!other.document()->dirty());
}

/// Another program (`fwi invert`, a second window) saving the open project's file: File > Save asks before
/// replacing that work, and unattended it keeps the file; Save As still saves elsewhere.
void TestMainWindow::a_file_another_program_saved_is_not_replaced_unasked() {
    QTemporaryDir dir;
    const QString path = dir.filePath("shared.fwi"), elsewhere = dir.filePath("mine.fwi");
    {
        MainWindow maker;
        QVERIFY(maker.open_demo("toy"));
        QVERIFY(maker.save_project_as(path));
    }
    MainWindow w;
    QVERIFY(w.open_project(path));
    ProjectDocument* doc = w.document();
    GradientSettings g = doc->experiment().gradient;
    g.schedule = "revolve:7";
    doc->edit_gradient(g);
    QVERIFY(w.save()); // nobody else wrote it: saved over it
    g.schedule = "revolve:8";
    doc->edit_gradient(g);
    Project theirs = load_project(path.toStdString());
    theirs.experiment.gradient.schedule = "uniform:3";
    save_project(path.toStdString(), theirs);
    const QByteArray written = file_bytes(path);
    QVERIFY(!w.save()); // unattended, the question's answer keeps the file
    QCOMPARE(file_bytes(path), written);
    QVERIFY(doc->dirty());
    QVERIFY(w.save_project_as(elsewhere));
    QCOMPARE(load_project(elsewhere.toStdString()).experiment.gradient.schedule, std::string("revolve:8"));
    g.schedule = "revolve:9";
    doc->edit_gradient(g);
    QVERIFY(w.save()); // over its own new file, unchanged since
    QCOMPARE(load_project(path.toStdString()).experiment.gradient.schedule, std::string("uniform:3"));
}

void TestMainWindow::compression_changes_predicted_memory() {
    MainWindow w;
    QVERIFY(w.open_demo("toy"));
    SettingsPanel* s = w.settings_panel();
    QTRY_VERIFY(s->prediction().ok); // after this machine's costs are measured on a worker thread
    const auto none_bytes = s->prediction().peak_bytes;
    const QString none_text = s->prediction_text();
    QVERIFY(none_bytes > 0);
    set_combo(s->findChild<QComboBox*>("codec"), "zfp-rate");
    set_line(s->findChild<QLineEdit*>("codec_parameter"), "8");
    QCOMPARE(QString::fromStdString(w.document()->experiment().gradient.compression), QString("zfp-rate:8"));
    QTRY_VERIFY(s->prediction().ok); // the codec's estimate, measured once
    const auto zfp_bytes = s->prediction().peak_bytes;
    QVERIFY2(zfp_bytes * 3 < none_bytes, qPrintable(QString("%1 vs %2").arg(zfp_bytes).arg(none_bytes)));
    QVERIFY(s->prediction_text() != none_text);
    // Undo brings the old prediction back.
    w.document()->undo_stack()->undo();
    QTRY_COMPARE(s->prediction().peak_bytes, none_bytes);
}

void TestMainWindow::plans_are_priced_off_the_gui_thread() {
    MainWindow w;
    QVERIFY(w.open_demo("toy"));
    SettingsPanel* s = w.settings_panel();
    QTRY_VERIFY(s->prediction().ok);
    const QString priced_text = s->prediction_text();
    const std::int64_t steps = s->prediction().inner_steps;
    // An edit returns with the outline (steps, no plan yet) and the last priced summary still in view; the
    // plans come from the worker.
    set_combo(s->findChild<QComboBox*>("codec"), "zfp-rate");
    set_line(s->findChild<QLineEdit*>("codec_parameter"), "8");
    QVERIFY(s->pricing() || s->calibrating()); // zfp-rate is measured first: a calibration, then pricing
    QVERIFY(!s->prediction().ok);
    QCOMPARE(s->prediction().inner_steps, steps);
    QCOMPARE(s->prediction_text(), priced_text);
    QTRY_VERIFY(s->prediction().ok);
    QCOMPARE(s->prediction().codec, std::string("zfp-rate:8"));
    QVERIFY(s->prediction_text() != priced_text);
    // Edits while a pricing runs (budgets: measured already, priced only): the last settings win.
    auto* budget = s->findChild<QDoubleSpinBox*>("budget_mb");
    for (double mb : {900.0, 700.0, 500.0}) {
        budget->setValue(mb);
        emit budget->editingFinished();
        QVERIFY(s->pricing());
        QCOMPARE(s->prediction().budget_bytes, std::uint64_t(mb * 1e6));
    }
    QTRY_VERIFY(s->prediction().ok);
    QCOMPARE(s->prediction().budget_bytes, std::uint64_t(500e6));
    QTest::qWait(300); // no late result of the older settings replaces it
    QVERIFY(s->prediction().ok);
    QCOMPARE(s->prediction().budget_bytes, std::uint64_t(500e6));
    QCOMPARE(s->prediction().codec, std::string("zfp-rate:8"));
    // The worker priced a copy holding only the models' grids and velocity ranges: the same numbers.
    const RunPrediction direct = s->predictor().predict(w.document()->experiment());
    QVERIFY(direct.ok);
    QCOMPARE(s->prediction().inner_steps, direct.inner_steps);
    QCOMPARE(s->prediction().gradient_seconds, direct.gradient_seconds);
    QCOMPARE(s->prediction().peak_bytes, direct.peak_bytes);
    QCOMPARE(s->prediction().schedule, direct.schedule);
}

void TestMainWindow::bad_settings_refused_with_message() {
    MainWindow w;
    QVERIFY(w.open_demo("toy"));
    SettingsPanel* s = w.settings_panel();
    const Experiment before = w.document()->experiment();
    const int errors = error_count();

    set_line(s->findChild<QLineEdit*>("stages"), "5, 3");
    QCOMPARE(error_count(), errors + 1);
    QVERIFY(last_error().contains("increase"));
    QCOMPARE(s->findChild<QLineEdit*>("stages")->text(), QString()); // fields back to the document's values

    set_line(s->findChild<QLineEdit*>("stages"), "3, five");
    QVERIFY(last_error().contains("five"));

    auto* vmin = s->findChild<QDoubleSpinBox*>("min_velocity");
    vmin->setValue(9000);
    emit vmin->editingFinished();
    QVERIFY(last_error().contains("lowest velocity"));
    QCOMPARE(vmin->value(), before.inversion.min_velocity_mps);

    set_combo(s->findChild<QComboBox*>("codec"), "zfp-accuracy");
    set_line(s->findChild<QLineEdit*>("codec_parameter"), "abc");
    QVERIFY(last_error().contains("tolerance"));

    auto* duration = s->findChild<QDoubleSpinBox*>("duration_s");
    duration->setValue(0.001); // shorter than the 2 ms sample interval
    emit duration->editingFinished();
    QVERIFY(last_error().contains("duration"));

    auto* reference = s->findChild<QDoubleSpinBox*>("max_velocity");
    reference->setValue(1); // below any model's velocity
    emit reference->editingFinished();
    QVERIFY2(last_error().contains("below the models' largest velocity"), qPrintable(last_error()));

    QCOMPARE(error_count(), errors + 6);
    QVERIFY(w.document()->experiment().inversion == before.inversion);
    QVERIFY(w.document()->experiment().propagation == before.propagation);
    // zfp-accuracy with the offered default tolerance was a valid edit; nothing else changed.
    QCOMPARE(QString::fromStdString(w.document()->experiment().gradient.compression),
             QString("zfp-accuracy:1e-5"));
}

void TestMainWindow::codec_specs_accepted_as_the_engine_does_data() {
    QTest::addColumn<QString>("codec");
    QTest::addColumn<QString>("parameter");
    // Some of these the GUI's own parser used to refuse (bits above 32, fractional rates) or accept wrongly.
    QTest::newRow("zfp-precision:48") << "zfp-precision"
                                      << "48";
    QTest::newRow("zfp-rate:2.5") << "zfp-rate"
                                  << "2.5";
    QTest::newRow("zfp-rate:65") << "zfp-rate"
                                 << "65";
    QTest::newRow("zfp-accuracy:0") << "zfp-accuracy"
                                    << "0";
    QTest::newRow("zfp-accuracy:1e-3") << "zfp-accuracy"
                                       << "1e-3";
    QTest::newRow("zfp-precision:1.5") << "zfp-precision"
                                       << "1.5";
    QTest::newRow("zfp-rate: 8") << "zfp-rate"
                                 << " 8";
}

void TestMainWindow::codec_specs_accepted_as_the_engine_does() {
    QFETCH(QString, codec);
    QFETCH(QString, parameter);
    MainWindow w;
    QVERIFY(w.open_demo("toy"));
    SettingsPanel* s = w.settings_panel();
    const std::string spec =
        (codec + ":" + parameter.trimmed()).toStdString(); // the panel trims the parameter
    bool engine_accepts = true;
    try {
        make_codec(spec);
    } catch (const ConfigError&) {
        engine_accepts = false;
    }
    const int errors = error_count();
    s->findChild<QLineEdit*>("codec_parameter")->setText(parameter);
    set_combo(s->findChild<QComboBox*>("codec"), codec);
    const bool gui_accepts = w.document()->experiment().gradient.compression == spec;
    QCOMPARE(gui_accepts, engine_accepts);
    QCOMPARE(error_count(), errors + (engine_accepts ? 0 : 1));
}

void TestMainWindow::failed_open_leaves_project_untouched() {
    QTemporaryDir dir;
    const QString bad = dir.filePath("not_a_project.fwi");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not HDF5");
    f.close();
    MainWindow w;
    QVERIFY(w.open_demo("toy"));
    const Acquisition before = w.document()->experiment().acquisition;
    const int errors = error_count();
    QVERIFY(!w.open_project(bad));
    QCOMPARE(error_count(), errors + 1);
    QVERIFY(last_error().contains("not_a_project.fwi"));
    QVERIFY(w.document()->experiment().acquisition == before);
    QVERIFY(!w.open_project(dir.filePath("missing.fwi")));
}

void TestMainWindow::a_reader_crash_is_reported_and_the_window_lives_on() {
    // A file that crashes libhdf5 (simulated: the checker dies of SIGSEGV) is reported as damaged; the open
    // project and its unsaved edits stay.
    QTemporaryDir dir;
    const QString path = dir.filePath("crashes_the_reader.fwi");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("anything");
    f.close();
    MainWindow w;
    QVERIFY(w.open_demo("toy"));
    const Acquisition before = w.document()->experiment().acquisition;
    const int errors = error_count();
    set_project_checker("/bin/sh", {"-c", "kill -SEGV $$", "sh"});
    const bool opened = w.open_project(path);
    test::use_the_applications_project_checker();
    QVERIFY(!opened);
    QCOMPARE(error_count(), errors + 1);
    QVERIFY2(last_error().contains("crashes_the_reader.fwi") && last_error().contains("crashed"),
             qPrintable(last_error()));
    QVERIFY(w.document()->experiment().acquisition == before);
#ifdef FWI_STUDIO_EXE
    // The application's own checker: a good file passes, a damaged one is named.
    QVERIFY(check_project_in_child(path).contains("crashes_the_reader.fwi"));
    const QString good = dir.filePath("good.fwi");
    fwi::save_project(good.toStdString(), make_demo_project("toy"));
    QCOMPARE(check_project_in_child(good), QString());
#endif
}

void TestMainWindow::floating_dock_keeps_rendering() {
    // Floating a dock re-parents its QOpenGLWidget into a new window with a new OpenGL context: VTK must let
    // go of the old context and render in the new one (twice, there and back).
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("toy"));
    auto* dock = w.findChild<QDockWidget*>("dock_wavefield");
    QVERIFY(dock);
    dock->raise();
    ImageView* view = w.wavefield_view();
    std::vector<float> ramp(50 * 80);
    for (std::size_t i = 0; i < ramp.size(); ++i)
        ramp[i] = float(i % 80) - 40.0f;
    view->set_image(ramp, 50, 80, 10, 10);
    const QImage docked = view->snapshot();
    for (bool floating : {true, false}) {
        dock->setFloating(floating);
        QTest::qWait(200);
        QVERIFY(QTest::qWaitForWindowExposed(dock));
        view->set_image(ramp, 50, 80, 10, 10);
        const QImage img = view->snapshot();
        QVERIFY(!img.isNull());
        // Blue on the left of the ramp, red on the right (seismic map): really drawn, not black or blank.
        const QPointF left = view->to_widget({20, 250}) * img.devicePixelRatio();
        const QPointF right = view->to_widget({770, 250}) * img.devicePixelRatio();
        const QColor l = img.pixelColor(left.toPoint()), r = img.pixelColor(right.toPoint());
        QVERIFY2(l.blue() > l.red() + 60 && r.red() > r.blue() + 60,
                 qPrintable(QString("left %1 right %2").arg(l.name(), r.name())));
    }
    QVERIFY(!docked.isNull());
}

FWI_UI_TEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
