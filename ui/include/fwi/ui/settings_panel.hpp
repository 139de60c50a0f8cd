#pragma once
// Propagation, gradient and inversion settings, edited in place. Every change is validated as a whole value
// (cross-field rules, the codec and schedule specs, the CFL time axis) before it becomes one undoable edit of
// the ProjectDocument; refused input shows a message and the fields return to the document's values. Below
// the forms, a live prediction (time, peak memory, fits the budget, the plan table) from RunPredictor follows
// every change; the costs it needs are measured once on a worker thread (the panel says "measuring"
// meanwhile), and the plans are priced on a worker thread too (up to seconds with a fast codec on a long run:
// the forms stay live, the previous table stays greyed until the new one arrives).
#include "fwi/settings.hpp"
#include "fwi/ui/run_predictor.hpp"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace fwi::ui {

class PredictionPanel;
class ProjectDocument;

class SettingsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit SettingsPanel(ProjectDocument* doc, QWidget* parent = nullptr);
    RunPredictor& predictor();
    const RunPrediction& prediction() const;
    QString prediction_text() const;
    PredictionPanel* prediction_panel() const;
    /// True while this machine's costs are being measured for the prediction.
    bool calibrating() const;
    /// True while the plans of the current settings are being priced (prediction().updating).
    bool pricing() const;
    /// prediction(), priced here when the worker has not priced it yet: a run starting now gets its
    /// predicted time (the Timing plot's measured/predicted) without waiting for the worker.
    const RunPrediction& priced_prediction();
    /// The backend whose costs the prediction uses.
    void set_backend(const std::string& backend);

    /// Reads the widgets into values; "" when valid, else the reason (pure: nothing is applied).
    QString read_propagation(PropagationSettings& out) const;
    QString read_gradient(GradientSettings& out) const;
    QString read_inversion(InversionSettings& out) const;
    /// The project's run options with the conditioning fields (illumination, smoothing, water mask, L-BFGS
    /// memory) set from the widgets, as JSON (fwi::run_options_key); other saved options are kept.
    std::string read_run_options() const;

  public slots:
    /// Recomputes the prediction (e.g. after the throughput was calibrated).
    void update_prediction();
    /// After a run: takes the engine's calibration again (on a worker thread), which learnt the run's
    /// measured codec ratio and per-item times (fwi::learn_from_run), and recomputes the prediction.
    void refresh_after_run();

  signals:
    void prediction_changed(const fwi::ui::RunPrediction& prediction);
    /// A cost measurement ended (the prediction was updated just before).
    void calibrated();

  private:
    void load();
    void commit_propagation();
    void commit_gradient();
    void commit_inversion();
    void commit_run_options();
    void start_calibration(bool refresh = false);
    void start_pricing();
    void refuse(const QString& title, const QString& reason);
    QWidget* build_propagation();
    QWidget* build_gradient();
    QWidget* build_inversion();

    ProjectDocument* doc_;
    RunPredictor predictor_;
    RunPrediction prediction_;
    bool loading_ = false;
    bool calibration_running_ = false;
    bool refresh_pending_ = false; ///< a run ended while a measurement was running: refresh after it
    QString calibration_error_;    ///< the last measurement failed: shown until the settings change
    /// Pricing on a worker, one at a time: a result for settings older than prediction_generation_ is
    /// dropped, and the current ones are priced then if they still wait for it (prediction_.updating).
    bool pricing_running_ = false;
    std::uint64_t prediction_generation_ = 0;
    // propagation
    QDoubleSpinBox *freq_, *duration_, *dt_ms_, *cfl_, *vmax_;
    QComboBox* order_;
    QSpinBox* pml_;
    QCheckBox* free_surface_;
    QLabel* time_info_;
    // gradient
    QComboBox *schedule_, *codec_;
    QSpinBox *schedule_n_, *schedule_d_, *interval_;
    QLineEdit* codec_param_;
    QDoubleSpinBox *budget_mb_, *disk_budget_mb_;
    // inversion
    QSpinBox* iterations_;
    QLineEdit* stages_;
    QDoubleSpinBox *vmin_bound_, *vmax_bound_;
    QComboBox *optimizer_, *misfit_;
    QCheckBox* illumination_;
    QDoubleSpinBox *smoothing_m_, *water_velocity_;
    QSpinBox* lbfgs_memory_;
    PredictionPanel* prediction_panel_;
};

} // namespace fwi::ui
