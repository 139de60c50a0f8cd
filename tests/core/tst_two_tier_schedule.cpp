// The exact two-tier (RAM + disk) schedule: on every small instance (steps, RAM slots, disk slots, write/read
// costs) its cost equals a brute-force shortest path over ALL plans of the action model (Dijkstra over
// states: current state, next step to reverse, which tiers hold each step's checkpoint), exactly - integer
// costs make every sum exact. Its plan is valid, stays within its slots and the performance model predicts
// its cost.
#include "fwi/performance_model.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"
#include "runtime/idle_cores.hpp"
#include "schedule/two_tier_optimum.hpp"

#include <QtTest>
#include <omp.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <queue>
#include <tuple>
#include <vector>

using namespace fwi;

namespace {

StepCosts costs_of(double w_ram, double r_ram, double w_disk, double r_disk) {
    StepCosts c;
    c.forward_step_s = 1;
    c.adjoint_step_s = 2;
    c.tiers = {TierCosts{w_ram, r_ram, 0, 0}, TierCosts{w_disk, r_disk, 0, 0}};
    return c;
}

// Minimal cost of reversing l steps with R RAM and D disk slots, over every sequence of Advance(1 step),
// Store(current, tier), Restore(any checkpoint), Free, Reverse(k, needs state k current). A step may be held
// in both tiers at once. The common l (f + adjoint) term is added at the end.
double brute_force(int l, int R, int D, double f, const double w[2], const double rd[2], double adjoint) {
    struct S {
        int cur, k;
        std::vector<int> mask; // bit 0 RAM, bit 1 disk
        bool operator<(const S& o) const { return std::tie(cur, k, mask) < std::tie(o.cur, o.k, o.mask); }
    };
    std::map<S, double> dist;
    using Q = std::pair<double, S>;
    auto cmp = [](const Q& a, const Q& b) { return a.first > b.first; };
    std::priority_queue<Q, std::vector<Q>, decltype(cmp)> q(cmp);
    const S start{0, l - 1, std::vector<int>(static_cast<std::size_t>(l), 0)};
    dist[start] = 0;
    q.push({0, start});
    auto relax = [&](const S& s, double c) {
        auto it = dist.find(s);
        if (it == dist.end() || c < it->second) {
            dist[s] = c;
            q.push({c, s});
        }
    };
    while (!q.empty()) {
        auto [c, s] = q.top();
        q.pop();
        if (c > dist[s]) continue;
        if (s.k < 0) return c + l * (f + adjoint);
        int used[2] = {0, 0};
        for (int m : s.mask) {
            used[0] += m & 1;
            used[1] += (m >> 1) & 1;
        }
        const int cap[2] = {R, D};
        if (s.cur >= 0 && s.cur < s.k) relax({s.cur + 1, s.k, s.mask}, c + f);
        if (s.cur == s.k) relax({-1, s.k - 1, s.mask}, c);
        for (int t = 0; t < 2; ++t)
            if (s.cur >= 0 && !(s.mask[s.cur] & (1 << t)) && used[t] < cap[t]) {
                S n = s;
                n.mask[s.cur] |= 1 << t;
                relax(n, c + w[t]);
            }
        for (int p = 0; p < l; ++p)
            for (int t = 0; t < 2; ++t)
                if (s.mask[p] & (1 << t)) {
                    if (p <= s.k) relax({p, s.k, s.mask}, c + rd[t]);
                    S n = s;
                    n.mask[p] &= ~(1 << t);
                    relax(n, c);
                }
    }
    return -1;
}

} // namespace

class TestTwoTierSchedule : public QObject {
    Q_OBJECT
  private slots:
    void equals_brute_force_on_all_small_instances() {
        const std::vector<std::array<double, 4>> cost_sets{{0, 0, 1, 1}, {0, 0, 3, 2}, {1, 0, 0, 5},
                                                           {0, 1, 2, 0}, {1, 1, 7, 4}, {0, 0, 0, 0}};
        int checked = 0, used_disk_and_ram = 0;
        for (const auto& cs : cost_sets)
            for (int l = 1; l <= 6; ++l)
                for (int R = 1; R <= 3; ++R)
                    for (int D = 0; D <= 3; ++D) {
                        const StepCosts costs = costs_of(cs[0], cs[1], cs[2], cs[3]);
                        const double w[2] = {cs[0], cs[2]}, rd[2] = {cs[1], cs[3]};
                        const double expect = brute_force(l, R, D, 1, w, rd, 2);
                        const detail::TwoTierOptimum opt(l, R, D, costs);
                        QCOMPARE(opt.predicted_s(), expect);
                        const auto plan = opt.plan();
                        const PlanCounts c = simulate_plan(plan, l, {R, D});
                        QVERIFY(c.peak_slots[0] <= R);
                        QVERIFY(c.peak_slots[1] <= D);
                        QCOMPARE(predict(plan, l, costs).total_s, expect);
                        const MultiLevelSchedule ml(R, D, costs);
                        QCOMPARE(predict(ml.plan(l), l, costs).total_s, expect);
                        used_disk_and_ram += c.writes[0] >= 1 && c.writes[1] >= 1;
                        ++checked;
                    }
        QCOMPARE(checked, 6 * 6 * 3 * 4);
        QVERIFY(used_disk_and_ram > 0); // the instances do exercise mixed plans
    }

    void unbounded_disk_is_the_optimum_for_any_d_its_plan_fits() {
        // With the disk slots left out of the programme: on every small instance its cost equals the brute
        // force with as many disk slots as steps, and the bounded programme's for every D at least its plan's
        // peak on disk (and no less for a smaller D).
        const std::vector<std::array<double, 4>> cost_sets{{0, 0, 1, 1}, {0, 0, 3, 2}, {1, 0, 0, 5},
                                                           {0, 1, 2, 0}, {1, 1, 7, 4}, {0, 0, 0, 0}};
        int checked = 0;
        for (const auto& cs : cost_sets)
            for (int l = 1; l <= 6; ++l)
                for (int R = 1; R <= 3; ++R) {
                    const StepCosts costs = costs_of(cs[0], cs[1], cs[2], cs[3]);
                    const double w[2] = {cs[0], cs[2]}, rd[2] = {cs[1], cs[3]};
                    const detail::TwoTierOptimum opt(l, R, detail::TwoTierOptimum::UnboundedDisk{}, costs);
                    QCOMPARE(opt.predicted_s(), brute_force(l, R, l, 1, w, rd, 2));
                    const auto plan = opt.plan();
                    const PlanCounts c = simulate_plan(plan, l, {R, l});
                    QVERIFY(c.peak_slots[0] <= R);
                    QCOMPARE(predict(plan, l, costs).total_s, opt.predicted_s());
                    for (int D = 0; D <= l; ++D) {
                        const double bounded = detail::TwoTierOptimum(l, R, D, costs).predicted_s();
                        if (D >= c.peak_slots[1])
                            QCOMPARE(bounded, opt.predicted_s());
                        else
                            QVERIFY(bounded >= opt.predicted_s());
                    }
                    ++checked;
                }
        QCOMPARE(checked, 6 * 6 * 3);
        // Longer chains, where brute force cannot go: the bounded programme with D = l agrees.
        const StepCosts costs = costs_of(0.25, 0.25, 3, 2);
        for (std::int64_t l : {30, 75})
            for (std::int64_t R : {1, 2, 4}) {
                const detail::TwoTierOptimum opt(l, R, detail::TwoTierOptimum::UnboundedDisk{}, costs);
                QCOMPARE(opt.predicted_s(), detail::TwoTierOptimum(l, R, l, costs).predicted_s());
            }
    }

    void long_runs_get_the_unbounded_optimum_not_the_multistage_family() {
        // Past the bounded table's size limit (here 1200^2 x 5 x 151 = 1.1e9), multilevel:R,D takes the
        // unbounded-disk optimum when its plan fits D: an exact optimum, never dearer than the multistage
        // family it replaces, and strictly cheaper with these costs (RAM 1 step a state, disk 8 to write and
        // 5 to read, the Marmousi bench's proportions).
        StepCosts costs = costs_of(1, 1, 8, 5);
        const std::int64_t l = 1200, R = 4, D = 150;
        QVERIFY(detail::TwoTierOptimum::table_work(l, R, D) > MultiLevelSchedule::kExactWork);
        const MultiLevelSchedule ml(R, D, costs);
        const auto choice = ml.choose(l);
        QVERIFY(choice.exact);
        QVERIFY(choice.plan != nullptr);
        const auto plan = ml.plan(l);
        const PlanCounts c = simulate_plan(plan, l, {int(R), int(D)});
        QVERIFY(c.peak_slots[0] <= R);
        QVERIFY(c.peak_slots[1] <= D);
        QCOMPARE(predict(plan, l, costs).total_s, choice.predicted_s);
        const auto family = ml.multistage_choice(l);
        QVERIFY(!family.exact);
        QCOMPARE(predict(ml.plan_for(l, family), l, costs).total_s, family.predicted_s);
        QVERIFY(choice.predicted_s < family.predicted_s);
        // Too few disk slots for the unbounded plan, and too long a run for the bounded table: the cheaper of
        // the multistage family and the bounded optimum for fewer disk slots answers, a plan that fits.
        const std::int64_t longer = 3000, tight_d = 3;
        QVERIFY(detail::TwoTierOptimum::table_work(longer, R, tight_d) > MultiLevelSchedule::kExactWork);
        const MultiLevelSchedule tight(R, tight_d, costs);
        const auto fallback = tight.choose(longer);
        QVERIFY(!fallback.exact);
        const auto fallback_plan = tight.plan(longer);
        const PlanCounts fc = simulate_plan(fallback_plan, longer, {int(R), int(tight_d)});
        QVERIFY(fc.peak_slots[0] <= R);
        QVERIFY(fc.peak_slots[1] <= tight_d);
        QCOMPARE(predict(fallback_plan, longer, costs).total_s, fallback.predicted_s);
        QVERIFY(fallback.predicted_s <= tight.multistage_choice(longer).predicted_s);
        // Never below the optimum (the bounded table, run here once, slowly).
        QVERIFY(fallback.predicted_s >= detail::TwoTierOptimum(longer, R, tight_d, costs).predicted_s());
    }

    void past_the_tables_fewer_disk_slots_beat_the_multistage_family() {
        // 2403 steps (the Marmousi bench), 3 RAM slots at 0.2 steps a state, 10 disk slots at 8 steps to
        // write and 5 to read: the unbounded optimum holds more than 10 states on disk and the bounded table
        // (2.5e8) is past kExactWork. The multistage family is 33% above the optimum here; the exact optimum
        // for the 5 disk slots the table allows is 10% above it, and choose() takes that plan.
        const StepCosts costs = costs_of(0.2, 0.2, 8, 5);
        const std::int64_t l = 2403, R = 3, D = 10, fewer = 5;
        QVERIFY(detail::TwoTierOptimum::table_work(l, R, D) > MultiLevelSchedule::kExactWork);
        QVERIFY(detail::TwoTierOptimum::table_work(l, R, fewer) <= MultiLevelSchedule::kExactWork);
        QVERIFY(detail::TwoTierOptimum::table_work(l, R, fewer + 1) > MultiLevelSchedule::kExactWork);
        const MultiLevelSchedule ml(R, D, costs);
        const auto choice = ml.choose(l);
        QVERIFY(!choice.exact);
        QVERIFY(choice.plan != nullptr);
        QCOMPARE(choice.predicted_s, detail::TwoTierOptimum(l, R, fewer, costs).predicted_s());
        const PlanCounts c = simulate_plan(*choice.plan, l, {int(R), int(D)});
        QVERIFY(c.peak_slots[0] <= R);
        QVERIFY(c.peak_slots[1] <= fewer);
        QCOMPARE(predict(*choice.plan, l, costs).total_s, choice.predicted_s);
        const double family = ml.multistage_choice(l).predicted_s;
        const double optimum = detail::TwoTierOptimum(l, R, D, costs).predicted_s();
        QVERIFY(choice.predicted_s >= optimum);
        QVERIFY(choice.predicted_s < 1.15 * optimum);
        QVERIFY(family > 1.25 * optimum);
        // The choice is kept: another schedule with the same arguments gets the same plan without planning
        // again (the plan table's row and the run's schedule); other costs get their own.
        QCOMPARE(MultiLevelSchedule(R, D, costs).choose(l).plan.get(), choice.plan.get());
        const auto other = MultiLevelSchedule(R, D, costs_of(0.2, 0.2, 8, 6)).choose(l);
        QVERIFY(other.plan != nullptr);
        QVERIFY(other.plan.get() != choice.plan.get());
        QVERIFY(other.predicted_s > choice.predicted_s); // dearer disk reads
    }

    void the_table_is_the_same_on_any_thread_count() {
        // Large tables share each step count's cells among threads; every cell is computed by one thread as
        // alone, so the optimum and the plan (found by equality with the table) are the same bit for bit.
        const StepCosts costs = costs_of(0.2, 0.2, 8, 5);
        const std::int64_t l = 1200, R = 4, D = 3;
        const detail::TwoTierOptimum bounded_1(l, R, D, costs, 1);
        const detail::TwoTierOptimum unbounded_1(l, R, detail::TwoTierOptimum::UnboundedDisk{}, costs, 1);
        for (int threads : {2, 3}) {
            const detail::TwoTierOptimum bounded(l, R, D, costs, threads);
            const detail::TwoTierOptimum unbounded(l, R, detail::TwoTierOptimum::UnboundedDisk{}, costs,
                                                   threads);
            QCOMPARE(bounded.predicted_s(), bounded_1.predicted_s());
            QVERIFY(bounded.plan() == bounded_1.plan());
            QCOMPARE(unbounded.predicted_s(), unbounded_1.predicted_s());
            QVERIFY(unbounded.plan() == unbounded_1.plan());
        }
        QVERIFY(unbounded_1.predicted_s() < bounded_1.predicted_s()); // more disk slots pay with these costs
        // The default (the threads of idle cores) gives the same.
        QCOMPARE(detail::TwoTierOptimum(l, R, D, costs).predicted_s(), bounded_1.predicted_s());
    }

    void idle_cores_read_from_loadavg() {
        QCOMPARE(detail::runnable_tasks("0.88 1.54 2.07 2/345 12345\n"), std::optional<int>(2));
        QCOMPARE(detail::runnable_tasks("0.00 0.01 0.05 1/97 4242"), std::optional<int>(1));
        QCOMPARE(detail::runnable_tasks("12.50  9.80 7.10 17/1200 99"), std::optional<int>(17));
        QVERIFY(!detail::runnable_tasks(""));
        QVERIFY(!detail::runnable_tasks("0.88 1.54 2.07"));
        QVERIFY(!detail::runnable_tasks("0.88 1.54 2.07 x/345 1"));
        QVERIFY(!detail::runnable_tasks("0.88 1.54 2.07 /345 1"));
        const int idle = detail::idle_cores();
        QVERIFY(idle >= 1 && idle <= omp_get_num_procs());
    }

    void beats_ram_only_revolve_when_disk_pays() {
        // Disk a few steps per item: the optimum is never dearer than RAM-only Revolve(R), strictly cheaper
        // somewhere, and MultiLevelSchedule picks it (exact) at these sizes.
        const StepCosts costs = costs_of(0.25, 0.25, 3, 2);
        int strictly_better = 0;
        for (std::int64_t l : {20, 40, 80})
            for (std::int64_t R : {1, 2, 3})
                for (std::int64_t D : {1, 3, 6}) {
                    const MultiLevelSchedule ml(R, D, costs);
                    const auto choice = ml.choose(l);
                    QVERIFY(choice.exact);
                    const double exact = detail::TwoTierOptimum(l, R, D, costs).predicted_s();
                    const double fixed = predict(RevolveSchedule(R).plan(l), l, costs).total_s;
                    QCOMPARE(choice.predicted_s, exact);
                    QVERIFY(exact <= fixed + 1e-9);
                    strictly_better += exact < fixed - 1e-9;
                }
        QVERIFY(strictly_better > 0);
    }
};

QTEST_APPLESS_MAIN(TestTwoTierSchedule)
#include "tst_two_tier_schedule.moc"
