// The adjoint and the gradient: dot-product test of Born modelling against its adjoint (the gradient engine),
// and the Taylor test of the misfit gradient.
#include "fwi/born.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "test_setups.hpp"

#include <QtTest>
#include <random>

using namespace fwi;
using namespace fwi::test;

class TestGradient : public QObject {
    Q_OBJECT
  private slots:
    void born_adjoint_dot_product_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<double>("dt");
        QTest::newRow("order 8, no sub-stepping") << 8 << 0.001;
        QTest::newRow("order 4, 3 sub-steps") << 4 << 0.004;
        QTest::newRow("order 2, no sub-stepping") << 2 << 0.001;
    }
    void born_adjoint_dot_product() {
        // <B dv, dd> = <dv, B^T dd>, where B^T dd is the gradient with dd as the adjoint source.
        QFETCH(int, order);
        QFETCH(double, dt);
        const Model m = blob_model(40, 60, 10);
        Acquisition acq = one_shot({170, 30}, line_of_points(6, 20, 560, 25));
        const auto nt = std::int64_t(0.5 / dt);
        Simulation sim(m.grid, acq, settings(order, 15, dt, nt, 10), 3000, "cpu");
        sim.set_model(m);
        const auto dv = smoothed_noise(m.grid.nz(), m.grid.nx(), 1, 2);
        const auto dd = smoothed_noise(6, nt, 2, 4);
        const auto b_dv = born_forward(sim, 0, dv);

        GradientOptions opt;
        opt.misfit = [&](const Gather&, const Gather&, std::vector<float>& adjoint_source) {
            adjoint_source = dd;
            return 0.0;
        };
        std::vector<Gather> observed{sim.empty_gather(0)};
        const auto g = compute_gradient(sim, m, observed, opt);
        const double lhs = dot(b_dv, dd), rhs = dot(dv, g.gradient);
        const double rel = std::abs(lhs - rhs) / std::max(std::abs(lhs), std::abs(rhs));
        qInfo("<B dv, dd> = %.9g   <dv, B^T dd> = %.9g   relative difference %.3g", lhs, rhs, rel);
        // float32 round-off over ~500 steps puts the floor near 1e-5; a wrong adjoint term gives 1e-3 or
        // worse.
        QVERIFY2(rel < 3e-5, qPrintable(QString::number(rel)));
    }

    void taylor_test() {
        // J(m + h dm) - J(m) falls like h; J(m + h dm) - J(m) - h <g, dm> falls like h^2.
        // The engine runs in float32, so J carries round-off of about 1e-5 of its value; the second-order
        // remainder reaches that floor below h ~ 1/1000. Slope 1 is fitted over h = 1/2 ... 1/4096 (3.3
        // decades), slope 2 over h = 1/2 ... 1/512 (2.4 decades, remainders >= 10x the floor). The qInfo
        // lines show every remainder.
        const Model truth = blob_model(40, 60, 10);
        Model m = truth;
        for (auto& v : m.vp_mps)
            v = 1800 + (v - 1800) * 0.7f; // a damped blob: a clear residual
        Acquisition acq;
        for (double sx : {100.0, 450.0})
            acq.shots.push_back({{sx, 20}, line_of_points(12, 20, 570, 30)});
        Simulation sim(m.grid, acq, settings(8, 12, 0.002, 300, 10), 3000, "cpu");
        sim.set_model(truth);
        const auto observed = sim.forward();
        GradientOptions opt;
        const auto base = compute_gradient(sim, m, observed, opt);
        // Perturb along the gradient (scaled to 40 m/s at most): the first-order term is then as large as it
        // can be relative to the curvature, so slope 1 shows over a wide range of h.
        std::vector<float> dm = base.gradient;
        float gmax = 0;
        for (float v : dm)
            gmax = std::max(gmax, std::abs(v));
        for (float& v : dm)
            v *= 40.0f / gmax;

        const double gdm = dot(base.gradient, dm);
        std::vector<double> hs, r1, r2;
        for (double h = 0.5; h >= 0.0002; h /= 2) { // 1/2 ... 1/4096, 12 values
            Model mh = m;
            for (std::size_t i = 0; i < dm.size(); ++i)
                mh.vp_mps[i] += float(h * dm[i]);
            sim.set_model(mh);
            const auto d = sim.forward();
            double j = 0;
            for (std::size_t s = 0; s < d.size(); ++s)
                for (std::size_t i = 0; i < d[s].traces.size(); ++i) {
                    const double r = double(d[s].traces[i]) - observed[s].traces[i];
                    j += 0.5 * r * r;
                }
            hs.push_back(h);
            r1.push_back(std::abs(j - base.misfit));
            r2.push_back(std::abs(j - base.misfit - h * gdm));
            qInfo("h %.3e  |dJ| %.6e  |dJ - h g.dm| %.6e", h, r1.back(), r2.back());
        }
        auto fitted_slope = [&](const std::vector<double>& r, std::size_t first, std::size_t last) {
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            const double n = double(last - first + 1);
            for (std::size_t i = first; i <= last; ++i) {
                const double x = std::log(hs[i]), y = std::log(r[i]);
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
            }
            return (n * sxy - sx * sy) / (n * sxx - sx * sx);
        };
        QCOMPARE(hs.size(), std::size_t(12));
        // The second-order remainder meets float32 noise (~1e-4 here) near h = 2e-3: fitted above it.
        const double s1 = fitted_slope(r1, 0, 11), s2 = fitted_slope(r2, 0, 7);
        qInfo("fitted slopes: first order %.3f (h %.3g ... %.3g), second order %.3f (h %.3g ... %.3g)", s1,
              hs[0], hs[11], s2, hs[0], hs[7]);
        QVERIFY2(std::abs(s1 - 1) < 0.05, qPrintable(QString("first-order slope %1").arg(s1)));
        QVERIFY2(std::abs(s2 - 2) < 0.1, qPrintable(QString("second-order slope %1").arg(s2)));
    }
};

QTEST_APPLESS_MAIN(TestGradient)
#include "tst_gradient.moc"
