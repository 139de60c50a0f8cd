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
namespace {

/// What the pricing worker gets: the experiment with each model's values reduced to its lowest and highest
/// velocity. Of the models, pricing reads only their grids and velocity ranges (the time axis, the CFL and
/// source checks of make_simulation), and a 3D volume's values would otherwise be copied at every edit.
Experiment pricing_copy(const Experiment& e) {
    Experiment copy;
    copy.acquisition = e.acquisition;
    copy.propagation = e.propagation;
    copy.gradient = e.gradient;
    copy.inversion = e.inversion;
    for (Model Experiment::*m :
         {&Experiment::true_model, &Experiment::initial_model, &Experiment::current_model}) {
        (copy.*m).grid = (e.*m).grid;
        if (!(e.*m).vp_mps.empty()) (copy.*m).vp_mps = {(e.*m).min_velocity(), (e.*m).max_velocity()};
    }
    return copy;
}

} // namespace

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
bool SettingsPanel::pricing() const {
    return prediction_.updating;
}
const RunPrediction& SettingsPanel::priced_prediction() {
    if (prediction_.updating) {
        ++prediction_generation_; // the worker's result for these settings is no longer needed
        prediction_ = predictor_.predict(doc_->experiment());
        prediction_panel_->show_prediction(prediction_);
        emit prediction_changed(prediction_);
    }
    return prediction_;
}

void SettingsPanel::set_backend(const std::string& backend) {
    predictor_.set_backend(backend);
    update_prediction();
}

void SettingsPanel::update_prediction() {
    const Experiment& e = doc_->experiment();
    // The outline is immediate; the plans are priced on a worker (start_pricing), as they took 1.6-2.4 s
    // with LZ4 on the Marmousi-II demo (a frozen window for every edit when priced here).
    ++prediction_generation_;
    prediction_ = predictor_.outline(e);
    if (prediction_.calibrating) {
        if (!calibration_error_.isEmpty()) {
            prediction_.calibrating = false;
            prediction_.error = calibration_error_;
        } else {
            start_calibration();
        }
    } else if (prediction_.updating) {
        start_pricing();
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

void SettingsPanel::start_pricing() {
    if (pricing_running_) return; // its end prices the current settings if they still need it
    pricing_running_ = true;
    auto* watcher = new QFutureWatcher<RunPrediction>(this);
    connect(watcher, &QFutureWatcher<RunPrediction>::finished, this,
            [this, watcher, generation = prediction_generation_] {
                RunPrediction priced = watcher->result();
                watcher->deleteLater();
                pricing_running_ = false;
                if (generation != prediction_generation_) { // the settings changed meanwhile
                    if (prediction_.updating) start_pricing();
                    return;
                }
                prediction_ = std::move(priced);
                prediction_panel_->show_prediction(prediction_);
                emit prediction_changed(prediction_);
            });
    // The worker gets copies: the user may keep editing while it prices.
    watcher->setFuture(QtConcurrent::run(
        [e = pricing_copy(doc_->experiment()), predictor = predictor_] { return predictor.predict(e); }));
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
