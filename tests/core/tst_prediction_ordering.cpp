// The performance model ranks choices as the runs do: on a small problem, for pairs of checkpoint schedules
// whose predicted times differ by at least 3x (store-all, Revolve with 12, 4, 3 and 2 slots: more
// recomputation with fewer slots), the measured gradient times come in the same order. Only the order is
// tested, and only where the predicted gap is large, so that a busy machine cannot flip it (at 2x, revolve:12
// against revolve:4 flipped in CI while a 3D test ran beside it); absolute accuracy is a benchmark
// (docs/benchmarks.md), not a test.
#include "fwi/gradient_engine.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/simulation.hpp"
#include "test_setups.hpp"

#include <QtTest>

#include <algorithm>
#include <cstdlib>

using namespace fwi;
using namespace fwi::test;

class TestPredictionOrdering : public QObject {
    Q_OBJECT
  private slots:
    void measured_order_follows_predicted_order() {
        qputenv("FWI_CALIBRATION_CACHE", "off");
        const Model truth = blob_model(120, 150, 10);
        Model start = truth;
        for (auto& v : start.vp_mps)
            v = 1800 + (v - 1800) * 0.6f;
        Acquisition acq;
        acq.shots.push_back({{750, 20}, line_of_points(10, 20, 1480, 60)});
        Simulation sim(truth.grid, acq, settings(4, 12, 0.002, 600, 10), 3000, "cpu");
        sim.set_model(truth);
        const std::vector<Gather> observed = sim.forward();

        struct Choice {
            std::string schedule;
            double predicted_s = 0, measured_s = 0;
        };
        // revolve:3 as well: revolve:4 against store-all is predicted about 3x apart, on either side of the
        // threshold from run to run, which left two pairs to compare in CI.
        std::vector<Choice> choices{{"all"}, {"revolve:12"}, {"revolve:4"}, {"revolve:3"}, {"revolve:2"}};
        for (Choice& c : choices) {
            GradientOptions o;
            o.settings.schedule = c.schedule;
            sim.set_model(start);
            c.predicted_s = resolve_plan(sim, o.settings).prediction.total_s;
            // The least of three runs: noise from other work only ever adds time.
            for (int run = 0; run < 3; ++run) {
                const GradientResult g = compute_gradient(sim, start, observed, o);
                const double s = g.seconds - g.planning_seconds;
                c.measured_s = run == 0 ? s : std::min(c.measured_s, s);
            }
            qInfo("%-11s predicted %.4f s, measured %.4f s", c.schedule.c_str(), c.predicted_s, c.measured_s);
        }
        int compared = 0;
        for (const Choice& a : choices)
            for (const Choice& b : choices) {
                if (!(a.predicted_s >= 3 * b.predicted_s)) continue;
                ++compared;
                QVERIFY2(
                    a.measured_s > b.measured_s,
                    qPrintable(QString("%1 predicted %2 s > %3 predicted %4 s, but measured %5 s <= %6 s")
                                   .arg(a.schedule.c_str())
                                   .arg(a.predicted_s)
                                   .arg(b.schedule.c_str())
                                   .arg(b.predicted_s)
                                   .arg(a.measured_s)
                                   .arg(b.measured_s)));
            }
        // The choices are made so that the large gaps exist: the test compares something.
        QVERIFY2(compared >= 3, qPrintable(QString::number(compared)));
    }
};

QTEST_GUILESS_MAIN(TestPredictionOrdering)
#include "tst_prediction_ordering.moc"
