// A 3D gradient through the one engine (Simulation, compute_gradient, the executor): the cpu backend picks
// the 3D kernels by the grid's rank, the engine's store-all gradient is the direct CpuPropagator3D gradient
// bit for bit, CFL sub-stepping in 3D gives the true gradient (Taylor test), and bad 3D inputs are clear
// ConfigErrors. Every schedule and codec in 3D: tst_checkpointed_gradient.cpp built with FWI_TEST_RANK=3.
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/simulation.hpp"
#include "fwi/taylor_test.hpp"
#include "test_setups.hpp"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <functional>

using namespace fwi;
using namespace fwi::test;

namespace {

const Grid kGrid(16, 18, 20, 10, 10, 10);

Acquisition acquisition_3d() {
    std::vector<Point> receivers = line_of_points(6, 15, 175, 30);
    for (std::size_t r = 0; r < receivers.size(); ++r)
        receivers[r].y_m = 150 - 20.0 * double(r);
    return one_shot({83.3, 20, 71.7}, receivers);
}

Model start_model() {
    Model m{kGrid, blob_model_3d(kGrid)};
    for (auto& v : m.vp_mps)
        v = 1800 + (v - 1800) * 0.6f;
    return m;
}

std::vector<Gather> observed_data(Simulation& sim) {
    sim.set_model(Model{kGrid, blob_model_3d(kGrid)});
    return sim.forward();
}

/// A smooth perturbation (a Gaussian off the centre), largest value `amplitude` m/s.
std::vector<float> smooth_perturbation(float amplitude) {
    std::vector<float> dv(std::size_t(kGrid.cells()));
    for (std::int64_t iz = 0; iz < kGrid.nz(); ++iz)
        for (std::int64_t iy = 0; iy < kGrid.ny(); ++iy)
            for (std::int64_t ix = 0; ix < kGrid.nx(); ++ix) {
                const double z = double(iz) / double(kGrid.nz()) - 0.55,
                             y = double(iy) / double(kGrid.ny()) - 0.4,
                             x = double(ix) / double(kGrid.nx()) - 0.5;
                dv[kGrid.index(iz, iy, ix)] = float(amplitude * std::exp(-(x * x + y * y + z * z) / 0.04));
            }
    return dv;
}

bool refused(const std::function<void()>& f, const char* expected) {
    try {
        f();
    } catch (const ConfigError& e) {
        if (QString(e.what()).contains(expected)) return true;
        qWarning("ConfigError without '%s': %s", expected, e.what());
    }
    return false;
}

} // namespace

class TestGradientEngine3D : public QObject {
    Q_OBJECT
  private slots:
    void cpu_backend_picks_kernels_by_rank() {
        PropagatorSetup s;
        s.grid = kGrid;
        s.order = 4;
        s.pml_width = 4;
        s.dt_s = 0.001;
        s.pml_velocity_mps = 3000;
        for (const char* backend : {"cpu", "auto"}) {
            const auto p = make_propagator(backend, s);
            QCOMPARE(p->backend(), std::string("cpu"));
            QCOMPARE(p->padded().ny(), kGrid.ny() + 2 * (4 + 2));
            const auto fields = p->new_state()->fields();
            QCOMPARE(fields.size(), std::size_t(5)); // u, u_prev and the x, y, z PML strips
            QCOMPARE(fields[0].rows, p->padded().rows());
            QCOMPARE(fields[0].cols, p->padded().nx());
        }
        s.grid = Grid(16, 20, 10, 10);
        const auto p2 = make_propagator("cpu", s);
        QCOMPARE(p2->padded().ny(), std::int64_t(1));
        QCOMPARE(p2->new_state()->fields().size(), std::size_t(4));
    }

    void engine_gradient_is_the_direct_gradient() {
        // dt below the 3D CFL limit: one inner step per sample, so the engine's traces are the inner ones.
        Simulation sim(kGrid, acquisition_3d(), settings(4, 15, 0.001, 150, 4), 3000, "cpu");
        QCOMPARE(sim.time().step_ratio, 1);
        const std::vector<Gather> observed = observed_data(sim);
        const Model start = start_model();
        for (const char* schedule : {"all", "revolve:5"}) {
            GradientOptions o;
            o.settings.schedule = schedule;
            const GradientResult r = compute_gradient(sim, start, observed, o);

            sim.set_model(start);
            const std::vector<Gather> modelled = sim.forward();
            std::vector<float> residual;
            const double misfit = l2_misfit(modelled[0], observed[0], residual);
            const std::vector<float> direct = direct_gradient(
                sim.propagator(), sim.geometry(0), sim.inner_source(), sim.time().inner_nt, residual);
            QCOMPARE(r.misfit, misfit);
            QVERIFY(misfit > 0);
            QCOMPARE(r.gradient.size(), direct.size());
            QVERIFY2(std::memcmp(r.gradient.data(), direct.data(), direct.size() * sizeof(float)) == 0,
                     qPrintable(QString("%1: relative difference %2")
                                    .arg(schedule)
                                    .arg(relative_l2(r.gradient, direct))));
        }
    }

    void cfl_substepping_gives_the_true_gradient() {
        // dt = 3 ms is about 2.6 times the 3D stable step at 3000 m/s (C = 0.6, 10 m cells): 3 inner steps
        // per sample, sources upsampled and receivers downsampled over the whole trace.
        Simulation sim(kGrid, acquisition_3d(), settings(4, 12, 0.003, 60, 4), 3000, "cpu");
        QCOMPARE(sim.time().step_ratio, 3);
        QCOMPARE(sim.time().inner_dt_s, 0.001);
        const std::vector<Gather> observed = observed_data(sim);
        GradientOptions o;
        o.settings.schedule = "revolve:6";
        const TaylorResult t =
            taylor_test(sim, start_model(), observed, smooth_perturbation(40), {1.0, 0.5, 0.25, 0.125}, o);
        for (std::size_t i = 0; i < t.h.size(); ++i)
            qInfo("h %.3f: r1 %.3e r2 %.3e", t.h[i], t.first_order[i], t.second_order[i]);
        qInfo("slopes %.3f (first order), %.3f (second order)", t.slope1, t.slope2);
        QVERIFY(t.directional_derivative != 0);
        QVERIFY(std::abs(t.slope1 - 1) < 0.1);
        QVERIFY(std::abs(t.slope2 - 2) < 0.1);
    }

    void bad_3d_inputs_are_config_errors() {
        const PropagationSettings prop = settings(4, 15, 0.001, 50, 4);
        Acquisition outside = acquisition_3d();
        outside.shots[0].source.y_m = kGrid.breadth_m() + 5; // inside in x and z, beyond the last y plane
        QVERIFY(refused([&] { Simulation(kGrid, outside, prop, 3000, "cpu"); }, "source of shot 0"));
        outside = acquisition_3d();
        outside.shots[0].receivers[2].y_m = -1;
        QVERIFY(refused([&] { Simulation(kGrid, outside, prop, 3000, "cpu"); }, "receiver 2 of shot 0"));

        Simulation sim(kGrid, acquisition_3d(), prop, 3000, "cpu");
        const std::vector<Gather> observed = observed_data(sim);
        Model short_model = start_model();
        short_model.vp_mps.pop_back();
        QVERIFY(refused([&] { compute_gradient(sim, short_model, observed, {}); }, "velocity values"));
        const Model flat = constant_model(kGrid.nz(), kGrid.nx(), 10, 2000); // a 2D model for a 3D run
        QVERIFY(refused([&] { compute_gradient(sim, flat, observed, {}); }, "grid differs"));
    }
};

QTEST_GUILESS_MAIN(TestGradientEngine3D)
#include "tst_gradient_engine_3d.moc"
