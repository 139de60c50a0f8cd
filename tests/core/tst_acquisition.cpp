// Acquisition geometry helpers (lines, areal grids, point files), the Ricker wavelet, the source's sampling
// in time and space, and the check that an acquisition fits its model.
#include "fwi/acquisition_check.hpp"
#include "fwi/error.hpp"
#include "fwi/gather.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/time_axis.hpp"
#include "io_test_util.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QTemporaryDir>

using namespace fwi;

namespace {
bool write_text(const QString& path, const std::string& text) {
    return fwi_test::write_bytes(path.toStdString(), std::vector<char>(text.begin(), text.end()));
}
} // namespace

class TestAcquisition : public QObject {
    Q_OBJECT
    const Grid m_grid{101, 201, 10, 10}; // 2000 m wide, 1000 m deep

  private slots:
    void line_of_points_spans_the_ends() {
        const auto one = line_of_points(1, 250, 900, 15);
        QCOMPARE(one.size(), std::size_t(1));
        QCOMPARE(one[0], (Point{250, 15}));
        const auto five = line_of_points(5, 0, 2000, 20);
        QCOMPARE(five.size(), std::size_t(5));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(five[std::size_t(i)], (Point{500.0 * i, 20}));
        const auto thirds = line_of_points(7, 0.1, 1999.9, 0);
        QCOMPARE(thirds.back().x_m, 1999.9); // exactly the end, never a rounding error beyond it
        FWI_VERIFY_ERROR(ConfigError, line_of_points(0, 0, 1, 0), "count = 0");
    }

    void surface_survey_builds_every_shot() {
        const Acquisition acq = surface_survey(4, 100, 1900, 10, 50, 0, 2000, 20);
        QCOMPARE(acq.shots.size(), std::size_t(4));
        QCOMPARE(acq.receiver_count(), std::size_t(200));
        QCOMPARE(acq.shots[3].source, (Point{1900, 10}));
        QCOMPARE(acq.shots[1].source.x_m, 700.0);
        QCOMPARE(acq.shots[2].receivers.back(), (Point{2000, 20}));
        validate_acquisition(acq, m_grid);
    }

    void ricker_peaks_at_the_delay_with_zero_mean() {
        const double f = 10, dt = 0.001;
        const auto w = ricker(f, dt, 600); // default delay 1.5 / f = 0.15 s = sample 150
        QCOMPARE(w.size(), std::size_t(600));
        QCOMPARE(w[150], 1.0f);
        QCOMPARE(std::max_element(w.begin(), w.end()) - w.begin(), std::ptrdiff_t(150));
        for (int k = 1; k < 150; ++k)
            QVERIFY(std::abs(w[std::size_t(150 - k)] - w[std::size_t(150 + k)]) < 1e-6f);
        double sum = 0, abs_sum = 0;
        for (float v : w) {
            sum += v;
            abs_sum += std::abs(v);
        }
        QVERIFY2(std::abs(sum) < 1e-4 * abs_sum, qPrintable(QString("sum %1 vs %2").arg(sum).arg(abs_sum)));
        // Analytic value a quarter period away: (1 - 2a) e^-a with a = (pi f tau)^2.
        const double a = std::pow(M_PI * f * 0.025, 2);
        QVERIFY(std::abs(w[175] - float((1 - 2 * a) * std::exp(-a))) < 1e-6f);

        const auto late = ricker(5, 0.004, 200, 0.4);
        QCOMPARE(late[100], 1.0f);
        QVERIFY(ricker(5, 0.004, 0).empty());
        FWI_VERIFY_ERROR(ConfigError, ricker(0, 0.004, 10), "frequency 0 Hz");
        FWI_VERIFY_ERROR(ConfigError, ricker(5, -1, 10), "dt -1 s");
    }

    /// The Ricker sampled at the data's dt: aliased when its Nyquist frequency is below 2.5x the peak, empty
    /// when the record ends before the peak (1.5 / f); a user wavelet is the user's business.
    void source_sampling_warnings_name_aliasing_and_a_short_record() {
        PropagationSettings s;
        s.freq_hz = 10;
        s.dt_s = 0.019; // Nyquist 26.3 Hz, above 2.5 x 10 Hz: fine
        s.nt = 16;      // ends at 0.285 s, after the peak at 0.15 s
        QVERIFY(source_sampling_warnings(s).empty());
        s.dt_s = 0.0201;
        auto w = source_sampling_warnings(s);
        QCOMPARE(w.size(), std::size_t(1));
        QVERIFY2(w[0].find("aliased; use dt <= 0.02 s") != std::string::npos, w[0].c_str());
        s.dt_s = 0.001;
        s.nt = 152; // ends at 0.151 s, just after the peak: fine
        QVERIFY(source_sampling_warnings(s).empty());
        s.nt = 150;
        w = source_sampling_warnings(s);
        QCOMPARE(w.size(), std::size_t(1));
        QVERIFY2(w[0].find("before the Ricker wavelet peaks (0.15 s)") != std::string::npos, w[0].c_str());
        s.dt_s = 0.04; // both at once: aliased, and 4 samples end at 0.12 s
        s.nt = 4;
        QCOMPARE(source_sampling_warnings(s).size(), std::size_t(2));
        s.wavelet.assign(150, 0.0f);
        QVERIFY(source_sampling_warnings(s).empty());
    }

    /// Below 2 cells per wavelength of the slowest velocity at the peak frequency (coarsest axis) the grid
    /// cannot carry the source: an error naming the spacing; from 2 up to 6 cells only a dispersion warning.
    void a_grid_too_coarse_for_the_source_is_refused() {
        const Grid fine(50, 60, 10, 20);                      // 20 m is the coarsest axis
        QVERIFY(!dispersion_warning(fine, 2000, 20).empty()); // 100 m: 5 cells, a warning
        check_grid_resolves_source(fine, 2000, 20);
        check_grid_resolves_source(fine, 2000, 50); // 40 m: exactly 2 cells
        try {
            check_grid_resolves_source(fine, 2000, 50.5);
            QFAIL("no error raised");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("spans 1.98 cells of 20 m, fewer than the 2") !=
                         std::string::npos,
                     e.what());
        }
        const Grid volume(20, 20, 20, 10, 30, 10); // 3D: dy is the coarsest
        check_grid_resolves_source(volume, 3000, 50);
        QVERIFY_THROWS_EXCEPTION(ConfigError, check_grid_resolves_source(volume, 3000, 51));
        // A project: the slowest velocity of any of its models counts, and every run (make_simulation)
        // refuses it before anything else (this one has no shots either).
        Experiment e;
        e.current_model = Model{fine, std::vector<float>(std::size_t(fine.cells()), 3000.0f)};
        e.true_model = Model{fine, std::vector<float>(std::size_t(fine.cells()), 2000.0f)};
        e.propagation.freq_hz = 50;
        check_grid_resolves_source(e);
        e.propagation.freq_hz = 60; // 2.5 cells at 3000 m/s, 1.67 at the true model's 2000 m/s
        try {
            make_simulation(e, "cpu");
            QFAIL("no error raised");
        } catch (const ConfigError& err) {
            QVERIFY2(std::string(err.what()).find("cannot carry the source") != std::string::npos,
                     err.what());
        }
    }

    /// 2 shots x 100 receivers x 1000 samples = 800 kB of data: a warning for a 1.5 MB machine, none for 1.7
    /// MB.
    void data_larger_than_half_the_memory_get_a_warning() {
        const Acquisition acq = surface_survey(2, 100, 1900, 10, 100, 0, 2000, 20);
        QVERIFY(data_memory_warning(acq, 1000, 1'700'000).empty());
        const std::string w = data_memory_warning(acq, 1000, 1'500'000);
        QVERIFY2(w.find("2 shots, 200 traces of 1000 samples") != std::string::npos, w.c_str());
        QVERIFY(data_memory_warning(acq, 1000).empty()); // on this machine's memory
        // A machine shared with other work: FWI_MACHINE_MEMORY stands in for its memory, as for the budget.
        qputenv("FWI_MACHINE_MEMORY", "1500000");
        const auto restore = qScopeGuard([] { qunsetenv("FWI_MACHINE_MEMORY"); });
        QVERIFY(!data_memory_warning(acq, 1000).empty());
    }

    void points_outside_the_model_name_shot_and_receiver() {
        Acquisition acq = surface_survey(3, 0, 2000, 10, 11, 0, 2000, 0);
        validate_acquisition(acq, m_grid); // the edges themselves are inside
        acq.shots[1].source.x_m = -1;
        FWI_VERIFY_ERROR(ConfigError, validate_acquisition(acq, m_grid), "shot 1 source", "x=-1",
                         "outside the model", "[0, 2000]");
        acq.shots[1].source.x_m = 500;
        acq.shots[2].receivers[7].z_m = 1200;
        FWI_VERIFY_ERROR(ConfigError, validate_acquisition(acq, m_grid), "shot 2 receiver 7", "z=1200",
                         "[0, 1000]");
        acq.shots[2].receivers[7].z_m = std::numeric_limits<double>::quiet_NaN();
        FWI_VERIFY_ERROR(ConfigError, validate_acquisition(acq, m_grid), "shot 2 receiver 7",
                         "not a finite position");
        acq.shots[2].receivers[7].z_m = 10;
        acq.shots[2].receivers[7].y_m = 25; // a 3D survey's point in a 2D model
        FWI_VERIFY_ERROR(ConfigError, validate_acquisition(acq, m_grid), "shot 2 receiver 7", "y=25",
                         "model is 2D");
        acq.shots[2].receivers.clear();
        FWI_VERIFY_ERROR(ConfigError, validate_acquisition(acq, m_grid), "shot 2 has no receivers");
        FWI_VERIFY_ERROR(ConfigError, validate_acquisition(Acquisition{}, m_grid), "no shots");
    }

    void areal_grid_is_y_slow_x_fast_and_ends_exactly() {
        const Grid cube(51, 41, 61, 10, 10, 10); // 600 m along x, 400 m along y
        const auto points = grid_of_points({3, 2, 100, 500.1, 50, 350.3, 20});
        QCOMPARE(points.size(), std::size_t(6));
        QCOMPARE(points[0], (Point{100, 20, 50}));
        QCOMPARE(points[1], (Point{300.05, 20, 50}));
        QCOMPARE(points[2], (Point{500.1, 20, 50})); // exactly x1
        QCOMPARE(points[5], (Point{500.1, 20, 350.3}));
        const Acquisition acq = fixed_spread(points, grid_of_points({5, 5, 0, 600, 0, 400, 0}));
        QCOMPARE(acq.shots.size(), std::size_t(6));
        QCOMPARE(acq.receiver_count(), std::size_t(150));
        validate_acquisition(acq, cube);
        const auto line = grid_of_points({4, 1, 0, 600, 200, 999, 0}); // count 1: y0, not y1
        QCOMPARE(line[3], (Point{600, 0, 200}));
        FWI_VERIFY_ERROR(ConfigError, grid_of_points({0, 3, 0, 1, 0, 1, 0}), "0 x 3 points");
        FWI_VERIFY_ERROR(ConfigError, grid_of_points({100000, 1000, 0, 1, 0, 1, 0}), "100000 x 1000");
        // A grid that does not fit the volume names the first point outside it, with y.
        const Acquisition wide = fixed_spread(grid_of_points({2, 2, 0, 600, 0, 450, 0}), points);
        FWI_VERIFY_ERROR(ConfigError, validate_acquisition(wide, cube), "shot 2 source", "y=450",
                         "y in [0, 400] m");
    }

    void points_file_reads_2d_and_3d_rows() {
        QTemporaryDir dir;
        const QString path = dir.filePath("points.txt");
        QVERIFY(write_text(path, "# x y z\n10 20 30\n\n  1.5,2.5,\t3.5  # comment\r\n"));
        const auto points = read_points_file(path.toStdString(), 3);
        QCOMPARE(points.size(), std::size_t(2));
        QCOMPARE(points[0], (Point{10, 30, 20}));
        QCOMPARE(points[1], (Point{1.5, 3.5, 2.5}));
        FWI_VERIFY_ERROR(FormatError, read_points_file(path.toStdString(), 2), "line 2", "3 numbers",
                         "\"x z\"");
        QVERIFY(write_text(path, "1 2\n3 nan\n"));
        FWI_VERIFY_ERROR(FormatError, read_points_file(path.toStdString(), 2), "line 2", "'nan'");
        QVERIFY(write_text(path, "1 2x\n"));
        FWI_VERIFY_ERROR(FormatError, read_points_file(path.toStdString(), 2), "line 1", "'2x'");
        QVERIFY(write_text(path, "# nothing\n\n"));
        FWI_VERIFY_ERROR(FormatError, read_points_file(path.toStdString(), 3), "no points");
        FWI_VERIFY_ERROR(ResourceError, read_points_file(dir.filePath("absent.txt").toStdString(), 2),
                         "absent.txt");
    }

    void gather_size_is_checked() {
        Gather g;
        g.receivers = line_of_points(3, 0, 100, 0);
        g.samples = 10;
        g.dt_s = 0.004;
        g.traces.assign(30, 0.0f);
        validate_gather(g);
        g.traces.resize(29);
        FWI_VERIFY_ERROR(ConfigError, validate_gather(g, "shot 4"), "shot 4", "29 trace values",
                         "3 receivers x 10");
        g.traces.resize(30);
        g.dt_s = 0;
        FWI_VERIFY_ERROR(ConfigError, validate_gather(g), "dt 0");
    }
};

QTEST_APPLESS_MAIN(TestAcquisition)
#include "tst_acquisition.moc"
