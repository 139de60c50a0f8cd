// Noise at a chosen SNR: the measured SNR matches, the same seed gives the same noise, bad requests are
// refused.
#include "fwi/error.hpp"
#include "fwi/gather.hpp"

#include <QtTest>

#include <cmath>

using namespace fwi;

namespace {

std::vector<Gather> sine_gathers() {
    std::vector<Gather> gathers(2);
    for (std::size_t s = 0; s < gathers.size(); ++s) {
        Gather& g = gathers[s];
        g.source = {100.0 * double(s), 10};
        g.receivers = {{0, 10}, {50, 10}, {100, 10}};
        g.samples = 4000;
        g.dt_s = 0.002;
        for (std::size_t r = 0; r < g.receivers.size(); ++r)
            for (std::int64_t n = 0; n < g.samples; ++n)
                g.traces.push_back(float(std::sin(0.05 * double(n) + double(r))));
    }
    return gathers;
}

double power(const std::vector<Gather>& gathers) {
    double e = 0;
    std::size_t n = 0;
    for (const Gather& g : gathers)
        for (float v : g.traces) {
            e += double(v) * v;
            ++n;
        }
    return e / double(n);
}

} // namespace

class TestGatherNoise : public QObject {
    Q_OBJECT
  private slots:
    void measured_snr_matches() {
        for (double snr : {0.0, 10.0, 30.0}) {
            const auto clean = sine_gathers();
            auto noisy = clean;
            add_noise(noisy, snr, 7);
            std::vector<Gather> noise = noisy;
            for (std::size_t s = 0; s < noise.size(); ++s)
                for (std::size_t i = 0; i < noise[s].traces.size(); ++i)
                    noise[s].traces[i] -= clean[s].traces[i];
            const double measured = 10 * std::log10(power(clean) / power(noise));
            QVERIFY2(std::abs(measured - snr) < 0.1, qPrintable(QString::number(measured)));
        }
    }
    void same_seed_same_noise() {
        auto a = sine_gathers(), b = sine_gathers(), c = sine_gathers();
        add_noise(a, 10, 42);
        add_noise(b, 10, 42);
        add_noise(c, 10, 43);
        QVERIFY(a == b);
        QVERIFY(!(a == c));
    }
    void bad_requests_are_refused() {
        auto g = sine_gathers();
        QVERIFY_THROWS_EXCEPTION(ConfigError, add_noise(g, std::nan(""), 1));
        for (auto& x : g)
            std::fill(x.traces.begin(), x.traces.end(), 0.0f);
        QVERIFY_THROWS_EXCEPTION(ConfigError, add_noise(g, 10, 1));
    }
};

QTEST_GUILESS_MAIN(TestGatherNoise)
#include "tst_gather_noise.moc"
