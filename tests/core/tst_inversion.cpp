// The inversion workflow end to end on a small synthetic problem (tests/support/inversion_setup.hpp):
// convergence, bounds, Wolfe steps on the real misfit, frequency stages, resume bit for bit, cancellation and
// setup errors.
#include "fwi/error.hpp"
#include "fwi/inversion.hpp"
#include "fwi/inversion_project.hpp"
#include "inversion_setup.hpp"
#include "test_setups.hpp"

#include <QtTest>
#include <cstring>
#include <limits>
#include <omp.h>

using namespace fwi;
using namespace fwi::test;

namespace {

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

/// Counts ShotEnd events (shots propagated by gradient computations); cancels when the count reaches
/// `cancel_at`.
class ShotCounter : public Observer {
  public:
    ShotCounter(CancelToken* token, int cancel_at) : token_(token), cancel_at_(cancel_at) {}
    void on_event(const Event& e) override {
        if (e.type == EventType::ShotEnd && ++shots == cancel_at_ && token_) token_->cancel();
    }
    int shots = 0;

  private:
    CancelToken* token_;
    int cancel_at_;
};

} // namespace

class TestInversion : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        omp_set_num_threads(1); // tiny grids: see tst_inversion_objective.cpp (results do not depend on it)
        problem_ = small_inversion();
    }

    void converges() {
        // L-BFGS with 15 m smoothing and 40 m source masks, 8 iterations: the model error falls by more
        // than 2.2x (measured 0.0455 -> 0.0163; it keeps falling slowly: 0.0132 after 16) and the misfit by
        // more than 50x.
        InversionSetup setup = small_setup(problem_, 8);
        setup.objective.preconditioner.smoothing_x_m = setup.objective.preconditioner.smoothing_z_m = 15;
        setup.objective.mask.source_radius_m = 40;
        std::vector<IterationRecord> records;
        const auto r = run_inversion(setup, nullptr, nullptr,
                                     [&](const IterationRecord& rec) { records.push_back(rec); });
        QCOMPARE(int(records.size()), 9); // iteration 0 (the start) + 8
        QCOMPARE(r.reason, StopReason::MaxIterations);
        for (std::size_t i = 0; i < records.size(); ++i) {
            const auto& rec = records[i];
            qInfo("iteration %d: misfit %.4g, model error %.4f, %.2f s", rec.iteration, rec.misfit,
                  rec.model_error, rec.seconds);
            QCOMPARE(rec.iteration, int(i));
            QCOMPARE(rec.stage, 0);
            QCOMPARE(rec.model.vp_mps.size(), std::size_t(problem_.start.grid.cells()));
            QCOMPARE(rec.gradient.size(), rec.model.vp_mps.size());
            if (i > 0) QVERIFY(rec.misfit < records[i - 1].misfit); // every accepted step decreases J
        }
        const double e0 = records.front().model_error, e1 = records.back().model_error;
        QVERIFY2(e1 < e0 / 2.2, qPrintable(QString("model error %1 -> %2").arg(e0).arg(e1)));
        QVERIFY(records.back().misfit < records.front().misfit / 50);
        QVERIFY(same_bits(r.model.vp_mps, records.back().model.vp_mps));
        QCOMPARE(r.state.at("inversion.iteration"), std::vector<double>{8});
        // Masked cells (within 40 m of a source) never moved.
        const auto& g = problem_.start.grid;
        const std::size_t near_source = g.index(3, 6); // (60 m, 30 m) is shot 0's source
        QCOMPARE(r.model.vp_mps[near_source], problem_.start.vp_mps[near_source]);
        qInfo("%d evaluations in %.2f s", r.evaluations, r.seconds);
    }

    void bounds_hold() {
        // An upper bound below the anomaly's 2300 m/s becomes active and is never crossed.
        InversionSetup setup = small_setup(problem_, 3);
        setup.optimizer.upper_bound = 2150;
        int at_bound = 0, records = 0;
        run_inversion(setup, nullptr, nullptr, [&](const IterationRecord& rec) {
            ++records;
            for (float v : rec.model.vp_mps) {
                QVERIFY(v >= 1500.0f && v <= 2150.0f);
                at_bound += v == 2150.0f;
            }
        });
        QCOMPARE(records, 4);
        QVERIFY(at_bound > 0);
    }

    void frequency_stages() {
        // Two stages (8 Hz low-pass, then unfiltered), 2 iterations each; records say which stage they belong
        // to, and each stage's first misfit is that of its own (filtered) data.
        InversionSetup setup = small_setup(problem_, 2);
        setup.stages = {{8.0, 2}, {0.0, 2}};
        std::vector<IterationRecord> records;
        run_inversion(setup, nullptr, nullptr, [&](const IterationRecord& rec) { records.push_back(rec); });
        QCOMPARE(int(records.size()), 5);
        const int stages[] = {0, 0, 0, 1, 1};
        const double freqs[] = {8, 8, 8, 0, 0};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(records[std::size_t(i)].stage, stages[i]);
            QCOMPARE(records[std::size_t(i)].freq_hz, freqs[i]);
        }
        // The unfiltered data carry more energy than the 8 Hz ones (15 Hz Ricker): the misfit jumps up at the
        // stage.
        QVERIFY(records[3].misfit > records[2].misfit);
        QVERIFY(records[4].misfit < records[3].misfit);
    }

    void resume_is_bit_exact_data() {
        QTest::addColumn<int>(
            "cancel_after_iteration");           // cancel from on_iteration after this iteration; 0 = no
        QTest::addColumn<bool>("mid_iteration"); // or in the middle of iteration 4's evaluations
        QTest::newRow("at the stage boundary") << 2 << false;
        QTest::newRow("inside a stage") << 3 << false;
        QTest::newRow("in the middle of a line search") << -1 << true;
    }
    void resume_is_bit_exact() {
        // Everything that carries state is on: 2 stages, illumination, smoothing, mask, batches of 2, 3
        // random shots of 4 per iteration. Interrupted + resumed == uninterrupted, bit for bit (models,
        // gradients, misfits).
        QFETCH(int, cancel_after_iteration);
        QFETCH(bool, mid_iteration);
        InversionSetup setup = small_setup(problem_, 2);
        setup.stages = {{8.0, 2}, {0.0, 3}};
        setup.objective.illumination = true;
        setup.objective.preconditioner.smoothing_x_m = setup.objective.preconditioner.smoothing_z_m = 15;
        setup.objective.mask.source_radius_m = 25;
        setup.objective.batch_shots = 2;
        setup.objective.shots_per_iteration = 3;
        setup.objective.seed = 42;
        if (resume_reference_.history.empty()) { // the uninterrupted run, once for all rows
            ShotCounter counter(nullptr, 0);
            resume_reference_ = run_inversion(setup, &counter, nullptr, [&](const IterationRecord&) {
                shots_at_.push_back(counter.shots);
            });
        }
        const InversionResult& reference = resume_reference_;
        const std::vector<IterationRecord>& full = reference.history;
        const std::vector<int>& shots_at = shots_at_; // shots propagated when each record was published
        QCOMPARE(int(full.size()), 6);

        CancelToken cancel;
        // Half way between the ends of iterations 3 and 4 (each takes >= 3 shots: 3 per evaluation).
        ShotCounter by_shots(&cancel, (shots_at[3] + shots_at[4]) / 2);
        std::vector<IterationRecord> parts;
        const auto first =
            run_inversion(setup, mid_iteration ? &by_shots : nullptr, &cancel, [&](const IterationRecord& r) {
                parts.push_back(r);
                if (r.iteration == cancel_after_iteration) cancel.cancel();
            });
        QCOMPARE(first.reason, StopReason::Cancelled);
        const int done = int(parts.size()) - 1;
        qInfo("cancelled after %d completed iterations", done);
        QCOMPARE(done, mid_iteration ? 3 : cancel_after_iteration);
        QCOMPARE(first.state.at("inversion.iteration"), std::vector<double>{double(done)});
        QVERIFY(same_bits(first.model.vp_mps, parts.back().model.vp_mps));

        setup.resume = first.state;
        const auto second =
            run_inversion(setup, nullptr, nullptr, [&](const IterationRecord& r) { parts.push_back(r); });
        QCOMPARE(second.reason, StopReason::MaxIterations);
        QCOMPARE(parts.size(), full.size());
        for (std::size_t i = 0; i < full.size(); ++i) {
            QCOMPARE(parts[i].iteration, full[i].iteration);
            QCOMPARE(parts[i].stage, full[i].stage);
            QCOMPARE(parts[i].misfit, full[i].misfit);
            QCOMPARE(parts[i].model_error, full[i].model_error);
            QVERIFY2(same_bits(parts[i].model.vp_mps, full[i].model.vp_mps), qPrintable(QString::number(i)));
            QVERIFY(same_bits(parts[i].gradient, full[i].gradient));
        }
        QVERIFY(same_bits(second.model.vp_mps, reference.model.vp_mps));
        QCOMPARE(second.state, reference.state);
    }

    void a_stalled_stage_ends_early_and_resumes_past_it() {
        // With a demanding minimum decrease the first stage stops after an iteration that gains too little;
        // an interruption right there resumes with the next stage, as the uninterrupted run goes on.
        InversionSetup setup = small_setup(problem_, 2);
        setup.stages = {{8.0, 6}, {0.0, 2}};
        const double min_decrease = 0.2;
        setup.min_relative_decrease = min_decrease;
        std::vector<IterationRecord> full;
        const auto reference =
            run_inversion(setup, nullptr, nullptr, [&](const IterationRecord& r) { full.push_back(r); });
        int first_stage = 0;
        for (const auto& r : full)
            if (r.iteration > 0 && r.stage == 0) ++first_stage;
        qInfo("first stage ran %d of 6 iterations", first_stage);
        QVERIFY(first_stage >= 1 && first_stage < 6);
        QCOMPARE(full.back().stage, 1);
        for (int i = 1; i <= first_stage; ++i) { // every iteration but the stage's last gained enough
            const double gain = (full[std::size_t(i - 1)].misfit - full[std::size_t(i)].misfit) /
                                full[std::size_t(i - 1)].misfit;
            QVERIFY2(i < first_stage ? gain >= min_decrease : gain < min_decrease,
                     qPrintable(QString("iteration %1 gained %2").arg(i).arg(gain)));
        }

        CancelToken cancel;
        std::vector<IterationRecord> parts;
        const auto first = run_inversion(setup, nullptr, &cancel, [&](const IterationRecord& r) {
            parts.push_back(r);
            if (r.iteration == first_stage) cancel.cancel(); // the stage's last iteration
        });
        QCOMPARE(first.state.at("inversion.stage_iteration"), std::vector<double>{6.0});
        setup.resume = first.state;
        const auto second =
            run_inversion(setup, nullptr, nullptr, [&](const IterationRecord& r) { parts.push_back(r); });
        QCOMPARE(parts.size(), full.size());
        for (std::size_t i = 0; i < full.size(); ++i) {
            QCOMPARE(parts[i].stage, full[i].stage);
            QCOMPARE(parts[i].misfit, full[i].misfit);
        }
        QVERIFY(same_bits(second.model.vp_mps, reference.model.vp_mps));
    }

    void cancel_before_anything() {
        CancelToken cancel;
        cancel.cancel();
        InversionSetup setup = small_setup(problem_, 2);
        const auto r = run_inversion(setup, nullptr, &cancel, {});
        QCOMPARE(r.reason, StopReason::Cancelled);
        QVERIFY(r.history.empty());
        QVERIFY(r.state.empty());
        QVERIFY(same_bits(r.model.vp_mps, problem_.start.vp_mps));
    }

    void bad_setups() {
        auto expect = [](const InversionSetup& s, const char* what) {
            bool thrown = false;
            try {
                run_inversion(s, nullptr, nullptr, {});
            } catch (const ConfigError& e) {
                thrown = true;
                qInfo("%s: %s", what, e.what());
            }
            QVERIFY2(thrown, what);
        };
        InversionSetup s = small_setup(problem_, 1);
        s.optimizer.upper_bound = 3000; // above the 2600 m/s reference velocity
        expect(s, "bound above the reference velocity");
        s = small_setup(problem_, 1);
        s.optimizer.upper_bound = std::numeric_limits<double>::infinity();
        expect(s, "no upper bound");
        s = small_setup(problem_, 1);
        s.observed.pop_back();
        expect(s, "observed data for too few shots");
        s = small_setup(problem_, 1);
        s.observed[1].traces.resize(10);
        expect(s, "a truncated gather");
        s = small_setup(problem_, 1);
        s.stages.clear();
        expect(s, "no stages");
        s = small_setup(problem_, 1);
        s.objective.batch_shots = -1;
        expect(s, "negative batch");
        // A resume state of another run.
        InversionSetup a = small_setup(problem_, 1);
        a.stages = {{8.0, 1}};
        const auto r = run_inversion(a, nullptr, nullptr, {});
        s = small_setup(problem_, 1);
        s.stages = {{6.0, 2}};
        s.resume = r.state;
        expect(s, "resume state saved at another cut-off");
        s.stages = {{8.0, 2}};
        s.resume.erase("inversion.stage");
        expect(s, "resume state without its stage");
        s.resume = r.state;
        s.resume["optimizer.x"].pop_back();
        expect(s, "resume state of another grid");
    }

    void run_options_round_trip_through_the_project() {
        // What a resume needs besides the optimizer state: saved, then applied to a fresh setup.
        InversionSetup s = small_setup(problem_, 1);
        s.stages = {{4.0, 3}, {8.0, 5}};
        s.objective.batch_shots = 2;
        s.objective.shots_per_iteration = 3;
        s.objective.seed = 77;
        s.objective.preconditioner.smoothing_x_m = s.objective.preconditioner.smoothing_z_m = 35;
        s.objective.illumination = true;
        s.objective.preconditioner.illumination_epsilon = 0.002;
        s.optimizer.memory = 12;
        s.objective.mask = {40, 1510, 25};
        s.objective.misfit.window.min_offset_m = 10;
        s.objective.misfit.window.max_offset_m = 900;
        s.objective.misfit.window.end_taper_s = 0.05;
        s.objective.misfit.window.start_s = 0.02;
        s.objective.misfit.window.end_s = 0.4;
        s.objective.misfit.window.start_taper_s = 0.03;
        s.min_relative_decrease = 0.01;
        Project p;
        save_run_options(p, s);
        InversionSetup t = small_setup(problem_, 1);
        t.stages = {{4.0, 1}, {8.0, 1}};
        load_run_options(p, t);
        QCOMPARE(t.stages[0].iterations, 3);
        QCOMPARE(t.stages[1].iterations, 5);
        QCOMPARE(t.objective.batch_shots, 2);
        QCOMPARE(t.objective.shots_per_iteration, 3);
        QCOMPARE(t.objective.seed, std::uint64_t(77));
        QCOMPARE(t.objective.preconditioner.smoothing_z_m, 35.0);
        QVERIFY(t.objective.illumination);
        QCOMPARE(t.objective.preconditioner.illumination_epsilon, 0.002);
        QCOMPARE(t.optimizer.memory, 12);
        QCOMPARE(t.objective.mask.water_depth_m, 40.0);
        QCOMPARE(t.objective.mask.water_velocity_mps, 1510.0);
        QCOMPARE(t.objective.mask.source_radius_m, 25.0);
        QCOMPARE(t.objective.misfit.window.max_offset_m, 900.0);
        QCOMPARE(t.objective.misfit.window.end_taper_s, 0.05);
        QCOMPARE(t.min_relative_decrease, 0.01);
        QVERIFY(t.objective.misfit.window == s.objective.misfit.window);
        // Saving without the counts (the GUI's conditioning fields) keeps the ones saved.
        t.optimizer.memory = 4;
        t.stages = {{4.0, 9}, {8.0, 9}};
        save_run_options(p, t, /*stage_counts=*/false);
        load_run_options(p, t);
        QCOMPARE(t.stages[0].iterations, 3);
        QCOMPARE(t.optimizer.memory, 4);
        // A project without saved options leaves the setup alone; malformed ones are named.
        InversionSetup u = small_setup(problem_, 1);
        load_run_options(Project{}, u);
        QCOMPARE(u.optimizer.memory, OptimizerOptions{}.memory);
        Project bad = p;
        bad.metadata[run_options_key] = "{\"memory\": \"many\"}";
        QVERIFY_THROWS_EXCEPTION(ConfigError, load_run_options(bad, u));
        bad.metadata[run_options_key] = "{not json";
        QVERIFY_THROWS_EXCEPTION(ConfigError, load_run_options(bad, u));
        InversionSetup one_stage = small_setup(problem_, 1);
        one_stage.stages = {{8.0, 1}};
        QVERIFY_THROWS_EXCEPTION(ConfigError, load_run_options(p, one_stage)); // 2 counts for 1 stage
    }

  private:
    SmallInversion problem_;
    InversionResult resume_reference_;
    std::vector<int> shots_at_;
};

QTEST_APPLESS_MAIN(TestInversion)
#include "tst_inversion.moc"
