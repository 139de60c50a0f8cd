// MainWindow: the actions (menu entries, toolbar buttons, shortcuts) and what they do.
#include "fwi/ui/main_window.hpp"

#include "fwi/ui/acquisition_editor.hpp"
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/plot_view.hpp"
#include "fwi/ui/run_monitor.hpp"
#include "main_window_impl.hpp"

#include <QActionGroup>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QStyle>
#include <QUndoStack>

namespace fwi::ui {

void MainWindow::build_actions() {
    auto make = [this](const QString& text, QKeySequence key,
                       QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) a->setShortcut(key);
        if (icon != QStyle::SP_CustomBase) a->setIcon(style()->standardIcon(icon));
        return a;
    };
    Impl::Actions& a = d_->actions;
    a.new_project = make(tr("&New project"), QKeySequence::New, QStyle::SP_FileIcon);
    a.open = make(tr("&Open…"), QKeySequence::Open, QStyle::SP_DialogOpenButton);
    a.save = make(tr("&Save"), QKeySequence::Save, QStyle::SP_DialogSaveButton);
    a.save_as = make(tr("Save &as…"), QKeySequence::SaveAs);
    a.export_png = make(tr("Export view as &PNG…"), QKeySequence(tr("Ctrl+E")));
    a.export_csv = make(tr("Export plot data as &CSV…"), QKeySequence(tr("Ctrl+Shift+E")));
    a.export_paraview = make(tr("Export to Para&View…"), {});
    a.export_paraview->setToolTip(tr("The models, gradient and inversion history as .vti files (and a .pvd "
                                     "series) for ParaView"));
    a.quit = make(tr("&Quit"), QKeySequence::Quit);
    a.undo = d_->doc->undo_stack()->createUndoAction(this, tr("&Undo"));
    a.undo->setShortcut(QKeySequence::Undo);
    a.undo->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    a.redo = d_->doc->undo_stack()->createRedoAction(this, tr("&Redo"));
    a.redo->setShortcut(QKeySequence::Redo);
    a.redo->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    a.remove = make(tr("&Delete selected"), QKeySequence::Delete);
    a.line_dialog = make(tr("Add receiver &line…"), QKeySequence(tr("Ctrl+L")));
    a.mode_select = make(tr("&Select / move"), QKeySequence(tr("S")));
    a.mode_receiver = make(tr("Add &receivers"), QKeySequence(tr("R")));
    a.mode_source = make(tr("Add s&ources"), QKeySequence(tr("O")));
    a.mode_line = make(tr("Draw receiver li&ne"), QKeySequence(tr("N")));
    a.reset_view = make(tr("&Reset view"), QKeySequence(tr("Ctrl+0")), QStyle::SP_BrowserReload);
    a.run_forward = make(tr("Model &observed data"), QKeySequence(tr("F5")), QStyle::SP_MediaPlay);
    a.run_gradient = make(tr("Compute &gradient"), QKeySequence(tr("F6")), QStyle::SP_MediaSeekForward);
    a.run_invert = make(tr("&Invert"), QKeySequence(tr("F7")), QStyle::SP_MediaSkipForward);
    a.run_resume = make(tr("&Resume inversion"), QKeySequence(tr("Shift+F7")));
    a.pause = make(tr("&Pause"), QKeySequence(tr("F8")), QStyle::SP_MediaPause);
    a.pause->setCheckable(true);
    a.cancel = make(tr("&Cancel run"), QKeySequence(tr("Esc")), QStyle::SP_MediaStop);
    a.cancel->setShortcutContext(Qt::ApplicationShortcut);
    a.about = make(tr("&About FWI Studio"), {});
    a.guide = make(tr("&User guide"), QKeySequence::HelpContents);
    a.welcome = make(tr("&Welcome page…"), {});

    auto* modes = new QActionGroup(this);
    for (QAction* m : {a.mode_select, a.mode_receiver, a.mode_source, a.mode_line}) {
        m->setCheckable(true);
        modes->addAction(m);
    }
    a.mode_select->setChecked(true);
    connect(a.mode_select, &QAction::triggered, this, [this] { d_->view->set_edit_mode(EditMode::Select); });
    connect(a.mode_receiver, &QAction::triggered, this,
            [this] { d_->view->set_edit_mode(EditMode::AddReceiver); });
    connect(a.mode_source, &QAction::triggered, this,
            [this] { d_->view->set_edit_mode(EditMode::AddSource); });
    connect(a.mode_line, &QAction::triggered, this,
            [this] { d_->view->set_edit_mode(EditMode::ReceiverLine); });
    connect(d_->view, &ModelView::edit_mode_changed, this, [this](EditMode m) {
        Impl::Actions& acts = d_->actions;
        (m == EditMode::Select        ? acts.mode_select
         : m == EditMode::AddReceiver ? acts.mode_receiver
         : m == EditMode::AddSource   ? acts.mode_source
                                      : acts.mode_line)
            ->setChecked(true);
    });

    connect(a.new_project, &QAction::triggered, this, [this] {
        if (!maybe_save()) return;
        d_->doc->reset(make_demo_project("toy"), {});
        log(tr("New project (from the toy template)."));
    });
    connect(a.open, &QAction::triggered, this, [this] {
        if (!maybe_save()) return;
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open project"), QString(), tr("FWI projects (*.fwi)"));
        if (!path.isEmpty()) open_project(path);
    });
    connect(a.save, &QAction::triggered, this, [this] { save(); });
    connect(a.save_as, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save project"), d_->doc->path(),
                                                          tr("FWI projects (*.fwi)"));
        if (!path.isEmpty()) save_project_as(path.endsWith(".fwi") ? path : path + ".fwi");
    });
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.remove, &QAction::triggered, this, [this] {
        if (!d_->view->selection().empty()) emit d_->view->delete_requested(d_->view->selection());
    });
    connect(a.line_dialog, &QAction::triggered, d_->editor, &AcquisitionEditor::add_receiver_line);
    connect(a.reset_view, &QAction::triggered, this, [this] {
        for (ImageView* v : {static_cast<ImageView*>(d_->view), d_->wavefield, d_->gradient})
            v->reset_view();
    });
    connect(a.run_forward, &QAction::triggered, this, [this] { run_forward(); });
    connect(a.run_gradient, &QAction::triggered, this, [this] { run_gradient(); });
    connect(a.run_invert, &QAction::triggered, this, [this] { run_invert(); });
    connect(a.run_resume, &QAction::triggered, this, [this] { run_invert(true); });
    connect(a.pause, &QAction::toggled, d_->runner, &JobRunner::pause);
    connect(a.cancel, &QAction::triggered, d_->runner, &JobRunner::cancel);
    connect(a.export_png, &QAction::triggered, this, [this] {
        QStringList names;
        for (auto& [name, widget] : d_->exportable_views())
            names << name;
        bool ok = false;
        const QString which =
            QInputDialog::getItem(this, tr("Export view"), tr("View"), names, 0, false, &ok);
        if (!ok) return;
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save image"), which + ".png", tr("PNG images (*.png)"));
        if (path.isEmpty()) return;
        for (auto& [name, widget] : d_->exportable_views())
            if (name == which && !widget->save_png(path))
                show_error(this, tr("Export view"), tr("Cannot write %1").arg(path));
    });
    connect(a.export_paraview, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the ParaView files"));
        if (!dir.isEmpty()) export_to_paraview(dir);
    });
    connect(a.export_csv, &QAction::triggered, this, [this] {
        const std::vector<PlotView*> plots = {d_->monitor->memory_plot(), d_->monitor->timeline_plot(),
                                              d_->monitor->misfit_plot(), d_->monitor->timing_plot()};
        QStringList names;
        for (PlotView* p : plots)
            names << p->title();
        bool ok = false;
        const QString which =
            QInputDialog::getItem(this, tr("Export plot data"), tr("Plot"), names, 0, false, &ok);
        if (!ok) return;
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save plot data"), which + ".csv", tr("CSV files (*.csv)"));
        if (path.isEmpty()) return;
        for (PlotView* p : plots)
            if (p->title() == which && !p->export_csv(path))
                show_error(this, tr("Export plot data"), tr("Cannot write %1").arg(path));
    });
    connect(a.welcome, &QAction::triggered, this, [this] { show_welcome(); });
    connect(a.about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About FWI Studio"),
            tr("<b>FWI Studio</b><br>2D and 3D acoustic full-waveform inversion with checkpointing and "
               "compression.<br>Compute device: %1")
                .arg(status_device_text()));
    });
    connect(a.guide, &QAction::triggered, this, [this] {
        QMessageBox::information(
            this, tr("User guide"),
            tr("<p><b>Model view</b>: wheel zooms about the cursor; middle-drag or Shift+drag pans; Ctrl+0 "
               "resets.</p>"
               "<p><b>Editing</b>: S select/move (drag a point; drag on empty space to select a box; "
               "Ctrl+click "
               "toggles), R add receivers, O add sources, N draw a receiver line (drag; the count is in the "
               "toolbar). Delete removes the selection; Ctrl+Z / Ctrl+Shift+Z undo and redo.</p>"
               "<p><b>Runs</b>: F5 models observed data, F6 computes the gradient, F8 pauses, Esc "
               "cancels.</p>"
               "<p>Right-click any view to save it as PNG, any plot to save its data as CSV. docs/gui.md has "
               "more.</p>"));
    });
}

} // namespace fwi::ui
