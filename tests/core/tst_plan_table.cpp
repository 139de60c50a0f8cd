// The plan table and auto's choice, on the performance model: every schedule x codec row priced as predict()
// prices its plan, budgets turned into slots, rows that fit only at the probed ratio marked, the adaptive row
// (sized to fit whatever the data, priced at the probed ratio) offered and taken where it pays, the fastest
// row that fits chosen, a loud failure when nothing fits; the same table on any number of threads.
#include "fwi/error.hpp"
#include "fwi/performance_model.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <omp.h>
#include <vector>

using namespace fwi;

namespace {

bool close(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

PlanRequest fwi_request() {
    PlanRequest r;
    r.steps = 500;
    r.costs.forward_step_s = 1;
    r.costs.adjoint_step_s = 1.2;
    r.costs.state_bytes = 1'000'000;
    r.costs.snapshot_bytes = 250'000;
    r.costs.tiers = {TierCosts{0.001, 0.001, 1e-9, 1e-9}};
    r.budget_bytes = 20'000'000;
    r.codecs = {CodecEstimate{"none", 1, 0, 0, 0, 0},
                CodecEstimate{"zfp-accuracy:1e-5", 8, 0.05, 0.03, 0.05, 0.03}};
    return r;
}

} // namespace

class TestPlanTable : public QObject {
    Q_OBJECT
  private slots:
    void rows_that_fit_only_at_the_probed_ratio_are_marked() {
        // A budget, a codec that guarantees less than its probe measured, and a plan that would exceed the
        // budget at the guaranteed ratio: the run stops if its data compress worse. Unlimited budgets, the
        // guaranteed ratio of zfp-rate, adaptive rows (sized at the guaranteed ratio) and plans that fit even
        // uncompressed are never marked; store-all is marked like any other plan.
        PlanRequest r = fwi_request();
        const CodecEstimate zstd{"zstd", 8, 1e-3, 1e-3, 1e-3, 1e-3};
        r.codecs = {CodecEstimate{"none"}, zstd, CodecEstimate{"zfp-rate:8", 4, 1e-3, 1e-3, 1e-3, 1e-3}};
        const auto uncompressed_peak = [&](const PlanRow& row) {
            StepCosts c = r.costs;
            zstd.price(c);
            c.compression_ratio = 1;
            return predict(make_schedule(row.schedule)->plan(r.steps), r.steps, c).peak_bytes[0];
        };
        const auto row_of = [](const std::vector<PlanRow>& rows, const std::string& codec,
                               const std::string& prefix) {
            for (const PlanRow& row : rows)
                if (row.codec == codec && row.schedule.rfind(prefix, 0) == 0) return row;
            qFatal("no %s row", prefix.c_str());
        };
        for (const std::uint64_t budget : {std::uint64_t(20'000'000), std::uint64_t(200'000'000)}) {
            r.budget_bytes = budget;
            const auto rows = plan_table(r);
            for (const PlanRow& row : rows)
                QCOMPARE(row.fits_only_at_probed_ratio, row.codec == "zstd" && row.fits_budget &&
                                                            !is_adaptive_spec(row.schedule) &&
                                                            uncompressed_peak(row) > budget);
            const PlanRow all = row_of(rows, "zstd", "all"), revolve = row_of(rows, "zstd", "revolve:");
            QVERIFY(all.fits_budget && revolve.fits_budget && revolve.fits_only_at_probed_ratio);
            // 500 snapshots of 250 kB: 15.6 MB at ratio 8, 125 MB raw.
            QCOMPARE(all.fits_only_at_probed_ratio, budget == 20'000'000);
        }
        r.budget_bytes = 0;
        for (const PlanRow& row : plan_table(r))
            QVERIFY(!row.fits_only_at_probed_ratio);
    }

    void plan_table_rows() {
        const PlanRequest r = fwi_request();
        const auto rows = plan_table(r);
        QCOMPARE(rows.size(), std::size_t(9)); // 4 schedules x 2 codecs, adaptive for the lossy one
        QCOMPARE(rows[0].schedule, std::string("all"));
        QCOMPARE(rows[0].codec, std::string("none"));
        QCOMPARE(rows[0].speedup_vs_store_all, 1.0);
        QVERIFY(!rows[0].fits_budget);                         // 500 snapshots of 250 kB = 125 MB > 20 MB
        QCOMPARE(rows[2].schedule, std::string("revolve:20")); // 20 MB / 1 MB
        QCOMPARE(rows[3].schedule, std::string("online:20"));
        QCOMPARE(rows[4].schedule, std::string("all"));
        QCOMPARE(rows[4].codec, std::string("zfp-accuracy:1e-5"));
        QVERIFY(rows[4].fits_budget);                           // 500 x 31.25 kB = 15.6 MB
        QCOMPARE(rows[6].schedule, std::string("revolve:160")); // 8 times more states fit
        QCOMPARE(rows[7].schedule, std::string("adaptive:20")); // sized as revolve:20 uncompressed
        QCOMPARE(rows[8].schedule, std::string("online:160"));
        for (const PlanRow& row : rows) {
            QCOMPARE(row.fits_budget, row.peak_bytes[0] <= r.budget_bytes);
            QCOMPARE(row.predicted_s, row.prediction.total_s);
            QVERIFY(close(row.speedup_vs_store_all, rows[0].predicted_s / row.predicted_s));
            // The spec rebuilds the plan that was priced.
            StepCosts c = r.costs;
            c.snapshots_in_place = row.codec == "none"; // uncompressed snapshots are kept in place
            for (const CodecEstimate& e : r.codecs)
                if (e.codec == row.codec) {
                    c.compression_ratio = e.ratio;
                    e.price(c);
                }
            if (is_adaptive_spec(row.schedule)) {
                // Built as a run builds it (slots at the guaranteed ratio), priced at the probed one, its
                // states coded on the caller's thread (no staging copy).
                StepCosts safe = c;
                safe.compression_ratio = 1;
                const auto adaptive = make_adaptive_schedule(row.schedule, safe, 0);
                StepCosts synchronous = c;
                synchronous.coded_on_caller = true;
                const auto plan = adaptive->expected_plan(r.steps, c.stored_state_bytes());
                QVERIFY(close(predict(plan, r.steps, synchronous).total_s, row.predicted_s));
                QVERIFY(predict(plan, r.steps, c).total_s > row.predicted_s);
                continue;
            }
            QVERIFY(close(predict(make_schedule(row.schedule, c)->plan(r.steps), r.steps, c).total_s,
                          row.predicted_s));
        }
        // Each uniform row is the fastest uniform:K that fits (uniform:K-1 does not), or no K fits at all.
        for (const PlanRow& row : {rows[1], rows[5]}) {
            StepCosts c = r.costs;
            c.compression_ratio = row.codec == "none" ? 1 : 8;
            auto fits = [&](std::int64_t k) {
                return predict(UniformSchedule(k).plan(r.steps), r.steps, c).peak_bytes[0] <= r.budget_bytes;
            };
            if (row.fits_budget) {
                QVERIFY(row.ram_slots == 1 || !fits(row.ram_slots - 1));
            } else {
                for (std::int64_t k = 1; k < r.steps; ++k)
                    QVERIFY(!fits(k));
            }
        }
        QVERIFY(!rows[1].fits_budget); // uncompressed, uniform needs > 21 MB whatever K
        QVERIFY(rows[5].fits_budget);
    }

    // auto's request (slots at the guaranteed ratio) with a lossless codec that compresses 4x: revolve:S
    // holds S raw states, adaptive:S starts there and takes more slots as the small states arrive. Its
    // pessimistic plan (every state raw) fits, so it fits whatever the data; at the probed ratio it
    // recomputes less and costs less than revolve:S at the same prices, and auto takes it.
    void auto_takes_the_adaptive_row_where_compression_pays() {
        PlanRequest r = fwi_request();
        r.budget_bytes = 10'000'000; // 10 raw states
        r.codecs = {CodecEstimate{"zstd", 4, 1e-3, 1e-3, 1e-3, 1e-3}};
        r.size_with_guaranteed_ratio = true;
        const auto rows = plan_table(r);
        const auto find = [&](const std::string& prefix) {
            const auto it = std::find_if(rows.begin(), rows.end(), [&](const PlanRow& row) {
                return row.schedule.rfind(prefix, 0) == 0;
            });
            if (it == rows.end()) qFatal("no %s row", prefix.c_str());
            return *it;
        };
        const PlanRow revolve = find("revolve:"), adaptive = find("adaptive:");
        QCOMPARE(revolve.schedule, std::string("revolve:10"));
        QVERIFY(adaptive.ram_slots <= revolve.ram_slots && adaptive.ram_slots >= revolve.ram_slots - 2);
        QVERIFY(adaptive.fits_budget);
        for (const PlanRow& row : rows) { // sized to surely fit: peaks at ratio 1, times at 4
            QVERIFY(!row.fits_only_at_probed_ratio);
            QCOMPARE(row.fits_budget, row.peak_bytes[0] <= r.budget_bytes);
            QVERIFY(row.prediction.peak_bytes[0] <= row.peak_bytes[0]);
        }
        StepCosts safe = r.costs; // as the run sizes its slots: ratio 1
        r.codecs[0].price(safe);
        const auto schedule = make_adaptive_schedule(adaptive.schedule, safe, 0);
        QVERIFY(predict(schedule->plan(r.steps), r.steps, safe).peak_bytes[0] <= r.budget_bytes);
        const std::int64_t recomputed =
            adaptive.prediction.counts.advance_steps + adaptive.prediction.counts.reverse_forward_steps;
        const std::int64_t revolve_recomputed =
            revolve.prediction.counts.advance_steps + revolve.prediction.counts.reverse_forward_steps;
        qInfo("%s: %lld steps computed, %.0f s; %s: %lld, %.0f s", adaptive.schedule.c_str(),
              (long long)recomputed, adaptive.predicted_s, revolve.schedule.c_str(),
              (long long)revolve_recomputed, revolve.predicted_s);
        QVERIFY(recomputed < revolve_recomputed * 0.8);
        QVERIFY(adaptive.predicted_s < revolve.predicted_s);
        QCOMPARE(choose_auto(r, rows).schedule, adaptive.schedule);
        // Its states, every one at the worst size, never exceed its budget (the run's guarantee).
        QVERIFY(
            replay_adaptive(*schedule, r.steps, std::vector<std::uint64_t>(std::size_t(r.steps), 1'000'000))
                .peak_held_bytes <= r.budget_bytes);

        // No adaptive row where it would be revolve:S: no budget, no compression, or a codec whose ratio is
        // guaranteed (zfp-rate sizes its slots at its ratio already) and whose stores cost less than a step.
        const auto has_adaptive = [](const PlanRequest& request) {
            for (const PlanRow& row : plan_table(request))
                if (is_adaptive_spec(row.schedule)) return true;
            return false;
        };
        PlanRequest unlimited = r;
        unlimited.budget_bytes = 0;
        QVERIFY(!has_adaptive(unlimited));
        PlanRequest plain = r;
        plain.codecs = {CodecEstimate{"none"}, CodecEstimate{"zfp-rate:8", 4, 1e-3, 1e-3, 1e-3, 1e-3}};
        QVERIFY(!has_adaptive(plain));
        // A codec far costlier than a step: the priced schedule takes an extra slot only where it saves
        // stores, so it stores fewer states than revolve:S (an unpriced one would store more).
        PlanRequest costly = r;
        costly.codecs[0].state_compress_s = costly.codecs[0].state_decompress_s = 20;
        const auto costly_rows = plan_table(costly);
        const auto costly_revolve =
            std::find_if(costly_rows.begin(), costly_rows.end(),
                         [](const PlanRow& row) { return row.schedule.rfind("revolve:", 0) == 0; });
        const auto costly_adaptive = costly_revolve + 1;
        QVERIFY(is_adaptive_spec(costly_adaptive->schedule));
        QVERIFY(costly_adaptive->prediction.counts.writes[0] < costly_revolve->prediction.counts.writes[0]);
        QVERIFY(costly_adaptive->predicted_s < costly_revolve->predicted_s);
        // The same with a codec that compresses exactly as it guarantees: no slot to gain, but fewer pay.
        PlanRequest costly_rate = r;
        costly_rate.codecs = {CodecEstimate{"zfp-rate:8", 4, 1e-3, 1e-3, 20, 20}};
        const auto rate_rows = plan_table(costly_rate);
        const auto rate_revolve = std::find_if(rate_rows.begin(), rate_rows.end(), [](const PlanRow& row) {
            return row.schedule.rfind("revolve:", 0) == 0;
        });
        const auto rate_adaptive = rate_revolve + 1;
        QVERIFY(is_adaptive_spec(rate_adaptive->schedule));
        QCOMPARE(rate_adaptive->ram_slots, rate_revolve->ram_slots);
        QVERIFY(rate_adaptive->prediction.counts.writes[0] < rate_revolve->prediction.counts.writes[0]);
        QVERIFY(rate_adaptive->predicted_s < rate_revolve->predicted_s);
        QVERIFY(rate_adaptive->fits_budget);
    }

    void uniform_row_with_sampling() {
        PlanRequest r = fwi_request();
        r.costs.sampling_interval = 4;
        r.budget_bytes = 12'000'000;
        r.codecs = {CodecEstimate{}};
        const PlanRow row = plan_table(r)[1];
        QCOMPARE(row.schedule.rfind("uniform:", 0), std::size_t(0));
        QVERIFY(row.fits_budget);
        QVERIFY(row.peak_bytes[0] <= r.budget_bytes);
        const Prediction smaller =
            predict(UniformSchedule(row.ram_slots - 1).plan(r.steps), r.steps, r.costs);
        QVERIFY(smaller.peak_bytes[0] > r.budget_bytes);
    }

    void auto_choice_is_fastest_fitting() {
        const PlanRequest r = fwi_request();
        const auto rows = plan_table(r);
        const PlanRow best = choose_auto(r);
        QVERIFY(best.fits_budget);
        for (const PlanRow& row : rows)
            if (row.fits_budget) QVERIFY(best.predicted_s <= row.predicted_s);
        // Unlimited memory: storing everything uncompressed is fastest.
        PlanRequest unlimited = r;
        unlimited.budget_bytes = 0;
        QCOMPARE(choose_auto(unlimited).schedule, std::string("all"));
        QCOMPARE(choose_auto(unlimited).codec, std::string("none"));
    }

    // Compression pays when a step costs more than compress + decompress (Kukreja, GMD 2022), not otherwise.
    void compression_pays_only_for_costly_steps() {
        PlanRequest r = fwi_request();
        r.budget_bytes = 5'000'000; // 5 uncompressed states, 40 compressed
        r.codecs = {CodecEstimate{"none", 1, 0, 0, 0, 0}, CodecEstimate{"zfp", 8, 0.05, 0.05, 0.05, 0.05}};
        const auto cheap_codec = plan_table(r);
        QVERIFY(cheap_codec[6].predicted_s < cheap_codec[2].predicted_s);  // revolve:40 zfp beats revolve:5
        r.codecs[1].state_compress_s = r.codecs[1].state_decompress_s = 5; // codec far costlier than a step
        const auto costly_codec = plan_table(r);
        QVERIFY(costly_codec[6].predicted_s > costly_codec[2].predicted_s);
    }

    void disk_tier_rows() {
        PlanRequest r = fwi_request();
        r.budget_bytes = 3'000'000;
        r.disk_tier = true;
        r.disk_budget_bytes = 60'000'000;
        r.costs.tiers.push_back(TierCosts{2, 2, 0, 0});
        r.codecs = {CodecEstimate{}};
        const auto rows = plan_table(r);
        QCOMPARE(rows.back().schedule, std::string("multilevel:3,60"));
        QCOMPARE(rows.back().disk_slots, std::int64_t(60));
        QVERIFY(rows.back().fits_budget);
        QVERIFY(rows.back().peak_bytes[1] <= r.disk_budget_bytes);
        QVERIFY(rows.back().predicted_s < rows[2].predicted_s); // beats revolve:3 in RAM alone
        QCOMPARE(choose_auto(r).schedule, std::string("multilevel:3,60"));
    }

    void plan_table_is_the_same_on_any_thread_count() {
        // Multilevel rows fill their tables on the OpenMP threads of idle cores (tst_two_tier_schedule forces
        // the thread counts): the table equals the one-thread table row for row, bit for bit, in codec order.
        PlanRequest r = fwi_request();
        r.steps = 900;
        r.budget_bytes = 3'000'000;
        r.disk_tier = true;
        r.disk_budget_bytes = 30'000'000;
        r.costs.tiers.push_back(TierCosts{2, 2, 0, 0});
        r.codecs = {CodecEstimate{"none", 1, 0, 0, 0, 0}, CodecEstimate{"lz4", 2, 0.01, 0.005, 0.01, 0.005},
                    CodecEstimate{"zfp-accuracy:1e-5", 8, 0.05, 0.03, 0.05, 0.03}};
        const int threads = omp_get_max_threads();
        omp_set_num_threads(1);
        const auto alone = plan_table(r);
        omp_set_num_threads(2);
        const auto shared = plan_table(r);
        omp_set_num_threads(threads);
        QCOMPARE(shared.size(), alone.size());
        // all, uniform, revolve, online, multilevel per codec; adaptive for the two that beat their guarantee
        QCOMPARE(alone.size(), std::size_t(3 * 5 + 2));
        for (std::size_t i = 0; i < alone.size(); ++i) {
            QCOMPARE(shared[i].schedule, alone[i].schedule);
            QCOMPARE(shared[i].codec, alone[i].codec);
            QCOMPARE(shared[i].predicted_s, alone[i].predicted_s);
            QVERIFY(shared[i].peak_bytes == alone[i].peak_bytes);
            QCOMPARE(shared[i].fits_budget, alone[i].fits_budget);
        }
        QCOMPARE(alone.back().schedule.rfind("multilevel:", 0), std::size_t(0));
    }

    void nothing_fits() {
        PlanRequest r = fwi_request();
        r.budget_bytes = 100'000; // not even one state
        try {
            choose_auto(r);
            QFAIL("no schedule fits, yet one was chosen");
        } catch (const ResourceError& e) {
            QVERIFY2(QString(e.what()).contains("100000 bytes"), e.what());
        }
        r.steps = 0;
        QVERIFY_THROWS_EXCEPTION(ConfigError, plan_table(r));
        r = fwi_request();
        r.codecs = {CodecEstimate{"broken", 0.5, 0, 0, 0, 0}};
        try {
            plan_table(r);
            QFAIL("accepted a ratio below 1");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("broken"), e.what());
        }
    }

    void realistic_sizes_are_fast() {
        // 10 000 steps, a budget of 50 states and a disk of 400: the whole table in well under a second.
        PlanRequest r = fwi_request();
        r.steps = 10'000;
        r.budget_bytes = 50'000'000;
        r.disk_tier = true;
        r.disk_budget_bytes = 400'000'000;
        r.costs.tiers.push_back(TierCosts{5, 5, 0, 0});
        QElapsedTimer timer;
        timer.start();
        const auto rows = plan_table(r);
        qInfo("plan table for 10 000 steps: %lld ms", (long long)timer.elapsed());
        QCOMPARE(rows.size(), std::size_t(11));
        QVERIFY(choose_auto(r).fits_budget);
    }
};

QTEST_APPLESS_MAIN(TestPlanTable)
#include "tst_plan_table.moc"
