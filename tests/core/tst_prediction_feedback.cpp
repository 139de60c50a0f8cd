// The performance model's self-check feeds back: what a run measured (step times, first touch, a codec's
// ratio and per-item times) replaces the calibration's probes in later predictions of the same process for
// the same grid and codec, and nothing else (another codec's calibration, or step times slowed by store
// workers). A real gradient reports measured costs in the same units the calibration uses.
#include "engine/store_codec_timing.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/simulation.hpp"
#include "test_setups.hpp"

#include <QtTest>

#include <omp.h>

using namespace fwi;
using namespace fwi::test;

namespace {

Simulation small_simulation(const Model& model) {
    Acquisition acq;
    acq.shots.push_back({{500, 20}, line_of_points(10, 20, 990, 40)});
    Simulation sim(model.grid, acq, settings(4, 10, 0.002, 300, 10), 3000, "cpu");
    sim.set_model(model);
    return sim;
}

RunMeasurement::Steps steps(double seconds_each, std::int64_t count) {
    return {seconds_each * double(count), count};
}

} // namespace

class TestPredictionFeedback : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { qputenv("FWI_CALIBRATION_CACHE", "off"); }

    void measured_costs_replace_the_probes() {
        const Model model = blob_model(60, 100, 10);
        Simulation sim = small_simulation(model);
        GradientSettings s;
        s.schedule = "revolve:4";
        const StepCosts probed = resolve_plan(sim, s).costs;

        RunMeasurement m;
        m.forward = steps(3e-3, 500);
        m.snapshot_forward = steps(5e-3, 200);
        m.adjoint = steps(7e-3, 300);
        m.recompute = steps(2e-3, 400);
        m.fresh_touched_bytes = std::uint64_t(128) << 20;
        m.touch_seconds = 0.25;
        learn_from_run(sim, "none", m);
        const StepCosts learnt = resolve_plan(sim, s).costs;
        QCOMPARE(learnt.forward_step_s, 3e-3);
        QCOMPARE(learnt.recompute_price(), 2e-3); // recomputations apart from first computations
        QVERIFY(qAbs(learnt.snapshot_write_s - 2e-3) < 1e-12);
        QCOMPARE(learnt.adjoint_step_s, 7e-3);
        QCOMPARE(learnt.first_touch_s_per_byte, 0.25 / double(std::uint64_t(128) << 20));

        // Too few steps or too little memory to trust: the probes stay.
        Simulation other = small_simulation(blob_model(60, 120, 10)); // another grid: its own calibration
        const StepCosts other_probed = resolve_plan(other, s).costs;
        RunMeasurement few;
        few.forward = steps(1.0, 99);
        few.fresh_touched_bytes = 1 << 20;
        few.touch_seconds = 5;
        learn_from_run(other, "none", few);
        QCOMPARE(resolve_plan(other, s).costs.forward_step_s, other_probed.forward_step_s);
        QCOMPARE(resolve_plan(other, s).costs.first_touch_s_per_byte, other_probed.first_touch_s_per_byte);

        // Steps slowed by store workers are not learnt.
        RunMeasurement busy;
        busy.forward = steps(1.0, 1000);
        busy.store_workers = true;
        learn_from_run(sim, "none", busy);
        QCOMPARE(resolve_plan(sim, s).costs.forward_step_s, 3e-3);
        QVERIFY(probed.forward_step_s != 3e-3);
    }

    /// A store-all run has no plain forward steps: its snapshot steps price forward + write together, split
    /// as before. A forward price learnt too high (a busy run) came down with them; it used to stay, with the
    /// write clamped at 0, and every later store-all was over-predicted (2-3x on a small project).
    void snapshot_steps_alone_rescale_forward_and_write() {
        Simulation sim = small_simulation(blob_model(60, 110, 10));
        GradientSettings s;
        RunMeasurement busy;
        busy.forward = steps(4e-3, 1000);
        busy.snapshot_forward = steps(5e-3, 1000);
        busy.adjoint = steps(6e-3, 1000);
        resolve_plan(sim, s);
        learn_from_run(sim, "none", busy);
        StepCosts c = resolve_plan(sim, s).costs;
        QCOMPARE(c.forward_step_s, 4e-3);
        QVERIFY(qAbs(c.snapshot_write_s - 1e-3) < 1e-12);

        RunMeasurement store_all; // a quiet run: snapshot steps only, 2.5x faster
        store_all.snapshot_forward = steps(2e-3, 900);
        store_all.adjoint = steps(2.4e-3, 900);
        learn_from_run(sim, "none", store_all);
        c = resolve_plan(sim, s).costs;
        QVERIFY2(qAbs(c.forward_step_s - 1.6e-3) < 1e-12, qPrintable(QString::number(c.forward_step_s)));
        QVERIFY(qAbs(c.snapshot_write_s - 0.4e-3) < 1e-12);
        QCOMPARE(c.adjoint_step_s, 2.4e-3);
        // What the store-all run measured is what its next prediction charges per forward step.
        QVERIFY(qAbs(c.forward_step_s + c.snapshot_write_s - 2e-3) < 1e-12);
    }

    void a_codec_learns_its_real_ratio_and_times() {
        struct EightThreads { // the whole test: the calibration is per thread count
            int saved = omp_get_max_threads();
            EightThreads() { omp_set_num_threads(8); }
            ~EightThreads() { omp_set_num_threads(saved); }
        } eight;
        const Model model = blob_model(60, 100, 10);
        Simulation sim = small_simulation(model);
        GradientSettings s;
        s.schedule = "revolve:4";
        s.compression = "zstd";
        GradientSettings uncompressed;
        uncompressed.schedule = "revolve:4";
        const StepCosts none_before = resolve_plan(sim, uncompressed).costs;
        const StepCosts probed = resolve_plan(sim, s).costs; // a run resolves (and calibrates) first
        QCOMPARE(calibrated_codec(sim, "zstd").source, std::string("wavefields")); // fwi plan says so
        RunMeasurement m; // 10 states and 20 snapshots stored, 20 of each loaded
        m.items_stored = 30;
        m.states_stored = 10;
        m.items_loaded = 40;
        m.states_loaded = 20;
        m.compress_seconds = 0.4; // on single-threaded workers
        m.state_compress_seconds = 0.3;
        m.decompress_seconds = 0.1;
        m.state_decompress_seconds = 0.06;
        m.compression_ratio = 3.5;
        learn_from_run(sim, "zstd", m);
        // On 8 threads the store still compresses on its two workers: two items at a time, not eight (the
        // model priced compression 8x too cheap on a 16-core machine when it divided by the team).
        QCOMPARE(store_worker_threads, 2);
        const StepCosts learnt = resolve_plan(sim, s).costs;
        // States and snapshots are priced apart (a 3D state codes unlike a snapshot).
        QVERIFY2(qAbs(learnt.state_compress_s - 0.03 / 2) < 1e-12,
                 qPrintable(QString::number(learnt.state_compress_s)));
        QVERIFY(qAbs(learnt.compress_s - 0.005 / 2) < 1e-12);
        QVERIFY(qAbs(learnt.state_decompress_s - 0.003) < 1e-12);
        QVERIFY(qAbs(learnt.decompress_s - 0.002) < 1e-12);
        QVERIFY(probed.decompress_s != learnt.decompress_s);
        QCOMPARE(calibrated_codec(sim, "zstd").source, std::string("learnt"));
        // Slots are still sized pessimistically (a lossless ratio is not guaranteed): the ratio only prices.
        QCOMPARE(learnt.compression_ratio, 1.0);
        // The uncompressed calibration is untouched.
        QCOMPARE(resolve_plan(sim, uncompressed).costs.forward_step_s, none_before.forward_step_s);
    }

    // Slots are sized at the safe ratio (1 for a lossless codec), but the prediction prices what the run will
    // hold, copy and touch: the compressed bytes at the expected ratio.
    void a_compressed_run_is_priced_at_its_expected_ratio() {
        const Model model = blob_model(60, 100, 10);
        Simulation sim = small_simulation(model);
        GradientSettings none;
        none.schedule = "all";
        GradientSettings zstd = none;
        zstd.compression = "zstd";
        (void)resolve_plan(sim, zstd); // calibrates
        RunMeasurement m;
        m.items_stored = 10;
        m.items_loaded = 10;
        m.compress_seconds = 0.01;
        m.decompress_seconds = 0.01;
        m.compression_ratio = 4.0;
        learn_from_run(sim, "zstd", m);
        const ResolvedPlan compressed = resolve_plan(sim, zstd);
        const ResolvedPlan raw = resolve_plan(sim, none);
        QCOMPARE(compressed.costs.compression_ratio, 1.0); // the schedule's sizing stays safe
        const double ratio =
            double(raw.prediction.peak_total_bytes) / double(compressed.prediction.peak_total_bytes);
        QVERIFY2(ratio > 3.9 && ratio < 4.0, qPrintable(QString::number(ratio))); // 4, less the frame headers
    }

    // The first estimate of a codec codes the run's own snapshots when the propagation fits the time allowed,
    // and leaves the answer to the synthetic probe otherwise.
    void a_codec_is_first_probed_on_the_run_s_wavefields() {
        const Model model = blob_model(60, 100, 10);
        Simulation sim = small_simulation(model);
        QVERIFY(!estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 0.0)); // no time at all
        const std::optional<CodecEstimate> real =
            estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 60.0);
        QVERIFY(real.has_value());
        QVERIFY(real->ratio > 1 && real->compress_s > 0 && real->decompress_s > 0);
        // States are coded too (their fields: u, u^(n-1), the PML strips), and priced apart from snapshots.
        QVERIFY(real->state_compress_s > 0 && real->state_decompress_s > 0);
        QVERIFY(real->state_compress_s != real->compress_s);
        QCOMPARE(probe_codec(sim, "zfp-accuracy:1e-5").ratio, real->ratio); // within its time
        // The synthetic front codes differently under this absolute tolerance.
        QVERIFY(estimate_codec("zfp-accuracy:1e-5", sim.propagator().padded()).ratio != real->ratio);
        QCOMPARE(real->source, std::string("wavefields"));
        QCOMPARE(estimate_codec("zfp-accuracy:1e-5", sim.propagator().padded()).source,
                 std::string("synthetic"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, estimate_codec_on_wavefields(sim, "zfp-bogus", 60.0));
        // A slower propagation is still probed where the run's coding dwarfs it: a quarter of coding and
        // decoding one synthetic snapshot per step, never under wavefield_probe_seconds.
        CodecEstimate synthetic{"zfp-accuracy:1e-5", 20, 0.300, 0.100, 0, 0};
        QCOMPARE(wavefield_probe_budget(synthetic, 1000), 0.25 * 1000 * 0.400);
        synthetic.compress_s = synthetic.decompress_s = 1e-4;
        QCOMPARE(wavefield_probe_budget(synthetic, 1000), wavefield_probe_seconds);
    }

    // `fwi plan` compares codecs on one propagation of the run's wavefields: a codec listed first whose probe
    // cannot pay for the propagation codes the fields that the probe of a costlier codec listed after it
    // propagates (priced in the order listed alone, it kept the synthetic fields' figures). Known
    // calibrations are answered as they are, and every answer comes back in the order asked.
    void codecs_compared_share_one_wavefield_probe() {
        // A grid of its own (60 x 130): no other test's calibration or kept fields apply to it.
        Simulation sim = small_simulation(blob_model(60, 130, 10));
        const auto probe = [&sim](const std::string& spec) {
            return probe_codec(sim, spec, spec == "lz4" ? 0.0 : 60.0); // lz4 may not propagate at all
        };
        QCOMPARE(probe("lz4").source, std::string("synthetic")); // alone
        const StepCosts steps = measure_step_costs(sim);
        const std::vector<CodecEstimate> all =
            calibrated_codecs(sim, {"lz4", "none", "zfp-accuracy:1e-5"}, steps, probe);
        QCOMPARE(int(all.size()), 3);
        QCOMPARE(all[0].codec, std::string("lz4"));
        QCOMPARE(all[0].source, std::string("wavefields"));
        QCOMPARE(all[1].codec, std::string("none"));
        QCOMPARE(all[2].source, std::string("wavefields"));
        QVERIFY(all[2].codec.rfind("zfp-accuracy", 0) == 0);
        // On the same fields, alone or compared, a codec gets the same ratio.
        QCOMPARE(probe("lz4").ratio, all[0].ratio);
        // Kept as the run's calibration: a gradient with lz4 prices what `fwi plan` showed.
        const std::optional<Calibration> kept = known_calibration(sim, "lz4");
        QVERIFY(kept.has_value());
        QCOMPARE(kept->codec.source, std::string("wavefields"));
        QCOMPARE(kept->codec.ratio, all[0].ratio);
        QCOMPARE(kept->steps.forward_step_s, steps.forward_step_s);
        // A calibration this process holds (here refined by a run) is the answer, not a new probe.
        RunMeasurement m;
        m.items_stored = m.items_loaded = 8;
        m.compression_ratio = 1.25;
        learn_from_run(sim, "lz4", m);
        const CodecEstimate learnt = calibrated_codecs(sim, {"zfp-accuracy:1e-5", "lz4"}, steps, probe)[1];
        QCOMPARE(learnt.source, std::string("learnt"));
        QCOMPARE(learnt.ratio, 1.25);
    }

    // The fields a probe keeps for the next codec are those of the simulation's current model and wavelet:
    // after set_model or set_wavelet a probe allowed no propagation finds none (keyed by the simulation's
    // address, they were the old model's, also for the next simulation built at the same place).
    void kept_wavefields_follow_the_model_and_wavelet() {
        Simulation sim = small_simulation(blob_model(60, 140, 10));
        const std::optional<CodecEstimate> first =
            estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 60.0);
        QVERIFY(first.has_value());
        QCOMPARE(estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 0.0)->ratio, first->ratio); // kept
        sim.set_model(constant_model(60, 140, 10, 2000));
        QVERIFY(!estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 0.0));
        const std::optional<CodecEstimate> other =
            estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 60.0);
        QVERIFY(other.has_value() && other->ratio != first->ratio);
        std::vector<float> weaker = sim.wavelet();
        for (float& w : weaker)
            w *= 0.25f;
        sim.set_wavelet(weaker);
        QVERIFY(!estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 0.0));
        // Under an absolute tolerance a weaker source codes better.
        QVERIFY(estimate_codec_on_wavefields(sim, "zfp-accuracy:1e-5", 60.0)->ratio > other->ratio);
    }

    // A worker's compression beside a CPU team that fills every core is charged 1.5x its time alone (between
    // sharing the cores' time, 1x, and stalling the team's barrier, 2x); beside a GPU propagation, or with a
    // core left free per worker, 1x.
    void compression_is_charged_for_sharing_the_cores() {
        const int saved = omp_get_max_threads();
        omp_set_num_threads(omp_get_num_procs());
        QCOMPARE(store_codec_core_sharing(true), 1.5);
        QCOMPARE(store_codec_core_sharing(false), 1.0);
        // One team thread: the model counts one worker at a time (store_codec_parallelism), each with a core.
        omp_set_num_threads(1);
        if (omp_get_num_procs() >= 2) QCOMPARE(store_codec_core_sharing(true), 1.0);
        omp_set_num_threads(saved);
    }

    // The calibration a run prices itself by is kept per codec, whatever the spec's spelling, and can be read
    // back without measuring (the desktop's prediction does after each run).
    void a_calibration_is_known_under_the_codec_s_canonical_name() {
        const Model model = blob_model(60, 100, 10);
        Simulation sim = small_simulation(model); // blosc: no other test of this process calibrates it
        QVERIFY(!known_calibration(sim, "blosc:5"));
        const Calibration c = run_calibration(sim, "blosc");
        const std::optional<Calibration> known = known_calibration(sim, "blosc:5");
        QVERIFY(known.has_value());
        QCOMPARE(known->codec.ratio, c.codec.ratio);
        QCOMPARE(known->steps.forward_step_s, c.steps.forward_step_s);
        QVERIFY(!known_calibration(sim, "blosc:9"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, known_calibration(sim, "zstd:99"));
    }

    void a_gradient_reports_its_measurements_and_the_next_prediction_uses_them() {
        const Model model = blob_model(60, 100, 10);
        Simulation sim = small_simulation(model);
        const std::vector<Gather> observed = sim.forward();
        GradientOptions o;
        o.settings.schedule = "revolve:3";
        const GradientResult g = compute_gradient(sim, model, observed, o);
        QVERIFY(g.predicted_seconds > 0);
        const StepCosts after = resolve_plan(sim, o.settings).costs;
        // Learnt from the run: a per-step time, positive and far below the whole run's time.
        QVERIFY(after.forward_step_s > 0);
        QVERIFY(after.forward_step_s * 100 < g.seconds);
        QVERIFY(after.adjoint_step_s > 0);
        QVERIFY(after.adjoint_step_s * 100 < g.seconds);
    }
};

QTEST_GUILESS_MAIN(TestPredictionFeedback)
#include "tst_prediction_feedback.moc"
