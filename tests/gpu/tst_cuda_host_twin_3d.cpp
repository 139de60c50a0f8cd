// The 3D CUDA backend's logic without a GPU: the cell launches cover exactly the cells the CPU reference
// computes, the packed state has the CPU's fields, and the host twin (the 3D CUDA per-cell code, thread
// mapping, packed states and pass order, executed on the CPU) reproduces CpuPropagator3D: gathers and every
// state field after N steps, the adjoint field and the velocity gradient, Born modelling; a restored state
// continues bit for bit, and a CPU checkpoint continues on the twin; the free surface.
#include "backend_checks_3d.hpp"
#include "cuda_kernels_3d.cuh"
#include "free_surface_checks.hpp"
#include "fwi/error.hpp"
#include "host_twin.hpp"
#include "kernel_plan_3d.hpp"

#include <QtTest>
#include <map>
#include <memory>
#include <type_traits>

using namespace fwi;
using namespace fwi::gpu;
using namespace fwi::test;

namespace {

constexpr double kTolerance = 1e-5; // relative L2 against the CPU: floating-point contraction only
// The store-all velocity gradient multiplies mu by the twin's own snapshots B^n = lap u^n (+ PML terms), and
// the Laplacian amplifies the contraction differences of u (white rounding noise) about 15-20x: measured on
// this grid after 160 steps, u 6.9e-7 / 6.3e-7 and B^n 1.0e-5 / 1.3e-5 (orders 2 / 8, model region; the PML
// region is not worse: 5.4e-6 / 8.1e-6), so the gradient differs by 1.1e-5 / 8.9e-6. With the same snapshot
// given to both (adjoint_matches_cpu) the gradient agrees to 7e-7.
constexpr double kSnapshotGradientTolerance = 3e-5;
const Grid& kGrid = kGrid3D;

} // namespace

class TestCudaHostTwin3D : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { register_host_twin_backend(); }

    void launches_cover_the_computed_box_data() {
        QTest::addColumn<int>("nz");
        QTest::addColumn<int>("ny");
        QTest::addColumn<int>("nx");
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("pml");
        QTest::addColumn<bool>("interior_blocks"); // some blocks of the cell launch meet no layer
        QTest::addColumn<bool>("free_surface");
        QTest::newRow("order 8, PML 6") << 24 << 20 << 28 << 8 << 6 << false << false;
        QTest::newRow("order 2, PML 1, blocks of one row") << 5 << 3 << 4 << 2 << 1 << false << false;
        QTest::newRow("order 4, no PML, partial blocks") << 9 << 17 << 41 << 4 << 0 << false << false;
        QTest::newRow("order 4, PML 5, an interior") << 40 << 70 << 100 << 4 << 5 << true << false;
        QTest::newRow("free surface, order 8, PML 6") << 24 << 20 << 28 << 8 << 6 << false << true;
        QTest::newRow("free surface, order 4, PML 5, an interior")
            << 40 << 70 << 100 << 4 << 5 << true << true;
    }
    void launches_cover_the_computed_box() {
        QFETCH(int, nz);
        QFETCH(int, ny);
        QFETCH(int, nx);
        QFETCH(int, order);
        QFETCH(int, pml);
        QFETCH(bool, free_surface);
        PropagatorSetup s = setup_3d(order, Grid(nz, ny, nx, 10, 10, 10), pml);
        s.free_surface = free_surface;
        const KernelPlan3D plan = make_kernel_plan_3d(s);
        const GridArgs3D& g = plan.grid;
        QCOMPARE(plan.radius, order / 2);
        // Under a free surface the planes at and above it are the mirror's, not computed (as on the CPU).
        const PaddedGrid padded = make_propagator("cpu", s)->padded();
        const std::int64_t surface_planes = s.free_surface ? padded.origin() + 1 - padded.halo : 0;
        QCOMPARE(g.z0, int(padded.halo + surface_planes));
        // Every thread of every block: each computed cell exactly once, nothing in the halo.
        std::map<std::int64_t, int> visits;
        for_each_cell_thread(g, [&](int iz, int iy, int ix) { ++visits[cell_index(g, iz, iy, ix)]; });
        std::int64_t computed = 0;
        for (int iz = 0; iz < g.nz; ++iz)
            for (int iy = 0; iy < g.ny; ++iy)
                for (int ix = 0; ix < g.nx; ++ix) {
                    const bool inside =
                        iz >= g.z0 && iz < g.z1 && iy >= g.y0 && iy < g.y1 && ix >= g.x0 && ix < g.x1;
                    const auto it = visits.find(cell_index(g, iz, iy, ix));
                    QCOMPARE(it == visits.end() ? 0 : it->second, inside ? 1 : 0);
                    computed += inside;
                }
        QCOMPARE(std::int64_t(visits.size()), computed);
        QCOMPARE(computed, padded.computed_cells() - surface_planes * (g.y1 - g.y0) * (g.x1 - g.x0));
        // The layer launch (memory-variable passes): every cell of an x, y or z layer in the computed box
        // once, no cell twice, nothing outside the box; and fewer threads than the cell launch when the grid
        // has an interior.
        visits.clear();
        for_each_layer_thread(g, [&](int iz, int iy, int ix) { ++visits[cell_index(g, iz, iy, ix)]; });
        std::int64_t layer_cells = 0;
        for (int iz = g.z0; iz < g.z1; ++iz)
            for (int iy = g.y0; iy < g.y1; ++iy)
                for (int ix = g.x0; ix < g.x1; ++ix) {
                    const bool layer = in_layer(g.px, ix) || in_layer(g.py, iy) || in_layer(g.pz, iz);
                    const auto it = visits.find(cell_index(g, iz, iy, ix));
                    const int count = it == visits.end() ? 0 : it->second;
                    QVERIFY2(
                        layer ? count == 1 : count <= 1,
                        qPrintable(
                            QString("cell %1 %2 %3 visited %4 times").arg(iz).arg(iy).arg(ix).arg(count)));
                    layer_cells += layer;
                }
        for (const auto& [cell, count] : visits)
            QCOMPARE(count, 1);
        QVERIFY(std::int64_t(visits.size()) >= layer_cells);
        const LayerLaunch3D layers = layer_launch(g);
        const CellLaunch3D cells = cell_launch(g);
        const std::int64_t cell_blocks = std::int64_t(cells.blocks_x) * cells.blocks_y * cells.blocks_z;
        QCOMPARE(layers.blocks == 0, layer_cells == 0);
        QVERIFY(layers.blocks <= cell_blocks);
        QFETCH(bool, interior_blocks);
        if (interior_blocks) QVERIFY2(layers.blocks < cell_blocks, "the layer launch skips no block");
        // Packed variables: layer cells of the whole padded grid onto [0, strip) one to one (the CPU packs
        // every row and plane, halo included), nothing else.
        auto check_axis = [&](auto axis, std::int64_t strip) {
            constexpr int A = decltype(axis)::value;
            std::vector<int> hits(std::size_t(strip), 0);
            for (int iz = 0; iz < g.nz; ++iz)
                for (int iy = 0; iy < g.ny; ++iy)
                    for (int ix = 0; ix < g.nx; ++ix) {
                        const int j = axis_coord<A>(iz, iy, ix), slot = packed_slot<A>(g, j);
                        QCOMPARE(slot >= 0, in_layer(axis_pml<A>(g), j));
                        if (slot < 0) continue;
                        const std::int64_t k = packed_index<A>(g, iz, iy, ix, slot);
                        QVERIFY(k >= 0 && k < strip);
                        ++hits[std::size_t(k)];
                    }
            for (int h : hits)
                QCOMPARE(h, 1);
        };
        check_axis(std::integral_constant<int, kAxis3X>{}, plan.x_strip);
        check_axis(std::integral_constant<int, kAxis3Y>{}, plan.y_strip);
        check_axis(std::integral_constant<int, kAxis3Z>{}, plan.z_strip);
        // A state holds exactly what the CPU state's fields hold.
        std::int64_t cpu_floats = 0;
        for (const auto& f : make_propagator("cpu", s)->new_state()->fields())
            cpu_floats += f.size();
        QCOMPARE(plan.state_floats(), cpu_floats);
    }

    void gathers_and_states_match_cpu_data() {
        QTest::addColumn<int>("order");
        for (int order : {2, 4, 6, 8})
            QTest::newRow(qPrintable(QString("order %1").arg(order))) << order;
    }
    void gathers_and_states_match_cpu() {
        QFETCH(int, order);
        check_gathers_and_states_match_cpu_3d(kHostTwinBackend, order, kTolerance);
    }

    void adjoint_matches_cpu_data() {
        QTest::addColumn<int>("order");
        QTest::newRow("order 2") << 2;
        QTest::newRow("order 8") << 8;
    }
    void adjoint_matches_cpu() {
        QFETCH(int, order);
        check_adjoint_matches_cpu_3d(kHostTwinBackend, order, kTolerance);
    }

    void velocity_gradient_matches_cpu_data() {
        QTest::addColumn<int>("order");
        QTest::newRow("order 2") << 2;
        QTest::newRow("order 8") << 8;
    }
    void velocity_gradient_matches_cpu() {
        QFETCH(int, order);
        check_velocity_gradient_matches_cpu_3d(kHostTwinBackend, order, kSnapshotGradientTolerance);
    }

    void born_matches_cpu_data() {
        QTest::addColumn<int>("order");
        QTest::newRow("order 2") << 2;
        QTest::newRow("order 8") << 8;
    }
    void born_matches_cpu() {
        QFETCH(int, order);
        check_born_matches_cpu_3d(kHostTwinBackend, order, kTolerance);
    }

    void resume_is_bit_exact() { check_resume_is_bit_exact_3d(kHostTwinBackend, 6); }

    void a_cpu_checkpoint_continues_on_the_twin() {
        check_cpu_checkpoint_continues_3d(kHostTwinBackend, 8, kTolerance);
    }

    void a_3d_grid_gets_the_3d_twin() {
        const PropagatorSetup s = setup_3d(8);
        const auto twin = make_propagator(kHostTwinBackend, s);
        const auto cpu = make_propagator("cpu", s);
        QCOMPARE(QString::fromStdString(twin->backend()), QString(kHostTwinBackend));
        QVERIFY(twin->padded().three_d());
        QCOMPARE(twin->padded().cells(), cpu->padded().cells());
        // The same fields as the CPU's state, shape for shape, so stores and codecs treat both alike.
        const auto ft = twin->new_state()->fields(), fc = cpu->new_state()->fields();
        QCOMPARE(ft.size(), std::size_t(5));
        QCOMPARE(ft.size(), fc.size());
        for (std::size_t i = 0; i < fc.size(); ++i) {
            QCOMPARE(ft[i].rows, fc[i].rows);
            QCOMPARE(ft[i].cols, fc[i].cols);
            QCOMPARE(ft[i].plane_rows, fc[i].plane_rows);
        }
        // 2D setups still get the 2D twin.
        PropagatorSetup s2 = s;
        s2.grid = Grid(20, 30, 10, 10);
        QCOMPARE(make_host_twin_propagator(s2)->new_state()->fields().size(), std::size_t(4));
    }

    void free_surface_matches_cpu() {
        check_free_surface_matches_cpu(kHostTwinBackend, true, kTolerance, kSnapshotGradientTolerance, 5e-5);
    }

    void bad_3d_setups_are_refused_like_the_cpu() {
        PropagatorSetup s = setup_3d(8);
        s.dt_s = 0.01; // above the 3D CFL limit at 3000 m/s on 10 m cells
        QVERIFY_THROWS_EXCEPTION(ConfigError, make_host_twin_propagator(s));
        auto twin = make_host_twin_propagator(setup_3d(8));
        auto state = twin->new_state();
        try {
            twin->forward(*state, 1, ShotGeometry{}, {}, nullptr, 0);
            QFAIL("no error raised");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("set_model"), e.what());
        }
        std::vector<float> fast(std::size_t(kGrid.cells()), 2000.0f);
        fast[17] = 3500; // above the reference velocity that fixed the time step
        try {
            twin->set_model(Model{kGrid, fast});
            QFAIL("no error raised");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("reference velocity"), e.what());
        }
        std::vector<float> wrong(3);
        twin->set_model(Model{kGrid, blob_model_3d(kGrid)});
        QVERIFY_THROWS_EXCEPTION(ConfigError, twin->take_velocity_gradient(wrong));
        // Planes whose R-fold size exceeds int (the kernels' 32-bit stencil offsets): refused by the plan,
        // which allocates nothing; planes 10 cells narrower each way are accepted.
        try {
            make_kernel_plan_3d(setup_3d(8, Grid(10, 23170, 23170, 10, 10, 10), 0));
            QFAIL("no error raised");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("planes too large"), e.what());
        }
        QCOMPARE(make_kernel_plan_3d(setup_3d(8, Grid(10, 23160, 23160, 10, 10, 10), 0)).radius, 4);
    }
};

QTEST_APPLESS_MAIN(TestCudaHostTwin3D)
#include "tst_cuda_host_twin_3d.moc"
