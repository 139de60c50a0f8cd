// The executor runs every schedule and codec through the real propagator and store: lossless choices give the
// store-all gradient bit for bit, lossy ZFP stays within a bound, budgets hold, disk scratch is cleaned up,
// and the executor's counts equal the performance model's replay of the same plan.
// One body for both ranks: built as core_tst_checkpointed_gradient (2D) and, with FWI_TEST_RANK=3, as
// core_tst_checkpointed_gradient_3d on a small 3D case (fewer schedule x codec pairs, so that it stays
// quick).
#include "fwi/checkpoint_store.hpp"
#include "fwi/events.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/schedules.hpp"
#include "fwi/simulation.hpp"
#include "test_setups.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <filesystem>

using namespace fwi;
using namespace fwi::test;

#ifndef FWI_TEST_RANK
#define FWI_TEST_RANK 2
#endif

namespace {

constexpr int kRank = FWI_TEST_RANK;
static_assert(kRank == 2 || kRank == 3);

struct Case {
    Model truth, start;
    Acquisition acq;
    PropagationSettings prop;
};

Case make_case() {
    Case c;
    if constexpr (kRank == 3) {
        // 16 x 18 x 20 cells of 10 m, order 4, PML 4; dt = 2 ms is two inner steps (CFL sub-stepping).
        const Grid grid(16, 18, 20, 10, 10, 10);
        c.truth = Model{grid, blob_model_3d(grid)};
        std::vector<Point> receivers = line_of_points(8, 10, 180, 30);
        for (std::size_t r = 0; r < receivers.size(); ++r)
            receivers[r].y_m = 40 + 12.5 * double(r);
        c.acq.shots.push_back({{70, 20, 90}, receivers});
        c.prop = settings(4, 15, 0.002, 80, 4);
    } else {
        c.truth = blob_model(40, 50, 10);
        c.acq.shots.push_back({{120, 20}, line_of_points(10, 20, 480, 30)});
        c.acq.shots.push_back({{380, 20}, line_of_points(10, 20, 480, 30)});
        c.prop = settings(4, 12, 0.002, 260, 8);
    }
    c.start = c.truth;
    for (auto& v : c.start.vp_mps)
        v = 1800 + (v - 1800) * 0.6f;
    return c;
}

/// The schedule x codec x sampling pairs the bit-exactness test runs. 2D: every schedule with every lossless
/// codec, the sampling interval with two codecs. 3D: every schedule uncompressed, every codec with Revolve,
/// and the sampling interval with a disk tier and a codec.
bool in_lossless_table(const std::string& schedule, const std::string& codec, int k) {
    if constexpr (kRank == 3)
        return (k == 1 && (codec == "none" || schedule == "revolve:4")) ||
               (k == 3 && codec == "lz4" && schedule == "multilevel:1,4");
    return k == 1 || codec == "none" || codec == "lz4";
}

bool bitwise_equal(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

class TestCheckpointedGradient : public QObject {
    Q_OBJECT
    Case c_ = make_case();
    std::unique_ptr<Simulation> sim_;
    std::vector<Gather> observed_;
    GradientResult reference_;    // store-all, no codec, sampling 1
    GradientResult reference_k3_; // store-all, no codec, sampling 3

    GradientResult run(const std::string& schedule, const std::string& codec, int k = 1,
                       std::uint64_t budget = 0, const std::string& scratch = {}) {
        GradientOptions o;
        o.settings.schedule = schedule;
        o.settings.compression = codec;
        o.settings.sampling_interval = k;
        o.settings.budget_bytes = budget;
        o.settings.scratch_dir = scratch;
        return compute_gradient(*sim_, c_.start, observed_, o);
    }

  private slots:
    void initTestCase() {
        sim_ = std::make_unique<Simulation>(c_.truth.grid, c_.acq, c_.prop, 3000, "cpu");
        sim_->set_model(c_.truth);
        observed_ = sim_->forward();
        reference_ = run("all", "none");
        reference_k3_ = run("all", "none", 3);
        QVERIFY(reference_.misfit > 0);
        QVERIFY(sim_->time().inner_nt >= 160);
        QCOMPARE(sim_->time().step_ratio, 2); // both ranks run with CFL sub-stepping
    }

    void lossless_schedules_and_codecs_are_bit_exact_data() {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<QString>("codec");
        QTest::addColumn<int>("k");
        for (const char* s : {"all", "uniform:3", "revolve:4", "revolve:2", "online:5", "multilevel:2,3",
                              "multilevel:1,4", "adaptive:2"})
            for (const char* z : {"none", "zstd", "lz4", "blosc", "zfp-reversible"})
                for (int k : {1, 3})
                    if (in_lossless_table(s, z, k))
                        QTest::newRow((std::string(s) + " " + z + " k=" + std::to_string(k)).c_str())
                            << QString(s) << QString(z) << k;
    }
    void lossless_schedules_and_codecs_are_bit_exact() {
        QFETCH(QString, schedule);
        QFETCH(QString, codec);
        QFETCH(int, k);
        QTemporaryDir scratch;
        const GradientResult r =
            run(schedule.toStdString(), codec.toStdString(), k, 0, scratch.path().toStdString());
        const GradientResult& ref = k == 1 ? reference_ : reference_k3_;
        QCOMPARE(r.misfit, ref.misfit);
        QVERIFY2(bitwise_equal(r.gradient, ref.gradient), "gradient differs from store-all");
        // The disk tier's private directory is gone once the run ends.
        QVERIFY(std::filesystem::is_empty(scratch.path().toStdString()));
    }

    // The executor keeps one forward and one adjoint state for all its shots and clears them between shots
    // (renew_state): the two-shot gradient is shot 0's plus shot 1's, each run alone on new states, bit for
    // bit, and shot 1's modelled data are its own alone, with a schedule that keeps states and one that
    // keeps snapshots.
    void later_shots_run_as_if_alone() {
        if constexpr (kRank == 3) QSKIP("the 3D case has one shot");
        for (const char* schedule : {"all", "revolve:4"}) {
            GradientOptions o;
            o.settings.schedule = schedule;
            const GradientResult both = compute_gradient(*sim_, c_.start, observed_, o);
            o.shots = {0};
            const GradientResult first = compute_gradient(*sim_, c_.start, observed_, o);
            o.shots = {1};
            const GradientResult second = compute_gradient(*sim_, c_.start, observed_, o);
            std::vector<float> sum(first.gradient.size());
            for (std::size_t i = 0; i < sum.size();
                 ++i) // the shot-ordered sum, from zero (gradient_engine.hpp)
                sum[i] = (0.0f + first.gradient[i]) + second.gradient[i];
            QVERIFY2(bitwise_equal(both.gradient, sum), schedule);
            QCOMPARE(both.misfit, first.misfit + second.misfit);
            QCOMPARE(both.modelled.size(), std::size_t(2));
            QVERIFY2(bitwise_equal(both.modelled[1].traces, second.modelled.at(0).traces), schedule);
        }
    }

    void executor_counts_match_the_model_replay_data() {
        QTest::addColumn<QString>("schedule");
        // adaptive:3 uncompressed: every state at its pessimistic size, so it runs its pessimistic plan.
        for (const char* s : {"all", "uniform:4", "revolve:3", "online:3", "multilevel:2,2", "adaptive:3"})
            QTest::newRow(s) << s;
    }
    void executor_counts_match_the_model_replay() {
        QFETCH(QString, schedule);
        GradientSettings s;
        s.schedule = schedule.toStdString();
        sim_->set_model(c_.start);
        const ResolvedPlan plan = resolve_plan(*sim_, s);
        const GradientResult r = run(s.schedule, "none");
        const PlanCounts& n = plan.prediction.counts;
        const std::int64_t shots = std::int64_t(c_.acq.shots.size());
        std::int64_t writes = 0, reads = 0;
        for (auto w : n.writes)
            writes += w;
        for (auto w : n.reads)
            reads += w;
        QCOMPARE(r.forward_steps, shots * (n.advance_steps + n.reverse_forward_steps));
        QCOMPARE(r.recompute_steps, r.forward_steps - shots * sim_->time().inner_nt);
        QCOMPARE(r.adjoint_steps, shots * sim_->time().inner_nt);
        QCOMPARE(r.checkpoint_writes, shots * writes);
        QCOMPARE(r.checkpoint_reads, shots * reads);
        QVERIFY(r.predicted_seconds > 0);
        // Uncompressed, the store holds exactly what the model predicts for tier 0.
        QCOMPARE(r.peak_bytes_per_tier.at(0), plan.prediction.peak_bytes.at(0));
    }

    void zfp_accuracy_error_is_bounded() {
        const GradientResult r = run("revolve:4", "zfp-accuracy:1e-6");
        const double e = relative_l2(r.gradient, reference_.gradient);
        qInfo("zfp-accuracy:1e-6 gradient relative error %.3e, ratio %.2f", e, r.compression_ratio);
        QVERIFY(e > 0); // really lossy
        QVERIFY(e < 2e-2);
        QVERIFY(r.compression_ratio > 1.5);
    }

    void gradient_error_grows_with_the_zfp_tolerance() {
        std::vector<double> errors;
        for (double tol : {1e-7, 1e-6, 1e-5, 1e-4, 1e-3}) {
            const GradientResult r =
                run("uniform:3", "zfp-accuracy:" + QString::number(tol, 'e', 0).toStdString());
            errors.push_back(relative_l2(r.gradient, reference_.gradient));
            qInfo("tolerance %.0e: gradient relative error %.3e, ratio %.2f", tol, errors.back(),
                  r.compression_ratio);
        }
        for (std::size_t i = 1; i < errors.size(); ++i)
            QVERIFY(errors[i] > errors[i - 1]);
    }

    void scratch_files_are_removed_after_cancel_and_error() {
        // Cancel once the disk tier holds something.
        struct CancelOnDiskStore : Observer {
            CancelToken* token = nullptr;
            bool saw_disk = false;
            void on_event(const Event& e) override {
                if (e.type == EventType::Store && e.tier == 1) {
                    saw_disk = true;
                    token->cancel();
                }
            }
        };
        QTemporaryDir scratch;
        CancelToken token;
        CancelOnDiskStore observer;
        observer.token = &token;
        GradientOptions o;
        o.settings.schedule = "multilevel:1,6";
        o.settings.compression = "lz4";
        o.settings.scratch_dir = scratch.path().toStdString();
        o.observer = &observer;
        o.cancel = &token;
        QVERIFY_THROWS_EXCEPTION(Cancelled, compute_gradient(*sim_, c_.start, observed_, o));
        QVERIFY(observer.saw_disk);
        QVERIFY(std::filesystem::is_empty(scratch.path().toStdString()));
        // A disk budget too small for the plan's disk states: the store refuses mid-run, files still go.
        const std::uint64_t snapshot = std::uint64_t(sim_->propagator().padded().cells()) * 4;
        o.observer = nullptr;
        o.cancel = nullptr;
        o.settings.compression = "zstd";
        o.settings.disk_budget_bytes = snapshot;
        QVERIFY_THROWS_EXCEPTION(BudgetExceeded, compute_gradient(*sim_, c_.start, observed_, o));
        QVERIFY(std::filesystem::is_empty(scratch.path().toStdString()));
    }

    void an_unwritable_scratch_directory_is_a_clear_error() {
        try {
            run("multilevel:1,6", "none", 1, 0, "/proc/no-such-scratch");
            QFAIL("an unwritable scratch directory was accepted");
        } catch (const ResourceError& e) {
            QVERIFY2(std::string(e.what()).find("/proc/no-such-scratch") != std::string::npos, e.what());
        }
    }

    void budget_is_never_exceeded_data() {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<QString>("codec");
        QTest::newRow("auto none") << "auto"
                                   << "none";
        QTest::newRow("auto zstd") << "auto"
                                   << "zstd";
        QTest::newRow("revolve zfp") << "revolve:3"
                                     << "zfp-accuracy:1e-5";
    }
    void budget_is_never_exceeded() {
        QFETCH(QString, schedule);
        QFETCH(QString, codec);
        const std::uint64_t snapshot = std::uint64_t(sim_->propagator().padded().cells()) * 4;
        const std::uint64_t budget = 12 * snapshot; // far below store-all's inner_nt snapshots
        const GradientResult r = run(schedule.toStdString(), codec.toStdString(), 1, budget);
        QVERIFY(r.peak_bytes_per_tier.at(0) <= budget);
        QVERIFY(r.peak_bytes_per_tier.at(0) > 0);
        if (codec == "none" || codec == "zstd") QVERIFY(bitwise_equal(r.gradient, reference_.gradient));
        qInfo("%s: ran %s, peak %llu of %llu bytes", qPrintable(schedule), r.schedule.c_str(),
              (unsigned long long)r.peak_bytes_per_tier[0], (unsigned long long)budget);
    }

    void adaptive_slots_use_the_memory_compression_frees_data() {
        QTest::addColumn<QString>("codec");
        QTest::newRow("zstd") << "zstd";
        QTest::newRow("lz4") << "lz4";
    }
    void adaptive_slots_use_the_memory_compression_frees() {
        QFETCH(QString, codec);
        const std::uint64_t snapshot = std::uint64_t(sim_->propagator().padded().cells()) * 4;
        const std::uint64_t budget = 12 * snapshot; // a few uncompressed states
        GradientSettings s;
        s.schedule = "adaptive";
        s.compression = codec.toStdString();
        s.budget_bytes = budget;
        const std::string fixed = "revolve:" + resolve_plan(*sim_, s).schedule.substr(9); // adaptive:S
        const GradientResult adaptive = run("adaptive", codec.toStdString(), 1, budget);
        const GradientResult revolve = run(fixed, codec.toStdString(), 1, budget);
        qInfo("%s: %s recomputed %lld steps and wrote %lld items, %s %lld and %lld; peak %llu of %llu bytes, "
              "ratio %.2f",
              qPrintable(codec), adaptive.schedule.c_str(), (long long)adaptive.recompute_steps,
              (long long)adaptive.checkpoint_writes, fixed.c_str(), (long long)revolve.recompute_steps,
              (long long)revolve.checkpoint_writes, (unsigned long long)adaptive.peak_bytes_per_tier.at(0),
              (unsigned long long)budget, adaptive.compression_ratio);
        QVERIFY(bitwise_equal(adaptive.gradient, reference_.gradient));
        QCOMPARE(adaptive.misfit, reference_.misfit);
        QVERIFY(adaptive.peak_bytes_per_tier.at(0) <= budget);
        // The extra slots go where the calibrated prices say they pay (tst_adaptive_schedule checks the
        // priced cost exactly): fewer recomputed steps, or fewer (costly) stores than the fixed slots.
        QVERIFY(adaptive.recompute_steps < revolve.recompute_steps ||
                adaptive.checkpoint_writes < revolve.checkpoint_writes);
        // Without a budget, plain "adaptive" has nothing to size slots with.
        QVERIFY_THROWS_EXCEPTION(ConfigError, run("adaptive", codec.toStdString()));
    }

    void impossible_budgets_are_refused() {
        const std::uint64_t snapshot = std::uint64_t(sim_->propagator().padded().cells()) * 4;
        // Uncompressed: refused before the run, naming the need and the budget.
        try {
            run("all", "none", 1, 20 * snapshot);
            QFAIL("store-all in 20 snapshots' worth of memory was accepted");
        } catch (const ResourceError& e) {
            QVERIFY2(std::string(e.what()).find("budget") != std::string::npos, e.what());
        }
        // Less than one state: nothing fits, auto says so.
        QVERIFY_THROWS_EXCEPTION(ResourceError, run("auto", "none", 1, snapshot / 2));
        // Compressed: refused by the store at the item that would not fit (a ResourceError too).
        QVERIFY_THROWS_EXCEPTION(BudgetExceeded, run("all", "zstd", 1, 4 * snapshot));
    }

    void bad_specs_are_config_errors() {
        QVERIFY_THROWS_EXCEPTION(ConfigError, run("revolve:0", "none"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, run("sometimes", "none"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, run("all", "gzip"));
    }
};

QTEST_GUILESS_MAIN(TestCheckpointedGradient)
#include "tst_checkpointed_gradient.moc"
