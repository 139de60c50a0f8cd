// The inversion objective on the small synthetic problem (tests/support/inversion_setup.hpp): batching,
// random shot subsets, frequency stages, masks, illumination and the preconditioner, and strong Wolfe steps
// on the real misfit.
#include "fwi/error.hpp"
#include "fwi/objective.hpp"
#include "inversion_setup.hpp"
#include "test_setups.hpp"

#include <QtTest>
#include <omp.h>
#include <random>

using namespace fwi;
using namespace fwi::test;

namespace {

double max_abs(const std::vector<float>& v) {
    double m = 0;
    for (float x : v)
        m = std::max(m, double(std::abs(x)));
    return m;
}

} // namespace

class TestInversionObjective : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        // These grids are tiny (64 x 84 padded cells): per-step work is microseconds and OpenMP barriers
        // dominate, badly so when other processes share the 2 cores. One thread keeps the suite fast; results
        // do not depend on the thread count (the kernels have no reductions).
        omp_set_num_threads(1);
        problem_ = small_inversion();
        sim_ = std::make_unique<Simulation>(problem_.start.grid, problem_.acquisition, problem_.propagation,
                                            2600, "cpu");
    }

    void batches_give_the_same_gradient() {
        // Batches of 1, 3 and all 4 shots: the same misfit and gradient up to summation order. Shots are
        // summed in the same order; what differs is float (inside one batch) vs double (across batches)
        // accumulation, so the gradients agree to 1e-6 of their maximum and the misfits to 1e-12 relative.
        std::vector<float> g_all, g;
        ObjectiveOptions o;
        Objective all(*sim_, problem_.observed, problem_.start, o);
        const double j_all = all.evaluate(problem_.start, g_all);
        for (int b : {1, 3}) {
            o.batch_shots = b;
            Objective batched(*sim_, problem_.observed, problem_.start, o);
            const double j = batched.evaluate(problem_.start, g);
            double diff = 0;
            for (std::size_t i = 0; i < g.size(); ++i)
                diff = std::max(diff, double(std::abs(g[i] - g_all[i])));
            qInfo("batch %d: misfit %.12g vs %.12g, max |dg| / max |g| = %.3g", b, j, j_all,
                  diff / max_abs(g_all));
            QVERIFY(std::abs(j - j_all) <= 1e-12 * j_all);
            QVERIFY(diff <= 1e-6 * max_abs(g_all));
            QCOMPARE(batched.propagated_shots(), std::int64_t(4));
        }
    }

    void random_subsets_are_reproducible() {
        const std::vector<int> all{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        const auto a = random_shot_subset(all, 4, 7, 1, 3);
        QCOMPARE(a, random_shot_subset(all, 4, 7, 1, 3));
        QCOMPARE(int(a.size()), 4);
        QVERIFY(std::is_sorted(a.begin(), a.end()));
        QVERIFY(std::adjacent_find(a.begin(), a.end()) == a.end());
        int differing = 0;
        std::vector<int> hits(10, 0);
        for (int it = 0; it < 200; ++it) {
            const auto b = random_shot_subset(all, 4, 7, 1, it);
            differing += b != a;
            for (int s : b)
                ++hits[std::size_t(s)];
        }
        QVERIFY(differing > 150);
        for (int h : hits)
            QVERIFY(h > 40 && h < 120); // 80 expected per shot
        QVERIFY(random_shot_subset(all, 4, 8, 1, 3) != a || random_shot_subset(all, 4, 8, 1, 4) != a);
        QCOMPARE(random_shot_subset(all, 0, 7, 1, 3), all);
        QCOMPARE(random_shot_subset(all, 12, 7, 1, 3), all);
        // The objective uses them: a subset of 2 of 4 shots propagates 2 shots.
        ObjectiveOptions o;
        o.shots_per_iteration = 2;
        Objective obj(*sim_, problem_.observed, problem_.start, o);
        obj.select_shots(0, 5);
        QCOMPARE(obj.active_shots(), random_shot_subset({0, 1, 2, 3}, 2, 1, 0, 5));
        std::vector<float> g;
        obj.evaluate(problem_.start, g);
        QCOMPARE(obj.propagated_shots(), std::int64_t(2));
    }

    void frequency_stage_is_consistent() {
        // At the true model the filtered misfit vanishes (up to float rounding) when the filter is applied to
        // the modelled traces, at any cut-off; with the wavelet filtered instead it does not, for this Ricker
        // (15 Hz, delay 0.1 s): the zero-phase filter moves wavelet energy before t = 0, where it is lost.
        std::vector<float> g;
        for (bool filter_wavelet : {false, true}) {
            ObjectiveOptions o;
            o.filter_wavelet = filter_wavelet;
            Objective obj(*sim_, problem_.observed, problem_.start, o);
            for (double f : {6.0, 10.0}) {
                obj.set_frequency(f);
                const double at_truth = obj.evaluate(problem_.truth, g);
                const double at_start = obj.evaluate(problem_.start, g);
                qInfo("%s, %.0f Hz: misfit at the true model %.3g, at the start %.3g",
                      filter_wavelet ? "wavelet filtered" : "traces filtered", f, at_truth, at_start);
                if (!filter_wavelet) QVERIFY(at_truth < 1e-8 * at_start);
                if (filter_wavelet && f == 6.0) QVERIFY(at_truth > 0.1 * at_start);
            }
            obj.set_frequency(0);
            QVERIFY(obj.evaluate(problem_.truth, g) < 1e-10);
            const double j0 = obj.evaluate(problem_.start, g); // less energy in a filtered stage
            obj.set_frequency(6.0);
            QVERIFY(obj.evaluate(problem_.start, g) < j0);
            QVERIFY_THROWS_EXCEPTION(ConfigError, obj.set_frequency(-1));
        }
        QCOMPARE(sim_->wavelet(), ricker(15, 0.002, 250)); // the objectives gave the wavelet back
    }

    void filtered_misfit_gradient_is_exact() {
        // The stage's adjoint source is F^T of the base one: the gradient against a finite difference of J
        // along it.
        Objective obj(*sim_, problem_.observed, problem_.start, {});
        obj.set_frequency(8.0);
        std::vector<float> g, unused;
        const double j = obj.evaluate(problem_.start, g);
        double gg = 0;
        for (float v : g)
            gg += double(v) * v;
        const double h = 10.0 / max_abs(g); // a 10 m/s step along -g
        Model m = problem_.start;
        for (std::size_t i = 0; i < g.size(); ++i)
            m.vp_mps[i] -= float(h * g[i]);
        const double jh = obj.evaluate(m, unused);
        const double predicted = -h * gg;
        qInfo("J %.6g, J(m - h g) - J %.6g, predicted %.6g", j, jh - j, predicted);
        QVERIFY(std::abs((jh - j) - predicted) < 0.1 * std::abs(predicted));
    }

    void masks_fix_cells() {
        ObjectiveOptions o;
        o.mask.water_depth_m = 45; // rows 0..4
        o.mask.source_radius_m = 30;
        o.mask.water_velocity_mps = 0;
        Objective obj(*sim_, problem_.observed, problem_.start, o);
        std::vector<float> g;
        obj.evaluate(problem_.start, g);
        const auto& grid = problem_.start.grid;
        for (std::int64_t ix = 0; ix < grid.nx(); ++ix)
            for (std::int64_t iz = 0; iz < 5; ++iz)
                QCOMPARE(g[grid.index(iz, ix)], 0.0f);
        QVERIFY(g[grid.index(20, 30)] != 0.0f);
        // By velocity: a slow layer in the start model is fixed.
        Model layered = problem_.start;
        for (std::int64_t ix = 0; ix < grid.nx(); ++ix)
            layered.vp_mps[grid.index(30, ix)] = 1500;
        MaskOptions by_velocity;
        by_velocity.water_velocity_mps = 1510;
        const auto mask = build_mask(layered, problem_.acquisition, by_velocity);
        QCOMPARE(std::count(mask.begin(), mask.end(), 0.0f), std::ptrdiff_t(grid.nx()));
        // Source radius: cells within 30 m of (60, 30) m are fixed.
        const auto around = build_mask(problem_.start, problem_.acquisition, {0, 0, 30});
        QCOMPARE(around[grid.index(3, 6)], 0.0f);
        QCOMPARE(around[grid.index(3, 10)], 1.0f); // 40 m away
        QVERIFY_THROWS_EXCEPTION(ConfigError, build_mask(problem_.start, problem_.acquisition, {-1, 0, 0}));
        // A mask that fixes every cell leaves nothing to invert: refused. One cell below it is enough.
        const double depth = double(grid.nz() - 1) * grid.dz();
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 build_mask(problem_.start, problem_.acquisition, {depth + grid.dz(), 0, 0}));
        const auto last_row = build_mask(problem_.start, problem_.acquisition, {depth, 0, 0});
        QCOMPARE(std::count(last_row.begin(), last_row.end(), 1.0f), std::ptrdiff_t(grid.nx()));
    }

    void illumination_and_preconditioner() {
        // E is positive, largest near the sources; C is symmetric positive semi-definite and zero on masked
        // cells.
        ObjectiveOptions o;
        o.mask.source_radius_m = 25;
        o.preconditioner.smoothing_x_m = 30;
        o.preconditioner.smoothing_z_m = 20;
        Objective obj(*sim_, problem_.observed, problem_.start, o);
        const auto e = obj.source_illumination(problem_.start);
        const auto& grid = problem_.start.grid;
        QCOMPARE(e.size(), std::size_t(grid.cells()));
        for (double v : e)
            QVERIFY(v > 0);
        const auto imax = std::size_t(std::max_element(e.begin(), e.end()) - e.begin());
        const double zmax = double(std::int64_t(imax) / grid.nx()) * grid.dz();
        QVERIFY2(zmax < 80, qPrintable(QString::number(zmax))); // sources at 30 m depth
        obj.set_illumination(e);
        const Preconditioner c = obj.preconditioner();
        std::mt19937 gen(3);
        std::normal_distribution<double> d(0, 1);
        for (int trial = 0; trial < 3; ++trial) {
            std::vector<double> a(e.size()), b(e.size());
            for (auto& v : a)
                v = d(gen);
            for (auto& v : b)
                v = d(gen);
            auto ca = a, cb = b;
            c(ca);
            c(cb);
            double cab = 0, acb = 0, aca = 0;
            for (std::size_t i = 0; i < a.size(); ++i) {
                cab += ca[i] * b[i];
                acb += a[i] * cb[i];
                aca += a[i] * ca[i];
            }
            QVERIFY2(std::abs(cab - acb) <= 1e-12 * std::abs(aca),
                     qPrintable(QString("%1 %2").arg(cab).arg(acb)));
            QVERIFY(aca > 0);
            QCOMPARE(ca[grid.index(3, 6)], 0.0); // masked (source of shot 0)
        }
        // A constant field stays nearly constant in the interior of smoothing alone (kernel normalised to 1).
        std::vector<double> one(e.size(), 1.0);
        symmetric_gaussian_smooth(one, grid, 20, 30);
        QVERIFY(std::abs(one[grid.index(20, 30)] - 1) < 1e-12);
        QVERIFY(one[0] < 0.5); // the corner keeps about a quarter: zero outside (symmetry)
    }

    void illumination_scale_ignores_fixed_cells() {
        // D = 1 / (E / max E + eps) with max E over the cells the mask leaves free: a masked cell lit a
        // thousand times more (a source in the water) must not flatten D to 1/eps on the others.
        const Grid grid(1, 3, 10, 10);
        PreconditionerOptions o;
        o.illumination_epsilon = 0.01;
        const GradientPreconditioner c(grid, {0.0f, 1.0f, 1.0f}, {1000.0, 1.0, 0.5}, o);
        std::vector<double> v{1, 1, 1};
        c.apply(v);
        QCOMPARE(v[0], 0.0);
        QVERIFY2(std::abs(v[1] - 1 / 1.01) < 1e-12, qPrintable(QString::number(v[1])));
        QVERIFY2(std::abs(v[2] - 1 / 0.51) < 1e-12, qPrintable(QString::number(v[2])));
    }

    void line_search_satisfies_wolfe_on_the_misfit() {
        // L-BFGS on the real FWI misfit: every accepted step satisfies both strong Wolfe conditions.
        Objective obj(*sim_, problem_.observed, problem_.start, {});
        OptimizerOptions o;
        o.lower_bound = 1500;
        o.upper_bound = 2600;
        std::vector<std::vector<float>> points;
        const ObjectiveFunction f = obj.function();
        Optimizer opt(
            [&](const std::vector<float>& x, std::vector<float>& g) {
                points.push_back(x);
                return f(x, g);
            },
            problem_.start.vp_mps, o);
        for (int i = 0; i < 4; ++i) {
            const auto it = opt.iterate();
            const auto& r = it.line_search;
            qInfo("iteration %d: step %.3g, J %.6g -> %.6g, slope %.3g -> %.3g, %d evaluations, max |dv| "
                  "%.1f m/s",
                  it.iteration, r.step, r.value0, r.value, r.slope0, r.slope, r.evaluations,
                  r.max_abs_update);
            QCOMPARE(it.stop, StopReason::None);
            QVERIFY(r.value <= r.value0 + o.c1 * r.step * r.slope0);
            QVERIFY(std::abs(r.slope) <= 0.9 * std::abs(r.slope0));
        }
        // The first trial point moved max |dv| = 1% of the velocity range (11 m/s).
        double first = 0;
        for (std::size_t i = 0; i < points[1].size(); ++i)
            first = std::max(first, std::abs(double(points[1][i]) - problem_.start.vp_mps[i]));
        QVERIFY2(std::abs(first - 11.0) < 1e-3, qPrintable(QString::number(first)));
    }

    void bad_options() {
        ObjectiveOptions o;
        o.shots = {0, 7};
        QVERIFY_THROWS_EXCEPTION(ConfigError, Objective(*sim_, problem_.observed, problem_.start, o));
        o = {};
        o.shots_per_iteration = -2;
        QVERIFY_THROWS_EXCEPTION(ConfigError, Objective(*sim_, problem_.observed, problem_.start, o));
        o = {};
        o.preconditioner.illumination_epsilon = 0;
        QVERIFY_THROWS_EXCEPTION(ConfigError, Objective(*sim_, problem_.observed, problem_.start, o));
        o = {};
        o.misfit.window.end_s = -1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, Objective(*sim_, problem_.observed, problem_.start, o));
        auto wrong_dt = problem_.observed;
        wrong_dt[0].dt_s = 0.004;
        QVERIFY_THROWS_EXCEPTION(ConfigError, Objective(*sim_, wrong_dt, problem_.start, {}));
    }

  private:
    SmallInversion problem_;
    std::unique_ptr<Simulation> sim_;
};

QTEST_APPLESS_MAIN(TestInversionObjective)
#include "tst_inversion_objective.moc"
