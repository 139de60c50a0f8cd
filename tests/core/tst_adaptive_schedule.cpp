// The adaptive Revolve (slots that grow as compressed sizes arrive), replayed on given state sizes without
// wavefields: every plan is valid and never holds more bytes than its budget, whatever the sizes; with every
// state at the pessimistic size it is revolve:floor(B/P) action for action; smaller states recompute strictly
// fewer steps, and never more than the fixed pessimistic slots. Also the protocol and the factory.
#include "fwi/error.hpp"
#include "fwi/performance_model.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"

#include <QtTest>
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace fwi;

namespace {

constexpr std::uint64_t kState = 1000; // the pessimistic size P of one stored state

/// Replays and checks what every adaptive plan must satisfy; returns the plan's counts.
PlanCounts checked(std::uint64_t budget, std::int64_t steps, const std::vector<std::uint64_t>& sizes) {
    AdaptiveRevolveSchedule schedule(budget, kState);
    const AdaptiveReplay r = replay_adaptive(schedule, steps, sizes);
    const PlanCounts c = simulate_plan(r.plan, steps); // throws PlanError if invalid
    if (r.peak_held_bytes > budget)
        throw Error("held " + std::to_string(r.peak_held_bytes) + " bytes of a " + std::to_string(budget) +
                    "-byte budget");
    if (steps >= 1 && c.reverse_forward_steps != steps) throw Error("a Reverse without its own forward step");
    return c;
}

/// Forward steps computed more than once (every Reverse runs its own forward step; l are first computations).
std::int64_t recompute(const PlanCounts& c, std::int64_t steps) {
    return c.advance_steps + c.reverse_forward_steps - steps;
}

} // namespace

class TestAdaptiveSchedule : public QObject {
    Q_OBJECT

  private slots:
    void pessimistic_sizes_give_revolve_exactly() {
        for (std::int64_t nslots = 1; nslots <= 12; ++nslots)
            for (std::uint64_t spare : {std::uint64_t(0), kState / 2, kState - 1})
                for (std::int64_t l = 0; l <= 160; ++l) {
                    const std::uint64_t budget = std::uint64_t(nslots) * kState + spare;
                    AdaptiveRevolveSchedule schedule(budget, kState);
                    QCOMPARE(schedule.initial_slots(), nslots);
                    const auto plan =
                        replay_adaptive(schedule, l, std::vector<std::uint64_t>(std::size_t(l), kState)).plan;
                    if (plan != RevolveSchedule(nslots).plan(l))
                        QFAIL(qPrintable("l = " + QString::number(l) + ", S = " + QString::number(nslots)));
                    QVERIFY(schedule.plan(l) == plan); // the offline (pessimistic) plan is the same
                }
    }

    void plans_are_valid_and_within_budget_for_random_sizes() {
        std::mt19937_64 rng(16);
        int runs = 0;
        for (std::int64_t nslots : {1, 2, 3, 5, 8, 20})
            for (std::int64_t l : {1, 2, 3, 7, 40, 300, 1200}) {
                for (int trial = 0; trial < 12; ++trial) {
                    // Sizes from "everything compresses" to "nothing does", sometimes growing with the step
                    // as a wavefield fills the grid.
                    const std::uint64_t low = 1 + rng() % kState;
                    std::vector<std::uint64_t> sizes(static_cast<std::size_t>(l));
                    for (std::int64_t n = 0; n < l; ++n) {
                        const std::uint64_t random = low + rng() % (kState - low + 1);
                        sizes[std::size_t(n)] =
                            trial % 3 == 0
                                ? std::min(kState, 1 + std::uint64_t(n) * kState / std::uint64_t(l))
                                : random;
                    }
                    const std::uint64_t budget = std::uint64_t(nslots) * kState + rng() % kState;
                    const PlanCounts c = checked(budget, l, sizes);
                    // Never more recomputation than the fixed pessimistic slots.
                    if (l >= 1)
                        QVERIFY2(
                            c.advance_steps <= revolve_advance_steps(l, nslots),
                            qPrintable("l = " + QString::number(l) + ", S = " + QString::number(nslots)));
                    ++runs;
                }
            }
        QCOMPARE(runs, 6 * 7 * 12);
    }

    void smaller_states_recompute_strictly_fewer_steps_data() {
        QTest::addColumn<qint64>("steps");
        QTest::addColumn<qint64>("nslots");
        QTest::addColumn<int>("ratio");
        for (qint64 l : {100, 1000, 3003})
            for (qint64 s : {2, 5, 10})
                for (int f : {2, 4, 10})
                    QTest::addRow("l=%lld S=%lld ratio=%d", l, s, f) << l << s << f;
    }
    void smaller_states_recompute_strictly_fewer_steps() {
        QFETCH(qint64, steps);
        QFETCH(qint64, nslots);
        QFETCH(int, ratio);
        const std::uint64_t budget = std::uint64_t(nslots) * kState;
        const std::vector<std::uint64_t> sizes(std::size_t(steps), kState / std::uint64_t(ratio));
        const std::int64_t adaptive = recompute(checked(budget, steps, sizes), steps);
        const std::int64_t fixed = revolve_advance_steps(steps, nslots);
        // The ideal: Revolve with the nslots the real sizes would have given up front.
        const std::int64_t ideal_slots = nslots * ratio;
        const std::int64_t ideal = revolve_advance_steps(steps, ideal_slots);
        qInfo("recomputed steps: fixed %lld, adaptive %lld, ideal %lld", (long long)fixed,
              (long long)adaptive, (long long)ideal);
        QVERIFY(adaptive < fixed);
        QVERIFY(adaptive >= ideal); // the ideal Revolve is optimal for its (larger) slot count
    }

    void protocol() {
        AdaptiveRevolveSchedule schedule(3 * kState, kState);
        QVERIFY_THROWS_EXCEPTION(Error, schedule.next(0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, schedule.reset(-1));
        schedule.reset(0);
        QVERIFY(schedule.next(0).empty());
        schedule.reset(1);
        const std::vector<Action> only{{ActionType::Reverse, 0, 0, -1, 0}};
        QCOMPARE(schedule.next(0), only);
        QVERIFY(schedule.next(0).empty());
        // The first batch stores state 0 alone: the root range waits for its real size.
        schedule.reset(10);
        const auto first = schedule.next(0);
        QCOMPARE(first.size(), std::size_t(1));
        QCOMPARE(first[0].type, ActionType::Store);
        QCOMPARE(first[0].from, std::int64_t(0));
        // Held bytes at or over the budget leave one slot: no further store.
        QCOMPARE(schedule.slots_for(3 * kState), std::int64_t(1));
        QCOMPARE(schedule.slots_for(10 * kState), std::int64_t(1));
        QCOMPARE(schedule.slots_for(kState / 2), std::int64_t(3));
        QVERIFY_THROWS_EXCEPTION(ConfigError, AdaptiveRevolveSchedule(kState - 1, kState));
        QVERIFY_THROWS_EXCEPTION(ConfigError, AdaptiveRevolveSchedule(kState, 0));
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 replay_adaptive(schedule, 5, std::vector<std::uint64_t>(4, kState)));
    }

    void factory() {
        StepCosts costs;
        costs.state_bytes = 4000;
        costs.compression_ratio = 2; // a guaranteed ratio (zfp-rate:16): nslots of 2000 bytes
        QVERIFY(is_adaptive_spec("adaptive"));
        QVERIFY(is_adaptive_spec("adaptive:4"));
        QVERIFY(!is_adaptive_spec("adaptivex"));
        QCOMPARE(make_schedule("adaptive:4", costs)->name(), std::string("adaptive:4"));
        const auto from_budget = make_adaptive_schedule("adaptive", costs, 9000);
        QCOMPARE(from_budget->budget_bytes(), std::uint64_t(9000));
        QCOMPARE(from_budget->state_bytes(), std::uint64_t(2000));
        QCOMPARE(from_budget->name(), std::string("adaptive:4"));
        QCOMPARE(make_adaptive_schedule("adaptive:3", costs, 0)->budget_bytes(), std::uint64_t(6000));
        for (const char* bad : {"adaptive", "adaptive:0", "adaptive:x", "adaptive:"})
            QVERIFY_THROWS_EXCEPTION(ConfigError, make_schedule(bad, costs));
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_adaptive_schedule("adaptive", costs, 1999));
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_adaptive_schedule("revolve:3", costs, 9000));
    }
};

QTEST_APPLESS_MAIN(TestAdaptiveSchedule)
#include "tst_adaptive_schedule.moc"
