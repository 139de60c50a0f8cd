// The free surface (propagator/free_surface.hpp) against the method of images: a half space under a
// pressure-free top records what a whole space mirrored about that top records from the source minus its
// mirrored image. Both are the same discrete scheme (the mirror model, the same PML at the same distance
// below the surface), so they agree to float round-off, in 2D and 3D, with sources and receivers off the grid
// near the surface (their Hicks taps fold about it). Then the adjoint (a Born dot-product test with the
// surface), the refusal of points on the surface, the backends and the calibration keeping it apart, and the
// project setting.
#include "backend_checks.hpp"
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/simulation.hpp"
#include "test_setups.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace fwi;
using namespace fwi::test;

namespace {

/// The whole space that mirrors `half` (row 0 its surface) about that row: 2 nz - 1 rows, the surface at row
/// nz - 1, rows above it the rows below in reverse order. Works for both ranks (a z plane is ny * nx cells).
Model mirrored_whole_space(const Model& half) {
    const Grid& g = half.grid;
    Model whole;
    whole.grid = g;
    whole.grid.shape[0] = 2 * g.nz() - 1;
    const std::int64_t plane = g.ny() * g.nx();
    whole.vp_mps.resize(std::size_t(whole.grid.cells()));
    for (std::int64_t iz = 0; iz < whole.grid.nz(); ++iz) {
        const std::int64_t from = std::abs(iz - (g.nz() - 1));
        std::copy_n(half.vp_mps.begin() + from * plane, plane, whole.vp_mps.begin() + iz * plane);
    }
    return whole;
}

Point lowered(Point p, double by_m) {
    p.z_m += by_m;
    return p;
}
Point mirrored(Point p, double surface_m) {
    p.z_m = surface_m - p.z_m;
    return p;
}

/// Traces of `source` and `receivers` in the half space with a free surface, and the whole space's traces of
/// the source minus its image (two shots of one run).
struct ImagePair {
    std::vector<float> half, image;
};

ImagePair image_pair(const Model& half, Point source, const std::vector<Point>& receivers,
                     PropagationSettings settings) {
    settings.free_surface = true;
    Simulation with_surface(half.grid, one_shot(source, receivers), settings, 3000, "cpu");
    with_surface.set_model(half);
    ImagePair out;
    out.half = with_surface.forward().at(0).traces;

    const Model whole = mirrored_whole_space(half);
    const double surface_m = double(half.grid.nz() - 1) * half.grid.dz();
    std::vector<Point> lowered_receivers;
    for (const Point& r : receivers)
        lowered_receivers.push_back(lowered(r, surface_m));
    Acquisition pair;
    pair.shots.push_back({lowered(source, surface_m), lowered_receivers});
    pair.shots.push_back({mirrored(source, surface_m), lowered_receivers});
    settings.free_surface = false;
    Simulation whole_space(whole.grid, pair, settings, 3000, "cpu");
    whole_space.set_model(whole);
    const std::vector<Gather> g = whole_space.forward();
    out.image.resize(g[0].traces.size());
    for (std::size_t i = 0; i < out.image.size(); ++i)
        out.image[i] = g[0].traces[i] - g[1].traces[i];
    return out;
}

double peak(const std::vector<float>& v) {
    double p = 0;
    for (float x : v)
        p = std::max(p, double(std::abs(x)));
    return p;
}
double max_difference(const std::vector<float>& a, const std::vector<float>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        d = std::max(d, double(std::abs(a[i] - b[i])));
    return d;
}

} // namespace

class TestFreeSurface : public QObject {
    Q_OBJECT
  private slots:
    void equals_the_image_source_in_2d_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("pml");
        QTest::addColumn<double>("source_z");
        QTest::addColumn<double>("receiver_z");
        QTest::newRow("order 8, points off the grid near the surface") << 8 << 15 << 25.0 << 15.0;
        QTest::newRow("order 4, points on the grid") << 4 << 15 << 30.0 << 20.0;
        QTest::newRow("order 8, PML thinner than the stencil's reach") << 8 << 2 << 37.0 << 6.0;
        QTest::newRow("order 2, a deep source") << 2 << 10 << 205.0 << 12.5;
    }
    void equals_the_image_source_in_2d() {
        QFETCH(int, order);
        QFETCH(int, pml);
        QFETCH(double, source_z);
        QFETCH(double, receiver_z);
        const Model half = blob_model(30, 50, 10);
        const std::vector<Point> receivers = line_of_points(9, 15, 470, receiver_z);
        const ImagePair t =
            image_pair(half, {205, source_z}, receivers, settings(order, 15, 0.001, 500, pml));
        const double scale = peak(t.image), error = max_difference(t.half, t.image) / scale;
        qInfo("peak %.4g, largest difference %.3g of it", scale, error);
        QVERIFY(scale > 0);
        // Float round-off over 500 steps; a ghost row off by one plane, or mirrored without its sign, or a
        // Hicks tap not folded, is an error of order 1.
        QVERIFY2(error < 1e-4, qPrintable(QString::number(error)));
    }

    void equals_the_image_source_in_3d() {
        Model half;
        half.grid = Grid(12, 14, 16, 10, 10, 10);
        half.vp_mps = blob_model_3d(half.grid);
        const std::vector<Point> receivers{{40, 15, 50}, {110, 25, 70}, {75, 5, 30}};
        const ImagePair t = image_pair(half, {70, 22, 60}, receivers, settings(4, 20, 0.001, 200, 6));
        const double scale = peak(t.image), error = max_difference(t.half, t.image) / scale;
        qInfo("peak %.4g, largest difference %.3g of it", scale, error);
        QVERIFY(scale > 0);
        QVERIFY2(error < 1e-4, qPrintable(QString::number(error)));
    }

    void the_surface_reflects_with_opposite_sign() {
        // Source 100 m deep, receiver 100 m below it: with the surface, the direct wave is followed by the
        // surface's reflection (200 m further, 0.1 s later at 2000 m/s) with opposite polarity and about
        // sqrt(100 / 300) of its amplitude (2D spreading). Without the surface only the direct wave arrives,
        // so the difference of the two traces is the reflection alone.
        const Model m = constant_model(50, 60, 10, 2000);
        PropagationSettings s = settings(8, 10, 0.001, 700, 15);
        const Acquisition acq = one_shot({300, 100}, {{300, 200}});
        auto trace = [&](bool free_surface) {
            s.free_surface = free_surface;
            Simulation sim(m.grid, acq, s, 3000, "cpu");
            sim.set_model(m);
            return sim.forward().at(0).traces;
        };
        const std::vector<float> direct = trace(false), with = trace(true);
        std::vector<float> reflection(with.size());
        for (std::size_t i = 0; i < with.size(); ++i)
            reflection[i] = with[i] - direct[i];
        auto strongest = [](const std::vector<float>& t) {
            return std::size_t(std::max_element(t.begin(), t.end(),
                                                [](float a, float b) { return std::abs(a) < std::abs(b); }) -
                               t.begin());
        };
        const std::size_t d = strongest(direct), r = strongest(reflection);
        const double delay_s = double(r) * s.dt_s - double(d) * s.dt_s,
                     ratio = double(reflection[r]) / double(direct[d]);
        qInfo("direct %.4g at %.3f s, reflection %.4g at %.3f s: delay %.3f s, amplitude ratio %.3f",
              double(direct[d]), double(d) * s.dt_s, double(reflection[r]), double(r) * s.dt_s, delay_s,
              ratio);
        QVERIFY2(std::abs(delay_s - 0.1) < 0.01, qPrintable(QString::number(delay_s)));
        QVERIFY2(ratio < -0.45 && ratio > -0.7, qPrintable(QString::number(ratio))); // sqrt(1/3) = 0.577
    }

    void adjoint_dot_product_with_the_surface_data() {
        QTest::addColumn<bool>("three_d");
        QTest::newRow("2D") << false;
        QTest::newRow("3D") << true;
    }
    void adjoint_dot_product_with_the_surface() {
        // <B dv, dd> = <dv, B^T dd>: the Born operator and the gradient engine's adjoint, both under the free
        // surface, with the source and receivers within a stencil of it.
        QFETCH(bool, three_d);
        Model m = blob_model(40, 60, 10);
        Acquisition acq = one_shot({170, 25}, line_of_points(6, 20, 560, 15));
        if (three_d) {
            m.grid = Grid(14, 16, 18, 10, 10, 10);
            m.vp_mps = blob_model_3d(m.grid);
            acq = one_shot({73.3, 25, 61.7}, {{20.5, 15, 140.7}, {160.1, 12.5, 120.3}, {110, 33, 40}});
        }
        const auto nt = std::int64_t(three_d ? 200 : 400);
        PropagationSettings s = settings(three_d ? 4 : 8, 15, 0.001, nt, three_d ? 6 : 15);
        s.free_surface = true;
        Simulation sim(m.grid, acq, s, 3000, "cpu");
        sim.set_model(m);
        std::vector<float> gradient;
        check_born_dot_product(sim, m, 3e-5, three_d ? "3D free surface" : "2D free surface", &gradient);
        if (QTest::currentTestFailed()) return;
        // The surface holds no pressure, so no velocity on it changes the data.
        const std::int64_t surface_cells = m.grid.ny() * m.grid.nx();
        for (std::int64_t i = 0; i < surface_cells; ++i)
            QCOMPARE(gradient[std::size_t(i)], 0.0f);
    }

    void points_on_the_surface_are_refused() {
        const Model m = constant_model(20, 30, 10, 2000);
        PropagationSettings s = settings(8, 10, 0.001, 100, 10);
        s.free_surface = true;
        for (const Acquisition& acq : {one_shot({100, 0}, {{50, 20}}), one_shot({100, 20}, {{50, 0}})}) {
            try {
                Simulation sim(m.grid, acq, s, 3000, "cpu");
                QFAIL("a point on the free surface was accepted");
            } catch (const ConfigError& e) {
                QVERIFY2(QString(e.what()).contains("lies on the free surface"), e.what());
            }
        }
        s.free_surface = false; // without the surface the same points are fine
        Simulation sim(m.grid, one_shot({100, 0}, {{50, 0}}), s, 3000, "cpu");
    }

    void every_backend_keeps_the_surface() {
        // The CUDA backend's free surface is tested against this CPU one in tests/gpu
        // (free_surface_checks.hpp).
        PropagatorSetup setup;
        setup.grid = Grid(20, 30, 10, 10);
        setup.order = 4;
        setup.pml_width = 5;
        setup.dt_s = 0.001;
        setup.pml_velocity_mps = 2000;
        setup.free_surface = true;
        std::vector<std::string> names = available_backends();
        names.push_back("auto");
        for (const std::string& name : names)
            QVERIFY2(make_propagator(name, setup)->padded().free_surface, name.c_str());
    }

    void the_calibration_tells_the_tops_apart() {
        // The free surface's kernels skip the top layer, so its steps cost less: a run calibrated on the same
        // grid with an absorbing top (in this process, or in the calibration cache) does not price it.
        const Model m = blob_model(20, 30, 10);
        PropagationSettings s = settings(4, 10, 0.001, 50, 5);
        Simulation absorbing(m.grid, one_shot({100, 20}, {{50, 20}}), s, 3000, "cpu");
        absorbing.set_model(m);
        run_calibration(absorbing, "none");
        QVERIFY(known_calibration(absorbing, "none"));
        s.free_surface = true;
        Simulation surface(m.grid, one_shot({100, 20}, {{50, 20}}), s, 3000, "cpu");
        surface.set_model(m);
        QVERIFY(!known_calibration(surface, "none"));
    }

    void the_project_keeps_the_setting() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/surface.fwi").toStdString();
        Project p;
        p.experiment.true_model = blob_model(20, 30, 10);
        p.experiment.initial_model = p.experiment.true_model;
        p.experiment.current_model = p.experiment.true_model;
        p.experiment.acquisition = one_shot({100, 20}, {{50, 20}});
        p.experiment.propagation.free_surface = true;
        save_project(path, p);
        QVERIFY(load_project(path).experiment.propagation.free_surface);
        p.experiment.propagation.free_surface = false;
        save_project(path, p);
        QVERIFY(!load_project(path).experiment.propagation.free_surface);
    }
};

QTEST_APPLESS_MAIN(TestFreeSurface)
#include "tst_free_surface.moc"
