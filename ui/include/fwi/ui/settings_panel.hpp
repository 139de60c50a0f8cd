#pragma once
// Propagation, gradient and inversion settings, edited in place. Every change is validated as a whole value
// (cross-field rules, the codec and schedule specs, the CFL time axis) before it becomes one undoable edit of the
// ProjectDocument; refused input shows a message and the fields return to the document's values. Below the forms,
// a live prediction (time and peak memory) from RunPredictor follows every change.
#include "fwi/settings.hpp"
#include "fwi/ui/run_predictor.hpp"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace fwi::ui {

class ProjectDocument;

class SettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPanel(ProjectDocument* doc, QWidget* parent = nullptr);
    RunPredictor& predictor();
    const RunPrediction& prediction() const;
    QString prediction_text() const;

    /// Reads the widgets into values; "" when valid, else the reason (pure: nothing is applied).
    QString read_propagation(PropagationSettings& out) const;
    QString read_gradient(GradientSettings& out) const;
    QString read_inversion(InversionSettings& out) const;

public slots:
    /// Recomputes the prediction (e.g. after the throughput was calibrated).
    void update_prediction();

signals:
    void prediction_changed(const fwi::ui::RunPrediction& prediction);

private:
    void load();
    void commit_propagation();
    void commit_gradient();
    void commit_inversion();
    void refuse(const QString& title, const QString& reason);
    QWidget* build_propagation();
    QWidget* build_gradient();
    QWidget* build_inversion();

    ProjectDocument* doc_;
    RunPredictor predictor_;
    RunPrediction prediction_;
    bool loading_ = false;
    // propagation
    QDoubleSpinBox *freq_, *duration_, *dt_ms_, *cfl_, *vmax_;
    QComboBox* order_;
    QSpinBox* pml_;
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
    QLabel* prediction_label_;
};

} // namespace fwi::ui
