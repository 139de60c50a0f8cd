// MainWindow: jobs (forward, gradient) and project files (open, save, recent, autosave).
#include "fwi/ui/main_window.hpp"

#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/ui/acquisition_editor.hpp"
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/engine_jobs.hpp"
#include "fwi/ui/file_check.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/run_monitor.hpp"
#include "fwi/ui/run_predictor.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "fwi/ui/volume_slices_view.hpp"
#include "fwi/ui/wavefield_panel.hpp"
#include "main_window_impl.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUndoStack>

#include <cmath>

namespace fwi::ui {

namespace {
constexpr int max_recent = 8;

QString autosave_path(const QString& project_path) {
    if (!project_path.isEmpty()) return project_path + ".autosave";
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    QDir().mkpath(dir);
    return dir + "/untitled.fwi.autosave";
}

/// "peak tier 0 (RAM) 7.95 MB (7950336 B), tier 1 (disk) ...": the stored (compressed) bytes of states and
/// snapshots, the same counts the memory plot draws per tier. (Not peak_snapshot_bytes: a checkpointed or
/// compressed run may hold no gradient snapshots at all.)
QString peak_text(const std::vector<std::uint64_t>& peak_per_tier) {
    if (peak_per_tier.empty()) return QObject::tr("nothing stored");
    QStringList parts;
    for (std::size_t t = 0; t < peak_per_tier.size(); ++t)
        parts << QObject::tr("tier %1 (%2) %3 (%4 B)")
                     .arg(t)
                     .arg(t == 0 ? QObject::tr("RAM") : QObject::tr("disk"))
                     .arg(format_bytes(peak_per_tier[t]))
                     .arg(peak_per_tier[t]);
    return QObject::tr("peak ") + parts.join(", ");
}
} // namespace

// ---- jobs ----

void MainWindow::connect_jobs() {
    JobRunner* r = d_->runner;
    connect(r, &JobRunner::events, d_->monitor, &RunMonitor::on_events);
    connect(d_->monitor, &RunMonitor::progress, this, [this](double fraction, const QString& text) {
        d_->progress->setVisible(d_->runner->running());
        if (fraction >= 0) d_->progress->setValue(int(fraction * 1000));
        statusBar()->showMessage(text);
    });
    connect(r, &JobRunner::field, this, [this](FieldFramePtr frame) {
        const Grid& g = d_->doc->display_model().grid;
        if (g.rank == 3) { // a volume: the central slices show it (the 2D docks would draw one tall image)
            show_live_volume(frame);
            return;
        }
        const bool model_shaped = frame->rows == g.nz() && frame->cols == g.nx();
        const double dz = model_shaped ? g.dz() : 1.0, dx = model_shaped ? g.dx() : 1.0;
        if (d_->record_movie) d_->wavefield_panel->record_frame(frame);
        ImageView* target = frame->kind == FieldKind::Gradient ? d_->gradient : d_->wavefield;
        target->set_image(frame->values, frame->rows, frame->cols, dz, dx);
        if (frame->kind != FieldKind::Gradient)
            target->set_titles("x (m)", "z (m)",
                               frame->kind == FieldKind::AdjointWavefield
                                   ? tr("adjoint, step %1").arg(frame->step)
                                   : tr("step %1 (a.u.)").arg(frame->step));
    });
    connect(r, &JobRunner::started, this, [this](const QString& name) {
        log(tr("%1 started on %2").arg(name, device_description(d_->backend)));
        if (d_->three_d()) {
            d_->volume->reset_field_cost();
            d_->live_drawn_at_last_field_s = -1;
            d_->live_cost_at_last_field_s = 0;
            d_->volume->mark_stale(VolumeSlicesView::Layer::Wavefield); // until this run's first one
            d_->live_clock.start();
            d_->live_switch = true;
        }
        d_->progress->setValue(0);
        d_->progress->setVisible(true);
        update_actions();
    });
    connect(r, &JobRunner::paused_changed, this, [this](bool paused) {
        d_->actions.pause->setChecked(paused);
        statusBar()->showMessage(paused ? tr("Paused") : tr("Resumed"), 3000);
    });
    connect(
        r, &JobRunner::finished, this,
        [this](const QString& name, JobRunner::Outcome outcome, const QString& error, double seconds) {
            d_->progress->setVisible(false);
            fwi::release_retained_snapshot_memory(); // kept across a job's gradients; idle, hold nothing
            d_->monitor->end_run(outcome == JobRunner::Succeeded, seconds);
            if (d_->three_d() && d_->runner->fields_copied() > 0) log_live_volume_cost(seconds);
            d_->settings->refresh_after_run(); // the engine learnt the run's codec and step costs
            d_->actions.pause->setChecked(false);
            update_actions();
            switch (outcome) {
            case JobRunner::Succeeded:
                log(tr("%1 finished in %2").arg(name, format_seconds(seconds)));
                statusBar()->showMessage(tr("%1 finished in %2").arg(name, format_seconds(seconds)), 8000);
                break;
            case JobRunner::Cancelled:
                log(tr("%1 cancelled after %2; %3")
                        .arg(name, format_seconds(seconds),
                             d_->cancel_note.isEmpty() ? tr("the project is unchanged") : d_->cancel_note));
                statusBar()->showMessage(tr("%1 cancelled", "job").arg(name), 8000);
                break;
            case JobRunner::Failed:
                log(tr("%1 failed: %2").arg(name, error));
                show_error(this, tr("%1 failed").arg(name), error + tr("\n\nThe project is unchanged."));
                break;
            }
        });
}

bool MainWindow::start_job(const QString& name, std::int64_t expected_steps, double predicted_s,
                           std::int64_t inner_steps, JobWork work) {
    if (d_->runner->running()) {
        statusBar()->showMessage(tr("A run is already in progress (%1)").arg(d_->runner->current_name()),
                                 5000);
        return false;
    }
    JobThrottle throttle = d_->runner->throttle();
    throttle.field_every_steps = std::max<std::int64_t>(1, inner_steps / 100); // ~100 frames per shot at most
    d_->runner->set_throttle(throttle);
    d_->monitor->begin_run(name, expected_steps, predicted_s);
    // Only a forward run's frames make the movie: a gradient's recomputations would jump back in time.
    d_->record_movie = name == tr("Forward modelling");
    if (d_->record_movie) d_->wavefield_panel->clear_frames();
    d_->cancel_note.clear();
    return d_->runner->start(name, std::move(work));
}

bool MainWindow::run_forward() {
    const Experiment& e = d_->doc->experiment();
    const bool has_truth = e.true_model.grid.cells() > 0 && !e.true_model.vp_mps.empty();
    const Model& model = has_truth ? e.true_model : d_->doc->display_model();
    if (model.grid.cells() == 0 || e.acquisition.shots.empty()) {
        show_error(this, tr("Model observed data"), tr("The project needs a model and at least one shot."));
        return false;
    }
    const RunPrediction& p = d_->settings->priced_prediction();
    const auto shots = std::int64_t(e.acquisition.shots.size());
    auto apply = [this](ForwardOutput out) {
        d_->doc->edit_observed(to_records(out.gathers), tr("Model observed data"));
        d_->gathers->set_gathers(out.gathers, {});
    };
    d_->monitor->set_memory_budget(0); // a forward run stores nothing
    d_->wavefield_panel->set_model(model);
    return start_job(tr("Forward modelling"), shots * p.inner_steps, p.ok ? p.forward_seconds : 0,
                     p.inner_steps, forward_job(e, model, d_->backend, apply));
}

bool MainWindow::run_gradient() {
    const Project& project = d_->doc->project();
    if (project.observed.empty()) {
        show_error(this, tr("Compute gradient"),
                   tr("The project has no observed data: run 'Model observed data' first."));
        return false;
    }
    const RunPrediction& p = d_->settings->priced_prediction();
    const auto shots = std::int64_t(project.experiment.acquisition.shots.size());
    auto apply = [this](GradientOutput out) {
        const GradientResult& r = out.result;
        d_->doc->edit_gradient_result(r.gradient, r.misfit, tr("Compute gradient"));
        const Grid& g = working_model(d_->doc->experiment()).grid;
        if (g.rank == 3) {
            d_->volume->set_field(VolumeSlicesView::Layer::Gradient,
                                  std::make_shared<const std::vector<float>>(r.gradient),
                                  tr("gradient, misfit %1").arg(r.misfit, 0, 'g', 6));
            d_->volume->show_layer(VolumeSlicesView::Layer::Gradient);
        } else if (std::int64_t(r.gradient.size()) == g.cells()) {
            d_->gradient->set_image(r.gradient, g.nz(), g.nx(), g.dz(), g.dx());
        }
        d_->gathers->set_gathers(out.observed, r.modelled);
        d_->monitor->add_misfit(++d_->gradient_runs, r.misfit);
        const QString ratio = r.compression_ratio > 1
                                  ? tr(", compression ratio %1").arg(r.compression_ratio, 0, 'g', 6)
                                  : QString();
        log(tr("Gradient: misfit %1, schedule %2, %3 forward + %4 adjoint steps (%5 recomputed), %6%7")
                .arg(r.misfit, 0, 'g', 6)
                .arg(QString::fromStdString(r.schedule))
                .arg(r.forward_steps)
                .arg(r.adjoint_steps)
                .arg(r.recompute_steps)
                .arg(peak_text(r.peak_bytes_per_tier), ratio));
    };
    d_->monitor->set_memory_budget(project.experiment.gradient.budget_bytes);
    d_->wavefield_panel->set_model(working_model(project.experiment));
    return start_job(tr("Gradient"), 2 * shots * p.inner_steps, p.ok ? p.gradient_seconds : 0, p.inner_steps,
                     gradient_job(project, d_->backend, apply));
}

bool MainWindow::run_invert(bool resume) {
    const Project& project = d_->doc->project();
    if (project.observed.empty()) {
        show_error(this, tr("Invert"),
                   tr("The project has no observed data: run 'Model observed data' first."));
        return false;
    }
    if (resume && project.optimizer_state.empty()) {
        show_error(this, tr("Resume inversion"),
                   tr("The project holds no stopped inversion to resume: run Invert first."));
        return false;
    }
    const Experiment& e = project.experiment;
    const RunPrediction& p = d_->settings->priced_prediction();
    const auto shots = std::int64_t(e.acquisition.shots.size());
    const auto stages = std::int64_t(std::max<std::size_t>(e.inversion.stage_freqs_hz.size(), 1));
    // Progress and the predicted time assume one gradient per iteration and one per stage start (line
    // searches may take more).
    const int done = resume && !project.history.empty() ? project.history.back().iteration : 0;
    const std::int64_t evaluations =
        resume ? std::max<std::int64_t>(stages * e.inversion.iterations - done, 0) + 1
               : stages * e.inversion.iterations + stages;
    auto on_record = [this](IterationRecordPtr r) { show_iteration(*r); };
    auto apply = [this, resume](InversionOutput out) {
        const int iterations = out.history.empty() ? 0 : out.history.back().iteration;
        const bool cancelled = out.reason == StopReason::Cancelled;
        if (!out.warnings.empty()) log(tr("Inversion warning: %1").arg(QString::fromStdString(out.warnings)));
        if (out.history.empty()) return; // cancelled before the starting model's misfit: nothing to keep
        d_->doc->edit_inversion_result(std::move(out.history), std::move(out.state),
                                       std::move(out.run_options), resume,
                                       resume ? tr("Resume inversion (to iteration %1)").arg(iterations)
                                              : tr("Invert (%n iteration(s))", "", iterations));
        if (cancelled)
            d_->cancel_note = tr("the project holds the last completed iteration (%1)").arg(iterations);
        log(tr("Inversion: %1 iteration(s), %2 gradient evaluations, stop: %3")
                .arg(iterations)
                .arg(out.evaluations)
                .arg(QString::fromUtf8(to_string(out.reason))));
    };
    if (!resume) d_->monitor->begin_inversion(); // a resumed run continues the curve
    d_->monitor->set_memory_budget(e.gradient.budget_bytes);
    d_->wavefield_panel->set_model(d_->doc->display_model()); // the starting model; the run updates it
    return start_job(tr("Inversion"), evaluations * 2 * shots * p.inner_steps,
                     p.ok ? double(evaluations) * p.gradient_seconds : 0, p.inner_steps,
                     inversion_job(project, d_->backend, resume, on_record, apply));
}

void MainWindow::show_iteration(const IterationRecord& r) {
    d_->monitor->add_inversion_misfit(r.iteration, r.misfit);
    const Grid& g = r.model.grid;
    if (g.rank == 3) { // the central slices show the iteration's model and its gradient
        if (!r.model.vp_mps.empty() && d_->shown == "current") d_->volume->set_model(r.model);
        if (!r.gradient.empty())
            d_->volume->set_field(VolumeSlicesView::Layer::Gradient,
                                  std::make_shared<const std::vector<float>>(r.gradient),
                                  tr("gradient, iteration %1").arg(r.iteration));
    } else {
        if (!r.model.vp_mps.empty() && d_->shown == "current") d_->view->set_model(r.model);
        if (!r.model.vp_mps.empty()) d_->wavefield_panel->set_model(r.model); // the next evaluation's medium
        if (!r.gradient.empty() && std::int64_t(r.gradient.size()) == g.cells())
            d_->gradient->set_image(r.gradient, g.nz(), g.nx(), g.dz(), g.dx());
    }
    QString text = tr("Inversion: iteration %1 (stage %2%3), misfit %4")
                       .arg(r.iteration)
                       .arg(r.stage)
                       .arg(r.freq_hz > 0 ? tr(", %1 Hz").arg(r.freq_hz) : QString())
                       .arg(r.misfit, 0, 'g', 6);
    if (std::isfinite(r.model_error)) text += tr(", model error %1").arg(r.model_error, 0, 'f', 4);
    log(text);
    statusBar()->showMessage(text);
}

// ---- files ----

bool MainWindow::open_project(const QString& path) {
    // Read once in a child process first: a file that crashes libhdf5 must not take the open work with it.
    if (const QString problem = check_project_in_child(path); !problem.isEmpty()) {
        show_error(this, tr("Open project"), problem);
        return false;
    }
    try {
        Project p = load_project(path.toStdString());
        const FileVersion opened = p.file_version; // a save checks the project file against it
        const QString recovery = autosave_path(path);
        if (QFileInfo::exists(recovery) &&
            QFileInfo(recovery).lastModified() > QFileInfo(path).lastModified() &&
            ask(this, tr("Recover autosave"),
                tr("An autosaved copy of %1 is newer than the file. Open the autosaved copy?").arg(path),
                false, Answer::No) == Answer::Yes) {
            if (const QString problem = check_project_in_child(recovery); !problem.isEmpty())
                throw FormatError(problem.toStdString());
            p = load_project(recovery.toStdString());
            p.file_version = opened;
            d_->doc->reset(std::move(p), path);
            d_->doc->undo_stack()->resetClean(); // the recovered edits are not in the file yet: dirty
        } else {
            d_->doc->reset(std::move(p), path);
        }
    } catch (const Error& e) {
        show_error(this, tr("Open project"), QString::fromUtf8(e.what()));
        return false;
    }
    show_stored_results();
    add_recent(path);
    log(tr("Opened %1").arg(path));
    return true;
}

bool MainWindow::open_demo(const QString& name) {
    try {
        d_->doc->reset(make_demo_project(name), {});
    } catch (const Error& e) {
        show_error(this, tr("Open demo"), QString::fromUtf8(e.what()));
        return false;
    }
    show_stored_results();
    log(tr("Opened the demo '%1'").arg(demo_title(name)));
    return true;
}

void MainWindow::show_stored_results() {
    // What the file already holds: observed data in the gather view, the last gradient in the gradient view.
    d_->gradient_runs = 0;
    d_->monitor->clear_all();
    const Project& p = d_->doc->project();
    std::vector<Gather> observed;
    try {
        if (!p.observed.empty()) observed = observed_gathers(p);
    } catch (const Error& e) {
        log(tr("Observed data not shown: %1").arg(QString::fromUtf8(e.what())));
    }
    d_->gathers->set_gathers(std::move(observed), {});
    const Grid& g = d_->doc->display_model().grid;
    d_->volume->clear_fields();
    d_->volume->show_layer(VolumeSlicesView::Layer::Model);
    if (!p.gradient.empty() && std::int64_t(p.gradient.size()) == g.cells()) {
        if (g.rank == 3)
            d_->volume->set_field(VolumeSlicesView::Layer::Gradient,
                                  std::make_shared<const std::vector<float>>(p.gradient),
                                  tr("stored gradient"));
        else
            d_->gradient->set_image(p.gradient, g.nz(), g.nx(), g.dz(), g.dx());
    }
}

bool MainWindow::save_project_as(const QString& path) {
    const Project& project = d_->doc->project();
    // Over the file it was read from, only as it was read: another program (`fwi invert`, another window)
    // may have saved its own work there meanwhile, which this save would replace. Unattended: keep the file.
    if (path == d_->doc->path() && project_file_changed(path.toStdString(), project) &&
        ask(this, tr("Save project"),
            tr("%1 changed on disk since it was opened or last saved here: another program (such as fwi "
               "invert, or another window) wrote it.\n\nReplace it with this window's project? No keeps the "
               "file as it is; File > Save As saves this window's project elsewhere.")
                .arg(path),
            false, Answer::No) != Answer::Yes)
        return false;
    try {
        save_project(path.toStdString(), project);
    } catch (const Error& e) {
        show_error(this, tr("Save project"), QString::fromUtf8(e.what()));
        return false;
    }
    QFile::remove(autosave_path(d_->doc->path()));
    d_->doc->mark_saved(path, file_version(path.toStdString()));
    add_recent(path);
    log(tr("Saved %1").arg(path));
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::save() {
    if (d_->doc->path().isEmpty()) {
        d_->actions.save_as->trigger();
        return !d_->doc->dirty();
    }
    return save_project_as(d_->doc->path());
}

bool MainWindow::maybe_save() {
    if (!d_->doc->dirty()) return true;
    // Unattended (tests): keep the window and the edits, the safe answer.
    switch (ask(this, tr("Unsaved changes"), tr("Save the changes to %1?").arg(d_->doc->title()), true,
                Answer::Cancel)) {
    case Answer::Yes:
        return save();
    case Answer::No:
        QFile::remove(autosave_path(d_->doc->path()));
        return true;
    case Answer::Cancel:
        return false;
    }
    return false;
}

void MainWindow::autosave() {
    if (!d_->doc->dirty() || d_->runner->running()) return;
    const QString path = autosave_path(d_->doc->path());
    try {
        save_project(path.toStdString(), d_->doc->project());
        log(tr("Autosaved to %1").arg(path));
    } catch (const Error& e) {
        log(tr("Autosave failed: %1").arg(QString::fromUtf8(e.what())));
    }
}

QStringList MainWindow::recent_projects() const {
    return QSettings().value("recent_projects").toStringList();
}

void MainWindow::add_recent(const QString& path) {
    QStringList list = recent_projects();
    const QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > max_recent)
        list.removeLast();
    QSettings().setValue("recent_projects", list);
    rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
    d_->recent_menu->clear();
    const QStringList list = recent_projects();
    for (const QString& path : list)
        d_->recent_menu->addAction(QFileInfo(path).fileName() + "  —  " + QFileInfo(path).absolutePath(),
                                   this, [this, path] {
                                       if (maybe_save()) open_project(path);
                                   });
    d_->recent_menu->setEnabled(!list.isEmpty());
}

} // namespace fwi::ui
