// Physics and invariants of the 3D CPU propagator (CpuPropagator3D, cpu_kernels_3d.hpp): the analytic 3D
// direct wave for every order, with its error falling under refinement; reciprocity; bit-exact resume from a
// copied state and from a state cleared for a new shot; bit-identical results with 1 and 2 OpenMP threads.
#include "analytic_wave_3d.hpp"
#include "backend_checks.hpp"
#include "fwi/error.hpp"
#include "setups_3d.hpp"

#include <unistd.h>

#include <QtTest>
#include <cmath>
#include <cstring>
#include <fstream>
#include <omp.h>

using namespace fwi;
using namespace fwi::test;

namespace {

double relative_l2(std::span<const float> a, const std::vector<double>& ref) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        num += (double(a[i]) - ref[i]) * (double(a[i]) - ref[i]);
        den += ref[i] * ref[i];
    }
    return std::sqrt(num / den);
}

struct DirectWave {
    double node =
        0; ///< receiver on a grid node, against the leapfrog (time-discrete) solution: spatial error
    double off_grid = 0; ///< receiver off the grid on every axis (Hicks weights), same reference
    double wavelet = 0;  ///< off-grid receiver against the delayed, 1/(4 pi r)-scaled wavelet itself
};

/// One run of the direct-wave experiment on cubic cells of h metres: a 25 Hz Ricker in a 2000 m/s medium, an
/// on-node source 180 m inside every face and two receivers about 160 m away along skew directions, one on a
/// node and one off the grid on every axis. The 0.2 s window ends before any wave that met a PML can reach a
/// receiver (the shortest such path is 285 m longer than the direct one, 3.6 wavelengths), so the traces are
/// the free-space solution; dt is far below the CFL limit and the reference is the time-discrete solution
/// (analytic_wave_3d.hpp), so the error is the spatial one.
DirectWave direct_wave(int order, double h) {
    const double v = 2000, dt = 0.0004, f = 25;
    const std::int64_t nt = 500;
    const Grid grid = Grid(std::int64_t(std::lround(420 / h)) + 1, std::int64_t(std::lround(430 / h)) + 1,
                           std::int64_t(std::lround(490 / h)) + 1, h, h, h);
    const Point3D src{180, 180, 180}, off_grid{310.3, 250.7, 240.1}, node{310, 250, 240};
    auto e = experiment_3d(grid, constant_model_3d(grid, float(v)), order, 10, dt, nt, f, src,
                           {off_grid, node}, v);
    const auto traces = forward_traces(e, e.source);
    const std::span<const float> t_off(traces.data(), std::size_t(nt)),
        t_node(traces.data() + nt, std::size_t(nt));
    auto distance = [&](Point3D p) { return std::hypot(p.x_m - src.x_m, p.y_m - src.y_m, p.z_m - src.z_m); };
    const double q = h * h * h;
    return {relative_l2(t_node, analytic_trace_3d(e.source, dt, distance(node), v, q, dt)),
            relative_l2(t_off, analytic_trace_3d(e.source, dt, distance(off_grid), v, q, dt)),
            relative_l2(t_off, analytic_trace_3d(e.source, dt, distance(off_grid), v, q))};
}

/// Order 8, 20 PML cells, 1 ms: a set-up for the propagator's memory, never stepped.
PropagatorSetup order_8_setup(const Grid& grid) {
    PropagatorSetup s;
    s.grid = grid;
    s.order = 8;
    s.pml_width = 20;
    s.dt_s = 0.001;
    s.pml_velocity_mps = 3000;
    return s;
}

} // namespace

class TestPropagator3D : public QObject {
    Q_OBJECT
  private slots:
    void direct_wave_matches_analytic_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<double>("node_bound");
        QTest::addColumn<double>("node_gain");
        QTest::addColumn<double>("off_grid_bound");
        QTest::addColumn<double>("off_grid_gain");
        // Bounds on the 5 m grid's relative L2 error (about 1.5x the measurement) and the least factor by
        // which halving the cell (10 m -> 5 m) must reduce it. On a node the gain follows the order (theory
        // 2^order: 4, 16, 64, 256); off the grid the Hicks interpolation's own error (about 6e-4 here) caps
        // it from order
        // 6. Measured (node, off-grid) errors on 5 m and gains are in the comments.
        QTest::newRow("order 2") << 2 << 0.15 << 3.5 << 0.15 << 3.5;        // 0.100 x4.7, 0.101 x4.7
        QTest::newRow("order 4") << 4 << 5.3e-3 << 12.0 << 5.7e-3 << 10.0;  // 3.50e-3 x16.8, 3.83e-3 x15.3
        QTest::newRow("order 6") << 6 << 3.4e-4 << 40.0 << 1.05e-3 << 12.0; // 2.27e-4 x57, 6.94e-4 x18.6
        QTest::newRow("order 8") << 8 << 3.2e-5 << 120.0 << 9e-4 << 4.5;    // 2.12e-5 x186, 5.92e-4 x6.7
    }
    void direct_wave_matches_analytic() {
        QFETCH(int, order);
        QFETCH(double, node_bound);
        QFETCH(double, node_gain);
        QFETCH(double, off_grid_bound);
        QFETCH(double, off_grid_gain);
        const DirectWave coarse = direct_wave(order, 10), fine = direct_wave(order, 5);
        qInfo("order %d, node receiver: %.3g (10 m) -> %.3g (5 m), gain %.1f", order, coarse.node, fine.node,
              coarse.node / fine.node);
        qInfo("order %d, off-grid receiver: %.3g -> %.3g, gain %.1f; against the delayed 1/(4 pi r) wavelet "
              "itself (time error included) %.3g -> %.3g",
              order, coarse.off_grid, fine.off_grid, coarse.off_grid / fine.off_grid, coarse.wavelet,
              fine.wavelet);
        QVERIFY2(fine.node < node_bound,
                 qPrintable(QString("node: %1 >= %2").arg(fine.node).arg(node_bound)));
        QVERIFY2(coarse.node > node_gain * fine.node, "node: the error did not fall enough under refinement");
        QVERIFY2(fine.off_grid < off_grid_bound,
                 qPrintable(QString("off-grid: %1 >= %2").arg(fine.off_grid).arg(off_grid_bound)));
        QVERIFY2(coarse.off_grid > off_grid_gain * fine.off_grid,
                 "off-grid: the error did not fall enough under refinement");
        // The scheme's time error (dt = 0.4 ms) stays below 1% against the continuous solution.
        QVERIFY2(order == 2 || fine.wavelet < 1e-2, qPrintable(QString::number(fine.wavelet)));
    }

    void reciprocity_holds() {
        // Heterogeneous model, both points off the grid: swapping source and receiver gives the same trace.
        const Grid grid = Grid(30, 34, 38, 10, 10, 10);
        const Point3D a{83.3, 91.7, 71.2}, b{291.1, 232.4, 208.6};
        auto trace = [&](Point3D s, Point3D r) {
            auto e = experiment_3d(grid, blob_model_3d(grid), 8, 8, 0.001, 300, 15, s, {r});
            return forward_traces(e, e.source);
        };
        const auto ab = trace(a, b), ba = trace(b, a);
        const double err = relative_l2(ab, std::vector<double>(ba.begin(), ba.end()));
        qInfo("reciprocity relative difference %.3g", err);
        QVERIFY2(err < 1e-5, qPrintable(QString::number(err))); // measured 8.3e-7
    }

    void resume_from_copied_state_is_bit_exact() {
        const Grid grid = Grid(20, 22, 26, 10, 10, 10);
        auto e = experiment_3d(grid, blob_model_3d(grid), 6, 6, 0.001, 250, 15, {60, 70, 50},
                               {{200.5, 150.2, 120.7}, {30, 40, 170}});
        CpuPropagator3D& p = *e.propagator;
        const std::int64_t nt = e.nt, cut = 110;
        std::vector<float> straight(2 * std::size_t(nt)), resumed(2 * std::size_t(nt));
        auto a = p.new_state();
        p.forward(*a, cut, e.geometry, e.source, straight.data(), nt);
        a->to_host();
        std::vector<std::vector<float>> saved;
        for (const auto& f : a->fields())
            saved.emplace_back(f.data, f.data + f.size());
        p.forward(*a, nt - cut, e.geometry, e.source, straight.data(), nt);

        auto b = p.new_state();
        p.forward(*b, 7, e.geometry, e.source, nullptr, nt); // data that the restore must overwrite
        auto fields = b->fields();
        QCOMPARE(fields.size(), std::size_t(5));
        for (std::size_t i = 0; i < fields.size(); ++i)
            std::copy(saved[i].begin(), saved[i].end(), fields[i].data);
        b->from_host();
        b->step = cut;
        std::copy(straight.begin(), straight.begin() + std::ptrdiff_t(cut), resumed.begin());
        std::copy(straight.begin() + nt, straight.begin() + nt + std::ptrdiff_t(cut), resumed.begin() + nt);
        p.forward(*b, nt - cut, e.geometry, e.source, resumed.data(), nt);
        QVERIFY(std::memcmp(straight.data(), resumed.data(), straight.size() * sizeof(float)) == 0);
        a->to_host();
        b->to_host();
        const auto fa = a->fields(), fb = b->fields();
        for (std::size_t i = 0; i < fa.size(); ++i) {
            double norm = 0;
            for (float v : fa[i].span())
                norm += double(v) * v;
            QVERIFY2(
                norm > 0,
                "every field (u, u_prev, x, y, z strips) must hold data for the check to mean something");
            QVERIFY(std::memcmp(fa[i].data, fb[i].data, std::size_t(fa[i].size()) * sizeof(float)) == 0);
        }
    }

    void a_renewed_state_runs_as_a_new_one() {
        const Grid grid = Grid(20, 22, 26, 10, 10, 10);
        auto e = experiment_3d(grid, blob_model_3d(grid), 6, 6, 0.001, 250, 15, {60, 70, 50},
                               {{200.5, 150.2, 120.7}, {30, 40, 170}});
        check_renewed_states_run_as_new(*e.propagator, e.geometry, e.source, e.nt, true);
    }

    void results_do_not_depend_on_thread_count() {
        // Forward traces, the final wavefield, the adjoint field and the gradient with 1 and 2 OpenMP
        // threads.
        const Grid grid = Grid(24, 37, 29, 10, 10, 10); // odd sizes: uneven splits, partial y blocks
        auto e = experiment_3d(grid, blob_model_3d(grid), 8, 7, 0.001, 160, 15, {110, 170, 90},
                               {{230.5, 40.2, 150.7}});
        CpuPropagator3D& p = *e.propagator;
        const int threads = omp_get_max_threads();
        std::vector<std::vector<float>> out[2];
        for (int k = 0; k < 2; ++k) {
            omp_set_num_threads(k + 1);
            auto s = p.new_state();
            std::vector<float> traces(std::size_t(e.nt)), snapshot(std::size_t(p.padded().cells()));
            std::vector<float> field(std::size_t(grid.cells())), lambda(field.size()), gradient(field.size());
            p.forward(*s, e.nt - 1, e.geometry, e.source, traces.data(), e.nt);
            p.forward_with_snapshot(*s, e.geometry, e.source, traces.data(), e.nt, snapshot.data());
            p.model_region_wavefield(*s, field);
            auto adj = p.new_adjoint_state();
            adj->step = e.nt;
            for (std::int64_t n = e.nt - 1; n >= 0; --n)
                p.adjoint(*adj, e.geometry, traces, e.nt, snapshot.data(), 1.0f);
            p.model_region_adjoint(*adj, lambda);
            p.take_velocity_gradient(gradient);
            out[k] = {traces, field, lambda, gradient};
        }
        omp_set_num_threads(threads);
        for (std::size_t i = 0; i < out[0].size(); ++i) {
            double norm = 0;
            for (float v : out[0][i])
                norm += double(v) * v;
            QVERIFY(norm > 0);
            QVERIFY2(std::memcmp(out[0][i].data(), out[1][i].data(), out[0][i].size() * sizeof(float)) == 0,
                     qPrintable(QString("result %1 differs between 1 and 2 threads").arg(i)));
        }
    }

    // The kernels write the y- and z-axis memory variables (psi_y, zeta_y, psi_z, zeta_z; r_y, s_y, r_z, s_z)
    // only in their layers, so a state holds memory for 4 whole arrays and the layer rows and planes of the
    // other 4, not 8 arrays (LayerRuns::populate): 448 padded planes of 168 x 168 cells, 40 rows
    // of each plane in the y layers (24%; a few pages more where they are rounded out to pages) and 40 planes
    // in the z layers (9%; 17% with the huge pages at the slabs' ends), 4.7-5.0 arrays' worth, and no
    // checkpoint strips before a checkpoint (1.1 more). Measured as the process's resident memory.
    void a_state_holds_memory_only_where_its_kernels_write() {
        const PropagatorSetup s = order_8_setup(Grid(400, 120, 120, 10, 10, 10));
        CpuPropagator3D p(s);
        QCOMPARE(p.padded().nz() * p.padded().ny() * p.padded().nx(), std::int64_t(448) * 168 * 168);
        const double array = double(p.padded().cells()) * sizeof(float);
        auto resident = [] {
            std::ifstream statm("/proc/self/statm");
            double size = 0, pages = 0;
            statm >> size >> pages;
            return pages * double(sysconf(_SC_PAGESIZE));
        };
        const double before = resident();
        const auto state = p.new_state();
        const double state_arrays = (resident() - before) / array;
        const auto adjoint = p.new_adjoint_state();
        const double adjoint_arrays = (resident() - before) / array - state_arrays;
        for (const double arrays : {state_arrays, adjoint_arrays})
            QVERIFY2(arrays > 4.6 && arrays < 5.3,
                     qPrintable(QString("a state holds %1 arrays' worth of memory").arg(arrays)));
        // Cleared for a new shot, they write zeros only where they hold memory (state_clearing.hpp).
        const double held = resident();
        QVERIFY(state->clear());
        QVERIFY(adjoint->clear());
        const double grown = (resident() - held) / array;
        QVERIFY2(grown < 0.05, qPrintable(QString("clearing took %1 arrays' worth more").arg(grown)));
    }

    void bad_setups_are_refused() {
        const Grid grid = Grid(10, 10, 10, 10, 10, 10);
        auto refused = [](auto&& f, const char* expected) {
            try {
                f();
            } catch (const ConfigError& e) {
                return QString(e.what()).contains(expected);
            }
            return false;
        };
        const auto vp = constant_model_3d(grid, 2000);
        QVERIFY(refused([&] { experiment_3d(grid, vp, 5, 4, 0.001, 10, 10, {50, 50, 50}, {}); }, "order"));
        QVERIFY(refused([&] { experiment_3d(grid, vp, 8, 4, 0.01, 10, 10, {50, 50, 50}, {}); }, "CFL"));
        QVERIFY(refused(
            [&] {
                experiment_3d(grid, vp, 8, 4, 0.001, 10, 10, {50, 50, 95}, {});
            },
            "source at"));
        QVERIFY(refused(
            [&] {
                experiment_3d(Grid(10, 6, 10, 10, 10, 10), std::vector<float>(600, 2000.0f), 8, 4, 0.001, 10,
                              10, {50, 20, 50}, {});
            },
            "along y"));
        QVERIFY(refused(
            [&] {
                experiment_3d(grid, constant_model_3d(grid, 4000), 8, 4, 0.001, 10, 10, {50, 50, 50}, {});
            },
            "reference velocity"));
    }

    // 2048^3 padded cells need 15 whole arrays of 32 GiB for any gradient, and 8 memory variables of which
    // only the 40 layer rows or planes of 2048 take memory: 15.16 arrays, 485 GiB, refused before anything is
    // allocated, with the minimum named (no machine running these tests has 480 GiB).
    void a_grid_beyond_this_machine_is_refused_naming_the_minimum() {
        const PropagatorSetup s = order_8_setup(Grid(2000, 2000, 2000, 10, 10, 10));
        try {
            CpuPropagator3D p(s);
            QFAIL("a 2000^3 grid was accepted");
        } catch (const ResourceError& e) {
            const QString message = e.what();
            QVERIFY2(message.contains("2048 x 2048 x 2048 cells (PML included) needs at least 485 GiB") &&
                         message.contains("the equivalent of 15.2 arrays of 32 GiB") &&
                         message.contains("this machine has"),
                     e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestPropagator3D)
#include "tst_propagator_3d.moc"
