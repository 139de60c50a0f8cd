#pragma once
// Shows a RunPrediction: the summary (time, peak RAM/disk per shot against the budgets, fits or not, the
// schedule auto picked) and the performance model's plan table for this run, the chosen schedule's row in
// bold; with compression, the speed-up of Revolve + the codec over Revolve alone against the memory budget
// (Kukreja et al., Fig. 15), the settings' own budget marked. While new settings are priced (an `updating`
// prediction), the last priced one stays in view, greyed.
#include "fwi/ui/run_predictor.hpp"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace fwi::ui {

class PlotView;

class PredictionPanel : public QWidget {
    Q_OBJECT
  public:
    explicit PredictionPanel(QWidget* parent = nullptr);
    void show_prediction(const RunPrediction& prediction);
    QString text() const;         ///< the summary as shown (rich text)
    QTableWidget* table() const;  ///< one row per plan_table() row
    PlotView* sweep_plot() const; ///< hidden without compression

  private:
    void show_sweep(const RunPrediction& prediction);

    QLabel* summary_;
    QTableWidget* table_;
    PlotView* sweep_plot_;
    int codec_series_ = 0, alone_series_ = 0, current_series_ = 0;
    bool showing_priced_ = false; ///< what is in view is a priced prediction (ok)
};

} // namespace fwi::ui
