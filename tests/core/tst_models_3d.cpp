// Model tools in 3D: resampling reproduces a linear volume, smoothing keeps a constant and agrees with 2D on
// a volume that does not vary along y, the gradient mask and preconditioner take a volume, and the built-in
// 3D models are valid at their stated sizes.
#include "fwi/conditioning.hpp"
#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/smoothing.hpp"
#include "io_test_util.hpp"

#include <cmath>

using namespace fwi;

namespace {

// v = a + b z + c y + d x: trilinear interpolation and the tent average reproduce it exactly.
Model linear_volume(std::int64_t nz, std::int64_t ny, std::int64_t nx, double d) {
    Model m;
    m.grid = Grid(nz, ny, nx, d, d, d);
    m.vp_mps.resize(std::size_t(m.grid.cells()));
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix)
                m.vp_mps[m.grid.index(iz, iy, ix)] =
                    float(1500.0 + 2.0 * double(iz) * d + 1.25 * double(iy) * d + 0.5 * double(ix) * d);
    return m;
}

// A 2D model with structure in z and x (a smooth bump and a sharp layer), for the y-invariance checks.
Model structured_2d(std::int64_t nz, std::int64_t nx, double dz, double dx) {
    Model m;
    m.grid = Grid(nz, nx, dz, dx);
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps.push_back(float(1800.0 + 9.0 * double(iz) + (iz > nz / 2 ? 700.0 : 0.0) +
                                     300.0 * std::exp(-0.02 * double((ix - nx / 3) * (ix - nx / 3)))));
    return m;
}

// Slice iy of a 3D model as a 2D model.
std::vector<float> slice_y(const Model& m, std::int64_t iy) {
    std::vector<float> out;
    for (std::int64_t iz = 0; iz < m.grid.nz(); ++iz)
        for (std::int64_t ix = 0; ix < m.grid.nx(); ++ix)
            out.push_back(m.vp_mps[m.grid.index(iz, iy, ix)]);
    return out;
}

} // namespace

class TestModels3d : public QObject {
    Q_OBJECT

  private slots:
    void resampling_a_linear_volume_is_exact_data() {
        QTest::addColumn<double>("dz");
        QTest::addColumn<double>("dy");
        QTest::addColumn<double>("dx");
        QTest::newRow("finer") << 5.0 << 2.5 << 7.5;
        QTest::newRow("coarser") << 20.0 << 25.0 << 15.0;
        QTest::newRow("mixed") << 7.5 << 30.0 << 4.0;
    }
    void resampling_a_linear_volume_is_exact() {
        QFETCH(double, dz);
        QFETCH(double, dy);
        QFETCH(double, dx);
        const Model m = linear_volume(21, 17, 25, 10); // 200 x 160 x 240 m
        const Model r = resample_model(m, dz, dy, dx);
        QCOMPARE(r.grid.rank, 3);
        QCOMPARE(r.grid.ny(), std::int64_t(std::llround(160 / dy)) + 1);
        QCOMPARE(r.grid.dy(), dy);
        double worst = 0;
        for (std::int64_t iz = 0; iz < r.grid.nz(); ++iz)
            for (std::int64_t iy = 0; iy < r.grid.ny(); ++iy)
                for (std::int64_t ix = 0; ix < r.grid.nx(); ++ix) {
                    const double z = std::min(double(iz) * dz, 200.0), y = std::min(double(iy) * dy, 160.0),
                                 x = std::min(double(ix) * dx, 240.0);
                    const double expected = 1500.0 + 2.0 * z + 1.25 * y + 0.5 * x;
                    worst =
                        std::max(worst, std::abs(r.vp_mps[r.grid.index(iz, iy, ix)] - expected) / expected);
                }
        QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
    }

    void resampling_keeps_the_same_spacing_bit_for_bit() {
        const Model m = linear_volume(9, 7, 11, 10);
        QVERIFY(fwi_test::same_bits(resample_model(m, 10, 10, 10).vp_mps, m.vp_mps));
    }

    void resampling_a_y_invariant_volume_matches_2d() {
        const Model m2 = structured_2d(31, 41, 10, 10);
        const Model m3 = extrude_model_y(m2, 5, 12);
        const Model r2 = resample_model(m2, 7.5, 15);
        const Model r3 = resample_model(m3, 7.5, 12, 15);
        QCOMPARE(r3.grid, Grid(r2.grid.nz(), 5, r2.grid.nx(), 7.5, 12, 15));
        for (std::int64_t iy = 0; iy < 5; ++iy)
            QVERIFY(fwi_test::same_bits(slice_y(r3, iy), r2.vp_mps));
    }

    void resampling_checks_the_3d_arguments() {
        const Model m = linear_volume(5, 5, 5, 10);
        FWI_VERIFY_ERROR(ConfigError, resample_model(m, 10, 10), "a 3D model needs a new y spacing");
        FWI_VERIFY_ERROR(ConfigError, resample_model(m, 10, 0, 10), "dy=0 m");
        FWI_VERIFY_ERROR(ConfigError, resample_model(m, 0.01, 0.01, 0.01), "x 4001 x", "limit");
    }

    void smoothing_keeps_a_constant_volume_constant() {
        Model m;
        m.grid = Grid(13, 9, 11, 10, 10, 10);
        m.vp_mps.assign(std::size_t(m.grid.cells()), 2345.0f);
        const Model s = smoothed_model(m, 25);
        for (float v : s.vp_mps)
            QCOMPARE(v, 2345.0f);
    }

    void smoothing_a_y_invariant_volume_matches_2d() {
        const Model m2 = structured_2d(31, 41, 10, 10);
        const Model m3 = extrude_model_y(m2, 6, 10);
        std::vector<float> s2 = m2.vp_mps, s3 = m3.vp_mps;
        gaussian_smooth(s2, m2.grid, 20, 30);
        gaussian_smooth(s3, m3.grid, 20, 25, 30);
        QVERIFY(!fwi_test::same_bits(s2, m2.vp_mps));
        Model r3 = m3;
        r3.vp_mps = s3;
        for (std::int64_t iy = 0; iy < 6; ++iy)
            QVERIFY(fwi_test::same_bits(slice_y(r3, iy), s2));
    }

    void smoothing_smooths_along_y() {
        Model m;
        m.grid = Grid(3, 21, 3, 10, 10, 10);
        m.vp_mps.assign(std::size_t(m.grid.cells()), 2000.0f);
        for (std::int64_t iz = 0; iz < 3; ++iz)
            for (std::int64_t ix = 0; ix < 3; ++ix)
                m.vp_mps[m.grid.index(iz, 10, ix)] = 3000.0f;
        std::vector<float> s = m.vp_mps;
        gaussian_smooth(s, m.grid, 0, 20, 0);
        QVERIFY(s[m.grid.index(1, 10, 1)] < 3000.0f);
        QVERIFY(s[m.grid.index(1, 11, 1)] > 2000.0f);
        QCOMPARE(s[m.grid.index(1, 11, 1)], s[m.grid.index(1, 9, 1)]);
        QCOMPARE(s[m.grid.index(0, 11, 0)], s[m.grid.index(2, 11, 2)]); // nothing along z or x
        FWI_VERIFY_ERROR(ConfigError, gaussian_smooth(s, m.grid, 10, 10),
                         "a 3D grid needs a y smoothing length");
    }

    void symmetric_smoothing_in_3d() {
        const Model m2 = structured_2d(21, 25, 10, 10);
        const Model m3 = extrude_model_y(m2, 4, 10);
        std::vector<double> f2(m2.vp_mps.begin(), m2.vp_mps.end()), f3(m3.vp_mps.begin(), m3.vp_mps.end());
        symmetric_gaussian_smooth(f2, m2.grid, 15, 20);
        symmetric_gaussian_smooth(f3, m3.grid, 15, 0, 20); // no y smoothing: each slice is the 2D result
        for (std::int64_t iz = 0; iz < 21; ++iz)
            for (std::int64_t iy = 0; iy < 4; ++iy)
                for (std::int64_t ix = 0; ix < 25; ++ix)
                    QCOMPARE(f3[m3.grid.index(iz, iy, ix)], f2[m2.grid.index(iz, ix)]);
        // K is symmetric in 3D too: <K a, b> = <a, K b>.
        const Grid g(7, 6, 8, 10, 12, 9);
        std::vector<double> a(std::size_t(g.cells())), b(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            a[i] = std::sin(0.37 * double(i));
            b[i] = std::cos(0.11 * double(i * i % 97));
        }
        std::vector<double> ka = a, kb = b;
        symmetric_gaussian_smooth(ka, g, 11, 17, 13);
        symmetric_gaussian_smooth(kb, g, 11, 17, 13);
        double kab = 0, akb = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            kab += ka[i] * b[i];
            akb += a[i] * kb[i];
        }
        QVERIFY2(std::abs(kab - akb) <= 1e-12 * std::abs(kab),
                 qPrintable(QString("%1 vs %2").arg(kab).arg(akb)));
        FWI_VERIFY_ERROR(ConfigError, symmetric_gaussian_smooth(ka, g, 10, 10),
                         "a 3D grid needs a y smoothing");
    }

    void gradient_mask_in_3d() {
        Model start = layered_model_3d(11, 9, 13, 10, 10, 10, {1500, 2500}, {30});
        Acquisition acq;
        Shot shot;
        shot.source = Point{60, 50, 40}; // x, z, y
        acq.shots.push_back(shot);
        MaskOptions o;
        o.water_velocity_mps = 1500;
        o.source_radius_m = 25;
        const std::vector<float> mask = build_mask(start, acq, o);
        const Grid& g = start.grid;
        QCOMPARE(mask.size(), std::size_t(g.cells()));
        QCOMPARE(mask[g.index(2, 4, 6)], 0.0f); // water
        QCOMPARE(mask[g.index(5, 4, 6)], 0.0f); // the source's cell (x 60, y 40, z 50)
        QCOMPARE(mask[g.index(5, 6, 6)], 0.0f); // 20 m along y
        QCOMPARE(mask[g.index(5, 7, 6)], 1.0f); // 30 m along y: free
        QCOMPARE(mask[g.index(5, 0, 6)], 1.0f);
        QCOMPARE(mask[g.index(10, 8, 12)], 1.0f);
    }

    void preconditioner_takes_a_volume() {
        const Grid g(9, 21, 21, 10, 10, 10);
        PreconditionerOptions o;
        o.smoothing_z_m = o.smoothing_x_m = 20;
        GradientPreconditioner c(g, {}, {}, o);
        std::vector<double> v(std::size_t(g.cells()), 0.0);
        v[g.index(4, 10, 10)] = 1;
        c.apply(v);
        // smoothing_y_m unset: y is smoothed as x.
        const double along_y = v[g.index(4, 11, 10)], along_x = v[g.index(4, 10, 11)];
        QVERIFY(along_y > 0);
        QVERIFY2(std::abs(along_y - along_x) <= 1e-12 * along_x,
                 qPrintable(QString("%1 vs %2").arg(along_y).arg(along_x)));
        o.smoothing_y_m = 0;
        GradientPreconditioner no_y(g, {}, {}, o);
        std::vector<double> w(std::size_t(g.cells()), 0.0);
        w[g.index(4, 10, 10)] = 1;
        no_y.apply(w);
        QCOMPARE(w[g.index(4, 11, 10)], 0.0);
        QVERIFY(w[g.index(4, 10, 11)] > 0);
    }

    void builtin_3d_models_have_their_stated_sizes() {
        const Model layered = builtin_model("layered3d");
        QCOMPARE(layered.grid, Grid(61, 81, 81, 10, 10, 10));
        const Model salt = builtin_model("salt3d");
        QCOMPARE(salt.grid, Grid(61, 81, 81, 10, 10, 10));
        const Model marmousi = builtin_model("marmousi2-3d");
        QCOMPARE(marmousi.grid, Grid(88, 48, 251, 40, 40, 40));
        for (const Model* m : {&layered, &salt, &marmousi}) {
            validate_model(*m);
            QVERIFY(m->min_velocity() >= 1000 && m->max_velocity() <= 6000);
        }
        // Marmousi-II is extruded: every inline is the same section.
        QVERIFY(fwi_test::same_bits(slice_y(marmousi, 0), slice_y(marmousi, 47)));
    }

    void layered3d_interfaces_dip() {
        const Model m = builtin_model("layered3d");
        // At the centre (x = y = 400 m) the first interface is at 150 m; it is deeper towards larger x and y.
        const auto depth_of_first_interface = [&](std::int64_t iy, std::int64_t ix) {
            std::int64_t iz = 0;
            while (m.vp_mps[m.grid.index(iz, iy, ix)] == 1500.0f)
                ++iz;
            return iz;
        };
        QCOMPARE(depth_of_first_interface(40, 40), std::int64_t(15));
        QVERIFY(depth_of_first_interface(40, 80) > depth_of_first_interface(40, 40));
        QVERIFY(depth_of_first_interface(80, 40) > depth_of_first_interface(40, 40));
        QVERIFY(depth_of_first_interface(40, 80) > depth_of_first_interface(80, 40)); // 8 degrees > 4
        QVERIFY(depth_of_first_interface(0, 0) < depth_of_first_interface(40, 40));
    }

    void salt3d_has_a_body_in_a_gradient() {
        const Model m = builtin_model("salt3d");
        const Grid& g = m.grid;
        QCOMPARE(m.vp_mps[g.index(33, 40, 40)], 4500.0f); // the centre, at 55% of the depth
        QCOMPARE(m.vp_mps[g.index(0, 0, 0)], 1800.0f);
        QCOMPARE(m.vp_mps[g.index(60, 0, 0)], 3200.0f);
        QVERIFY(m.vp_mps[g.index(60, 40, 40)] < 4500.0f); // the body ends above the bottom
        // Irregular: mirror-symmetric neither in x nor in y.
        bool symmetric_x = true, symmetric_y = true;
        for (std::int64_t iz = 0; iz < g.nz(); ++iz)
            for (std::int64_t iy = 0; iy < g.ny(); ++iy)
                for (std::int64_t ix = 0; ix < g.nx(); ++ix) {
                    const float v = m.vp_mps[g.index(iz, iy, ix)];
                    symmetric_x = symmetric_x && v == m.vp_mps[g.index(iz, iy, 80 - ix)];
                    symmetric_y = symmetric_y && v == m.vp_mps[g.index(iz, 80 - iy, ix)];
                }
        QVERIFY(!symmetric_x);
        QVERIFY(!symmetric_y);
    }

    void built_3d_models_check_their_sizes() {
        FWI_VERIFY_ERROR(ConfigError, layered_model_3d(1000, 1000, 1000, 10, 10, 10, {2000}, {}),
                         "layered 3D model: grid 1000 x 1000 x 1000 cells", "at most 2e+08 cells");
        FWI_VERIFY_ERROR(ConfigError, salt_model_3d(10, 10, 10, 10, 0, 10, 1800, 3000, 4500), "dy=0 m");
        FWI_VERIFY_ERROR(ConfigError, layered_model_3d(5, 5, 5, 10, 10, 10, {2000, 2500}, {20}, 75),
                         "within +-60");
        FWI_VERIFY_ERROR(ConfigError, extrude_model_y(builtin_model("layered"), 0, 10), "is not usable");
        FWI_VERIFY_ERROR(ConfigError, marmousi2_3d(48, -1), "spacing -1 m");
    }
};

QTEST_APPLESS_MAIN(TestModels3d)
#include "tst_models_3d.moc"
