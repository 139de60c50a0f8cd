// Velocity models: validation messages, the teaching models, resampling, built-in names and resources.
#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/resources.hpp"
#include "io_test_util.hpp"

#include <QTemporaryDir>

#include <cmath>
#include <limits>

using namespace fwi;

namespace {

Model constant_model(std::int64_t nz, std::int64_t nx, float v) {
    Model m;
    m.grid = Grid(nz, nx, 10, 10);
    m.vp_mps.assign(std::size_t(nz * nx), v);
    return m;
}

// v = a + b z + c x is reproduced exactly by bilinear interpolation, so resampling must hit it at every new
// node.
Model planar_model(std::int64_t nz, std::int64_t nx, double dz, double dx) {
    Model m;
    m.grid = Grid(nz, nx, dz, dx);
    m.vp_mps.resize(std::size_t(nz * nx));
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps[m.grid.index(iz, ix)] = float(1500.0 + 2.0 * double(iz) * dz + 0.5 * double(ix) * dx);
    return m;
}

} // namespace

class TestModels : public QObject {
    Q_OBJECT

  private slots:
    void min_and_max_velocity() {
        Model m = constant_model(3, 4, 2000);
        m.vp_mps[5] = 1500;
        m.vp_mps[7] = 3100;
        QCOMPARE(m.min_velocity(), 1500.0f);
        QCOMPARE(m.max_velocity(), 3100.0f);
        QCOMPARE(Model{}.max_velocity(), 0.0f);
    }

    void valid_model_passes() { validate_model(constant_model(3, 4, 2000)); }

    void bad_velocities_name_the_cell_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("nan") << std::numeric_limits<float>::quiet_NaN() << "is NaN";
        QTest::newRow("inf") << std::numeric_limits<float>::infinity() << "is +inf";
        QTest::newRow("zero") << 0.0f << "is 0 m/s";
        QTest::newRow("negative") << -5.0f << "is -5 m/s";
    }
    void bad_velocities_name_the_cell() {
        QFETCH(float, value);
        QFETCH(QString, fragment);
        Model m = constant_model(4, 5, 2000);
        m.vp_mps[m.grid.index(2, 3)] = value;
        m.vp_mps[m.grid.index(3, 4)] = value; // only the first bad cell is reported
        const std::string frag = fragment.toStdString();
        FWI_VERIFY_ERROR(ConfigError, validate_model(m, "initial model"), "initial model", "(iz=2, ix=3)",
                         frag.c_str());
    }

    void bad_grids_are_config_errors() {
        Model m = constant_model(3, 4, 2000);
        m.grid = Grid(0, 4, 10, 10);
        FWI_VERIFY_ERROR(ConfigError, validate_model(m), "model", "nz=0");
        m.grid = Grid(3, 4, -1, 10);
        FWI_VERIFY_ERROR(ConfigError, validate_model(m), "dz=-1");
        m.grid = Grid(3, 4, 10, std::nan(""));
        FWI_VERIFY_ERROR(ConfigError, validate_model(m), "dx=nan");
        m.grid = Grid(3, 5, 10, 10);
        FWI_VERIFY_ERROR(ConfigError, validate_model(m), "12 velocity values", "needs 15");
    }

    void layered_model_puts_layers_at_depths() {
        const Model m = layered_model(11, 3, 10, 10, {1500, 2000, 3000}, {30, 75});
        validate_model(m);
        QCOMPARE(m.at(0, 0), 1500.0f);
        QCOMPARE(m.at(2, 1), 1500.0f); // z = 20
        QCOMPARE(m.at(3, 2), 2000.0f); // z = 30: on the interface belongs to the layer below
        QCOMPARE(m.at(7, 0), 2000.0f); // z = 70
        QCOMPARE(m.at(8, 0), 3000.0f); // z = 80
        QCOMPARE(m.at(10, 2), 3000.0f);
        FWI_VERIFY_ERROR(ConfigError, layered_model(11, 3, 10, 10, {1500, 2000}, {30, 75}),
                         "2 velocities for 2 interfaces");
        FWI_VERIFY_ERROR(ConfigError, layered_model(11, 3, 10, 10, {1500, 2000, 2500}, {75, 30}),
                         "interface 1 at 30");
        FWI_VERIFY_ERROR(ConfigError, layered_model(11, 3, 10, 10, {1500, -2000}, {30}),
                         "layer velocity = -2000");
        FWI_VERIFY_ERROR(ConfigError, layered_model(0, 3, 10, 10, {1500}, {}), "grid 0 x 3");
    }

    void circle_model_sharp_and_smooth() {
        const Model sharp = circle_anomaly_model(41, 41, 10, 10, 2000, 2500, 200, 200, 100);
        QCOMPARE(sharp.at(20, 20), 2500.0f);
        QCOMPARE(sharp.at(20, 30), 2500.0f); // r = 100: on the edge counts as inside
        QCOMPARE(sharp.at(20, 31), 2000.0f);
        QCOMPARE(sharp.at(0, 0), 2000.0f);
        const Model smooth = circle_anomaly_model(41, 41, 10, 10, 2000, 2500, 200, 200, 100, 40);
        QCOMPARE(smooth.at(20, 20), 2500.0f);
        QCOMPARE(smooth.at(20, 30), 2250.0f); // half-way up the cosine ramp at the radius
        QCOMPARE(smooth.at(20, 32), 2000.0f); // r = 120 is past the ramp
        QVERIFY(smooth.at(20, 29) > 2250.0f && smooth.at(20, 29) < 2500.0f);
        FWI_VERIFY_ERROR(ConfigError, circle_anomaly_model(41, 41, 10, 10, 2000, 2500, 200, 200, -1),
                         "radius -1");
    }

    void gradient_model_is_linear_in_depth() {
        const Model m = gradient_model(11, 4, 10, 10, 1500, 2500);
        QCOMPARE(m.at(0, 3), 1500.0f);
        QCOMPARE(m.at(5, 0), 2000.0f);
        QCOMPARE(m.at(10, 1), 2500.0f);
    }

    void resampling_a_planar_model_is_exact_at_new_nodes_data() {
        QTest::addColumn<double>("dz");
        QTest::addColumn<double>("dx");
        QTest::newRow("finer") << 5.0 << 2.5;
        QTest::newRow("coarser") << 20.0 << 25.0;
        QTest::newRow("non-divisor") << 7.5 << 12.5;
        QTest::newRow("same") << 10.0 << 10.0;
    }
    void resampling_a_planar_model_is_exact_at_new_nodes() {
        QFETCH(double, dz);
        QFETCH(double, dx);
        const Model m = planar_model(61, 81, 10, 10); // 600 m x 800 m
        const Model r = resample_model(m, dz, dx);
        QCOMPARE(r.grid.dz(), dz);
        QCOMPARE(r.grid.dx(), dx);
        QCOMPARE(r.grid.nz(), std::int64_t(std::llround(600 / dz)) + 1);
        QCOMPARE(r.grid.nx(), std::int64_t(std::llround(800 / dx)) + 1);
        for (std::int64_t iz = 0; iz < r.grid.nz(); ++iz)
            for (std::int64_t ix = 0; ix < r.grid.nx(); ++ix) {
                const double z = std::min(double(iz) * dz, 600.0), x = std::min(double(ix) * dx, 800.0);
                const double expected = 1500.0 + 2.0 * z + 0.5 * x;
                QVERIFY2(std::abs(r.at(iz, ix) - expected) <= 1e-6 * expected,
                         qPrintable(
                             QString("(%1, %2): %3 vs %4").arg(iz).arg(ix).arg(r.at(iz, ix)).arg(expected)));
            }
        if (dz == 10.0 && dx == 10.0) QVERIFY(fwi_test::same_bits(r.vp_mps, m.vp_mps));
    }

    void coarsening_averages_thin_layers_instead_of_aliasing_them() {
        // Layers one old cell thick, alternating 2000 / 3000 m/s: every second old node is 2000 m/s, so a
        // point sample onto twice the spacing would give 2000 m/s everywhere (aliasing the layering into a
        // wrong constant). An average over the new cells gives the layers' mean.
        Model m = constant_model(101, 21, 2000); // 10 m cells
        for (std::int64_t iz = 1; iz < m.grid.nz(); iz += 2)
            for (std::int64_t ix = 0; ix < m.grid.nx(); ++ix)
                m.vp_mps[m.grid.index(iz, ix)] = 3000;
        const Model r = resample_model(m, 20, 20);
        QCOMPARE(r.grid.nz(), std::int64_t(51));
        for (std::int64_t iz = 1; iz + 1 < r.grid.nz(); ++iz) // the edge nodes keep their own value
            for (std::int64_t ix = 0; ix < r.grid.nx(); ++ix)
                QVERIFY2(std::abs(r.at(iz, ix) - 2500.0f) <= 125.0f,
                         qPrintable(QString("(%1, %2): %3").arg(iz).arg(ix).arg(r.at(iz, ix))));
        // Along x nothing varies: the average of a constant is that constant.
        QCOMPARE(r.at(25, 0), r.at(25, 10));
    }

    void resampling_a_gradient_model_matches_the_direct_build() {
        const Model coarse = gradient_model(101, 21, 10, 10, 1500, 3500);
        const Model fine = resample_model(coarse, 5, 5);
        const Model direct = gradient_model(201, 41, 5, 5, 1500, 3500);
        QCOMPARE(fine.grid, direct.grid);
        for (std::size_t i = 0; i < fine.vp_mps.size(); ++i)
            QVERIFY(std::abs(fine.vp_mps[i] - direct.vp_mps[i]) <= 1e-3f);
    }

    void resampling_rejects_bad_spacing() {
        const Model m = constant_model(11, 11, 2000);
        FWI_VERIFY_ERROR(ConfigError, resample_model(m, 0, 10), "dz=0");
        FWI_VERIFY_ERROR(ConfigError, resample_model(m, 10, -2), "dx=-2");
        FWI_VERIFY_ERROR(ConfigError, resample_model(m, 1e-4, 1e-4), "cells", "limit");
        Model broken = m;
        broken.vp_mps[3] = -1;
        FWI_VERIFY_ERROR(ConfigError, resample_model(broken, 5, 5), "model to resample", "(iz=0, ix=3)");
    }

    void every_builtin_model_loads_and_is_valid() {
        for (const std::string& name : builtin_model_names()) {
            const Model m = builtin_model(name);
            validate_model(m, name);
            QVERIFY2(m.min_velocity() >= 1000 && m.max_velocity() <= 6000, name.c_str());
        }
        const Model layered = builtin_model("layered");
        QCOMPARE(layered.grid, Grid(101, 201, 10, 10));
        QVERIFY(layered.at(0, 0) < layered.at(100, 0));
        FWI_VERIFY_ERROR(ConfigError, builtin_model("overthrust"), "unknown built-in model 'overthrust'",
                         "layered", "marmousi2");
    }

    void resource_dir_honours_the_environment() {
        QTemporaryDir dir;
        const QByteArray saved = qgetenv("FWI_RESOURCE_DIR");
        qputenv("FWI_RESOURCE_DIR", dir.path().toUtf8());
        QCOMPARE(QString::fromStdString(resource_dir()), dir.path());
        const std::string where = dir.path().toStdString();
        FWI_VERIFY_ERROR(ResourceError, resource_path("models/marmousi2/marmousi_II_marine.vp"),
                         "models/marmousi2/marmousi_II_marine.vp", where.c_str());
        FWI_VERIFY_ERROR(ResourceError, load_marmousi2("true"), "not found");
        if (saved.isNull())
            qunsetenv("FWI_RESOURCE_DIR");
        else
            qputenv("FWI_RESOURCE_DIR", saved);
        QVERIFY(QFileInfo::exists(QString::fromStdString(resource_path("models/README.md"))));
        FWI_VERIFY_ERROR(ConfigError, load_marmousi2("overthrust"), "unknown variant 'overthrust'");
    }
};

QTEST_APPLESS_MAIN(TestModels)
#include "tst_models.moc"
