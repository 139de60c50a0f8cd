#pragma once
// The FWI Studio main window: the model view in the centre; dockable panels for the acquisition table, the
// settings (with the live prediction), the live views (wavefield, gradient, gathers) and the live plots;
// menus, toolbar, shortcuts, recent projects, autosave and a status bar naming the compute device and the
// memory in use.
#include "fwi/project.hpp"
#include "fwi/ui/job_runner.hpp"

#include <QMainWindow>

#include <memory>

namespace fwi::ui {

class AcquisitionPanel;
class GatherView;
class ImageView;
class ModelView;
class ProjectDocument;
class RunMonitor;
class SettingsPanel;
class VolumeSlicesView;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ProjectDocument* document() const;
    ModelView* model_view() const;
    /// The central view of a 3D project (slices and 3D view); the ModelView is central in 2D.
    VolumeSlicesView* volume_view() const;
    AcquisitionPanel* acquisition_panel() const;
    SettingsPanel* settings_panel() const;
    ImageView* wavefield_view() const;
    ImageView* gradient_view() const;
    GatherView* gather_view() const;
    RunMonitor* run_monitor() const;
    JobRunner* job_runner() const;

    /// File operations; each reports failures with a message box and returns false (document untouched).
    bool open_project(const QString& path);
    bool open_demo(const QString& name);
    bool save_project_as(const QString& path);
    bool save();
    /// Asks to save a dirty document: true when it is fine to discard it now.
    bool maybe_save();
    QStringList recent_projects() const;

    /// Jobs (false when one is already running or the project lacks what the job needs).
    bool run_forward();
    bool run_gradient();
    /// Run › Invert: the project's inversion from its initial model; the model view and the misfit plot
    /// follow each iteration. Success or cancel stores the completed iterations as one undoable edit (cancel:
    /// up to the last completed iteration, with its optimizer state). With `resume` (Run › Resume inversion)
    /// it continues from the project's optimizer state, with the options that run started with, and appends
    /// to the history: the result is the one an uninterrupted run gives.
    bool run_invert(bool resume = false);
    /// Which model the central view shows: "true", "initial" or "current" (the default, falling back as the
    /// document's display_model()).
    void show_model(const QString& which);
    /// File › Export to ParaView (paraview_export.hpp) into `dir`; a failure is reported (message, log).
    bool export_to_paraview(const QString& dir);
    /// The welcome page (welcome_page.hpp), then what it asked for: a demo, Open…, or a new project.
    void show_welcome();
    QString status_device_text() const;
    QString status_memory_text() const;

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void build_views();
    void build_actions();
    void build_menus_and_toolbar();
    void build_status_bar();
    void connect_jobs();
    void update_title();
    void update_central(); ///< the 2D model view or the 3D slices, by the shown model's rank
    void update_actions();
    void update_memory();
    void add_recent(const QString& path);
    void rebuild_recent_menu();
    void autosave();
    void show_stored_results();
    void log(const QString& text);
    void show_iteration(const IterationRecord& record);
    void show_live_volume(const FieldFramePtr& frame); ///< a 3D run's field on the central slices
    /// Logs what the live 3D slices cost (worker copies, GUI slicing and drawing) against the run's time.
    void log_live_volume_cost(double run_seconds);
    bool start_job(const QString& name, std::int64_t expected_steps, double predicted_s,
                   std::int64_t inner_steps, JobWork work);
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
