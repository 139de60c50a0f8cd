#pragma once
// The free surface (core/src/propagator/free_surface.hpp) on another backend against the CPU's, in 2D and 3D,
// shared by the CUDA backend's host twin (tst_cuda_host_twin*.cpp, everywhere) and the CUDA backend on a
// device (tst_cuda_backend.cpp). Sources and receivers lie within a stencil of the surface, so their Hicks
// taps fold about it and the wave reflects off it from the first steps. Each body uses QVERIFY.
#include "backend_checks.hpp"

#include <QtTest>
#include <string>

namespace fwi::test {

/// A model, a starting model halfway to its depth gradient, shallow shots, and settings with a free surface.
struct FreeSurfaceCase {
    Model truth, start;
    Acquisition acquisition;
    PropagationSettings settings;
};

inline FreeSurfaceCase free_surface_case(bool three_d) {
    FreeSurfaceCase c;
    if (three_d) { // points (x, z, y)
        c.truth.grid = Grid(14, 16, 18, 10, 10, 10);
        c.truth.vp_mps = blob_model_3d(c.truth.grid);
        c.acquisition = one_shot({73.3, 25, 61.7}, {{20.5, 15, 140.7}, {160.1, 12.5, 120.3}, {110, 33, 40}});
        c.settings = settings(4, 15, 0.001, 200, 6);
    } else {
        c.truth = blob_model(30, 50, 10);
        for (double sx : {90.0, 370.0})
            c.acquisition.shots.push_back({{sx, 15}, line_of_points(8, 20, 470, 12.5)});
        c.settings = settings(8, 12, 0.002, 200, 8);
    }
    c.settings.free_surface = true;
    c.start = c.truth;
    for (auto& v : c.start.vp_mps)
        v = 1800 + (v - 1800) * 0.5f;
    return c;
}

/// After `steps` forward steps on `sim`'s backend, the surface plane of u is 0 and the R planes above it are
/// the exact negation of the R below (a copy and a sign: bit for bit), and the wave has reached the surface.
inline void check_mirror_in_the_state(Simulation& sim, std::int64_t steps) {
    Propagator& p = sim.propagator();
    const PaddedGrid& g = p.padded();
    QVERIFY(g.free_surface);
    auto state = p.new_state();
    p.forward(*state, steps, sim.geometry(0), sim.inner_source(), nullptr, 0);
    state->to_host();
    const FieldView u = state->fields().at(0);
    QCOMPARE(u.size(), g.cells());
    const std::int64_t s = g.origin(), plane = g.ny() * g.nx();
    double below = 0;
    for (std::int64_t i = 0; i < plane; ++i) {
        QCOMPARE(u.data[s * plane + i], 0.0f);
        below += std::abs(double(u.data[(s + 1) * plane + i]));
        for (std::int64_t k = 1; k <= g.halo; ++k)
            if (u.data[(s - k) * plane + i] != -u.data[(s + k) * plane + i])
                QFAIL(qPrintable(QString("plane %1 above the surface, cell %2: %3, the negated mirror %4")
                                     .arg(k)
                                     .arg(i)
                                     .arg(double(u.data[(s - k) * plane + i]))
                                     .arg(-double(u.data[(s + k) * plane + i]))));
    }
    QVERIFY2(below > 0, "the wave must reach the surface for this check to mean something");
}

/// Gathers, the mirror in the state, the misfit gradient (exactly zero on the surface) against the CPU's,
/// and the Born dot product under the surface on `backend` alone.
inline void check_free_surface_matches_cpu(const std::string& backend, bool three_d, double trace_tolerance,
                                           double gradient_tolerance, double dot_tolerance) {
    const FreeSurfaceCase c = free_surface_case(three_d);
    const char* rank = three_d ? "3D" : "2D";
    Simulation cpu(c.truth.grid, c.acquisition, c.settings, 3000, "cpu");
    Simulation other(c.truth.grid, c.acquisition, c.settings, 3000, backend);
    QCOMPARE(QString::fromStdString(other.propagator().backend()), QString::fromStdString(backend));
    cpu.set_model(c.truth);
    other.set_model(c.truth);
    const std::vector<Gather> observed = cpu.forward(), got = other.forward();
    for (std::size_t shot = 0; shot < observed.size(); ++shot) {
        const double e = relative_difference(got[shot].traces, observed[shot].traces);
        qInfo("%s free surface, %s vs cpu, shot %zu: gathers differ by %.3g", rank, backend.c_str(), shot, e);
        QVERIFY2(e <= trace_tolerance, qPrintable(QString::number(e)));
    }
    check_mirror_in_the_state(other, 150);
    if (QTest::currentTestFailed()) return;

    const GradientResult ref = compute_gradient(cpu, c.start, observed, {});
    const GradientResult grad = compute_gradient(other, c.start, observed, {});
    const double e_misfit = std::abs(grad.misfit - ref.misfit) / ref.misfit;
    const double e_grad = relative_difference(grad.gradient, ref.gradient);
    qInfo("%s free surface, %s vs cpu: misfit %.3g, gradient %.3g", rank, backend.c_str(), e_misfit, e_grad);
    QVERIFY(ref.misfit > 0);
    QVERIFY2(e_misfit <= gradient_tolerance, qPrintable(QString::number(e_misfit)));
    QVERIFY2(e_grad <= gradient_tolerance, qPrintable(QString::number(e_grad)));
    const std::int64_t surface_cells = c.truth.grid.ny() * c.truth.grid.nx();
    for (std::int64_t i = 0; i < surface_cells; ++i)
        QCOMPARE(grad.gradient[std::size_t(i)], 0.0f);

    Acquisition first_shot; // the dot product takes shot 0
    first_shot.shots.push_back(c.acquisition.shots.front());
    Simulation born(c.truth.grid, first_shot, c.settings, 3000, backend);
    born.set_model(c.truth);
    check_born_dot_product(born, c.truth, dot_tolerance, backend + " " + rank + " free surface");
}

} // namespace fwi::test
