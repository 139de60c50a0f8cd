#pragma once
// Test bodies that compare a backend with the CPU reference, shared by every backend test: the CPU itself
// (tst_propagator.cpp), the CUDA backend on a machine with a device (tst_cuda_backend.cpp) and its host twin
// everywhere (tst_cuda_host_twin.cpp). Each body uses
// QVERIFY; callers check QTest::currentTestFailed() if they go on.
#include "fwi/born.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/simulation.hpp"
#include "test_setups.hpp"

#include <QtTest>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>

namespace fwi::test {

/// Relative L2 difference, with a floor on the reference norm so that all-zero fields compare cleanly.
inline double relative_difference(std::span<const float> a, std::span<const float> ref) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        num += (double(a[i]) - ref[i]) * (double(a[i]) - ref[i]);
        den += double(ref[i]) * ref[i];
    }
    return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

/// Gathers of `backend` against the CPU's for one order, PML width and model size (the wave reaches the PML).
inline void check_gathers_match_cpu(const std::string& backend, int order, int pml, std::int64_t nz,
                                    std::int64_t nx, double tolerance) {
    const Model m = blob_model(nz, nx, 10);
    const double w = double(nx - 1) * 10, d = double(nz - 1) * 10;
    const Acquisition acq = one_shot({0.37 * w, 0.31 * d}, line_of_points(5, 0.05 * w, 0.95 * w, 0.2 * d));
    Simulation cpu(m.grid, acq, settings(order, 15, 0.001, 300, pml), 3000, "cpu");
    Simulation other(m.grid, acq, settings(order, 15, 0.001, 300, pml), 3000, backend);
    QCOMPARE(QString::fromStdString(other.propagator().backend()), QString::fromStdString(backend));
    cpu.set_model(m);
    other.set_model(m);
    const auto ref = cpu.forward()[0].traces, got = other.forward()[0].traces;
    const double err = relative_difference(got, ref);
    qInfo("%s vs cpu, order %d, PML %d, %lld x %lld: gathers differ by %.3g", backend.c_str(), order, pml,
          static_cast<long long>(nz), static_cast<long long>(nx), err);
    QVERIFY2(err <= tolerance, qPrintable(QString("relative L2 %1 > %2").arg(err).arg(tolerance)));
}

/// After the same steps, every field of the state (u, u_prev, packed PML strips) matches the CPU's, shape for
/// shape.
inline void check_state_fields_match_cpu(const std::string& backend, double tolerance) {
    const Model m = blob_model(30, 40, 10);
    const Acquisition acq = one_shot({60, 50}, {{300, 200}});
    Simulation cpu(m.grid, acq, settings(8, 15, 0.001, 300, 6), 3000, "cpu");
    Simulation other(m.grid, acq, settings(8, 15, 0.001, 300, 6), 3000, backend);
    cpu.set_model(m);
    other.set_model(m);
    auto a = cpu.propagator().new_state(), b = other.propagator().new_state();
    cpu.propagator().forward(*a, 200, cpu.geometry(0), cpu.inner_source(), nullptr, 0);
    other.propagator().forward(*b, 200, other.geometry(0), other.inner_source(), nullptr, 0);
    a->to_host();
    b->to_host();
    const auto fa = a->fields(), fb = b->fields();
    QCOMPARE(fb.size(), fa.size());
    for (std::size_t i = 0; i < fa.size(); ++i) {
        QCOMPARE(fb[i].rows, fa[i].rows);
        QCOMPARE(fb[i].cols, fa[i].cols);
        double norm = 0;
        for (float v : fa[i].span())
            norm += double(v) * v;
        QVERIFY2(norm > 0, "the wave must reach every PML variable for this check to mean something");
        const double err = relative_difference(fb[i].span(), fa[i].span());
        qInfo("field %zu (%lld x %lld): relative difference %.3g", i, static_cast<long long>(fa[i].rows),
              static_cast<long long>(fa[i].cols), err);
        QVERIFY2(err <= tolerance, qPrintable(QString("field %1: %2 > %3").arg(i).arg(err).arg(tolerance)));
    }
}

/// Adjoint steps with residual injection and a gradient snapshot: the adjoint field and the gradient match
/// the CPU (under a free surface with `free_surface`: the receivers lie 3 cells below it).
inline void check_adjoint_matches_cpu(const std::string& backend, double tolerance,
                                      bool free_surface = false) {
    const Model m = blob_model(24, 36, 10);
    const Acquisition acq = one_shot({100, 60}, line_of_points(4, 20, 330, 30));
    PropagationSettings ps = settings(6, 15, 0.001, 200, 5);
    ps.free_surface = free_surface;
    Simulation cpu(m.grid, acq, ps, 3000, "cpu");
    Simulation other(m.grid, acq, ps, 3000, backend);
    cpu.set_model(m);
    other.set_model(m);
    const std::int64_t nt = 200;
    const auto first = normal_noise(std::size_t(4 * nt), 7), second = normal_noise(std::size_t(4 * nt), 9);
    std::vector<float> residual = first;
    const auto snapshot = normal_noise(std::size_t(cpu.propagator().padded().cells()), 8);
    std::vector<std::vector<float>> lambda, gradient, lambda_again;
    for (Simulation* s : {&cpu, &other}) {
        Propagator& p = s->propagator();
        std::copy(first.begin(), first.end(), residual.begin());
        auto adj = p.new_adjoint_state();
        adj->step = nt;
        for (std::int64_t n = nt - 1; n >= nt - 150; --n)
            p.adjoint(*adj, s->geometry(0), residual, nt, n % 3 == 0 ? snapshot.data() : nullptr, 2.0f);
        QCOMPARE(adj->step, nt - 150);
        lambda.emplace_back(std::size_t(m.grid.cells()));
        p.model_region_adjoint(*adj, lambda.back());
        gradient.emplace_back(std::size_t(m.grid.cells()), 0.0f);
        p.take_velocity_gradient(gradient.back());
        // The same array rewritten in place and a new sweep starting among the steps the last one injected
        // (as the next shot's residual in the executor's one buffer): a backend that keeps samples of the
        // array between calls must inject the new ones.
        std::copy(second.begin(), second.end(), residual.begin());
        auto again = p.new_adjoint_state();
        again->step = 60;
        for (std::int64_t n = 59; n >= 20; --n)
            p.adjoint(*again, s->geometry(0), residual, nt, nullptr, 2.0f);
        lambda_again.emplace_back(std::size_t(m.grid.cells()));
        p.model_region_adjoint(*again, lambda_again.back());
    }
    const double e_lambda = relative_difference(lambda[1], lambda[0]);
    const double e_grad = relative_difference(gradient[1], gradient[0]);
    const double e_again = relative_difference(lambda_again[1], lambda_again[0]);
    qInfo("%s vs cpu adjoint: field %.3g, gradient %.3g, second sweep %.3g", backend.c_str(), e_lambda,
          e_grad, e_again);
    QVERIFY2(e_lambda <= tolerance, qPrintable(QString::number(e_lambda)));
    QVERIFY2(e_grad <= tolerance, qPrintable(QString::number(e_grad)));
    QVERIFY2(e_again <= tolerance, qPrintable(QString::number(e_again)));
}

/// Two surface shots over a smooth blob, and a starting model halfway to a gradient in depth.
struct TwoShotProblem {
    Model truth, start;
    Acquisition acquisition;
};
inline TwoShotProblem two_shot_problem() {
    TwoShotProblem p{blob_model(30, 50, 10), {}, {}};
    p.start = p.truth;
    for (auto& v : p.start.vp_mps)
        v = 1800 + (v - 1800) * 0.5f;
    for (double sx : {90.0, 370.0})
        p.acquisition.shots.push_back({{sx, 20}, line_of_points(8, 20, 470, 30)});
    return p;
}

/// The misfit gradient (forward, checkpoints, adjoint, gradient snapshots) of two shots matches the CPU's.
inline void check_gradient_matches_cpu(const std::string& backend, const std::string& schedule,
                                       double tolerance) {
    const auto [truth, start, acq] = two_shot_problem();
    Simulation cpu(truth.grid, acq, settings(8, 12, 0.002, 200, 8), 3000, "cpu");
    Simulation other(truth.grid, acq, settings(8, 12, 0.002, 200, 8), 3000, backend);
    cpu.set_model(truth);
    const auto observed = cpu.forward();
    GradientOptions opt;
    opt.settings.schedule = schedule;
    const auto ref = compute_gradient(cpu, start, observed, opt);
    const auto got = compute_gradient(other, start, observed, opt);
    const double e_misfit = std::abs(got.misfit - ref.misfit) / ref.misfit;
    const double e_grad = relative_difference(got.gradient, ref.gradient);
    qInfo("%s vs cpu (%s): misfit %.9g vs %.9g (%.3g), gradient %.3g", backend.c_str(), schedule.c_str(),
          got.misfit, ref.misfit, e_misfit, e_grad);
    QVERIFY(ref.misfit > 0);
    QVERIFY2(e_misfit <= tolerance, qPrintable(QString::number(e_misfit)));
    QVERIFY2(e_grad <= tolerance, qPrintable(QString::number(e_grad)));
}

/// Snapshots kept in the backend's own memory (written and read there by its kernels: the in-memory arena of
/// "all" and "uniform", the Reverse scratch of "revolve") give the gradient of snapshots that travel through
/// the host (a lossless codec: the store codes them) bit for bit. `own_memory`: the backend must offer it.
inline void check_snapshot_memory_paths_agree(const std::string& backend, bool own_memory) {
    const auto [truth, start, acq] = two_shot_problem();
    Simulation sim(truth.grid, acq, settings(8, 12, 0.002, 200, 8), 3000, backend);
    sim.set_model(truth);
    const auto observed = sim.forward();
    const std::int64_t cells = sim.propagator().padded().cells();
    QCOMPARE(sim.propagator().snapshot_memory(cells) != nullptr, own_memory);
    const auto gradient = [&](const char* schedule, const char* codec) {
        GradientOptions opt;
        opt.settings.schedule = schedule;
        opt.settings.compression = codec;
        return compute_gradient(sim, start, observed, opt);
    };
    const auto through_host = gradient("all", "lz4");
    QVERIFY(through_host.misfit > 0);
    for (const char* schedule : {"all", "uniform:4", "revolve:5"}) {
        const auto in_place = gradient(schedule, "none");
        QCOMPARE(in_place.misfit, through_host.misfit);
        QVERIFY2(std::memcmp(in_place.gradient.data(), through_host.gradient.data(),
                             in_place.gradient.size() * sizeof(float)) == 0,
                 schedule);
    }
}

/// Save a state through fields()/to_host(), restore it into a state holding other data: the run continues bit
/// for bit (traces and every field), on any backend.
inline void check_resume_is_bit_exact(const std::string& backend) {
    const Model m = blob_model(30, 44, 10);
    Simulation sim(m.grid, one_shot({200, 150}, line_of_points(4, 50, 400, 20)), settings(6, 12, 0.001, 300),
                   m.max_velocity(), backend);
    sim.set_model(m);
    Propagator& p = sim.propagator();
    const auto& g = sim.geometry(0);
    const std::int64_t nt = sim.time().inner_nt, cut = 120;
    std::vector<float> straight(4 * std::size_t(nt)), resumed(4 * std::size_t(nt));
    auto a = p.new_state();
    p.forward(*a, cut, g, sim.inner_source(), straight.data(), nt);
    a->to_host();
    std::vector<std::vector<float>> saved;
    for (const auto& f : a->fields())
        saved.emplace_back(f.data, f.data + f.size());
    p.forward(*a, nt - cut, g, sim.inner_source(), straight.data(), nt);

    auto b = p.new_state();
    p.forward(*b, 7, g, sim.inner_source(), nullptr, nt); // data that the restore must overwrite
    auto fields = b->fields();
    for (std::size_t i = 0; i < fields.size(); ++i)
        std::copy(saved[i].begin(), saved[i].end(), fields[i].data);
    b->from_host();
    b->step = cut;
    std::copy(straight.begin(), straight.end(), resumed.begin());
    for (std::size_t r = 0; r < 4; ++r)
        std::fill_n(resumed.begin() + std::ptrdiff_t(r * std::size_t(nt) + cut), nt - cut, 0.0f);
    p.forward(*b, nt - cut, g, sim.inner_source(), resumed.data(), nt);
    QVERIFY(std::memcmp(straight.data(), resumed.data(), straight.size() * sizeof(float)) == 0);
    a->to_host();
    b->to_host();
    const auto fa = a->fields(), fb = b->fields();
    for (std::size_t i = 0; i < fa.size(); ++i)
        QVERIFY(std::memcmp(fa[i].data, fb[i].data, std::size_t(fa[i].size()) * sizeof(float)) == 0);
}

/// A state renewed for the next shot (renew_state) runs as a new one, bit for bit, after it ran a whole shot:
/// the forward traces, every field and the last snapshot, and, for the adjoint state, the adjoint field and
/// the gradient. `clears`: the backend must clear its states in place (WaveState::clear), not make new ones.
inline void check_renewed_states_run_as_new(Propagator& p, const ShotGeometry& g,
                                            std::span<const float> source, std::int64_t nt, bool clears) {
    const auto receivers = g.receivers.size();
    const auto cells = std::size_t(p.padded().cells());
    struct Forward {
        std::vector<float> traces, snapshot;
        std::vector<std::vector<float>> fields;
    };
    const auto forward = [&](WaveState& s) {
        Forward f{std::vector<float>(receivers * std::size_t(nt)), std::vector<float>(cells), {}};
        p.forward(s, nt - 1, g, source, f.traces.data(), nt);
        p.forward_with_snapshot(s, g, source, f.traces.data(), nt, f.snapshot.data());
        p.synchronize();
        s.to_host();
        for (const FieldView& v : s.fields())
            f.fields.emplace_back(v.data, v.data + v.size());
        return f;
    };
    const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
        return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
    };
    std::unique_ptr<WaveState> state = p.new_state();
    const Forward fresh = forward(*state);
    const WaveState* before = state.get();
    renew_state(p, state);
    QCOMPARE(state->step, std::int64_t(0));
    QCOMPARE(state.get() == before, clears);
    const Forward renewed = forward(*state);
    QVERIFY(same(fresh.traces, renewed.traces));
    QVERIFY(same(fresh.snapshot, renewed.snapshot));
    QCOMPARE(fresh.fields.size(), renewed.fields.size());
    for (std::size_t i = 0; i < fresh.fields.size(); ++i)
        QVERIFY2(same(fresh.fields[i], renewed.fields[i]), qPrintable(QString("field %1").arg(i)));
    for (const auto& f : fresh.fields) // every field and strip must hold data for the check to mean something
        QVERIFY(std::any_of(f.begin(), f.end(), [](float v) { return v != 0; }));

    const auto model_cells = std::size_t(p.padded().model.cells());
    const auto adjoint = [&](AdjointState& a) {
        a.step = nt;
        for (std::int64_t n = nt - 1; n >= 0; --n)
            p.adjoint(a, g, fresh.traces, nt, n % 3 == 0 ? fresh.snapshot.data() : nullptr, 1.5f);
        std::vector<float> lambda(model_cells), gradient(model_cells, 0.0f);
        p.model_region_adjoint(a, lambda);
        p.take_velocity_gradient(gradient);
        return std::pair{lambda, gradient};
    };
    std::unique_ptr<AdjointState> adj = p.new_adjoint_state();
    const auto first = adjoint(*adj);
    const AdjointState* adj_before = adj.get();
    renew_state(p, adj);
    QCOMPARE(adj.get() == adj_before, clears);
    const auto second = adjoint(*adj);
    QVERIFY(std::any_of(first.second.begin(), first.second.end(), [](float v) { return v != 0; }));
    QVERIFY(same(first.first, second.first));
    QVERIFY(same(first.second, second.second));
}

/// <B dv, dd> = <dv, B^T dd> for shot 0 of `sim` (its model `m`): Born modelling of smooth noise dv against
/// the gradient engine with smooth noise dd as the adjoint source; B^T dd (the gradient) into `gradient` if
/// given.
inline void check_born_dot_product(Simulation& sim, const Model& m, double tolerance,
                                   const std::string& label, std::vector<float>* gradient = nullptr) {
    const auto nt = sim.time().nt;
    const auto nrec = std::int64_t(sim.geometry(0).receivers.size());
    const auto dv = smoothed_noise(m.grid.rows(), m.grid.nx(), 1, 2);
    const auto dd = smoothed_noise(nrec, nt, 2, 4);
    const auto b_dv = born_forward(sim, 0, dv);
    GradientOptions opt;
    opt.misfit = [&](const Gather&, const Gather&, std::vector<float>& adjoint_source) {
        adjoint_source = dd;
        return 0.0;
    };
    const auto g = compute_gradient(sim, m, {sim.empty_gather(0)}, opt);
    if (gradient) *gradient = g.gradient;
    const double lhs = dot(b_dv, dd), rhs = dot(dv, g.gradient);
    const double rel = std::abs(lhs - rhs) / std::max(std::abs(lhs), std::abs(rhs));
    qInfo("%s: <B dv, dd> = %.9g  <dv, B^T dd> = %.9g  relative difference %.3g", label.c_str(), lhs, rhs,
          rel);
    QVERIFY(std::abs(lhs) > 0);
    QVERIFY2(rel < tolerance, qPrintable(QString::number(rel)));
}

/// The same with `backend` (tst_gradient.cpp's test).
inline void check_born_dot_product(const std::string& backend, int order, double dt, double tolerance) {
    // tst_gradient.cpp's setup, where the CPU meets 1e-5 (smaller ones lose digits to float32 cancellation).
    const Model m = blob_model(40, 60, 10);
    Acquisition acq = one_shot({170, 30}, line_of_points(6, 20, 560, 25));
    const auto nt = std::int64_t(0.5 / dt);
    Simulation sim(m.grid, acq, settings(order, 15, dt, nt, 10), 3000, backend);
    sim.set_model(m);
    check_born_dot_product(sim, m, tolerance, backend + " order " + std::to_string(order));
}

} // namespace fwi::test
