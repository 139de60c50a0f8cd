// SettingsPanel: the live prediction under the forms, and the worker-thread measurements behind it (the
// engine's calibration, taken again after each run).
#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/time_axis.hpp"
#include "fwi/ui/prediction_panel.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "fwi/ui/thread_setting.hpp"

#include <QFutureWatcher>
#include <QLabel>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace fwi::ui {

RunPredictor& SettingsPanel::predictor() {
    return predictor_;
}
const RunPrediction& SettingsPanel::prediction() const {
    return prediction_;
}
QString SettingsPanel::prediction_text() const {
    return prediction_panel_->text();
}
PredictionPanel* SettingsPanel::prediction_panel() const {
    return prediction_panel_;
}
bool SettingsPanel::calibrating() const {
    return calibration_running_;
}

void SettingsPanel::set_backend(const std::string& backend) {
    predictor_.set_backend(backend);
    update_prediction();
}

void SettingsPanel::update_prediction() {
    const Experiment& e = doc_->experiment();
    prediction_ = predictor_.predict(e);
    if (prediction_.calibrating) {
        if (!calibration_error_.isEmpty()) {
            prediction_.calibrating = false;
            prediction_.error = calibration_error_;
        } else {
            start_calibration();
        }
    }
    prediction_panel_->show_prediction(prediction_);
    QString info;
    try {
        const Model& m = working_model(e);
        check_grid_resolves_source(e); // runs refuse it too (make_simulation)
        const TimeAxis axis = make_time_axis(m.grid, reference_velocity(e), e.propagation);
        info = tr("%1 samples; inner step %2 ms (%3 per sample)")
                   .arg(axis.nt)
                   .arg(axis.inner_dt_s * 1000, 0, 'g', 3)
                   .arg(axis.step_ratio);
        for (const std::string& w : propagation_warnings(m.grid, m.min_velocity(), e.propagation))
            info +=
                "<br><span style='color:#b35c00'>" + QString::fromStdString(w).toHtmlEscaped() + "</span>";
    } catch (const Error& err) {
        info = "<span style='color:#b00020'>" + QString::fromUtf8(err.what()).toHtmlEscaped() + "</span>";
    }
    time_info_->setText(info);
    emit prediction_changed(prediction_);
}

void SettingsPanel::refresh_after_run() {
    start_calibration(true);
}

void SettingsPanel::start_calibration(bool refresh) {
    // One measurement at a time; a request during one is served when it ends (the cache may already cover
    // it; a refresh is remembered).
    if (calibration_running_) {
        refresh_pending_ = refresh_pending_ || refresh;
        return;
    }
    calibration_running_ = true;
    struct Outcome {
        RunPredictor::Measurement measurement;
        QString error;
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher] {
        const Outcome out = watcher->result();
        watcher->deleteLater();
        calibration_running_ = false;
        if (out.error.isEmpty())
            RunPredictor::add(out.measurement);
        else
            calibration_error_ = out.error;
        update_prediction();
        emit calibrated();
        if (std::exchange(refresh_pending_, false)) start_calibration(true);
    });
    // The worker gets copies: the user may keep editing while it measures.
    watcher->setFuture(
        QtConcurrent::run([e = doc_->experiment(), backend = predictor_.backend(), refresh]() -> Outcome {
            try {
                apply_thread_setting(); // measure with the threads the runs will use
                return {RunPredictor::measure(e, backend, refresh), {}};
            } catch (const std::exception& err) {
                return {{}, QString::fromUtf8(err.what())};
            }
        }));
}

} // namespace fwi::ui
