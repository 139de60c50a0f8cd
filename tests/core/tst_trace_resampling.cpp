// Trace resampling (resample_rows: the data rate <-> the propagator's inner rate) and the low-pass filter
// (lowpass_rows), both row-by-row real FFTs on the OpenMP team (runtime/fft_rows.cpp): up- and down-sampling
// are exact transposes (the gradient's adjoint source relies on it), into a kept buffer as into a new one;
// every row comes out the same whatever the thread count and whether it is resampled alone or among
// thousands; and FFTW plans made from several threads at once (the GUI's jobs, MPI's threads) give the same
// results as made alone.
#include "fwi/error.hpp"
#include "fwi/frequency_filter.hpp"
#include "fwi/time_axis.hpp"
#include "test_setups.hpp"
#include "thread_count.hpp"

#include <QtTest>
#include <cstring>
#include <thread>
#include <vector>

using namespace fwi;
using namespace fwi::test;

namespace {

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

class TestTraceResampling : public QObject {
    Q_OBJECT
  private slots:
    void upsampling_and_downsampling_are_transposes_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("m");
        QTest::newRow("3 inner steps per sample") << 3 << 101 << 303;
        QTest::newRow("even lengths, 5 per sample") << 2 << 100 << 500;
        QTest::newRow("a team's worth of rows") << 200 << 64 << 192;
    }
    void upsampling_and_downsampling_are_transposes() {
        // U: n -> m samples, D: m -> n. U^T = (m / n) D (Simulation::to_inner_rate_adjoint divides by the
        // step ratio for this), so <U x, y> = (m / n) <x, D y>.
        QFETCH(int, rows);
        QFETCH(int, n);
        QFETCH(int, m);
        const auto x = normal_noise(std::size_t(rows * n), 3), y = normal_noise(std::size_t(rows * m), 4);
        const double lhs = dot(resample_rows(x, rows, n, m), y);
        const double rhs = double(m) / double(n) * dot(x, resample_rows(y, rows, m, n));
        const double rel = std::abs(lhs - rhs) / std::abs(lhs);
        qInfo("<U x, y> = %.9g, (m/n) <x, D y> = %.9g, relative difference %.3g", lhs, rhs, rel);
        QVERIFY2(rel < 1e-5, qPrintable(QString::number(rel)));
    }

    void into_a_kept_buffer_as_into_a_new_one() {
        const std::int64_t rows = 70, n = 90, m = 270;
        const auto x = normal_noise(std::size_t(rows * n), 7);
        std::vector<float> kept(std::size_t(rows * m), 123.0f); // last shot's values: overwritten
        resample_rows(x, rows, n, m, kept);
        QVERIFY(same_bits(kept, resample_rows(x, rows, n, m)));
        std::vector<float> copy(x.size());
        resample_rows(x, rows, n, n, copy); // the same length is a copy (no filtering of an even Nyquist bin)
        QVERIFY(same_bits(copy, x));
        std::vector<float> short_buffer(std::size_t(rows * m - 1));
        QVERIFY_THROWS_EXCEPTION(ConfigError, resample_rows(x, rows, n, m, short_buffer));
        QVERIFY_THROWS_EXCEPTION(ConfigError, resample_rows(x, rows, n, n, short_buffer));
    }

    void rows_do_not_depend_on_the_thread_count_or_their_neighbours() {
        const std::int64_t rows = 300, n = 250, m = 750;
        const auto x = normal_noise(std::size_t(rows * n), 5);
        std::vector<float> up1, up2, low1, low2;
        {
            ThreadCount one(1);
            up1 = resample_rows(x, rows, n, m);
            low1 = lowpass_rows(x, rows, n, 0.004, 20.0);
        }
        {
            ThreadCount two(2);
            up2 = resample_rows(x, rows, n, m);
            low2 = lowpass_rows(x, rows, n, 0.004, 20.0);
        }
        QVERIFY(same_bits(up1, up2));
        QVERIFY(same_bits(low1, low2));
        for (const std::int64_t r : {std::int64_t(0), std::int64_t(157), rows - 1}) {
            const std::vector<float> row(x.begin() + r * n, x.begin() + (r + 1) * n);
            QVERIFY(same_bits(resample_rows(row, 1, n, m),
                              std::vector<float>(up2.begin() + r * m, up2.begin() + (r + 1) * m)));
            QVERIFY(same_bits(lowpass_rows(row, 1, n, 0.004, 20.0),
                              std::vector<float>(low2.begin() + r * n, low2.begin() + (r + 1) * n)));
        }
    }

    void plans_made_from_several_threads_at_once_agree() {
        // Resampling and the low-pass filter make and destroy FFTW plans, whose planner is not thread-safe:
        // both take the one planner lock, so calls from several threads give the results of calls alone.
        const std::int64_t rows = 80, n = 120, m = 360;
        const auto x = normal_noise(std::size_t(rows * n), 6);
        const std::vector<float> up = resample_rows(x, rows, n, m),
                                 low = lowpass_rows(x, rows, n, 0.004, 15.0);
        std::vector<int> wrong(4, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int k = 0; k < 25; ++k) {
                    if (t % 2 == 0 && !same_bits(resample_rows(x, rows, n, m), up)) ++wrong[std::size_t(t)];
                    if (t % 2 == 1 && !same_bits(lowpass_rows(x, rows, n, 0.004, 15.0), low))
                        ++wrong[std::size_t(t)];
                }
            });
        for (std::thread& t : threads)
            t.join();
        QCOMPARE(wrong, std::vector<int>(4, 0));
    }
};

QTEST_APPLESS_MAIN(TestTraceResampling)
#include "tst_trace_resampling.moc"
