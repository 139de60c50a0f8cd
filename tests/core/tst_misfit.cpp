// Misfits and data conditioning on their own (no propagation): adjoint sources against finite differences,
// the data window, and the zero-phase low-pass used for frequency continuation.
#include "fwi/error.hpp"
#include "fwi/frequency_filter.hpp"
#include "fwi/misfit.hpp"

#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>

using namespace fwi;

namespace {

Gather random_gather(int receivers, std::int64_t samples, unsigned seed, double dt = 0.004) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> d(0, 1);
    Gather g;
    g.source = {100, 10};
    for (int r = 0; r < receivers; ++r)
        g.receivers.push_back({50.0 + 40.0 * r, 20});
    g.samples = samples;
    g.dt_s = dt;
    g.traces.resize(std::size_t(receivers * samples));
    for (auto& v : g.traces)
        v = d(gen);
    return g;
}

/// J(d + h e) - J(d - h e) against <adjoint source at d, (d + h e) - (d - h e)> (central differences, exact
/// to O(h^3) and float32 rounding of the perturbed points, whose actual difference is used); the relative
/// error.
double directional_check(const MisfitFunction& misfit, const Gather& d, const Gather& o, unsigned seed) {
    std::vector<float> adjoint;
    misfit(d, o, adjoint);
    const Gather e = random_gather(int(d.receivers.size()), d.samples, seed);
    const double h = 2.5e-3;
    Gather plus = d, minus = d;
    for (std::size_t i = 0; i < e.traces.size(); ++i) {
        plus.traces[i] += float(h * e.traces[i]);
        minus.traces[i] -= float(h * e.traces[i]);
    }
    double analytic = 0;
    for (std::size_t i = 0; i < adjoint.size(); ++i)
        analytic += double(adjoint[i]) * (double(plus.traces[i]) - double(minus.traces[i]));
    std::vector<float> unused;
    const double fd = misfit(plus, o, unused) - misfit(minus, o, unused);
    qInfo("<adjoint, dd> %.9g   dJ %.9g", analytic, fd);
    return std::abs(fd - analytic) / std::abs(analytic);
}

} // namespace

class TestMisfit : public QObject {
    Q_OBJECT
  private slots:
    void adjoint_sources_match_finite_differences_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("windowed");
        QTest::newRow("l2") << "l2" << false;
        QTest::newRow("l2 windowed") << "l2" << true;
        QTest::newRow("normalized") << "normalized" << false;
        QTest::newRow("normalized windowed") << "normalized" << true;
    }
    void adjoint_sources_match_finite_differences() {
        QFETCH(QString, kind);
        QFETCH(bool, windowed);
        MisfitOptions opt;
        opt.kind = parse_misfit_kind(kind.toStdString());
        if (windowed) {
            opt.window.start_s = 0.02;
            opt.window.start_taper_s = 0.05;
            opt.window.end_s = 0.3;
            opt.window.end_taper_s = 0.1;
            opt.window.max_offset_m = 150;
        }
        const auto misfit = make_misfit(opt);
        const Gather d = random_gather(6, 100, 1), o = random_gather(6, 100, 2);
        for (unsigned seed : {3u, 4u, 5u}) {
            const double rel = directional_check(misfit, d, o, seed);
            // L2 is quadratic: central differences are exact up to rounding. The normalised misfit's relative
            // error is truncation, falling like h^2 (measured 1.2e-4, 2.9e-5, 7.3e-6 at h = 1e-2,
            // 5e-3, 2.5e-3).
            QVERIFY2(rel < 3e-5, qPrintable(QString::number(rel)));
        }
    }

    void normalized_misfit_ignores_amplitude() {
        const Gather o = random_gather(4, 64, 7);
        Gather d = o;
        for (std::size_t i = 0; i < d.traces.size(); ++i)
            d.traces[i] *= float(3.0 + double(i / 64)); // per-trace gain
        std::vector<float> adjoint;
        QVERIFY(trace_normalized_misfit(d, o, adjoint) < 1e-12);
        for (float a : adjoint)
            QVERIFY(std::abs(a) < 1e-6);
        // For any data the adjoint source is orthogonal to each modelled trace (J is scale invariant).
        const Gather d2 = random_gather(4, 64, 8);
        const double j = trace_normalized_misfit(d2, o, adjoint);
        QVERIFY(j > 0 && j <= 2.0 * 4);
        for (int r = 0; r < 4; ++r) {
            double s = 0, n = 0;
            for (int t = 0; t < 64; ++t) {
                s += double(adjoint[std::size_t(r * 64 + t)]) * d2.traces[std::size_t(r * 64 + t)];
                n += double(d2.traces[std::size_t(r * 64 + t)]) * d2.traces[std::size_t(r * 64 + t)];
            }
            QVERIFY(std::abs(s) < 1e-6 * std::sqrt(n));
        }
    }

    void zero_traces_contribute_nothing() {
        Gather d = random_gather(3, 50, 9), o = random_gather(3, 50, 10);
        std::fill(d.traces.begin(), d.traces.begin() + 50, 0.0f);       // modelled trace 0 silent
        std::fill(o.traces.begin() + 50, o.traces.begin() + 100, 0.0f); // observed trace 1 silent
        std::vector<float> adjoint;
        const double j = trace_normalized_misfit(d, o, adjoint);
        Gather d2 = d, o2 = o; // the same with only trace 2
        std::vector<float> a2;
        for (auto* g : {&d2, &o2}) {
            g->receivers = {g->receivers[2]};
            g->traces.erase(g->traces.begin(), g->traces.begin() + 100);
        }
        QCOMPARE(j, trace_normalized_misfit(d2, o2, a2));
        for (int i = 0; i < 100; ++i)
            QCOMPARE(adjoint[std::size_t(i)], 0.0f);
    }

    void window_weights() {
        DataWindow w;
        w.start_s = 0.1;
        w.start_taper_s = 0.1;
        w.end_s = 0.8;
        w.end_taper_s = 0.2;
        const auto wt = time_weights(w, 251, 0.004); // 0 ... 1 s
        QCOMPARE(wt[0], 0.0f);
        QCOMPARE(wt[24], 0.0f);                    // 0.096 s: before start
        QVERIFY(std::abs(wt[37] - 0.5f) < 0.04f);  // 0.148 s: about half way up the start ramp
        QCOMPARE(wt[75], 1.0f);                    // 0.3 s
        QCOMPARE(wt[150], 1.0f);                   // 0.6 s: the end ramp starts
        QVERIFY(std::abs(wt[175] - 0.5f) < 1e-6f); // 0.7 s: half way down
        QCOMPARE(wt[201], 0.0f);                   // past 0.8 s
        w = {};
        w.min_offset_m = 45;
        w.max_offset_m = 100;
        const Gather g = random_gather(5, 10, 1); // receivers at 50, 90, 130, 170, 210 m; source at 100 m
        QCOMPARE(offset_weights(w, g),
                 (std::vector<float>{1, 0, 0, 1, 0})); // offsets 51.0, 14.1, 31.6, 70.7, 110.5 m
    }

    void window_errors() {
        DataWindow w;
        w.end_s = -1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, validate_window(w));
        w = {};
        w.start_s = 0.5;
        w.end_s = 0.4;
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_misfit({MisfitKind::L2, w}));
        w = {};
        w.min_offset_m = 200;
        w.max_offset_m = 100;
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_misfit({MisfitKind::L2, w}));
        w = {};
        w.start_s = 5; // beyond the trace
        QVERIFY_THROWS_EXCEPTION(ConfigError, time_weights(w, 100, 0.004));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_misfit_kind("l3"));
        QCOMPARE(parse_misfit_kind("NC"), MisfitKind::TraceNormalized);
    }

    /// A window that keeps no trace, or only tapers, would make every misfit (nearly) 0: refused.
    void a_window_that_keeps_nothing_is_refused() {
        const Gather g = random_gather(5, 10, 1); // offsets 51.0, 14.1, 31.6, 70.7, 110.5 m; 10 samples
        const std::vector<const Gather*> gathers{&g};
        DataWindow w;
        w.min_offset_m = 111; // beyond the farthest receiver
        QVERIFY_THROWS_EXCEPTION(ConfigError, check_window_keeps_data(w, gathers));
        w.min_offset_m = 110; // the farthest one stays
        check_window_keeps_data(w, gathers);
        w = {};
        w.min_offset_m = 20;
        w.max_offset_m = 30; // between receivers
        QVERIFY_THROWS_EXCEPTION(ConfigError, check_window_keeps_data(w, gathers));
        const double trace_s = double(g.samples - 1) * g.dt_s;
        w = {};
        w.start_taper_s = 0.5 * trace_s;
        w.end_taper_s = 0.5 * trace_s; // together exactly the trace: allowed
        check_window_keeps_data(w, gathers);
        w.end_taper_s = 0.6 * trace_s;
        QVERIFY_THROWS_EXCEPTION(ConfigError, check_window_keeps_data(w, gathers));
    }

    void lowpass_passes_low_and_stops_high() {
        // Sinusoids well inside the trace: far below the cut-off pass unchanged, far above vanish; -6 dB at
        // the cut-off.
        const double dt = 0.004, cutoff = 5;
        const std::int64_t n = 1000;
        auto tone = [&](double f) {
            std::vector<float> v(static_cast<std::size_t>(n));
            for (std::int64_t i = 0; i < n; ++i)
                v[std::size_t(i)] = float(std::sin(2 * std::numbers::pi * f * double(i) * dt));
            return v;
        };
        auto interior_ratio = [&](const std::vector<float>& a, const std::vector<float>& b) {
            double num = 0, den = 0; // amplitude ratio away from the ends (the truncated tone has edges)
            for (std::int64_t i = 300; i < 700; ++i) {
                num += double(a[std::size_t(i)]) * a[std::size_t(i)];
                den += double(b[std::size_t(i)]) * b[std::size_t(i)];
            }
            return std::sqrt(num / den);
        };
        const auto low = tone(1.25), high = tone(15), at = tone(5);
        QVERIFY(std::abs(interior_ratio(lowpass_rows(low, 1, n, dt, cutoff), low) - 1) < 2e-3);
        QVERIFY(interior_ratio(lowpass_rows(high, 1, n, dt, cutoff), high) < 1e-4);
        QVERIFY(std::abs(interior_ratio(lowpass_rows(at, 1, n, dt, cutoff), at) - 0.5) < 0.02);
        QCOMPARE(lowpass_gain(0, cutoff, 6), 1.0);
        QCOMPARE(lowpass_gain(5, cutoff, 6), 0.5);
    }

    void lowpass_is_zero_phase() {
        // A symmetric pulse stays symmetric about the same centre.
        const std::int64_t n = 401;
        std::vector<float> pulse(static_cast<std::size_t>(n), 0.0f);
        for (std::int64_t i = 0; i < n; ++i) {
            const double t = double(i - 200) * 0.002;
            pulse[std::size_t(i)] = float(std::exp(-t * t / (2 * 0.01 * 0.01)));
        }
        const auto f = lowpass_rows(pulse, 1, n, 0.002, 8.0);
        for (std::int64_t k = 1; k < 150; ++k)
            QVERIFY(std::abs(f[std::size_t(200 + k)] - f[std::size_t(200 - k)]) < 1e-6f * f[200]);
        for (std::int64_t i = 0; i < n; ++i)
            QVERIFY(f[std::size_t(i)] <= f[200]);
    }

    void lowpass_errors() {
        const std::vector<float> v(10, 1.0f);
        QVERIFY_THROWS_EXCEPTION(ConfigError, lowpass_rows(v, 1, 10, 0.004, 0.0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, lowpass_rows(v, 1, 10, 0.0, 5.0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, lowpass_rows(v, 2, 10, 0.004, 5.0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, lowpass_rows(v, 1, 10, 0.004, 5.0, 0));
    }
};

QTEST_APPLESS_MAIN(TestMisfit)
#include "tst_misfit.moc"
