// The 3D adjoint and gradient (cpu_kernels_3d.hpp): the dot-product test of the source-to-receiver operator
// and its adjoint, Born modelling against a finite difference of the data, the Born dot-product test against
// the gradient, and the Taylor test of the misfit gradient.
#include "born_traces.hpp"
#include "setups_3d.hpp"
#include "test_setups.hpp"

#include <QtTest>
#include <cmath>

using namespace fwi;
using namespace fwi::test;

namespace {

const Grid kGrid = Grid(18, 21, 24, 10, 10, 10);
const Point3D kSource{73.3, 101.7, 62.2};
const std::vector<Point3D> kReceivers{{20.5, 30.2, 150.7}, {200.1, 160.4, 120.3}, {110, 100, 40}};

Experiment3D small_experiment(const std::vector<float>& vp, int order = 8) {
    return experiment_3d(kGrid, vp, order, 6, 0.001, 220, 15, kSource, kReceivers);
}

/// A smooth perturbation of the model cells (a Gaussian off the centre), largest value `amplitude`.
std::vector<float> smooth_perturbation(float amplitude) {
    std::vector<float> dv(std::size_t(kGrid.cells()));
    const auto nz = kGrid.shape[0], ny = kGrid.shape[1], nx = kGrid.shape[2];
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix) {
                const double z = double(iz) / double(nz) - 0.5, y = double(iy) / double(ny) - 0.4,
                             x = double(ix) / double(nx) - 0.55;
                dv[std::size_t((iz * ny + iy) * nx + ix)] =
                    float(amplitude * std::exp(-(x * x + y * y + z * z) / 0.04));
            }
    return dv;
}

/// Born data (receivers x nt) of dv around the experiment's model.
std::vector<float> born_traces(Experiment3D& e, const std::vector<float>& dv) {
    return test::born_traces(*e.propagator, e.geometry, e.source, e.nt, dv);
}

/// The gradient of <d(m), residual> with respect to v (the residual is the adjoint source), store-all.
std::vector<float> gradient(Experiment3D& e, const std::vector<float>& residual) {
    return direct_gradient(*e.propagator, e.geometry, e.source, e.nt, residual);
}

double misfit(Experiment3D& e, const std::vector<float>& vp, const std::vector<float>& observed) {
    e.propagator->set_model(Model{kGrid, vp});
    const auto d = forward_traces(e, e.source);
    double j = 0;
    for (std::size_t i = 0; i < d.size(); ++i)
        j += 0.5 * (double(d[i]) - observed[i]) * (double(d[i]) - observed[i]);
    return j;
}

/// sum |a_i b_i|: the scale of the rounding error of dot(a, b) and of whatever computed a and b.
double abs_dot(const std::vector<float>& a, const std::vector<float>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += std::abs(double(a[i]) * double(b[i]));
    return s;
}

double relative(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestGradient3D : public QObject {
    Q_OBJECT
  private slots:
    void adjoint_passes_dot_product_test_data() {
        QTest::addColumn<int>("order");
        for (int order : {2, 4, 6, 8})
            QTest::newRow(qPrintable(QString("order %1").arg(order))) << order;
    }
    void adjoint_passes_dot_product_test() {
        // F: source time function x -> receiver traces; F^T y [n] = S^T mu^(n+1) (cpu_kernels_3d.hpp: the
        // source enters u^(n+1) as c S f^n and mu = c lambda). Band-limited noise for x and y.
        QFETCH(int, order);
        const auto vp = blob_model_3d(kGrid);
        auto e = small_experiment(vp, order);
        const auto nrec = std::int64_t(e.geometry.receivers.size());
        const auto x = smoothed_noise(1, e.nt, 3, 4);
        const auto y = smoothed_noise(nrec, e.nt, 4, 4);
        const auto fx = forward_traces(e, x);
        CpuPropagator3D& p = *e.propagator;
        auto adj = p.new_adjoint_state();
        adj->step = e.nt;
        std::vector<float> fty(std::size_t(e.nt)), mu(std::size_t(kGrid.cells()));
        const PointStencil& s = e.geometry.source;
        for (std::int64_t n = e.nt - 1; n >= 0; --n) {
            // adj.step == n + 1: the state holds mu^(n+1), read as lambda c on the model region (the source's
            // cells all lie there).
            p.model_region_adjoint(*adj, mu);
            double sum = 0;
            const PaddedGrid& g = p.padded();
            s.for_each_tap([&](std::int64_t i, float w) {
                const std::int64_t px = i % g.nx(), py = (i / g.nx()) % g.ny(), pz = i / (g.nx() * g.ny()),
                                   o = g.origin();
                const auto m =
                    std::size_t(((pz - o) * kGrid.shape[1] + (py - o)) * kGrid.shape[2] + (px - o));
                const double dt = e.propagator->setup().dt_s;
                sum += double(w) * mu[m] * double(vp[m]) * vp[m] * dt * dt;
            });
            fty[std::size_t(n)] = float(sum);
            p.adjoint(*adj, e.geometry, y, e.nt, nullptr, 1.0f);
        }
        const double lhs = dot(fx, y), rhs = dot(x, fty);
        // Float rounding in the propagation bounds |lhs - rhs| by a multiple of the sums of |terms|, not of
        // |lhs|: where the terms cancel (order 4 here: |lhs| 0.76 where the others are 2-18) the difference
        // relative to |lhs| measures the cancellation (1.9e-6 to 2.1e-5 for the same code with its weights
        // rounded one ulp differently). Relative to the terms, a stencil transposed or a weight lost moves it
        // by orders of magnitude.
        const double terms = std::max(abs_dot(fx, y), abs_dot(x, fty));
        const double rel = std::abs(lhs - rhs) / terms;
        qInfo("order %d: <F x, y> = %.9g  <x, F^T y> = %.9g  difference / sum of |terms| %.3g (/ |lhs| %.3g)",
              order, lhs, rhs, rel, relative(lhs, rhs));
        QVERIFY(std::abs(lhs) > 0);
        QVERIFY2(rel < 1e-6, qPrintable(QString::number(rel)));
    }

    void born_matches_finite_difference() {
        // B dv against (d(m + h dv) - d(m - h dv)) / (2h): forward_scattered and the perturbation map.
        auto vp = blob_model_3d(kGrid);
        auto e = small_experiment(vp);
        const auto dv = smooth_perturbation(1.0f);
        const auto born = born_traces(e, dv);
        const float h = 20; // m/s at the peak of dv
        std::vector<float> plus = vp, minus = vp;
        for (std::size_t i = 0; i < vp.size(); ++i) {
            plus[i] += h * dv[i];
            minus[i] -= h * dv[i];
        }
        e.propagator->set_model(Model{kGrid, plus});
        const auto dp = forward_traces(e, e.source);
        e.propagator->set_model(Model{kGrid, minus});
        const auto dm = forward_traces(e, e.source);
        std::vector<float> fd(dp.size());
        for (std::size_t i = 0; i < fd.size(); ++i)
            fd[i] = float((double(dp[i]) - dm[i]) / (2.0 * h));
        const double err = relative_l2(born, fd);
        qInfo("Born vs central difference (h = %g m/s): relative L2 %.3g", double(h), err);
        QVERIFY(dot(born, born) > 0);
        QVERIFY2(err < 1e-3, qPrintable(QString::number(err))); // measured 1.6e-4
    }

    void born_passes_dot_product_test_with_the_gradient() {
        // <B dv, dd> = <dv, B^T dd>: B^T dd is the gradient with dd as the adjoint source.
        auto e = small_experiment(blob_model_3d(kGrid));
        const auto dv = smoothed_noise(kGrid.shape[0] * kGrid.shape[1], kGrid.shape[2], 1, 2);
        const auto dd = smoothed_noise(std::int64_t(kReceivers.size()), e.nt, 2, 4);
        const double lhs = dot(born_traces(e, dv), dd), rhs = dot(dv, gradient(e, dd));
        qInfo("<B dv, dd> = %.9g  <dv, B^T dd> = %.9g  relative difference %.3g", lhs, rhs,
              relative(lhs, rhs));
        QVERIFY(std::abs(lhs) > 0);
        QVERIFY2(relative(lhs, rhs) < 1e-5, qPrintable(QString::number(relative(lhs, rhs))));
    }

    void gradient_passes_taylor_test() {
        // J(m) = 1/2 |d(m) - d_obs|^2 with d_obs from the true (blob) model and m a smoother start:
        // r2(h) = |J(m + h dm) - J(m) - h <g, dm>| must fall like h^2, and the central difference must match
        // <g, dm>.
        const auto truth = blob_model_3d(kGrid);
        auto start = truth;
        for (auto& v : start)
            v = 1800 + (v - 1800) * 0.5f;
        auto e = small_experiment(truth);
        const auto observed = forward_traces(e, e.source);
        e.propagator->set_model(Model{kGrid, start});
        const auto d = forward_traces(e, e.source);
        std::vector<float> residual(d.size());
        for (std::size_t i = 0; i < d.size(); ++i)
            residual[i] = d[i] - observed[i];
        const auto g = gradient(e, residual);
        const auto dm = smooth_perturbation(100.0f);
        const double j0 = misfit(e, start, observed), gdm = dot(g, dm);
        auto shifted = [&](double h) {
            std::vector<float> m = start;
            for (std::size_t i = 0; i < m.size(); ++i)
                m[i] += float(h * dm[i]);
            return misfit(e, m, observed);
        };
        std::vector<double> hs{1.0, 0.5, 0.25, 0.125}, r2;
        for (double h : hs) {
            r2.push_back(std::abs(shifted(h) - j0 - h * gdm));
            qInfo("h = %-6g J = %.9g  r2 = %.3g", h, j0, r2.back());
        }
        const double central = (shifted(0.125) - shifted(-0.125)) / 0.25;
        qInfo("<g, dm> = %.9g, central difference %.9g: relative %.3g", gdm, central, relative(gdm, central));
        QVERIFY(std::abs(gdm) > 0);
        QVERIFY2(relative(gdm, central) < 1e-4, // measured 2.1e-5
                 qPrintable(QString::number(relative(gdm, central))));
        for (std::size_t k = 1; k < hs.size(); ++k) {
            const double slope = std::log(r2[k - 1] / r2[k]) / std::log(hs[k - 1] / hs[k]);
            qInfo("slope of r2 between h = %g and %g: %.3f", hs[k - 1], hs[k], slope);
            QVERIFY2(slope > 1.8 && slope < 2.2, qPrintable(QString::number(slope)));
        }
    }
};

QTEST_APPLESS_MAIN(TestGradient3D)
#include "tst_gradient_3d.moc"
