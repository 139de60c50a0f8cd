// Revolve (binomial checkpointing) is optimal in its declared cost model: Advance steps == t(l, s) for every
// l <= 250 and s <= 30, checked against an independent closed form, an independent DP of the recurrence, and
// the published table; each Reverse runs one forward step; never more than s slots; every plan replays
// cleanly.
#include "fwi/error.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"

#include <QtTest>
#include <cstdint>
#include <vector>

using namespace fwi;

namespace {

constexpr int kMaxSteps = 250;
constexpr int kMaxSlots = 30;

/// Independent closed form t(l, s) = r l - C(s + r, s + 1), r = min { r : C(s + r, s) >= l }, with binomials
/// from Pascal's triangle (additions only, saturating), so it shares nothing with the library's arithmetic.
std::int64_t closed_form(std::int64_t l, std::int64_t s) {
    static const std::vector<std::vector<std::uint64_t>> pascal = [] {
        std::vector<std::vector<std::uint64_t>> p(kMaxSteps + kMaxSlots + 2);
        for (std::size_t n = 0; n < p.size(); ++n) {
            p[n].assign(n + 1, 1);
            for (std::size_t k = 1; k < n; ++k) {
                const std::uint64_t a = p[n - 1][k - 1], b = p[n - 1][k];
                p[n][k] = a > UINT64_MAX - b ? UINT64_MAX : a + b;
            }
        }
        return p;
    }();
    auto c = [&](std::int64_t n, std::int64_t k) {
        return k > n ? std::uint64_t(0) : pascal[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
    };
    std::int64_t r = 0;
    while (c(s + r, s) < static_cast<std::uint64_t>(l))
        ++r;
    return r * l - static_cast<std::int64_t>(c(s + r, s + 1));
}

/// The recurrence t(1,s) = 0, t(l,1) = l(l-1)/2, t(l,s) = min_{1<=j<l} [j + t(j,s) + t(l-j,s-1)], by DP.
std::vector<std::vector<std::int64_t>> recurrence_table() {
    std::vector<std::vector<std::int64_t>> t(kMaxSteps + 1, std::vector<std::int64_t>(kMaxSlots + 1, 0));
    for (int l = 1; l <= kMaxSteps; ++l)
        t[l][1] = std::int64_t(l) * (l - 1) / 2;
    for (int s = 2; s <= kMaxSlots; ++s)
        for (int l = 2; l <= kMaxSteps; ++l) {
            std::int64_t best = INT64_MAX;
            for (int j = 1; j < l; ++j)
                best = std::min(best, j + t[j][s] + t[l - j][s - 1]);
            t[l][s] = best;
        }
    return t;
}

} // namespace

class TestRevolve : public QObject {
    Q_OBJECT
  private slots:
    void closed_form_matches_recurrence() {
        const auto dp = recurrence_table();
        for (int l = 1; l <= kMaxSteps; ++l)
            for (int s = 1; s <= kMaxSlots; ++s) {
                QCOMPARE(closed_form(l, s), dp[l][s]);
                QCOMPARE(revolve_advance_steps(l, s), dp[l][s]);
            }
    }

    void published_table_data() {
        QTest::addColumn<qint64>("l");
        QTest::addColumn<qint64>("s");
        QTest::addColumn<qint64>("t");
        const qint64 rows[][3] = {{10, 1, 45},       {10, 2, 20},         {10, 3, 15},      {10, 9, 9},
                                  {20, 3, 45},       {100, 5, 316},       {100, 10, 222},   {1000, 10, 3636},
                                  {4000, 50, 10622}, {10000, 100, 24747}, {2500, 20, 7976}, {2500, 50, 6122}};
        for (const auto& r : rows)
            QTest::newRow(qPrintable(QString("l=%1 s=%2").arg(r[0]).arg(r[1]))) << r[0] << r[1] << r[2];
    }
    void published_table() {
        QFETCH(qint64, l);
        QFETCH(qint64, s);
        QFETCH(qint64, t);
        QCOMPARE(revolve_advance_steps(l, s), t);
        const auto plan = RevolveSchedule(s).plan(l);
        const PlanCounts c = simulate_plan(plan, l, {int(s)});
        QCOMPARE(c.advance_steps, t);
        QCOMPARE(c.reverse_forward_steps, l);
        QCOMPARE(c.reverse_steps, l);
        QVERIFY(c.peak_slots[0] <= s);
    }

    // The heart of it: every plan for l <= 250, s <= 30 is valid, optimal and within its slots.
    void plans_are_optimal_for_every_l_and_s() {
        const auto dp = recurrence_table();
        for (int s = 1; s <= kMaxSlots; ++s) {
            const RevolveSchedule schedule(s);
            for (int l = 1; l <= kMaxSteps; ++l) {
                const auto plan = schedule.plan(l);
                const PlanCounts c = simulate_plan(plan, l, {s});
                if (c.advance_steps != dp[l][s])
                    QFAIL(qPrintable(QString("l=%1 s=%2: %3 advance steps, optimum %4")
                                         .arg(l)
                                         .arg(s)
                                         .arg(c.advance_steps)
                                         .arg(dp[l][s])));
                QCOMPARE(c.reverse_forward_steps, std::int64_t(l));
                QCOMPARE(c.snapshot_steps, std::int64_t(0));
                QVERIFY(c.peak_slots[0] <= s);
                QVERIFY(c.writes[0] >= c.peak_slots[0]);
                // No slot wasted: with s >= l-1 every state but the last is stored and nothing is recomputed.
                if (s >= l - 1) {
                    QCOMPARE(c.advance_steps, std::int64_t(l - 1));
                    QCOMPARE(c.peak_slots[0], std::max(0, l - 1));
                }
            }
        }
    }

    void long_runs_stay_optimal() {
        for (const auto& [l, s] :
             std::vector<std::pair<std::int64_t, std::int64_t>>{{20000, 3}, {50000, 30}, {30000, 2}}) {
            const PlanCounts c = simulate_plan(RevolveSchedule(s).plan(l), l, {int(s)});
            QCOMPARE(c.advance_steps, revolve_advance_steps(l, s));
            QVERIFY(c.peak_slots[0] <= s);
        }
    }

    void repetition_number_and_edges() {
        QCOMPARE(revolve_repetition_number(1, 5), std::int64_t(0));
        QCOMPARE(revolve_repetition_number(6, 5), std::int64_t(1));
        QCOMPARE(revolve_repetition_number(7, 5), std::int64_t(2)); // C(7,5) = 21
        QCOMPARE(revolve_repetition_number(21, 5), std::int64_t(2));
        QCOMPARE(revolve_repetition_number(22, 5), std::int64_t(3));
        QCOMPARE(revolve_advance_steps(1, 1), std::int64_t(0));
        // Huge counts do not overflow: t stays just under r l.
        const std::int64_t big = std::int64_t(1) << 40;
        QVERIFY(revolve_advance_steps(big, 20) > big);
        QVERIFY(revolve_advance_steps(big, 20) < revolve_repetition_number(big, 20) * big);
        QVERIFY(RevolveSchedule(3).plan(0).empty());
        QCOMPARE(RevolveSchedule(3).plan(1), (std::vector<Action>{{ActionType::Reverse, 0, 0, -1, 0}}));
        QCOMPARE(RevolveSchedule(7).name(), std::string("revolve:7"));
    }

    void bad_parameters_throw() {
        QVERIFY_THROWS_EXCEPTION(ConfigError, RevolveSchedule(0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, RevolveSchedule(-3));
        QVERIFY_THROWS_EXCEPTION(ConfigError, RevolveSchedule(2).plan(-1));
        QVERIFY_THROWS_EXCEPTION(Error, revolve_advance_steps(0, 3));
        QVERIFY_THROWS_EXCEPTION(Error, revolve_advance_steps(5, 0));
    }

    void revolve_in_another_tier() {
        const auto plan = RevolveSchedule(4, 1).plan(30);
        QVERIFY_THROWS_EXCEPTION(PlanError, simulate_plan(plan, 30, {4})); // tier 1 is not allowed then
        const PlanCounts c = simulate_plan(plan, 30, {0, 4});
        QCOMPARE(c.peak_slots[0], 0);
        QVERIFY(c.peak_slots[1] <= 4);
        QCOMPARE(c.advance_steps, revolve_advance_steps(30, 4));
    }
};

QTEST_APPLESS_MAIN(TestRevolve)
#include "tst_revolve.moc"
