#include "fwi/ui/screenshot_tour.hpp"

#include "fwi/ui/gather_view.hpp"
#include "fwi/ui/image_view.hpp"
#include "fwi/ui/job_runner.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/plot_view.hpp"
#include "fwi/ui/prediction_panel.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/run_monitor.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "fwi/ui/welcome_page.hpp"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMouseEvent>

#include <iostream>

namespace fwi::ui {
namespace {

void settle(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
}

bool wait_job(MainWindow& w, int ms) {
    const bool done = w.job_runner()->wait(ms);
    settle(400);
    return done;
}

/// Synthesised mouse input (the tour drives the GUI the way a user would).
void mouse(QWidget* w, QEvent::Type type, QPoint p, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(p), w->mapToGlobal(QPointF(p)), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}
void drag(QWidget* w, QPoint a, QPoint b, bool release) {
    mouse(w, QEvent::MouseButtonPress, a, Qt::LeftButton, Qt::LeftButton);
    mouse(w, QEvent::MouseMove, (a + b) / 2, Qt::NoButton, Qt::LeftButton);
    mouse(w, QEvent::MouseMove, b, Qt::NoButton, Qt::LeftButton);
    if (release) mouse(w, QEvent::MouseButtonRelease, b, Qt::LeftButton, Qt::NoButton);
}
void click(QWidget* w, QPoint p) {
    mouse(w, QEvent::MouseButtonPress, p, Qt::LeftButton, Qt::LeftButton);
    mouse(w, QEvent::MouseButtonRelease, p, Qt::LeftButton, Qt::NoButton);
}

/// Until the prediction's costs are measured and its plans priced (worker threads), so the panel shows
/// numbers.
void wait_prediction(MainWindow& w) {
    QElapsedTimer t;
    t.start();
    const auto waiting = [&] {
        const RunPrediction& p = w.settings_panel()->prediction();
        return p.calibrating || p.updating;
    };
    while (waiting() && t.elapsed() < 30'000)
        settle(100);
}

/// Until the misfit plot's inversion series has `points` points (or the run ended).
void wait_iterations(MainWindow& w, std::size_t points) {
    PlotView* plot = w.run_monitor()->misfit_plot();
    while (w.job_runner()->running() && plot->point_count(plot->find_series("inversion")) < points)
        settle(100);
}

void raise_dock(MainWindow& w, const char* name) {
    if (auto* d = w.findChild<QDockWidget*>(name)) d->raise();
}

} // namespace

int run_screenshot_tour(MainWindow& w, const QString& directory) {
    set_message_boxes(false);
    QDir().mkpath(directory);
    int failures = 0;
    auto save = [&](QWidget* widget, const QString& name) {
        settle(300);
        const QString path = directory + "/" + name + ".png";
        const bool ok = widget->grab().save(path);
        std::cerr << (ok ? "wrote " : "FAILED ") << path.toStdString() << "\n";
        failures += ok ? 0 : 1;
    };
    w.resize(1600, 1000);
    w.show();
    settle(1500);
    w.open_demo("toy");
    settle(800);
    {
        WelcomePage page(&w);
        page.show();
        settle(500);
        save(&page, "welcome");
    }
    save(&w, "main_window");

    // Editing: a receiver line drawn across the model, a source added by a click.
    ModelView* view = w.model_view();
    view->set_edit_mode(EditMode::ReceiverLine);
    view->set_line_count(12);
    const QPoint a = view->to_widget({300, 600}).toPoint(), b = view->to_widget({1700, 600}).toPoint();
    drag(view, a, b, false);
    settle(200);
    save(view, "model_view_drawing_line");
    mouse(view, QEvent::MouseButtonRelease, b, Qt::LeftButton, Qt::NoButton);
    view->set_edit_mode(EditMode::AddSource);
    click(view, view->to_widget({1000, 300}).toPoint());
    view->set_edit_mode(EditMode::Select);
    view->set_selection({{PointKind::Source, 3}});
    save(view, "model_view_edited");

    raise_dock(w, "dock_settings");
    wait_prediction(w);
    save(&w, "settings_and_prediction");
    save(w.settings_panel(), "settings_panel");
    save(w.settings_panel()->prediction_panel(), "prediction_panel");

    // Forward model: grab the wavefield mid-run, then the gathers.
    raise_dock(w, "dock_wavefield");
    if (!w.run_forward()) ++failures;
    settle(1200);
    save(w.wavefield_view()->parentWidget(), "wavefield_live"); // the panel: slider and view
    if (!wait_job(w, 120'000)) ++failures;
    raise_dock(w, "dock_gathers");
    save(&w, "after_forward");
    save(w.gather_view(), "gathers_observed");

    // Inversion: grab the window while it runs (model view and misfit plot follow each iteration), then the
    // end.
    raise_dock(w, "dock_gradient");
    raise_dock(w, "dock_misfit");
    if (!w.run_invert()) ++failures;
    wait_iterations(w, 3);
    save(&w, "inversion_running");
    save(w.run_monitor()->misfit_plot(), "plot_misfit_inversion");
    if (!wait_job(w, 300'000)) ++failures;
    save(w.model_view(), "model_after_inversion");

    // Gradient with the checkpointing demo settings: timeline, memory, gradient, gathers.
    if (!w.run_gradient()) ++failures;
    if (!wait_job(w, 300'000)) ++failures;
    raise_dock(w, "dock_gradient");
    save(&w, "after_gradient");
    save(w.gradient_view(), "gradient");
    raise_dock(w, "dock_gathers");
    save(w.gather_view(), "gathers_observed_modelled");
    save(w.run_monitor()->timeline_plot(), "plot_timeline");
    save(w.run_monitor()->memory_plot(), "plot_memory");
    save(w.run_monitor()->timing_plot(), "plot_timing");

    // Checkpointing explained: the same gradient with Revolve and a small budget. Needs the schedules and
    // codecs of the engine; where this build lacks them the run fails with a message and the pictures are
    // skipped.
    w.open_demo("checkpointing");
    settle(500);
    raise_dock(w, "dock_settings");
    wait_prediction(w);
    save(&w, "checkpointing_settings");
    bool ok = false;
    QObject::connect(w.job_runner(), &JobRunner::finished, &w,
                     [&ok](const QString&, JobRunner::Outcome o, const QString&, double) {
                         ok = o == JobRunner::Succeeded;
                     });
    raise_dock(w, "dock_wavefield");
    if (w.run_forward() && wait_job(w, 120'000) && ok && w.run_gradient() && wait_job(w, 300'000) && ok) {
        save(w.run_monitor()->timeline_plot(), "plot_timeline_revolve");
        save(w.run_monitor()->memory_plot(), "plot_memory_revolve");
        save(w.run_monitor()->timing_plot(), "plot_timing_revolve");
        save(&w, "checkpointing_after_gradient");
    } else {
        std::cerr << "skipped the checkpointing pictures: " << last_error().toStdString() << "\n";
    }
    return failures == 0 ? 0 : 1;
}

} // namespace fwi::ui
