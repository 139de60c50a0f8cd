// The prediction panel's "when compression pays" chart: with a codec, RunPredictor's sweep has one point per
// budget (12 and the settings' own), the panel draws exactly those speed-ups and marks the settings' budget
// on the curve (unlimited: the largest); without compression there is no sweep and the chart is hidden. Under
// a budget with a lossless codec the table offers adaptive:S, which fits whatever the data ("yes", not
// "yes*").
#include "fwi/model_tools.hpp"
#include "fwi/schedules.hpp"
#include "fwi/ui/plot_view.hpp"
#include "fwi/ui/prediction_panel.hpp"
#include "fwi/ui/run_predictor.hpp"
#include "ui_test_main.hpp"

#include <QTableWidget>
#include <cmath>

using namespace fwi;
using namespace fwi::ui;

namespace {

Experiment small_experiment() {
    Experiment e;
    e.initial_model = builtin_model("layered");
    e.acquisition = surface_survey(1, 100, 1900, 20, 10, 0, 2000, 20);
    e.propagation.dt_s = 0.002;
    e.propagation.nt = 301;
    return e;
}

} // namespace

class TestPredictionSweep : public QObject {
    Q_OBJECT
  private slots:
    void chart_shows_the_sweep_and_marks_the_budget() {
        Experiment e = small_experiment();
        e.gradient.compression = "zfp-rate:16";
        RunPredictor predictor;
        predictor.set_backend("cpu");
        const RunPrediction p = predictor.predict_now(e);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.sweep.curves.size(), std::size_t(1));
        QCOMPARE(p.sweep.curves[0].codec.codec, std::string("zfp-rate:16"));
        QCOMPARE(p.sweep.budgets_bytes.size(), std::size_t(12));
        QCOMPARE(p.sweep.revolve_alone.back().recompute_steps, p.inner_steps - 1); // every state stored

        PredictionPanel panel;
        panel.resize(700, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.show_prediction(p);
        PlotView* plot = panel.sweep_plot();
        QVERIFY(plot->isVisible());
        const int curve = plot->find_series("Revolve + codec"), mark = plot->find_series("this project");
        QVERIFY(curve >= 0 && mark >= 0);
        QCOMPARE(plot->point_count(curve), std::size_t(12));
        for (std::size_t i = 0; i < 12; ++i) {
            QCOMPARE(plot->series_y(curve)[i], p.sweep.curves[0].points[i].speedup);
            QCOMPARE(plot->series_x(curve)[i], double(p.sweep.budgets_bytes[i]) / 1e6);
        }
        QCOMPARE(plot->point_count(mark), std::size_t(1));
        QCOMPARE(plot->series_y(mark)[0], p.sweep.curves[0].points.back().speedup); // unlimited budget
        plot->snapshot().save(test::output_path("tst_prediction_sweep.png"));

        // A budget of its own joins the sweep and is the marked point.
        e.gradient.budget_bytes = p.sweep.budgets_bytes[3] + 1000;
        const RunPrediction budgeted = predictor.predict(e);
        QVERIFY2(budgeted.ok, qPrintable(budgeted.error));
        QCOMPARE(budgeted.sweep.budgets_bytes.size(), std::size_t(13));
        panel.show_prediction(budgeted);
        QCOMPARE(plot->series_x(mark)[0], double(e.gradient.budget_bytes) / 1e6);
        QCOMPARE(plot->series_y(mark)[0], budgeted.sweep.curves[0].points[4].speedup);

        e.gradient.compression = "none";
        e.gradient.budget_bytes = 0;
        const RunPrediction none = predictor.predict_now(e);
        QVERIFY2(none.ok, qPrintable(none.error));
        QVERIFY(none.sweep.curves.empty());
        panel.show_prediction(none);
        QVERIFY(!plot->isVisible());
    }

    void adaptive_row_fits_whatever_the_data() {
        Experiment e = small_experiment();
        e.gradient.compression = "zstd";
        e.gradient.schedule = "auto";
        RunPredictor predictor;
        predictor.set_backend("cpu");
        const RunPrediction unlimited = predictor.predict_now(e);
        QVERIFY2(unlimited.ok, qPrintable(unlimited.error));
        QVERIFY2(unlimited.measured_ratio > 1.2, qPrintable(QString::number(unlimited.measured_ratio)));
        e.gradient.budget_bytes = 6 * unlimited.costs.state_bytes; // six raw states
        const RunPrediction p = predictor.predict(e);
        QVERIFY2(p.ok, qPrintable(p.error));
        QVERIFY(p.automatic && p.fits_budget);

        PredictionPanel panel;
        panel.show_prediction(p);
        int adaptive = -1;
        for (int r = 0; r < int(p.alternatives.size()); ++r)
            if (is_adaptive_spec(p.alternatives[std::size_t(r)].schedule)) adaptive = r;
        QVERIFY(adaptive >= 0);
        const PlanRow& row = p.alternatives[std::size_t(adaptive)];
        QVERIFY(row.fits_budget && !row.fits_only_at_probed_ratio);
        QVERIFY(row.ram_slots >= 1 && row.ram_slots <= 6);
        QVERIFY(row.peak_bytes[0] <= e.gradient.budget_bytes);
        const QTableWidgetItem* fits = panel.table()->item(adaptive, 4);
        QCOMPARE(fits->text(), QString("yes"));
        QVERIFY2(fits->toolTip().contains("whatever the data"), qPrintable(fits->toolTip()));
        QCOMPARE(panel.table()->item(adaptive, 0)->text(), QString::fromStdString(row.schedule));

        // A schedule chosen by hand is priced as its row is (same plan, same expected ratio), adaptive ones
        // included, and its memory and fit are the row's; plain "adaptive" takes the budget.
        for (const PlanRow& alternative : p.alternatives) {
            e.gradient.schedule = alternative.schedule;
            const RunPrediction chosen = predictor.predict(e);
            QVERIFY2(chosen.ok, qPrintable(chosen.error));
            QVERIFY2(std::abs(chosen.per_shot.total_s - alternative.predicted_s) <=
                         1e-9 * alternative.predicted_s,
                     alternative.schedule.c_str());
            QCOMPARE(chosen.peak_bytes, alternative.peak_bytes.at(0)); // the bound the table's fit judges
            QCOMPARE(chosen.fits_budget, alternative.fits_budget);
        }
        e.gradient.schedule = "adaptive";
        const RunPrediction plain = predictor.predict(e);
        QVERIFY2(plain.ok, qPrintable(plain.error));
        QVERIFY(plain.schedule.startsWith("adaptive:") && plain.fits_budget);
    }
};

FWI_UI_TEST_MAIN(TestPredictionSweep)
#include "tst_prediction_sweep.moc"
