#pragma once
// MainWindow's private state, shared by main_window.cpp (construction) and main_window_run.cpp (jobs and
// files).
#include "fwi/ui/gather_view.hpp"
#include "fwi/ui/image_view.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/slice_view.hpp"
#include "fwi/ui/volume_3d_view.hpp"
#include "fwi/ui/volume_slices_view.hpp"
#include "process_memory.hpp"

#include <QAction>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QTimer>

#include <utility>
#include <vector>

class QLabel;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;
class QStackedWidget;

namespace fwi::ui {

class AcquisitionEditor;
class WavefieldPanel;

struct MainWindow::Impl {
    ProjectDocument* doc = nullptr;
    ModelView* view = nullptr;
    VolumeSlicesView* volume = nullptr; ///< the central view of a 3D project
    QStackedWidget* central = nullptr;  ///< view (2D) or volume (3D)
    AcquisitionPanel* acquisition = nullptr;
    AcquisitionEditor* editor = nullptr;
    SettingsPanel* settings = nullptr;
    WavefieldPanel* wavefield_panel = nullptr;
    ImageView* wavefield = nullptr; ///< the panel's view
    ImageView* gradient = nullptr;
    GatherView* gathers = nullptr;
    RunMonitor* monitor = nullptr;
    JobRunner* runner = nullptr;
    QPlainTextEdit* log = nullptr;
    QLabel* cursor_label = nullptr;
    QLabel* device_label = nullptr;
    QLabel* memory_label = nullptr;
    QProgressBar* progress = nullptr;
    QMenu* recent_menu = nullptr;
    QSpinBox* line_count = nullptr;
    std::vector<QDockWidget*> docks;
    QTimer autosave_timer, memory_timer;
    QString shown = "current";
    std::string backend = "auto";
    int gradient_runs = 0;
    /// Live 3D slices: the run's clock, whether the first wavefield should bring the slices to it, and
    /// what one shown field cost last (seconds: worker copy, slicing, drawing), for the throttle.
    QElapsedTimer live_clock;
    bool live_switch = false;
    double live_cost_per_field_s = 0;
    double live_cost_at_last_field_s = 0;   ///< the live cost so far when the last field was shown
    double live_drawn_at_last_field_s = -1; ///< the views' render_seconds() when the last field was shown
    bool record_movie = false;              ///< a forward run's wavefield frames are kept for the movie
    /// What a cancelled job leaves in the project, for the log (an inversion keeps its completed iterations).
    QString cancel_note;
    struct Actions {
        QAction *new_project, *open, *save, *save_as, *export_png, *export_csv, *export_paraview, *quit;
        QAction *undo, *redo, *remove, *line_dialog;
        QAction *mode_select, *mode_receiver, *mode_source, *mode_line, *reset_view;
        QAction *run_forward, *run_gradient, *run_invert, *run_resume, *pause, *cancel;
        QAction *about, *guide, *welcome;
    } actions{};

    /// The model the central view shows, falling back like ProjectDocument::display_model().
    const Model& shown_model() const {
        const Experiment& e = doc->experiment();
        const Model& m = shown == "true"      ? e.true_model
                         : shown == "initial" ? e.initial_model
                                              : e.current_model;
        return m.grid.cells() > 0 && !m.vp_mps.empty() ? m : doc->display_model();
    }
    bool three_d() const { return doc->display_model().grid.rank == 3; }
    std::vector<std::pair<QString, VtkWidget*>> exportable_views() const {
        if (three_d()) // the 2D docks show nothing of a 3D run
            return {{QObject::tr("inline slice"), volume->slice_view(SliceAxis::Inline)},
                    {QObject::tr("crossline slice"), volume->slice_view(SliceAxis::Crossline)},
                    {QObject::tr("depth slice"), volume->slice_view(SliceAxis::Depth)},
                    {QObject::tr("3D view"), volume->volume_view()},
                    {QObject::tr("observed gather"), gathers->observed_view()},
                    {QObject::tr("modelled gather"), gathers->modelled_view()},
                    {QObject::tr("gather difference"), gathers->residual_view()}};
        return {{QObject::tr("model"), view},
                {QObject::tr("wavefield"), wavefield},
                {QObject::tr("gradient"), gradient},
                {QObject::tr("observed gather"), gathers->observed_view()},
                {QObject::tr("modelled gather"), gathers->modelled_view()},
                {QObject::tr("gather difference"), gathers->residual_view()}};
    }
};

} // namespace fwi::ui
