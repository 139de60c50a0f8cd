// The performance model: Kukreja's formulas hold for the plans it prices (T = 2CN without recomputation,
// recompute + adjoint for Revolve with free storage, the storage overhead W(S/(F B) + t_c) + R(S/(F B) +
// t_d)); peak bytes count compressed states and sampled snapshots per tier; budgets give slot counts; the
// first touch is charged on the peak less the in-place snapshot memory the process kept from its previous
// run. The plan table built on it: tst_plan_table.cpp.
#include "fwi/error.hpp"
#include "fwi/performance_model.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"

#include <QtTest>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace fwi;

namespace {

bool close(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

StepCosts unit_costs(double forward_s, double adjoint_s) {
    StepCosts c;
    c.forward_step_s = forward_s;
    c.adjoint_step_s = adjoint_s;
    return c;
}

} // namespace

class TestPerformanceModel : public QObject {
    Q_OBJECT
  private slots:
    /// One slot over a long shot recomputes n(n-1)/2 steps: a run that looks hung gets a note; Revolve with
    /// enough slots, uniform and store-all do not.
    void a_plan_that_recomputes_ten_times_the_shot_gets_a_note() {
        const std::int64_t n = 300;
        const auto resolved = [&](const Schedule& schedule, std::string name) {
            ResolvedPlan r;
            r.schedule = std::move(name);
            r.plan = schedule.plan(n);
            r.prediction = predict(r.plan, n, unit_costs(1e-3, 1e-3));
            return r;
        };
        const std::string note = recomputation_note(resolved(RevolveSchedule(1), "revolve:1"));
        QVERIFY2(note.find("revolve:1 recomputes 44850 forward steps per shot, 150x the shot's 300") !=
                     std::string::npos,
                 note.c_str());
        QVERIFY(recomputation_note(resolved(RevolveSchedule(2), "revolve:2")).find("revolve:2") !=
                std::string::npos);
        QVERIFY(recomputation_note(resolved(RevolveSchedule(12), "revolve:12")).empty());
        QVERIFY(recomputation_note(resolved(StoreAllSchedule(), "all")).empty());
        QVERIFY(recomputation_note(ResolvedPlan{}).empty()); // no steps: nothing to say
    }

    void no_recomputation_costs_2CN() {
        const double c = 0.37;
        for (std::int64_t n : {1, 10, 2500}) {
            const Prediction p = predict(StoreAllSchedule().plan(n), n, unit_costs(c, c));
            QVERIFY(close(p.total_s, 2 * c * double(n)));
            QCOMPARE(p.recompute_s, 0.0);
        }
    }

    // Kukreja: with free storage, T = C (advance + reverse_forward) + adjoint l, and advance = t(l, s) for
    // Revolve.
    void kukreja_formula_for_revolve() {
        const double f = 0.7, a = 1.3;
        for (std::int64_t l : {1, 10, 100, 1000, 2500})
            for (std::int64_t s : {1, 2, 5, 10, 50}) {
                const auto plan = RevolveSchedule(s).plan(l);
                const Prediction p = predict(plan, l, unit_costs(f, a));
                const PlanCounts c = p.counts;
                QVERIFY(
                    close(p.total_s, f * double(c.advance_steps + c.reverse_forward_steps) + a * double(l)));
                QVERIFY(close(p.total_s, f * double(revolve_advance_steps(l, s) + l) + a * double(l)));
                QVERIFY(close(p.forward_s, f * double(l)));
                QVERIFY(close(p.recompute_s, f * double(revolve_advance_steps(l, s))));
                QCOMPARE(p.store_s + p.load_s + p.codec_s, 0.0);
            }
    }

    // O_S = W (S / (F B) + t_c) + R (S / (F B) + t_d), with W writes and R reads of S-byte states at ratio F,
    // plus what this store adds to Kukreja's synchronous one: each write first copies the raw S bytes into
    // staging for the workers (S / B); the uncompressed in-memory store (snapshots in place, one tier: no
    // workers) copies inline, and an adaptive schedule's store codes on the caller's thread (no staging).
    void storage_overhead_matches_kukreja() {
        StepCosts c = unit_costs(1, 1);
        c.state_bytes = 8'000'000;
        c.compression_ratio = 16;
        c.state_compress_s = 0.02;           // Revolve stores states only
        c.decompress_s = c.compress_s = 1e3; // so a snapshot price would show
        c.state_decompress_s = 0.01;
        const double bandwidth = 2e9;
        c.tiers = {TierCosts{0, 0, 1 / bandwidth, 1 / bandwidth}};
        const std::int64_t l = 700;
        const Prediction p = predict(RevolveSchedule(12).plan(l), l, c);
        const double w = double(p.counts.writes[0]), r = double(p.counts.reads[0]);
        const double per_item = 8'000'000.0 / 16 / bandwidth, staging = 8'000'000.0 / bandwidth;
        QVERIFY(close(p.store_s, w * (staging + per_item)));
        QVERIFY(close(p.load_s, r * per_item));
        QVERIFY(close(p.codec_s, w * 0.02 + r * 0.01));
        QVERIFY(close(p.total_s, double(revolve_advance_steps(l, 12) + l) + double(l) +
                                     w * (staging + per_item + 0.02) + r * (per_item + 0.01)));
        // An adaptive schedule's store codes each state on the caller's thread as it arrives: Kukreja's
        // synchronous store exactly, no staging copy.
        StepCosts synchronous = c;
        synchronous.coded_on_caller = true;
        const Prediction q = predict(RevolveSchedule(12).plan(l), l, synchronous);
        QVERIFY(close(q.store_s, w * per_item));
        QVERIFY(close(q.total_s, p.total_s - w * staging));
        // Uncompressed in memory (the codec "none": snapshots in place) a state is copied once, inline.
        c.snapshots_in_place = true;
        c.compression_ratio = 1;
        c.state_compress_s = c.state_decompress_s = 0;
        const Prediction inline_copy = predict(RevolveSchedule(12).plan(l), l, c);
        QVERIFY(close(inline_copy.store_s, w * staging));
        // A disk tier's prices alone (measured costs always carry them) change nothing: the plan writes none.
        c.tiers.push_back(TierCosts{0, 0, 0, 0});
        QVERIFY(close(predict(RevolveSchedule(12).plan(l), l, c).store_s, w * staging));
        // A plan that writes the disk tier gives the store workers again: every write is staged, tier-0 ones
        // copied into their slot besides.
        const auto two_tiers = MultiLevelSchedule(2, 30, c).plan(l);
        const Prediction m = predict(two_tiers, l, c);
        QVERIFY(m.counts.writes.size() == 2 && m.counts.writes[1] > 0);
        QVERIFY(close(m.store_s,
                      double(m.counts.writes[0]) * 2 * staging + double(m.counts.writes[1]) * staging));
    }

    void first_touch_is_charged_on_memory_not_kept() {
        const std::int64_t n = 100;
        StepCosts c = unit_costs(1, 1);
        c.state_bytes = 4000;
        c.snapshot_bytes = 1000;
        c.first_touch_s_per_byte = 1e-3;
        c.snapshots_in_place = true;
        const auto snapshot = double(c.stored_snapshot_bytes()); // in place: the raw field, no frame header
        const auto plan = StoreAllSchedule().plan(n);
        const Prediction fresh = predict(plan, n, c);
        QCOMPARE(fresh.peak_total_bytes, std::uint64_t(double(n) * snapshot));
        QVERIFY(close(fresh.first_touch_s, 1e-3 * double(n) * snapshot));
        QVERIFY(close(fresh.total_s, 2.0 * double(n) + fresh.first_touch_s));
        c.retained_touched_bytes = std::uint64_t(30 * snapshot); // 30 snapshots' worth kept
        QVERIFY(close(predict(plan, n, c).first_touch_s, 1e-3 * double(n - 30) * snapshot));
        c.retained_touched_bytes = std::uint64_t(10 * n * 1000); // more than the arena needs: nothing fresh
        QCOMPARE(predict(plan, n, c).first_touch_s, 0.0);
        c.snapshots_in_place = false; // snapshots through a store: kept arena memory does not serve them
        QVERIFY(
            close(predict(plan, n, c).first_touch_s, 1e-3 * double(n) * double(c.stored_snapshot_bytes())));
    }

    void snapshot_transfers_are_charged_only_off_the_backend() {
        // A GPU's snapshots that the store codes cross to the host and back: snapshot_transfer_s each. Kept
        // in place (its own memory) or computed inside a Reverse (its scratch), they cost none.
        const std::int64_t n = 60;
        StepCosts c = unit_costs(1, 1);
        c.snapshot_transfer_s = 0.25;
        const auto all = StoreAllSchedule().plan(n);
        const double through_store = predict(all, n, c).store_s;
        QVERIFY(close(through_store, 0.25 * double(n)));
        c.snapshots_in_place = true;
        QCOMPARE(predict(all, n, c).store_s, 0.0);
        c.snapshots_in_place = false;
        QCOMPARE(predict(RevolveSchedule(5).plan(n), n, c).store_s, 0.0);
        c.snapshot_transfer_s = -1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict(all, n, c));
    }

    void recomputed_steps_have_their_own_price() {
        // A recomputed step records nothing (on a GPU a launch and the downloads fewer): the first sweep's
        // l steps cost forward_step_s, every further forward step recompute_step_s.
        const std::int64_t n = 90;
        StepCosts c = unit_costs(2, 1);
        const auto plan = RevolveSchedule(4).plan(n);
        const Prediction same = predict(plan, n, c);
        QCOMPARE(c.recompute_price(), 2.0);
        c.recompute_step_s = 0.5;
        const Prediction cheaper = predict(plan, n, c);
        const auto again = double(cheaper.counts.advance_steps + cheaper.counts.reverse_forward_steps - n);
        QVERIFY(again > double(n));
        QVERIFY(close(same.recompute_s, 2.0 * again));
        QVERIFY(close(cheaper.recompute_s, 0.5 * again));
        QCOMPARE(cheaper.forward_s, same.forward_s);
        QCOMPARE(predict(StoreAllSchedule().plan(n), n, c).recompute_s, 0.0);
        c.recompute_step_s = std::numeric_limits<double>::infinity();
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict(plan, n, c));
    }

    void a_shots_setup_is_charged_once_whatever_the_schedule() {
        const std::int64_t n = 70;
        StepCosts c = unit_costs(1, 1);
        for (const auto& plan : {StoreAllSchedule().plan(n), RevolveSchedule(5).plan(n)}) {
            c.shot_setup_s = 0;
            const Prediction without = predict(plan, n, c);
            c.shot_setup_s = 2.5;
            const Prediction with = predict(plan, n, c);
            QCOMPARE(with.setup_s, 2.5);
            QVERIFY(close(with.total_s - without.total_s, 2.5));
            QVERIFY(close(with.forward_s + with.recompute_s + with.adjoint_s, without.total_s));
        }
        c.shot_setup_s = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict(StoreAllSchedule().plan(n), n, c));
    }

    void state_transfers_are_charged_per_store_and_restore() {
        const std::int64_t n = 80;
        StepCosts c = unit_costs(1, 1);
        const auto plan = RevolveSchedule(6).plan(n);
        const Prediction free = predict(plan, n, c);
        c.state_transfer_s = 0.5;
        const Prediction paid = predict(plan, n, c);
        QVERIFY(free.counts.writes[0] > 0 && free.counts.reads[0] > 0);
        QVERIFY(close(paid.store_s - free.store_s, 0.5 * double(free.counts.writes[0])));
        QVERIFY(close(paid.load_s - free.load_s, 0.5 * double(free.counts.reads[0])));
    }

    void an_uncompressed_run_in_backend_memory_touches_no_host_memory() {
        // A GPU lends memory: an uncompressed run keeps its snapshots and its tier-0 states there. The host
        // touches none of it, and a state stored or restored costs one device copy, no tier copy or transfer.
        const std::int64_t n = 50;
        StepCosts c = unit_costs(1, 1);
        c.state_bytes = 4000;
        c.snapshot_bytes = 1000;
        c.first_touch_s_per_byte = 1e-3;
        c.state_transfer_s = 7;
        c.tiers = {TierCosts{0.5, 0.5, 1e-3, 1e-3}};
        c.snapshots_in_place = true;
        const auto all = StoreAllSchedule().plan(n);
        const auto revolve = RevolveSchedule(4).plan(n);
        QVERIFY(predict(all, n, c).first_touch_s > 0);
        const Prediction on_host = predict(revolve, n, c);
        QVERIFY(on_host.first_touch_s > 0);
        c.backend_memory = true;
        c.backend_state_copy_s = 0.01;
        QCOMPARE(predict(all, n, c).first_touch_s, 0.0);
        const Prediction on_device = predict(revolve, n, c);
        QCOMPARE(on_device.first_touch_s, 0.0);
        QVERIFY(close(on_device.store_s, 0.01 * double(on_device.counts.writes[0])));
        QVERIFY(close(on_device.load_s, 0.01 * double(on_device.counts.reads[0])));
        // Compressed, states go through the host store: tier costs and transfers as before.
        c.snapshots_in_place = false;
        QVERIFY(predict(revolve, n, c).store_s > 7.0 * double(on_device.counts.writes[0]));
    }

    void peak_bytes_count_compressed_items() {
        StepCosts c = unit_costs(1, 1);
        c.state_bytes = 1000;
        c.snapshot_bytes = 100;
        c.compression_ratio = 4;
        QCOMPARE(c.stored_state_bytes(), std::uint64_t(250));
        QCOMPARE(c.stored_snapshot_bytes(), std::uint64_t(25));
        // uniform:3 over 20 steps: boundaries 0, 5, 10, 15; peak = 3 states + one 5-step segment of
        // snapshots.
        const Prediction p = predict(UniformSchedule(3).plan(20), 20, c);
        QCOMPARE(p.peak_bytes, std::vector<std::uint64_t>{3 * 250 + 5 * 25});
        QCOMPARE(p.peak_total_bytes, std::uint64_t(875));
        c.state_bytes = 1001; // stored sizes round up
        QCOMPARE(c.stored_state_bytes(), std::uint64_t(251));
        // Two tiers: each counts its own slots.
        StepCosts disk = unit_costs(1, 1);
        disk.state_bytes = 10;
        disk.tiers = {TierCosts{}, TierCosts{3, 3, 0, 0}};
        const auto plan = MultiLevelSchedule(2, 30, disk).plan(400);
        const Prediction m = predict(plan, 400, disk);
        QCOMPARE(m.peak_bytes.size(), std::size_t(2));
        QCOMPARE(m.peak_bytes[0], std::uint64_t(m.counts.peak_slots[0]) * 10);
        QCOMPARE(m.peak_bytes[1], std::uint64_t(m.counts.peak_slots[1]) * 10);
        QVERIFY(m.peak_bytes[1] > 0);
        QVERIFY(close(m.store_s, 3.0 * double(m.counts.writes[1])));
        QVERIFY(close(m.load_s, 3.0 * double(m.counts.reads[1])));
    }

    void sampling_interval_keeps_every_kth_snapshot() {
        StepCosts c = unit_costs(1, 1);
        c.snapshot_bytes = 64;
        c.sampling_interval = 3;
        c.tiers = {TierCosts{0.5, 0.25, 0, 0}};
        const Prediction p = predict(StoreAllSchedule().plan(10), 10, c); // steps 0, 3, 6, 9
        QCOMPARE(p.peak_bytes, std::vector<std::uint64_t>{4 * 64});
        QVERIFY(close(p.store_s, 4 * 0.5));
        QVERIFY(close(p.load_s, 4 * 0.25));
    }

    void slots_for_budget_with_compression() {
        QCOMPARE(slots_for_budget(1000, 100, 1), std::int64_t(10));
        QCOMPARE(slots_for_budget(999, 100, 1), std::int64_t(9));
        QCOMPARE(slots_for_budget(1000, 100, 4), std::int64_t(40)); // F times more states fit
        QCOMPARE(slots_for_budget(1000, 100, 3), std::int64_t(29)); // stored size ceil(100/3) = 34
        QCOMPARE(slots_for_budget(0, 100, 2), std::int64_t(0));
        QCOMPARE(slots_for_budget(std::numeric_limits<std::uint64_t>::max(), 1, 1),
                 std::int64_t(std::numeric_limits<std::uint64_t>::max())); // no overflow before the cast
        QVERIFY_THROWS_EXCEPTION(ConfigError, slots_for_budget(1000, 0, 1));
        QVERIFY_THROWS_EXCEPTION(ConfigError, slots_for_budget(1000, 100, 0.5));
        QVERIFY_THROWS_EXCEPTION(ConfigError, slots_for_budget(1000, 100, std::nan("")));
    }

    void bad_costs_and_plans_throw() {
        StepCosts c;
        c.forward_step_s = -1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict({}, 0, c));
        c = StepCosts{};
        c.compression_ratio = 0.9;
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict({}, 0, c));
        c = StepCosts{};
        c.sampling_interval = 0;
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict({}, 0, c));
        c = StepCosts{};
        c.tiers = {TierCosts{0, 0, -1e-9, 0}};
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict({}, 0, c));
        c = StepCosts{};
        c.state_bytes = 0;
        QVERIFY_THROWS_EXCEPTION(ConfigError, predict({}, 0, c));
        QVERIFY_THROWS_EXCEPTION(PlanError, predict(RevolveSchedule(3).plan(10), 11, StepCosts{}));
    }
};

QTEST_APPLESS_MAIN(TestPerformanceModel)
#include "tst_performance_model.moc"
