#pragma once
// Shows a RunPrediction: the summary (time, peak RAM/disk per shot against the budgets, fits or not, the
// schedule auto picked) and the performance model's plan table for this run, the chosen schedule's row in
// bold.
#include "fwi/ui/run_predictor.hpp"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace fwi::ui {

class PredictionPanel : public QWidget {
    Q_OBJECT
  public:
    explicit PredictionPanel(QWidget* parent = nullptr);
    void show_prediction(const RunPrediction& prediction);
    QString text() const;        ///< the summary as shown (rich text)
    QTableWidget* table() const; ///< one row per plan_table() row

  private:
    QLabel* summary_;
    QTableWidget* table_;
};

} // namespace fwi::ui
