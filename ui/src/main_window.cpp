// MainWindow: construction of the views, docks, actions, menus and status bar. Jobs and files:
// main_window_run.cpp.
#include "fwi/ui/main_window.hpp"

#include "fwi/error.hpp"
#include "fwi/ui/acquisition_editor.hpp"
#include "fwi/ui/acquisition_panel.hpp"
#include "fwi/ui/cluster_job.hpp"
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/engine_jobs.hpp"
#include "fwi/ui/gather_view.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/paraview_export.hpp"
#include "fwi/ui/plot_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/run_monitor.hpp"
#include "fwi/ui/run_predictor.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "fwi/ui/thread_setting.hpp"
#include "fwi/ui/volume_slices_view.hpp"
#include "fwi/ui/wavefield_panel.hpp"
#include "fwi/ui/welcome_page.hpp"
#include "main_window_impl.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

namespace fwi::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), d_(std::make_unique<Impl>()) {
    setObjectName("fwi_studio_main_window");
    d_->doc = new ProjectDocument(this);
    d_->runner = new JobRunner(this);
    d_->monitor = new RunMonitor(this);
    build_views();
    build_actions();
    build_menus_and_toolbar();
    build_status_bar();
    connect_jobs();
    connect(d_->doc, &ProjectDocument::dirty_changed, this, [this] { update_title(); });
    connect(d_->doc, &ProjectDocument::path_changed, this, [this] { update_title(); });
    connect(d_->doc, &ProjectDocument::changed, this, [this] { update_actions(); });
    d_->autosave_timer.setInterval(120'000);
    connect(&d_->autosave_timer, &QTimer::timeout, this, [this] { autosave(); });
    d_->autosave_timer.start();
    d_->memory_timer.setInterval(1000);
    connect(&d_->memory_timer, &QTimer::timeout, this, [this] { update_memory(); });
    d_->memory_timer.start();
    resize(1500, 950);
    update_title();
    update_actions();
    update_memory();
}

MainWindow::~MainWindow() {
    // Stop the worker before the views it feeds go away.
    d_->runner->cancel();
    d_->runner->wait(60'000);
}

ProjectDocument* MainWindow::document() const {
    return d_->doc;
}
ModelView* MainWindow::model_view() const {
    return d_->view;
}
VolumeSlicesView* MainWindow::volume_view() const {
    return d_->volume;
}
AcquisitionPanel* MainWindow::acquisition_panel() const {
    return d_->acquisition;
}
SettingsPanel* MainWindow::settings_panel() const {
    return d_->settings;
}
ImageView* MainWindow::wavefield_view() const {
    return d_->wavefield;
}
ImageView* MainWindow::gradient_view() const {
    return d_->gradient;
}
GatherView* MainWindow::gather_view() const {
    return d_->gathers;
}
RunMonitor* MainWindow::run_monitor() const {
    return d_->monitor;
}
JobRunner* MainWindow::job_runner() const {
    return d_->runner;
}

void MainWindow::build_views() {
    d_->view = new ModelView(this);
    d_->view->setObjectName("model_view");
    d_->volume = new VolumeSlicesView(this);
    d_->central = new QStackedWidget(this);
    d_->central->addWidget(d_->view);
    d_->central->addWidget(d_->volume);
    setCentralWidget(d_->central);
    d_->acquisition = new AcquisitionPanel(this);
    d_->editor = new AcquisitionEditor(d_->doc, d_->view, d_->acquisition, this);
    d_->editor->set_model_source([this]() -> const Model& { return d_->shown_model(); });
    d_->editor->set_volume_view(d_->volume);
    connect(d_->doc, &ProjectDocument::changed, this, [this](int parts) {
        if (parts & ProjectDocument::ModelPart) update_central();
    });
    connect(d_->editor, &AcquisitionEditor::message, this, [this](const QString& m) {
        statusBar()->showMessage(m, 8000);
        log(m);
    });
    d_->settings = new SettingsPanel(d_->doc, this);
    d_->wavefield_panel = new WavefieldPanel(this);
    d_->wavefield = d_->wavefield_panel->view();
    d_->gradient = new ImageView(this);
    d_->gradient->setObjectName("gradient_view");
    d_->gradient->set_colormap(Colormap::Seismic);
    d_->gradient->set_range_mode(RangeMode::Symmetric);
    d_->gradient->set_titles("x (m)", "z (m)", tr("dJ/dv (s/m)"));
    d_->gathers = new GatherView(this);
    d_->log = new QPlainTextEdit(this);
    d_->log->setObjectName("log");
    d_->log->setReadOnly(true);
    d_->log->setMaximumBlockCount(2000);

    auto dock = [this](QWidget* w, const QString& title, const char* name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        d_->docks.push_back(d);
        return d;
    };
    d_->settings->setMinimumWidth(380);
    QDockWidget* settings = dock(d_->settings, tr("Settings"), "dock_settings", Qt::LeftDockWidgetArea);
    QDockWidget* acquisition =
        dock(d_->acquisition, tr("Acquisition"), "dock_acquisition", Qt::LeftDockWidgetArea);
    tabifyDockWidget(acquisition, settings);
    acquisition->raise();
    QDockWidget* wave = dock(d_->wavefield_panel, tr("Wavefield"), "dock_wavefield", Qt::RightDockWidgetArea);
    QDockWidget* grad = dock(d_->gradient, tr("Gradient"), "dock_gradient", Qt::RightDockWidgetArea);
    tabifyDockWidget(wave, grad);
    wave->raise();
    QDockWidget* gathers = dock(d_->gathers, tr("Shot gathers"), "dock_gathers", Qt::RightDockWidgetArea);
    tabifyDockWidget(grad, gathers);
    QDockWidget* memory =
        dock(d_->monitor->memory_plot(), tr("Memory"), "dock_memory", Qt::BottomDockWidgetArea);
    QDockWidget* timeline = dock(d_->monitor->timeline_plot(), tr("Schedule timeline"), "dock_timeline",
                                 Qt::BottomDockWidgetArea);
    QDockWidget* misfit =
        dock(d_->monitor->misfit_plot(), tr("Misfit"), "dock_misfit", Qt::BottomDockWidgetArea);
    QDockWidget* timing =
        dock(d_->monitor->timing_plot(), tr("Timing"), "dock_timing", Qt::BottomDockWidgetArea);
    QDockWidget* log_dock = dock(d_->log, tr("Log"), "dock_log", Qt::BottomDockWidgetArea);
    tabifyDockWidget(timing, log_dock);
    timing->raise();
    splitDockWidget(memory, timeline, Qt::Horizontal);
    splitDockWidget(timeline, misfit, Qt::Horizontal);
    splitDockWidget(misfit, timing, Qt::Horizontal);
    resizeDocks({acquisition}, {420}, Qt::Horizontal);
    resizeDocks({wave}, {560}, Qt::Horizontal);
    resizeDocks({memory}, {230}, Qt::Vertical);

    connect(d_->view, &ImageView::cursor_moved, this, [this](double x, double z, double v, bool inside) {
        d_->cursor_label->setText(
            inside ? tr("x %1 m, z %2 m, vp %3 m/s").arg(x, 0, 'f', 1).arg(z, 0, 'f', 1).arg(v, 0, 'f', 0)
                   : QString());
    });
    for (ImageView* v : {d_->wavefield, d_->gradient})
        connect(v, &ImageView::cursor_moved, this, [this](double x, double z, double value, bool inside) {
            d_->cursor_label->setText(
                inside
                    ? tr("x %1 m, z %2 m, value %3").arg(x, 0, 'f', 1).arg(z, 0, 'f', 1).arg(value, 0, 'g', 4)
                    : QString());
        });
    connect(d_->gathers, &GatherView::cursor_info, this,
            [this](const QString& t) { d_->cursor_label->setText(t); });
}

void MainWindow::build_menus_and_toolbar() {
    Impl::Actions& a = d_->actions;
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(a.new_project);
    file->addAction(a.open);
    QMenu* demos = file->addMenu(tr("Open &demo"));
    for (const QString& name : demo_names())
        demos->addAction(demo_title(name), this, [this, name] {
            if (maybe_save()) open_demo(name);
        });
    d_->recent_menu = file->addMenu(tr("Open &recent"));
    rebuild_recent_menu();
    file->addSeparator();
    file->addAction(a.save);
    file->addAction(a.save_as);
    file->addSeparator();
    file->addAction(a.export_png);
    file->addAction(a.export_csv);
    file->addAction(a.export_paraview);
    file->addAction(tr("Export &cluster job…"), this, [this] {
        export_cluster_job(this, d_->doc->project(), QFileInfo(d_->doc->path()).completeBaseName());
    });
    file->addSeparator();
    file->addAction(a.quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(a.undo);
    edit->addAction(a.redo);
    edit->addSeparator();
    edit->addAction(a.mode_select);
    edit->addAction(a.mode_receiver);
    edit->addAction(a.mode_source);
    edit->addAction(a.mode_line);
    edit->addAction(a.line_dialog);
    edit->addSeparator();
    edit->addAction(a.remove);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(a.reset_view);
    QMenu* which = view->addMenu(tr("Show &model"));
    auto* which_group = new QActionGroup(this);
    for (const auto& [key, label] :
         {std::pair{"current", tr("Current model")}, std::pair{"initial", tr("Initial model")},
          std::pair{"true", tr("True model")}}) {
        QAction* act = which->addAction(label);
        act->setCheckable(true);
        act->setChecked(QString(key) == "current");
        which_group->addAction(act);
        connect(act, &QAction::triggered, this, [this, k = QString(key)] { show_model(k); });
    }
    QMenu* colours = view->addMenu(tr("Model &colours"));
    for (const QString& name : colormap_names())
        colours->addAction(name, this, [this, name] { d_->view->set_colormap(colormap_from_name(name)); });
    view->addSeparator();
    for (QDockWidget* d : d_->docks)
        view->addAction(d->toggleViewAction());

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(a.run_forward);
    run->addAction(a.run_gradient);
    run->addAction(a.run_invert);
    run->addAction(a.run_resume);
    run->addSeparator();
    run->addAction(a.pause);
    run->addAction(a.cancel);
    QMenu* backend = run->addMenu(tr("&Backend"));
    auto* backend_group = new QActionGroup(this);
    std::vector<std::string> names{"auto"};
    for (const std::string& b : backends())
        names.push_back(b);
    for (const std::string& b : names) {
        QAction* act = backend->addAction(QString::fromStdString(b));
        act->setCheckable(true);
        act->setChecked(b == d_->backend);
        backend_group->addAction(act);
        connect(act, &QAction::triggered, this, [this, b] {
            d_->backend = b;
            d_->device_label->setText(status_device_text());
            d_->settings->set_backend(b); // the prediction uses this backend's measured costs
        });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(a.welcome);
    help->addAction(a.guide);
    help->addAction(a.about);

    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName("toolbar_main");
    tools->addAction(a.new_project);
    tools->addAction(a.open);
    tools->addAction(a.save);
    tools->addSeparator();
    tools->addAction(a.undo);
    tools->addAction(a.redo);
    tools->addSeparator();
    tools->addAction(a.mode_select);
    tools->addAction(a.mode_receiver);
    tools->addAction(a.mode_source);
    tools->addAction(a.mode_line);
    d_->line_count = new QSpinBox(this);
    d_->line_count->setRange(1, 10000);
    d_->line_count->setValue(d_->view->line_count());
    d_->line_count->setPrefix(tr("line: "));
    d_->line_count->setSuffix(tr(" receivers"));
    d_->line_count->setToolTip(tr("Receivers per line in 'Draw receiver line' mode"));
    connect(d_->line_count, &QSpinBox::valueChanged, d_->view, &ModelView::set_line_count);
    tools->addWidget(d_->line_count);
    tools->addSeparator();
    tools->addAction(a.reset_view);
    tools->addSeparator();
    tools->addAction(a.run_forward);
    tools->addAction(a.run_gradient);
    tools->addAction(a.run_invert);
    tools->addAction(a.pause);
    tools->addAction(a.cancel);
    tools->addSeparator();
    auto* threads = new ThreadCountBox(this);
    connect(threads, &ThreadCountBox::thread_setting_changed, this, [this] {
        d_->device_label->setText(status_device_text());
        d_->settings->set_backend(d_->backend); // measured costs depend on the thread count: predict again
    });
    tools->addWidget(threads);
}

void MainWindow::build_status_bar() {
    d_->cursor_label = new QLabel(this);
    d_->cursor_label->setMinimumWidth(320);
    d_->progress = new QProgressBar(this);
    d_->progress->setMaximumWidth(220);
    d_->progress->setRange(0, 1000);
    d_->progress->setVisible(false);
    d_->device_label = new QLabel(this);
    d_->device_label->setObjectName("status_device");
    d_->memory_label = new QLabel(this);
    d_->memory_label->setObjectName("status_memory");
    statusBar()->addWidget(d_->cursor_label, 1);
    statusBar()->addPermanentWidget(d_->progress);
    statusBar()->addPermanentWidget(d_->device_label);
    statusBar()->addPermanentWidget(d_->memory_label);
    d_->device_label->setText(status_device_text());
}

QString MainWindow::status_device_text() const {
    return tr("Device: %1").arg(device_description(d_->backend));
}

QString MainWindow::status_memory_text() const {
    const ProcessMemory m = process_memory();
    return tr("Memory: %1 (peak %2)")
        .arg(format_bytes(m.resident_bytes), format_bytes(m.peak_resident_bytes));
}

void MainWindow::update_memory() {
    d_->memory_label->setText(status_memory_text());
}

void MainWindow::update_title() {
    setWindowTitle(QString("%1[*] — FWI Studio").arg(d_->doc->title()));
    setWindowModified(d_->doc->dirty());
}

void MainWindow::update_actions() {
    Impl::Actions& a = d_->actions;
    const bool running = d_->runner->running();
    const Experiment& e = d_->doc->experiment();
    const bool has_model = d_->doc->display_model().grid.cells() > 0;
    const bool has_shots = !e.acquisition.shots.empty();
    a.run_forward->setEnabled(!running && has_model && has_shots);
    a.run_gradient->setEnabled(!running && has_model && has_shots && !d_->doc->project().observed.empty());
    a.run_gradient->setToolTip(d_->doc->project().observed.empty()
                                   ? tr("Needs observed data: run 'Model observed data' first")
                                   : tr("Misfit gradient at the current model"));
    a.run_invert->setEnabled(a.run_gradient->isEnabled());
    a.run_invert->setToolTip(
        d_->doc->project().observed.empty()
            ? tr("Needs observed data: run 'Model observed data' first")
            : tr("Invert the observed data from the initial model (settings: Inversion)"));
    a.run_resume->setEnabled(a.run_gradient->isEnabled() && !d_->doc->project().optimizer_state.empty());
    a.run_resume->setToolTip(tr("Continue the project's inversion where it stopped, with the options it "
                                "started with"));
    a.pause->setEnabled(running);
    a.cancel->setEnabled(running);
    a.open->setEnabled(!running);
    a.new_project->setEnabled(!running);
    // The point-by-point gestures belong to the 2D model view; a 3D project places points with the depth
    // slice's areal drag, the receiver-line dialog (x, y, z) and the table.
    for (QAction* mode : {a.mode_receiver, a.mode_source, a.mode_line})
        mode->setEnabled(!d_->three_d());
}

void MainWindow::log(const QString& text) {
    d_->log->appendPlainText(QTime::currentTime().toString("HH:mm:ss  ") + text);
}

bool MainWindow::export_to_paraview(const QString& dir) {
    try {
        const QStringList files = export_paraview(d_->doc->project(), dir);
        log(tr("Exported to ParaView: %1").arg(files.join(", ")));
        statusBar()->showMessage(tr("Wrote %n file(s) for ParaView in %1", "", int(files.size())).arg(dir),
                                 8000);
        return true;
    } catch (const Error& e) {
        show_error(this, tr("Export to ParaView"), QString::fromUtf8(e.what()));
        return false;
    }
}

void MainWindow::show_welcome() {
    WelcomePage page(this);
    if (page.exec() != QDialog::Accepted) return;
    const QString choice = page.choice();
    if (choice == "open")
        d_->actions.open->trigger();
    else if (choice == "empty")
        d_->actions.new_project->trigger();
    else if (!choice.isEmpty() && maybe_save())
        open_demo(choice);
}

void MainWindow::show_model(const QString& which) {
    d_->shown = which;
    d_->view->set_model(d_->shown_model());
    d_->volume->set_model(d_->shown_model());
    update_central();
}

void MainWindow::update_central() {
    QWidget* wanted = d_->shown_model().grid.rank == 3 ? static_cast<QWidget*>(d_->volume) : d_->view;
    if (d_->central->currentWidget() != wanted) d_->central->setCurrentWidget(wanted);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (d_->runner->running()) {
        if (ask(this, tr("A run is in progress"), tr("Cancel the run and quit?"), false, Answer::No) !=
            Answer::Yes) {
            event->ignore();
            return;
        }
        d_->runner->cancel();
        d_->runner->wait(60'000);
    }
    if (!maybe_save()) {
        event->ignore();
        return;
    }
    event->accept();
}

} // namespace fwi::ui
