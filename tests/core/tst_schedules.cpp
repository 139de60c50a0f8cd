// Plans and their replay: simulate_plan rejects every broken rule naming the action; store-all and uniform
// have exact counts; multi-level never exceeds its slots and never predicts slower than RAM-only or disk-only
// Revolve; the factory parses every spec and names bad ones; every schedule's plan replays cleanly over many
// (l, parameters).
#include "fwi/error.hpp"
#include "fwi/performance_model.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"

#include <QtTest>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace fwi;

Q_DECLARE_METATYPE(std::vector<fwi::Action>)
Q_DECLARE_METATYPE(std::vector<int>)

namespace {

Action adv(std::int64_t a, std::int64_t b) {
    return {ActionType::Advance, a, b, -1, 0};
}
Action snaps(std::int64_t a, std::int64_t b) {
    return {ActionType::AdvanceSnapshots, a, b, -1, 0};
}
Action store(std::int64_t step, int slot, int tier = 0) {
    return {ActionType::Store, step, 0, slot, tier};
}
Action restore(std::int64_t step, int slot, int tier = 0) {
    return {ActionType::Restore, step, 0, slot, tier};
}
Action free_slot(int slot, int tier = 0) {
    return {ActionType::Free, 0, 0, slot, tier};
}
Action rev(std::int64_t step) {
    return {ActionType::Reverse, step, 0, -1, 0};
}

StepCosts disk_costs(double write_s, double read_s, double ram_s = 0) {
    StepCosts c;
    c.forward_step_s = 1;
    c.adjoint_step_s = 1.5;
    c.tiers = {TierCosts{ram_s, ram_s, 0, 0}, TierCosts{write_s, read_s, 0, 0}};
    return c;
}

} // namespace

class TestSchedules : public QObject {
    Q_OBJECT
  private slots:
    void to_string_names_everything() {
        QCOMPARE(to_string(adv(2, 5)), std::string("Advance{2 -> 5}"));
        QCOMPARE(to_string(snaps(0, 3)), std::string("AdvanceSnapshots{0 -> 3}"));
        QCOMPARE(to_string(store(12, 3, 1)), std::string("Store{step 12, slot 3, tier 1}"));
        QCOMPARE(to_string(restore(4, 0)), std::string("Restore{step 4, slot 0, tier 0}"));
        QCOMPARE(to_string(free_slot(2, 1)), std::string("Free{slot 2, tier 1}"));
        QCOMPARE(to_string(rev(7)), std::string("Reverse{7}"));
    }

    void broken_plans_are_rejected_data() {
        QTest::addColumn<std::vector<Action>>("plan");
        QTest::addColumn<qint64>("steps");
        QTest::addColumn<std::vector<int>>("limits");
        QTest::addColumn<QString>("expected"); // the action index and a fragment of the reason
        const std::vector<int> none;
        QTest::newRow("advance from elsewhere") << std::vector<Action>{adv(1, 2)} << qint64(3) << none
                                                << "#0 (Advance{1 -> 2}): the current state is 0, not 1";
        QTest::newRow("empty advance")
            << std::vector<Action>{adv(0, 0)} << qint64(3) << none << "#0 (Advance{0 -> 0}): empty";
        QTest::newRow("past the end")
            << std::vector<Action>{adv(0, 4)} << qint64(3) << none << "#0 (Advance{0 -> 4}): computes step 3";
        QTest::newRow("snapshot twice")
            << std::vector<Action>{store(0, 0), snaps(0, 2), restore(0, 0), snaps(0, 1)} << qint64(3) << none
            << "#3 (AdvanceSnapshots{0 -> 1}): the snapshot of step 0 is already buffered";
        QTest::newRow("store other state")
            << std::vector<Action>{store(1, 0)} << qint64(3) << none
            << "#0 (Store{step 1, slot 0, tier 0}): the current state is 0, not 1";
        QTest::newRow("store over a slot")
            << std::vector<Action>{store(0, 0), adv(0, 1), store(1, 0)} << qint64(3) << none
            << "#2 (Store{step 1, slot 0, tier 0}): the slot still holds step 0";
        QTest::newRow("restore empty") << std::vector<Action>{restore(0, 1)} << qint64(3) << none
                                       << "#0 (Restore{step 0, slot 1, tier 0}): the slot is empty";
        QTest::newRow("restore wrong step")
            << std::vector<Action>{store(0, 0), restore(1, 0)} << qint64(3) << none
            << "#1 (Restore{step 1, slot 0, tier 0}): the slot holds step 0, not 1";
        QTest::newRow("free twice") << std::vector<Action>{store(0, 0), free_slot(0), free_slot(0)}
                                    << qint64(3) << none
                                    << "#2 (Free{slot 0, tier 0}): the slot is already free";
        QTest::newRow("reverse out of order") << std::vector<Action>{adv(0, 1), rev(0)} << qint64(2) << none
                                              << "#1 (Reverse{0}): the next step to reverse is 1";
        QTest::newRow("reverse without state")
            << std::vector<Action>{rev(1)} << qint64(2) << none
            << "#0 (Reverse{1}): no snapshot of step 1 is buffered and the current state is 0";
        QTest::newRow("state consumed")
            << std::vector<Action>{adv(0, 1), rev(1), rev(0)} << qint64(2) << none
            << "#2 (Reverse{0}): no snapshot of step 0 is buffered and the current state is unknown";
        QTest::newRow("advance after consume")
            << std::vector<Action>{adv(0, 1), rev(1), adv(1, 2)} << qint64(2) << none
            << "#2 (Advance{1 -> 2}): the current state is unknown";
        QTest::newRow("recompute reversed")
            << std::vector<Action>{store(0, 0), snaps(0, 2), rev(1), restore(0, 0), adv(0, 2)} << qint64(2)
            << none << "#4 (Advance{0 -> 2}): computes step 1, which is already reversed";
        QTest::newRow("reverse too many") << std::vector<Action>{rev(0), rev(0)} << qint64(1) << none
                                          << "#1 (Reverse{0}): every step is already reversed";
        QTest::newRow("slot beyond limit")
            << std::vector<Action>{store(0, 3)} << qint64(9) << std::vector<int>{3}
            << "#0 (Store{step 0, slot 3, tier 0}): slot 3 is outside tier 0's 3 slots";
        QTest::newRow("slot beyond steps")
            << std::vector<Action>{store(0, 4)} << qint64(3) << none << "slot 4 is outside tier 0's 4 slots";
        QTest::newRow("negative slot")
            << std::vector<Action>{store(0, -1)} << qint64(3) << none << "slot -1 is outside";
        QTest::newRow("tier beyond limit")
            << std::vector<Action>{store(0, 0, 1)} << qint64(3) << std::vector<int>{3}
            << "#0 (Store{step 0, slot 0, tier 1}): tier 1 is outside 0..0";
        QTest::newRow("tier beyond default")
            << std::vector<Action>{store(0, 0, 8)} << qint64(3) << none << "tier 8 is outside 0..7";
        QTest::newRow("unknown action") << std::vector<Action>{Action{ActionType(42), 0, 0, -1, 0}}
                                        << qint64(1) << none << "#0 (Action(42)): unknown action type";
        QTest::newRow("unfinished") << std::vector<Action>{snaps(0, 2), rev(1)} << qint64(2) << none
                                    << "ends too early: step 0 (and those before it) is never reversed";
        QTest::newRow("slot left occupied") << std::vector<Action>{store(0, 1), rev(0)} << qint64(1) << none
                                            << "slot 1 of tier 0 still holds step 0";
    }
    void broken_plans_are_rejected() {
        QFETCH(std::vector<Action>, plan);
        QFETCH(qint64, steps);
        QFETCH(std::vector<int>, limits);
        QFETCH(QString, expected);
        try {
            simulate_plan(plan, steps, limits);
            QFAIL("accepted a broken plan");
        } catch (const PlanError& e) {
            if (!QString(e.what()).contains(expected)) QFAIL(qPrintable(QString("message: ") + e.what()));
        }
    }

    void bad_arguments() {
        QVERIFY_THROWS_EXCEPTION(ConfigError, simulate_plan({}, -1));
        QVERIFY_THROWS_EXCEPTION(ConfigError, simulate_plan({}, 3, {-1}));
        const PlanCounts empty = simulate_plan({}, 0);
        QCOMPARE(empty.reverse_steps, std::int64_t(0));
        QCOMPARE(empty.peak_slots, std::vector<int>{0});
    }

    void store_all_counts() {
        const auto plan = StoreAllSchedule().plan(5);
        QCOMPARE(plan, (std::vector<Action>{snaps(0, 5), rev(4), rev(3), rev(2), rev(1), rev(0)}));
        const PlanCounts c = simulate_plan(StoreAllSchedule().plan(1000), 1000);
        QCOMPARE(c.advance_steps, std::int64_t(1000));
        QCOMPARE(c.snapshot_steps, std::int64_t(1000));
        QCOMPARE(c.peak_snapshots, std::int64_t(1000));
        QCOMPARE(c.reverse_forward_steps, std::int64_t(0));
        QCOMPARE(c.peak_slots, std::vector<int>{0});
        QVERIFY(StoreAllSchedule().plan(0).empty());
        QVERIFY_THROWS_EXCEPTION(ConfigError, StoreAllSchedule().plan(-2));
    }

    void uniform_worked_example() {
        // l = 10, K = 2: boundaries 0, 3, 6 | last segment 6..9 run with snapshots in the first sweep.
        const std::vector<Action> expected{
            store(0, 0), adv(0, 3),     store(3, 1),   adv(3, 6),    snaps(6, 10), rev(9), rev(8),
            rev(7),      rev(6),        restore(3, 1), free_slot(1), snaps(3, 6),  rev(5), rev(4),
            rev(3),      restore(0, 0), free_slot(0),  snaps(0, 3),  rev(2),       rev(1), rev(0)};
        QCOMPARE(UniformSchedule(2).plan(10), expected);
    }

    void uniform_counts_are_exact() {
        for (std::int64_t l = 1; l <= 150; ++l)
            for (std::int64_t k = 1; k <= 20; ++k) {
                const PlanCounts c = simulate_plan(UniformSchedule(k).plan(l), l, {int(k)});
                const std::int64_t used = std::min(k, l - 1); // stored states
                std::vector<std::int64_t> bound;
                for (std::int64_t i = 0; i <= used + 1; ++i)
                    bound.push_back(i * l / (used + 1));
                std::int64_t longest = 0;
                for (std::int64_t i = 0; i <= used; ++i)
                    longest = std::max(longest, bound[std::size_t(i + 1)] - bound[std::size_t(i)]);
                const std::int64_t last_start = bound[std::size_t(used)];
                QCOMPARE(c.advance_steps, l + last_start); // recompute = l - last segment length
                QCOMPARE(c.snapshot_steps, l);             // every step once, from its segment
                QCOMPARE(c.reverse_forward_steps, std::int64_t(0));
                QCOMPARE(c.writes[0], used);
                QCOMPARE(c.reads[0], used);
                QCOMPARE(std::int64_t(c.peak_slots[0]), used);
                QCOMPARE(c.peak_snapshots, longest);
                QVERIFY(longest <= (l + used) / (used + 1)); // ceil(l / (K+1)): equal spacing
            }
        QCOMPARE(UniformSchedule(4).name(), std::string("uniform:4"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, UniformSchedule(0));
    }

    void multilevel_stays_within_slots_and_beats_baselines() {
        const std::vector<StepCosts> scenarios{disk_costs(0.1, 0.1), disk_costs(2, 1), disk_costs(50, 30),
                                               disk_costs(3, 3, 0.2)};
        for (const StepCosts& costs : scenarios)
            for (std::int64_t l : {1, 2, 3, 5, 10, 37, 100, 250, 600})
                for (std::int64_t r : {1, 2, 3, 6})
                    for (std::int64_t d : {0, 1, 2, 5, 20, 700}) {
                        const MultiLevelSchedule schedule(r, d, costs);
                        const auto plan = schedule.plan(l);
                        const PlanCounts c = simulate_plan(plan, l, {int(r), int(d)});
                        QVERIFY(c.peak_slots[0] <= r);
                        QVERIFY(c.peak_slots[1] <= d);
                        const double t = predict(plan, l, costs).total_s;
                        // Its own estimate is the performance model's prediction, exactly.
                        QVERIFY(qAbs(schedule.choose(l).predicted_s - t) <= 1e-9 * t);
                        const double ram_only = predict(RevolveSchedule(r).plan(l), l, costs).total_s;
                        QVERIFY(t <= ram_only * (1 + 1e-12));
                        if (d >= 1) {
                            const double disk_only = predict(RevolveSchedule(d, 1).plan(l), l, costs).total_s;
                            QVERIFY(t <= disk_only * (1 + 1e-12));
                        }
                    }
    }

    void multilevel_uses_both_tiers_when_it_pays() {
        // 3 RAM slots are too few for 1000 steps; 40 disk slots at 4 forward steps per write/read are worth
        // it.
        const StepCosts costs = disk_costs(4, 4);
        const std::int64_t l = 1000;
        const MultiLevelSchedule schedule(3, 40, costs);
        const auto family = schedule.multistage_choice(l);
        QVERIFY(!family.disk_only);
        QVERIFY(family.disk_intervals >= 1 && family.disk_intervals <= 40);
        QVERIFY(schedule.choose(l).predicted_s <= family.predicted_s);
        const auto plan = schedule.plan(l);
        const PlanCounts c = simulate_plan(plan, l, {3, 40});
        QVERIFY(c.writes[1] >= 1);
        QVERIFY(c.writes[0] >= 1);
        const double t = predict(plan, l, costs).total_s;
        const double ram_only = predict(RevolveSchedule(3).plan(l), l, costs).total_s;
        const double disk_only = predict(RevolveSchedule(40, 1).plan(l), l, costs).total_s;
        QVERIFY(t < 0.8 * ram_only);
        QVERIFY(t < disk_only);
        // Deeper Revolve levels: its estimate still equals the model's prediction of the plan it builds.
        for (const auto& [rs, ds] :
             std::vector<std::pair<std::int64_t, std::int64_t>>{{12, 30}, {40, 3}, {5, 200}}) {
            const MultiLevelSchedule deep(rs, ds, disk_costs(2.5, 1.5, 0.1));
            const double predicted = predict(deep.plan(3000), 3000, disk_costs(2.5, 1.5, 0.1)).total_s;
            QVERIFY(qAbs(deep.choose(3000).predicted_s - predicted) <= 1e-9 * predicted);
        }
        // Free disk and many slots: everything goes to disk, nothing is recomputed.
        const auto free_disk = MultiLevelSchedule(2, 1000, disk_costs(0, 0)).plan(l);
        QCOMPARE(simulate_plan(free_disk, l, {2, 1000}).advance_steps, l - 1);
        QCOMPARE(MultiLevelSchedule(2, 5).name(), std::string("multilevel:2,5"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, MultiLevelSchedule(0, 5));
        QVERIFY_THROWS_EXCEPTION(ConfigError, MultiLevelSchedule(2, -1));
    }

    void factory_parses_specs_data() {
        QTest::addColumn<QString>("spec");
        for (const char* s : {"all", "uniform:4", "revolve:10", "multilevel:3,7", "online:5", "revolve:1"})
            QTest::newRow(s) << QString(s);
    }
    void factory_parses_specs() {
        QFETCH(QString, spec);
        const auto schedule = make_schedule(spec.toStdString());
        QCOMPARE(QString::fromStdString(schedule->name()), spec);
        QVERIFY(simulate_plan(schedule->plan(77), 77).reverse_steps == 77);
    }

    void factory_rejects_bad_specs_data() {
        QTest::addColumn<QString>("spec");
        for (const char* s : {"", "revolve", "revolve:", "revolve:x", "revolve:-2", "revolve:0", "revolve:3x",
                              "revolve: 3", "uniform:0", "multilevel:3", "multilevel:0,2", "multilevel:a,b",
                              "multilevel:3,", "all:3", "auto", "bogus:1", " revolve:3", "online:0"})
            QTest::newRow(s[0] ? s : "(empty)") << QString(s);
    }
    void factory_rejects_bad_specs() {
        QFETCH(QString, spec);
        try {
            make_schedule(spec.toStdString());
            QFAIL("accepted a bad spec");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("'" + spec + "'"), e.what());
        }
    }

    void every_schedule_replays_cleanly() {
        const StepCosts costs = disk_costs(2, 2);
        for (const char* spec : {"all", "uniform:1", "uniform:3", "uniform:17", "revolve:1", "revolve:2",
                                 "revolve:5", "revolve:40", "online:1", "online:2", "online:6",
                                 "multilevel:1,3", "multilevel:2,9", "multilevel:4,0"}) {
            const auto schedule = make_schedule(spec, costs);
            for (std::int64_t l = 0; l <= 400; l += (l < 40 ? 1 : 23)) {
                try {
                    const PlanCounts c = simulate_plan(schedule->plan(l), l);
                    QCOMPARE(c.reverse_steps, l);
                } catch (const PlanError& e) {
                    QFAIL(qPrintable(QString("%1 at l = %2: %3").arg(spec).arg(l).arg(e.what())));
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestSchedules)
#include "tst_schedules.moc"
