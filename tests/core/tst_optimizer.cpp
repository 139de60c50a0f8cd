// The optimiser on analytic functions: L-BFGS / CG / gradient descent on Rosenbrock and quadratics, the
// strong Wolfe conditions on every accepted step, bounds, first-step scaling, preconditioning, resume bit for
// bit, cancel, errors.
#include "fwi/error.hpp"
#include "fwi/optimizer.hpp"

#include <QtTest>
#include <cmath>

using namespace fwi;

namespace {

/// Extended Rosenbrock sum_i 100 (x_{2i+1} - x_{2i}^2)^2 + (1 - x_{2i})^2, minimum 0 at (1, ..., 1).
double rosenbrock_fn(const std::vector<float>& x, std::vector<float>& g) {
    g.assign(x.size(), 0.0f);
    double f = 0;
    for (std::size_t i = 0; i + 1 < x.size(); i += 2) {
        const double a = x[i], b = x[i + 1];
        const double t = b - a * a, u = 1 - a;
        f += 100 * t * t + u * u;
        g[i] = float(-400 * t * a - 2 * u);
        g[i + 1] = float(200 * t);
    }
    return f;
}

/// 1/2 sum a_i (x_i - c_i)^2 with a_i spread geometrically over [1, condition], c_i in [-3, 3].
struct Quadratic {
    std::vector<double> a, c;
    Quadratic(std::size_t n, double condition) {
        for (std::size_t i = 0; i < n; ++i) {
            a.push_back(std::pow(condition, double(i) / double(n - 1)));
            c.push_back(3.0 * std::sin(double(i) + 1.0));
        }
    }
    double operator()(const std::vector<float>& x, std::vector<float>& g) const {
        g.resize(x.size());
        double f = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double d = x[i] - c[i];
            f += 0.5 * a[i] * d * d;
            g[i] = float(a[i] * d);
        }
        return f;
    }
    /// The minimiser inside [lo, hi] (the problem is separable).
    double minimum(std::size_t i, double lo, double hi) const { return std::clamp(c[i], lo, hi); }
};

void verify_wolfe(const OptimizerIteration& it, double c1, double c2) {
    const auto& r = it.line_search;
    QVERIFY2(r.slope0 < 0, "not a descent direction");
    QVERIFY2(
        r.value <= r.value0 + c1 * r.step * r.slope0,
        qPrintable(
            QString("Armijo fails at iteration %1: %2 > %3").arg(it.iteration).arg(r.value).arg(r.value0)));
    QVERIFY2(std::abs(r.slope) <= c2 * std::abs(r.slope0),
             qPrintable(QString("curvature fails at iteration %1: |%2| > %3 |%4|")
                            .arg(it.iteration)
                            .arg(r.slope)
                            .arg(c2)
                            .arg(r.slope0)));
    QVERIFY(r.sufficient_decrease && r.curvature);
}

} // namespace

class TestOptimizer : public QObject {
    Q_OBJECT
  private slots:
    void rosenbrock_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("max_iterations");
        QTest::addColumn<double>("target");
        // Nonlinear CG crawls through the float32 tail (gradients rounded to float below J ~ 1e-7): on an
        // AVX-512 machine it ended at J = 4.8e-10 = 8.7e-12 J(x0) after 1000 iterations, so its target is
        // 1e-10 J(x0) (|x - 1| ~ 1e-4), still far below where the Wolfe checks stop.
        QTest::newRow("lbfgs") << int(OptimizerMethod::Lbfgs) << 100 << 1e-12;
        QTest::newRow("cg") << int(OptimizerMethod::ConjugateGradient) << 1000 << 1e-10;
    }
    void rosenbrock() {
        // Every accepted step satisfies the strong Wolfe conditions; the minimum is found to 1e-3.
        QFETCH(int, method);
        QFETCH(int, max_iterations);
        QFETCH(double, target);
        OptimizerOptions o;
        o.method = OptimizerMethod(method);
        o.first_step_fraction = 0.1;
        o.max_evaluations_per_search = 30;
        const double c2 = o.method == OptimizerMethod::Lbfgs ? 0.9 : 0.1;
        StopCriteria stop;
        stop.max_iterations = max_iterations;
        stop.target_relative_value = target;
        int wolfe_checked = 0;
        const auto r = minimize(rosenbrock_fn, {-1.2f, 1.0f, -1.2f, 1.0f, 0.5f, 0.0f}, o, stop, nullptr,
                                [&](const OptimizerIteration& it) {
                                    // Below J ~ 1e-7 the float32 point x(a) no longer changes with a at the
                                    // scale the zoom reaches (the search may then end on sufficient decrease
                                    // only).
                                    if (it.line_search.value0 > 1e-7) {
                                        verify_wolfe(it, o.c1, c2);
                                        ++wolfe_checked;
                                    } else {
                                        QVERIFY(it.line_search.sufficient_decrease);
                                    }
                                });
        qInfo("%s: %d iterations (%d Wolfe-checked), %d evaluations, J = %.3g (%s)", to_string(o.method),
              r.iterations, wolfe_checked, r.evaluations, r.value, to_string(r.reason));
        // The check must not be vacuous. How many iterations the float32 tail below J ~ 1e-7 takes depends on
        // the CPU's rounding (AVX-512 machines take more), so the guard is a count, not a share of the
        // iterations.
        QVERIFY(wolfe_checked >= 25);
        QCOMPARE(r.reason, StopReason::TargetReached);
        for (float v : r.x)
            QVERIFY2(std::abs(v - 1) < 1e-3, qPrintable(QString::number(v)));
        if (o.method == OptimizerMethod::Lbfgs) QVERIFY(r.iterations < 80);
    }

    void quadratic_methods() {
        // L-BFGS needs far fewer iterations than gradient descent on an ill-conditioned quadratic; all
        // converge.
        const Quadratic q(40, 1000.0);
        const std::vector<float> x0(40, 0.0f);
        std::map<OptimizerMethod, int> iterations;
        for (auto m :
             {OptimizerMethod::Lbfgs, OptimizerMethod::ConjugateGradient, OptimizerMethod::GradientDescent}) {
            OptimizerOptions o;
            o.method = m;
            StopCriteria stop;
            stop.max_iterations = 3000;
            stop.target_relative_value = 1e-11;
            std::vector<float> g0;
            const double j0 = q(x0, g0);
            int wolfe = 0;
            const auto r = minimize(std::cref(q), x0, o, stop, nullptr, [&](const OptimizerIteration& it) {
                // Strong Wolfe above the float32 floor (J / J0 ~ 1e-9 here, see rosenbrock()); Armijo always.
                QVERIFY(it.line_search.sufficient_decrease);
                if (it.line_search.value0 > 1e-9 * j0) {
                    verify_wolfe(it, o.c1, m == OptimizerMethod::ConjugateGradient ? 0.1 : 0.9);
                    ++wolfe;
                }
            });
            QVERIFY(wolfe > r.iterations / 2);
            QCOMPARE(r.reason, StopReason::TargetReached);
            double err = 0;
            for (std::size_t i = 0; i < x0.size(); ++i)
                err = std::max(err, std::abs(r.x[i] - q.minimum(i, -1e30, 1e30)));
            qInfo("%s: %d iterations, %d evaluations, max error %.3g (%s)", to_string(m), r.iterations,
                  r.evaluations, err, to_string(r.reason));
            iterations[m] = r.iterations;
            QVERIFY2(err < 1e-3, qPrintable(QString("%1: error %2").arg(to_string(m)).arg(err)));
        }
        QVERIFY(iterations[OptimizerMethod::Lbfgs] * 3 < iterations[OptimizerMethod::GradientDescent]);
        QVERIFY(iterations[OptimizerMethod::ConjugateGradient] * 2 <
                iterations[OptimizerMethod::GradientDescent]);
    }

    void bounds_are_respected() {
        // The constrained minimiser of a separable quadratic is the clamped unconstrained one; no evaluated
        // point (trial points included) leaves the box.
        const Quadratic q(30, 20.0);
        const double lo = -1.0, hi = 1.5;
        int violations = 0, evaluations = 0;
        auto f = [&](const std::vector<float>& x, std::vector<float>& g) {
            ++evaluations;
            for (float v : x)
                if (v < lo || v > hi) ++violations;
            return q(x, g);
        };
        for (auto m :
             {OptimizerMethod::Lbfgs, OptimizerMethod::ConjugateGradient, OptimizerMethod::GradientDescent}) {
            OptimizerOptions o;
            o.method = m;
            o.lower_bound = lo;
            o.upper_bound = hi;
            o.first_step_fraction = 0.5;
            StopCriteria stop;
            stop.max_iterations = 500;
            const auto r = minimize(f, std::vector<float>(30, 0.2f), o, stop);
            double err = 0;
            for (std::size_t i = 0; i < r.x.size(); ++i)
                err = std::max(err, std::abs(r.x[i] - q.minimum(i, lo, hi)));
            qInfo("%s: %d iterations, max error %.3g (%s)", to_string(m), r.iterations, err,
                  to_string(r.reason));
            QVERIFY2(err < 1e-4, qPrintable(QString::number(err)));
        }
        QVERIFY(evaluations > 0);
        QCOMPARE(violations, 0);
    }

    void first_step_is_scaled() {
        // The first trial point moves max |dx| = fraction * (upper - lower), whatever the gradient's
        // magnitude.
        for (double scale : {1e-9, 1.0, 1e6}) {
            std::vector<std::vector<float>> points;
            auto f = [&](const std::vector<float>& x, std::vector<float>& g) {
                points.push_back(x);
                g.resize(x.size());
                double v = 0;
                for (std::size_t i = 0; i < x.size(); ++i) {
                    const double d = x[i] - 3000.0 - double(i);
                    v += 0.5 * scale * d * d;
                    g[i] = float(scale * d);
                }
                return v;
            };
            OptimizerOptions o;
            o.lower_bound = 1500;
            o.upper_bound = 4500;
            o.first_step_fraction = 0.02;
            Optimizer opt(f, std::vector<float>(5, 2000.0f), o);
            opt.iterate();
            QVERIFY(points.size() >= 2);
            double max_dx = 0;
            for (std::size_t i = 0; i < 5; ++i)
                max_dx = std::max(max_dx, std::abs(double(points[1][i]) - 2000.0));
            QVERIFY2(std::abs(max_dx - 60.0) < 1e-3, qPrintable(QString::number(max_dx)));
        }
    }

    void preconditioner_is_used() {
        // With the exact inverse Hessian as preconditioner, gradient descent converges in a couple of
        // iterations.
        const Quadratic q(20, 1000.0);
        OptimizerOptions o;
        o.method = OptimizerMethod::GradientDescent;
        o.preconditioner = [&](std::vector<double>& v) {
            for (std::size_t i = 0; i < v.size(); ++i)
                v[i] /= q.a[i];
        };
        StopCriteria stop;
        stop.max_iterations = 5;
        const auto r = minimize(std::cref(q), std::vector<float>(20, 0.0f), o, stop);
        for (std::size_t i = 0; i < r.x.size(); ++i)
            QVERIFY(std::abs(r.x[i] - q.minimum(i, -1e9, 1e9)) < 1e-3);
    }

    void masked_components_never_move() {
        // A preconditioner that zeroes components freezes them (how gradient masks act).
        const Quadratic q(10, 10.0);
        OptimizerOptions o;
        o.preconditioner = [](std::vector<double>& v) { v[0] = v[3] = 0; };
        StopCriteria stop;
        stop.max_iterations = 50;
        const auto r = minimize(std::cref(q), std::vector<float>(10, 0.5f), o, stop);
        QCOMPARE(r.x[0], 0.5f);
        QCOMPARE(r.x[3], 0.5f);
        QVERIFY(std::abs(r.x[5] - q.minimum(5, -1e9, 1e9)) < 1e-3);
    }

    void resume_is_bit_exact_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("lbfgs") << int(OptimizerMethod::Lbfgs);
        QTest::newRow("cg") << int(OptimizerMethod::ConjugateGradient);
        QTest::newRow("gd") << int(OptimizerMethod::GradientDescent);
    }
    void resume_is_bit_exact() {
        // 6 iterations, save, 6 more == 12 uninterrupted, bit for bit (state saved and restored through the
        // map).
        QFETCH(int, method);
        OptimizerOptions o;
        o.method = OptimizerMethod(method);
        o.lower_bound = -2;
        o.upper_bound = 0.9; // an active bound at the solution
        o.memory = 3;
        const std::vector<float> x0{-1.2f, 1.0f, 0.3f, -0.4f};
        Optimizer full(rosenbrock_fn, x0, o);
        for (int i = 0; i < 12; ++i)
            full.iterate();
        Optimizer first(rosenbrock_fn, x0, o);
        for (int i = 0; i < 6; ++i)
            first.iterate();
        const OptimizerState saved = first.save_state();
        Optimizer resumed = Optimizer::resume(rosenbrock_fn, saved, o);
        QCOMPARE(resumed.save_state(), saved);
        int evals_after_resume = 0;
        Optimizer resumed_counted = Optimizer::resume(
            [&](const std::vector<float>& x, std::vector<float>& g) {
                ++evals_after_resume;
                return rosenbrock_fn(x, g);
            },
            saved, o);
        for (int i = 0; i < 6; ++i)
            resumed_counted.iterate();
        QCOMPARE(resumed_counted.iterations(), 12);
        QCOMPARE(resumed_counted.evaluations(), full.evaluations());
        QCOMPARE(evals_after_resume, full.evaluations() - first.evaluations()); // no re-evaluation on resume
        QVERIFY(std::memcmp(resumed_counted.x().data(), full.x().data(), full.x().size() * sizeof(float)) ==
                0);
        QCOMPARE(resumed_counted.value(), full.value());
        QCOMPARE(resumed_counted.save_state(), full.save_state());
    }

    void bad_states_are_rejected() {
        OptimizerOptions o;
        Optimizer opt(rosenbrock_fn, std::vector<float>{0.0f, 0.0f}, o);
        opt.iterate();
        opt.iterate();
        const OptimizerState good = opt.save_state();
        QVERIFY(good.count("optimizer.s.0"));
        auto expect_config_error = [&](OptimizerState s, OptimizerOptions oo, const char* what) {
            bool thrown = false;
            try {
                Optimizer::resume(rosenbrock_fn, s, oo);
            } catch (const ConfigError& e) {
                thrown = true;
                qInfo("%s: %s", what, e.what());
            }
            QVERIFY2(thrown, what);
        };
        auto missing = good;
        missing.erase("optimizer.gradient");
        expect_config_error(missing, o, "missing gradient");
        auto short_pair = good;
        short_pair["optimizer.y.0"].pop_back();
        expect_config_error(short_pair, o, "wrongly sized pair");
        auto too_many = good;
        too_many["optimizer.pairs"] = {50};
        expect_config_error(too_many, o, "more pairs than memory");
        OptimizerOptions cg = o;
        cg.method = OptimizerMethod::ConjugateGradient;
        expect_config_error(good, cg, "other method");
        auto version = good;
        version["optimizer.version"] = {7};
        expect_config_error(version, o, "future version");
    }

    void cancel_keeps_last_iterate() {
        CancelToken cancel;
        int evaluations = 0;
        std::vector<float> last_completed;
        auto f = [&](const std::vector<float>& x, std::vector<float>& g) {
            if (++evaluations == 15) cancel.cancel();
            return rosenbrock_fn(x, g);
        };
        StopCriteria stop;
        stop.max_iterations = 1000;
        const auto r = minimize(f, {-1.2f, 1.0f}, {}, stop, &cancel,
                                [&](const OptimizerIteration&) { last_completed.clear(); });
        QCOMPARE(r.reason, StopReason::Cancelled);
        QVERIFY(r.iterations > 0 && r.iterations < 15);
        QCOMPARE(evaluations, 15); // polled before every evaluation: nothing runs after the cancel
        // The result is the last completed iterate: re-running that many iterations gives the same point.
        Optimizer again(rosenbrock_fn, std::vector<float>{-1.2f, 1.0f}, {});
        for (int i = 0; i < r.iterations; ++i)
            again.iterate();
        QCOMPARE(again.x(), r.x);
    }

    void stop_criteria() {
        StopCriteria stop;
        stop.max_iterations = 1000;
        stop.min_relative_decrease = 0.2;
        auto r = minimize(rosenbrock_fn, {-1.2f, 1.0f}, {}, stop);
        QCOMPARE(r.reason, StopReason::SmallDecrease);
        const auto& last = r.history.back();
        QVERIFY(last.value_before - last.value < 0.2 * std::abs(last.value_before));
        stop = {};
        stop.max_iterations = 3;
        r = minimize(rosenbrock_fn, {-1.2f, 1.0f}, {}, stop);
        QCOMPARE(r.reason, StopReason::MaxIterations);
        QCOMPARE(r.iterations, 3);
    }

    void wrong_gradient_fails_cleanly() {
        // A gradient with the wrong sign makes every direction ascent: no step is taken, x stays put.
        auto f = [](const std::vector<float>& x, std::vector<float>& g) {
            const double v = rosenbrock_fn(x, g);
            for (auto& gi : g)
                gi = -gi;
            return v;
        };
        Optimizer opt(f, std::vector<float>{-1.2f, 1.0f}, {});
        const auto it = opt.iterate();
        QCOMPARE(it.stop, StopReason::LineSearchFailed);
        QVERIFY(it.restarted);
        QCOMPARE(opt.x(), (std::vector<float>{-1.2f, 1.0f}));
        QCOMPARE(opt.iterations(), 0);
    }

    void bad_options() {
        auto expect = [](OptimizerOptions o, std::vector<float> x0) {
            bool thrown = false;
            try {
                Optimizer opt(rosenbrock_fn, x0, o);
            } catch (const ConfigError&) {
                thrown = true;
            }
            QVERIFY(thrown);
        };
        OptimizerOptions o;
        o.lower_bound = 5;
        o.upper_bound = 1;
        expect(o, {1.0f});
        expect({}, {});
        expect({}, {NAN});
        o = {};
        o.memory = 0;
        expect(o, {1.0f});
        o = {};
        o.c2 = 1e-5;
        expect(o, {1.0f});
        QCOMPARE(parse_optimizer_method("L-BFGS"), OptimizerMethod::Lbfgs);
        QCOMPARE(parse_optimizer_method("nlcg"), OptimizerMethod::ConjugateGradient);
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_optimizer_method("newton"));
    }
};

QTEST_APPLESS_MAIN(TestOptimizer)
#include "tst_optimizer.moc"
