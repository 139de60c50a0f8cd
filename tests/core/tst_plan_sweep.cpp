// The memory sweep of the performance model (Kukreja et al., Fig. 15): a free codec of ratio 1 gives exactly
// Revolve alone, more memory never slows Revolve alone (free storage), the top budget stores every state, a
// hand-computed point from the binomial Revolve cost t(l, s) = r l - C(s + r, s + 1), every plan fits its
// budget, and clear errors.
#include "fwi/error.hpp"
#include "fwi/plan_sweep.hpp"
#include "fwi/schedules.hpp"

#include <QtTest>

using namespace fwi;

namespace {

/// Unit steps, free storage, 1000-byte states and 1-byte snapshots: predicted seconds count steps.
StepCosts unit_costs() {
    StepCosts c;
    c.state_bytes = 1000;
    c.snapshot_bytes = 1;
    return c;
}

SweepRequest request(std::int64_t steps, std::vector<CodecEstimate> codecs) {
    SweepRequest r;
    r.steps = steps;
    r.costs = unit_costs();
    r.uncompressed = CodecEstimate{"none", 1, 0, 0, 0, 0};
    r.codecs = std::move(codecs);
    return r;
}

} // namespace

class TestPlanSweep : public QObject {
    Q_OBJECT
  private slots:
    // Eq. 3 with F = 1 and t_c = t_d = 0 is Revolve alone: the same slots and the same time at every budget.
    void free_codec_of_ratio_one_gives_speedup_one() {
        const PlanSweep s = plan_sweep(request(300, {CodecEstimate{"identity", 1, 0, 0, 0, 0}}));
        QVERIFY(s.budgets_bytes.size() >= 10);
        for (std::size_t i = 0; i < s.budgets_bytes.size(); ++i) {
            const SweepCodecPoint& p = s.curves[0].points[i];
            QCOMPARE(p.revolve.ram_slots, s.revolve_alone[i].ram_slots);
            QCOMPARE(p.speedup, 1.0);
        }
    }

    void revolve_alone_never_slows_with_more_memory() {
        const PlanSweep s = plan_sweep(request(1000, {CodecEstimate{"zfp-rate:16", 2, 0.5, 0.5, 0.5, 0.5}}));
        for (std::size_t i = 1; i < s.budgets_bytes.size(); ++i) {
            QVERIFY(s.budgets_bytes[i] > s.budgets_bytes[i - 1]);
            QVERIFY(s.revolve_alone[i].ram_slots >= s.revolve_alone[i - 1].ram_slots);
            QVERIFY(s.revolve_alone[i].recompute_steps <= s.revolve_alone[i - 1].recompute_steps);
            QVERIFY(s.revolve_alone[i].predicted_s <= s.revolve_alone[i - 1].predicted_s);
        }
    }

    // The range runs from two checkpoints to every state stored, where Revolve advances no step twice: its
    // only recomputation is each Reverse's own forward step (l - 1 in all, the binomial minimum t(l, l-1)).
    void range_runs_from_two_checkpoints_to_every_state() {
        const std::int64_t l = 400;
        const PlanSweep s = plan_sweep(request(l, {CodecEstimate{"zstd", 1.3, 0.1, 0.1, 0.1, 0.1}}));
        QCOMPARE(s.revolve_alone.front().ram_slots, std::int64_t(2));
        QCOMPARE(s.revolve_alone.front().recompute_steps, revolve_advance_steps(l, 2));
        QVERIFY(s.revolve_alone.front().recompute_steps > 10 * l);
        QVERIFY(s.revolve_alone.back().ram_slots >= l - 1);
        QCOMPARE(s.revolve_alone.back().recompute_steps, l - 1);
        QCOMPARE(s.revolve_alone.back().predicted_s,
                 double(l + (l - 1) + l)); // forward + recompute + adjoint
        for (const SweepPlan& p : s.revolve_alone) {
            QVERIFY(p.fits_budget);
            QVERIFY(p.peak_bytes <= s.budgets_bytes.back());
        }
    }

    // l = 10 steps, 2400 bytes: Revolve alone holds 2 states (1000 B), ratio 2 holds 4 (500 B).
    // r(10, 2) = 3 (C(5, 2) = 10 >= 10), t = 3*10 - C(5, 3) = 20; r(10, 4) = 2 (C(6, 4) = 15), t = 20 - C(6,
    // 5) = 14. T = t + l (each Reverse's forward step) + l (adjoint): 40 against 34.
    void hand_computed_point() {
        SweepRequest r = request(10, {CodecEstimate{"half", 2, 0, 0, 0, 0}});
        r.budgets_bytes = {2400};
        const PlanSweep s = plan_sweep(r);
        QCOMPARE(s.revolve_alone[0].ram_slots, std::int64_t(2));
        QCOMPARE(s.revolve_alone[0].predicted_s, 40.0);
        const SweepCodecPoint& p = s.curves[0].points[0];
        QCOMPARE(p.revolve.ram_slots, std::int64_t(4));
        QCOMPARE(p.revolve.predicted_s, 34.0);
        QCOMPARE(p.speedup, 40.0 / 34.0);
    }

    // Compression costs time per item: with cheap steps and an expensive codec, compression loses.
    void expensive_codec_is_slower() {
        SweepRequest r = request(200, {CodecEstimate{"slow", 4, 50, 50, 50, 50}});
        r.budgets_bytes = {5000};
        const SweepCodecPoint p = plan_sweep(r).curves[0].points[0];
        QVERIFY(p.speedup < 1);
    }

    void plans_that_fit_only_at_the_probed_ratio_are_marked() {
        // zfp-rate:8 guarantees 4x: priced at 4 its plans surely fit. zstd guarantees nothing: priced at 3
        // its plans fit only if the run's data compress as well.
        const PlanSweep s = plan_sweep(request(200, {CodecEstimate{"zfp-rate:8", 4, 0.2, 0.2, 0.2, 0.2},
                                                     CodecEstimate{"zstd", 3, 0.2, 0.2, 0.2, 0.2}}));
        for (const SweepCodecPoint& p : s.curves[0].points) {
            QVERIFY(!p.revolve.fits_only_at_probed_ratio);
            QVERIFY(!p.best.fits_only_at_probed_ratio);
        }
        // zstd's plans are marked where they fit and would not uncompressed; the top budgets fit even that.
        const auto uncompressed_peak = [&](const SweepPlan& plan) {
            StepCosts c = unit_costs();
            CodecEstimate{"zstd", 3, 0.2, 0.2, 0.2, 0.2}.price(c);
            return predict(make_schedule(plan.schedule)->plan(s.steps), s.steps, c).peak_bytes[0];
        };
        int marked = 0, unmarked = 0;
        for (std::size_t i = 0; i < s.budgets_bytes.size(); ++i) {
            const SweepCodecPoint& p = s.curves[1].points[i];
            for (const SweepPlan* plan : {&p.revolve, &p.best}) {
                if (!plan->fits_budget) continue;
                QCOMPARE(plan->fits_only_at_probed_ratio, uncompressed_peak(*plan) > s.budgets_bytes[i]);
                ++(plan->fits_only_at_probed_ratio ? marked : unmarked);
            }
        }
        QVERIFY(marked > 0 && unmarked > 0);
    }

    void best_plan_is_never_slower_than_compressed_revolve() {
        const PlanSweep s = plan_sweep(request(300, {CodecEstimate{"zfp-rate:8", 4, 0.2, 0.2, 0.2, 0.2}}));
        for (const SweepCodecPoint& p : s.curves[0].points) {
            QVERIFY(p.revolve.fits_budget);
            QVERIFY(p.best.fits_budget);
            QVERIFY(p.best.predicted_s <= p.revolve.predicted_s);
            QVERIFY(p.best_speedup >= p.speedup);
        }
    }

    void budgets_are_log_spaced() {
        const std::vector<std::uint64_t> b = sweep_budgets(500, uncompressed_costs(unit_costs(), {}), 12);
        QCOMPARE(b.size(), std::size_t(12));
        const double first = double(b[1]) / double(b[0]), last = double(b[11]) / double(b[10]);
        QVERIFY(std::abs(first - last) < 1e-2 * first);
    }

    void errors() {
        SweepRequest r = request(10, {});
        QVERIFY_THROWS_EXCEPTION(ConfigError, plan_sweep(r));
        r.codecs = {CodecEstimate{"zstd", 1.2, 0, 0, 0, 0}};
        r.budgets_bytes = {0, 5000};
        QVERIFY_THROWS_EXCEPTION(ConfigError, plan_sweep(r));
        r.budgets_bytes = {5000};
        r.codecs = {CodecEstimate{"bad", 0.5, 0, 0, 0, 0}};
        QVERIFY_THROWS_EXCEPTION(ConfigError, plan_sweep(r));
        r.steps = 0;
        QVERIFY_THROWS_EXCEPTION(ConfigError, plan_sweep(r));
    }
};

QTEST_APPLESS_MAIN(TestPlanSweep)
#include "tst_plan_sweep.moc"
