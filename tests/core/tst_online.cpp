// Online checkpointing: the step count is learnt only when the forward run stops. Within l <= C(s+2, 2) the
// plan is as cheap as offline Revolve (Advance steps == t(l, s) exactly) wherever the run stops; beyond it
// the greedy thinning stays valid and close to the optimum. Also the protocol: order checks, reset, the
// plan_online adapter.
#include "fwi/error.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"

#include <QtTest>
#include <algorithm>
#include <cstdint>
#include <vector>

using namespace fwi;

namespace {

/// Appends Advance{n, n+1}, merged with a preceding Advance ending at n (as plan_online does).
void append_step(std::vector<Action>& plan, std::int64_t n) {
    if (!plan.empty() && plan.back().type == ActionType::Advance && plan.back().to == n)
        ++plan.back().to;
    else
        plan.push_back({ActionType::Advance, n, n + 1, -1, 0});
}

struct SweepResult {
    std::int64_t optimal_limit = 0;
    double worst_ratio_beyond = 1; ///< max over l > optimal_limit of advance steps / t(l, s)
};

/// Runs one first sweep of online:s up to l_max, and at every l (up to `every_until`, then every `stride`-th)
/// stops a copy of the schedule there: the plan for l is the sweep so far + that copy's reversal. Checks each
/// plan; returns the quality beyond the optimal region.
SweepResult sweep(std::int64_t s, std::int64_t l_max, std::int64_t every_until, std::int64_t stride) {
    OnlineRevolveSchedule schedule(s);
    SweepResult result;
    result.optimal_limit = schedule.optimal_limit();
    std::vector<Action> prefix;
    for (std::int64_t l = 1; l <= l_max; ++l) {
        if (l > every_until && l % stride != 0 && l != l_max) {
            for (const Action& a : schedule.at_forward_state(l - 1))
                prefix.push_back(a);
            append_step(prefix, l - 1);
            continue;
        }
        OnlineRevolveSchedule stopped = schedule;
        std::vector<Action> plan = prefix;
        const auto rest = stopped.reversal(l);
        plan.insert(plan.end(), rest.begin(), rest.end());
        const PlanCounts c = simulate_plan(plan, l, {int(s)}); // throws PlanError if invalid
        if (c.peak_slots[0] > s) throw Error("more slots than allowed");
        if (c.reverse_forward_steps != l) throw Error("a Reverse without its own forward step");
        const std::int64_t optimum = revolve_advance_steps(l, s);
        if (l <= result.optimal_limit && c.advance_steps != optimum)
            throw Error("online:" + std::to_string(s) + " at l = " + std::to_string(l) + ": " +
                        std::to_string(c.advance_steps) + " advance steps, optimum " +
                        std::to_string(optimum));
        if (l > result.optimal_limit)
            result.worst_ratio_beyond =
                std::max(result.worst_ratio_beyond, double(c.advance_steps) / double(optimum));
        // Continue the sweep: state l-1 was not the last one after all.
        for (const Action& a : schedule.at_forward_state(l - 1)) {
            if (a.type != ActionType::Store && a.type != ActionType::Free)
                throw Error("at_forward_state returned " + to_string(a));
            prefix.push_back(a);
        }
        append_step(prefix, l - 1);
    }
    return result;
}

} // namespace

class TestOnline : public QObject {
    Q_OBJECT
  private slots:
    void optimal_up_to_the_limit_and_valid_beyond() {
        for (std::int64_t s = 1; s <= 12; ++s) {
            const std::int64_t limit = (s + 2) * (s + 1) / 2;
            // Every l up to the limit + 300, then every 7th up to 2000 (the sweep itself visits every state).
            const std::int64_t l_max = 2000;
            try {
                const SweepResult r = sweep(s, l_max, limit + 300, 7);
                QCOMPARE(r.optimal_limit, limit);
                qInfo("online:%lld: optimal for l <= %lld; beyond, up to l = %lld, at most %.3f x t(l, s)",
                      (long long)s, (long long)limit, (long long)l_max, r.worst_ratio_beyond);
                QVERIFY(r.worst_ratio_beyond <= 1.2);
            } catch (const Error& e) {
                QFAIL(e.what());
            }
        }
    }

    void large_counts_stay_valid() {
        for (const auto& [s, l] :
             std::vector<std::pair<std::int64_t, std::int64_t>>{{12, 2000}, {3, 2000}, {30, 5000}}) {
            OnlineAsOfflineSchedule schedule(s);
            const PlanCounts c = simulate_plan(schedule.plan(l), l, {int(s)});
            QVERIFY(c.peak_slots[0] <= s);
            QVERIFY(double(c.advance_steps) <= 1.2 * double(revolve_advance_steps(l, s)));
        }
    }

    void adapter_matches_the_protocol() {
        OnlineRevolveSchedule online(4);
        const auto plan = plan_online(online, 37);
        // By hand: the same calls the executor would make.
        OnlineRevolveSchedule by_hand(4);
        std::vector<Action> expected;
        for (std::int64_t n = 0; n + 1 < 37; ++n) {
            for (const Action& a : by_hand.at_forward_state(n))
                expected.push_back(a);
            append_step(expected, n);
        }
        for (const Action& a : by_hand.reversal(37))
            expected.push_back(a);
        QCOMPARE(plan, expected);
        // plan_online resets, so running it again gives the same plan; so does the offline wrapper.
        QCOMPARE(plan_online(online, 37), plan);
        QCOMPARE(OnlineAsOfflineSchedule(4).plan(37), plan);
        QVERIFY(plan_online(online, 0).empty());
        QCOMPARE(plan_online(online, 1), (std::vector<Action>{{ActionType::Reverse, 0, 0, -1, 0}}));
    }

    void first_sweep_fills_then_replaces() {
        OnlineRevolveSchedule online(3);
        // States 0, 1, 2 fill the slots; 3 is skipped; 4 replaces 2 and 5 replaces 1 (the staircase 0, 4, 7
        // follows).
        QCOMPARE(online.at_forward_state(0), (std::vector<Action>{{ActionType::Store, 0, 0, 0, 0}}));
        QCOMPARE(online.at_forward_state(1), (std::vector<Action>{{ActionType::Store, 1, 0, 1, 0}}));
        QCOMPARE(online.at_forward_state(2), (std::vector<Action>{{ActionType::Store, 2, 0, 2, 0}}));
        QVERIFY(online.at_forward_state(3).empty());
        QCOMPARE(online.at_forward_state(4),
                 (std::vector<Action>{{ActionType::Free, 0, 0, 2, 0}, {ActionType::Store, 4, 0, 2, 0}}));
        QCOMPARE(online.at_forward_state(5),
                 (std::vector<Action>{{ActionType::Free, 0, 0, 1, 0}, {ActionType::Store, 5, 0, 1, 0}}));
    }

    void protocol_errors() {
        OnlineRevolveSchedule online(2);
        QVERIFY_THROWS_EXCEPTION(Error, online.at_forward_state(1)); // must start at 0
        online.at_forward_state(0);
        online.at_forward_state(1);
        QVERIFY_THROWS_EXCEPTION(Error, online.at_forward_state(1)); // repeated
        QVERIFY_THROWS_EXCEPTION(Error, online.reversal(7));         // does not follow state 1
        online.reversal(3);
        QVERIFY_THROWS_EXCEPTION(Error, online.reversal(3));         // twice
        QVERIFY_THROWS_EXCEPTION(Error, online.at_forward_state(2)); // after the reversal
        online.reset();
        QCOMPARE(online.at_forward_state(0).size(), std::size_t(1));
        QVERIFY_THROWS_EXCEPTION(ConfigError, OnlineRevolveSchedule(0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, plan_online(online, -1));
    }

    void lenient_when_the_last_state_was_offered() {
        // An executor that called at_forward_state(l-1) before learning it was the last still gets a valid
        // plan.
        OnlineRevolveSchedule online(3);
        std::vector<Action> plan;
        for (std::int64_t n = 0; n < 12; ++n) {
            for (const Action& a : online.at_forward_state(n))
                plan.push_back(a);
            if (n < 11) append_step(plan, n);
        }
        for (const Action& a : online.reversal(12))
            plan.push_back(a);
        const PlanCounts c = simulate_plan(plan, 12, {3});
        QCOMPARE(c.reverse_steps, std::int64_t(12));
    }

    void factory() {
        auto online = make_online_schedule("online:5");
        QCOMPARE(online->name(), std::string("online:5"));
        QCOMPARE(make_schedule("online:5")->name(), std::string("online:5"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_online_schedule("revolve:5"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_online_schedule("online"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_online_schedule("online:x"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_online_schedule("online:0"));
    }
};

QTEST_APPLESS_MAIN(TestOnline)
#include "tst_online.moc"
