#pragma once
// 3D test bodies that compare a backend with CpuPropagator3D, shared by the CUDA backend's host twin
// (tst_cuda_host_twin_3d.cpp, everywhere) and the CUDA backend itself (tst_cuda_backend.cpp, with a device).
// One small experiment: a 24 x 20 x 28 model of 10 m cells, PML 6, a blob model, an off-grid source and four
// receivers, some near faces, so that the wave (or the adjoint field) reaches every face's layer within the
// run. Each body uses QVERIFY; callers check QTest::currentTestFailed() if they go on.
#include "born_traces.hpp"
#include "test_setups.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

namespace fwi::test {

inline const Grid kGrid3D = Grid(24, 20, 28, 10, 10, 10); // nz, ny, nx: 230 m deep, 190 m in y, 270 m in x

inline PropagatorSetup setup_3d(int order, const Grid& grid = kGrid3D, int pml = 6) {
    PropagatorSetup s;
    s.grid = grid;
    s.order = order;
    s.pml_width = pml;
    s.dt_s = 0.001;
    s.pml_velocity_mps = 3000;
    s.freq_hz = 15;
    return s;
}

/// The CPU reference and `backend` on the same setup, model, shot and wavelet.
struct BackendPair3D {
    std::unique_ptr<Propagator> cpu, other;
    ShotGeometry geometry;
    std::vector<float> source;
    std::int64_t nt = 0;
    std::size_t receivers() const { return geometry.receivers.size(); }
};

inline BackendPair3D make_pair_3d(const std::string& backend, int order, std::int64_t nt) {
    const PropagatorSetup s = setup_3d(order);
    BackendPair3D p;
    p.cpu = make_propagator("cpu", s);
    p.other = make_propagator(backend, s);
    const Model m{kGrid3D, blob_model_3d(kGrid3D)};
    p.cpu->set_model(m);
    p.other->set_model(m);
    // Points (x, z, y): the source off the grid, receivers near several faces.
    const PaddedGrid& g = p.cpu->padded();
    p.geometry.source = hicks_stencil(g, Point{73.3, 62.2, 101.7}, "source");
    for (const Point& r : {Point{20.5, 150.7, 30.2}, Point{200.1, 120.3, 160.4}, Point{110, 40, 100},
                           Point{255.2, 210.9, 12.6}})
        p.geometry.receivers.push_back(hicks_stencil(g, r, "receiver"));
    p.source = ricker(15, 0.001, nt);
    p.nt = nt;
    return p;
}

inline double norm2(std::span<const float> v) {
    double s = 0;
    for (float x : v)
        s += double(x) * x;
    return s;
}

/// Relative L2 difference (absolute when the reference is all zeros).
inline double relative_l2_3d(std::span<const float> a, std::span<const float> ref) {
    double num = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        num += (double(a[i]) - ref[i]) * (double(a[i]) - ref[i]);
    const double den = norm2(ref);
    return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

#define FWI_VERIFY_CLOSE(err, tolerance, what)                                                               \
    QVERIFY2((err) <= (tolerance),                                                                           \
             qPrintable(QString("%1: relative L2 %2 > %3").arg(what).arg(err).arg(tolerance)))

/// Born data (receivers x nt) of dv on `p` for the pair's shot (born_traces.hpp).
inline std::vector<float> born_traces_3d(Propagator& p, const BackendPair3D& pair,
                                         const std::vector<float>& dv) {
    return born_traces(p, pair.geometry, pair.source, pair.nt, dv);
}

/// Gathers, then every field of the state (u, u_prev, x strips, y strips, z slabs) after 200 steps, shape for
/// shape; the wave reaches every face's layer, so every packed variable is non-zero.
inline void check_gathers_and_states_match_cpu_3d(const std::string& backend, int order, double tolerance) {
    BackendPair3D p = make_pair_3d(backend, order, 200);
    std::vector<float> traces[2];
    std::unique_ptr<WaveState> states[2];
    for (int k = 0; k < 2; ++k) {
        Propagator& prop = k == 0 ? *p.cpu : *p.other;
        traces[k].assign(p.receivers() * std::size_t(p.nt), 0.0f);
        states[k] = prop.new_state();
        prop.forward(*states[k], p.nt, p.geometry, p.source, traces[k].data(), p.nt);
        states[k]->to_host();
    }
    const double e_traces = relative_l2_3d(traces[1], traces[0]);
    qInfo("%s vs cpu, 3D order %d: gathers differ by %.3g", backend.c_str(), order, e_traces);
    QVERIFY(norm2(traces[0]) > 0);
    FWI_VERIFY_CLOSE(e_traces, tolerance, "gathers");
    const auto fc = states[0]->fields(), fo = states[1]->fields();
    QCOMPARE(fo.size(), fc.size());
    static const char* const names[] = {"u", "u_prev", "x strips", "y strips", "z slabs"};
    for (std::size_t i = 0; i < fc.size() && i < 5; ++i) {
        QCOMPARE(fo[i].rows, fc[i].rows);
        QCOMPARE(fo[i].cols, fc[i].cols);
        QCOMPARE(fo[i].plane_rows, fc[i].plane_rows);
        QVERIFY2(norm2(fc[i].span()) > 0, "the wave must reach every field for this check to mean something");
        const double err = relative_l2_3d(fo[i].span(), fc[i].span());
        qInfo("%s vs cpu, 3D order %d: %s differ by %.3g", backend.c_str(), order, names[i], err);
        FWI_VERIFY_CLOSE(err, tolerance, names[i]);
    }
}

/// Adjoint steps with residual injection at the receivers (some near faces, so mu enters the layers and r, s
/// matter) and a gradient snapshot every third step: the adjoint field and the gradient match the CPU's.
inline void check_adjoint_matches_cpu_3d(const std::string& backend, int order, double tolerance) {
    BackendPair3D p = make_pair_3d(backend, order, 200);
    const auto residual = smoothed_noise(std::int64_t(p.receivers()), p.nt, 7, 4);
    const auto snapshot = normal_noise(std::size_t(p.cpu->padded().cells()), 8);
    std::vector<float> lambda[2], gradient[2];
    for (int k = 0; k < 2; ++k) {
        Propagator& prop = k == 0 ? *p.cpu : *p.other;
        auto adj = prop.new_adjoint_state();
        adj->step = p.nt;
        for (std::int64_t n = p.nt - 1; n >= 20; --n)
            prop.adjoint(*adj, p.geometry, residual, p.nt, n % 3 == 0 ? snapshot.data() : nullptr, 2.0f);
        QCOMPARE(adj->step, std::int64_t(20));
        lambda[k].assign(std::size_t(kGrid3D.cells()), 0.0f);
        prop.model_region_adjoint(*adj, lambda[k]);
        gradient[k].assign(std::size_t(kGrid3D.cells()), 0.0f);
        prop.take_velocity_gradient(gradient[k]);
    }
    const double e_lambda = relative_l2_3d(lambda[1], lambda[0]);
    const double e_grad = relative_l2_3d(gradient[1], gradient[0]);
    qInfo("%s vs cpu, 3D order %d adjoint: field %.3g, gradient %.3g", backend.c_str(), order, e_lambda,
          e_grad);
    QVERIFY(norm2(lambda[0]) > 0 && norm2(gradient[0]) > 0);
    FWI_VERIFY_CLOSE(e_lambda, tolerance, "adjoint field");
    FWI_VERIFY_CLOSE(e_grad, tolerance, "gradient");
}

/// The whole chain, store-all: forward with snapshots (B^n from the backend's own forward), adjoint, velocity
/// gradient.
inline void check_velocity_gradient_matches_cpu_3d(const std::string& backend, int order, double tolerance) {
    BackendPair3D p = make_pair_3d(backend, order, 160);
    const auto residual = smoothed_noise(std::int64_t(p.receivers()), p.nt, 11, 4);
    const auto ref = direct_gradient(*p.cpu, p.geometry, p.source, p.nt, residual);
    const auto got = direct_gradient(*p.other, p.geometry, p.source, p.nt, residual);
    const double err = relative_l2_3d(got, ref);
    qInfo("%s vs cpu, 3D order %d: velocity gradients differ by %.3g", backend.c_str(), order, err);
    QVERIFY(norm2(ref) > 0);
    FWI_VERIFY_CLOSE(err, tolerance, "velocity gradient");
}

/// Born traces (forward_scattered driven by the backend's own snapshots) match the CPU's.
inline void check_born_matches_cpu_3d(const std::string& backend, int order, double tolerance) {
    BackendPair3D p = make_pair_3d(backend, order, 160);
    std::vector<float> dv(std::size_t(kGrid3D.cells()));
    const auto noise = smoothed_noise(1, std::int64_t(dv.size()), 5, 8);
    for (std::size_t i = 0; i < dv.size(); ++i)
        dv[i] = 50.0f * noise[i];
    const auto ref = born_traces_3d(*p.cpu, p, dv), got = born_traces_3d(*p.other, p, dv);
    const double err = relative_l2_3d(got, ref);
    qInfo("%s vs cpu, 3D order %d: Born traces differ by %.3g", backend.c_str(), order, err);
    QVERIFY(norm2(ref) > 0);
    FWI_VERIFY_CLOSE(err, tolerance, "Born traces");
}

/// Save a state through to_host()/fields(), restore it into a state holding other data: traces and every
/// field continue bit for bit.
inline void check_resume_is_bit_exact_3d(const std::string& backend, int order) {
    BackendPair3D p = make_pair_3d(backend, order, 200);
    Propagator& prop = *p.other;
    const std::int64_t nt = p.nt, cut = 110;
    const std::size_t nr = p.receivers();
    std::vector<float> straight(nr * std::size_t(nt)), resumed(nr * std::size_t(nt));
    auto a = prop.new_state();
    prop.forward(*a, cut, p.geometry, p.source, straight.data(), nt);
    a->to_host();
    std::vector<std::vector<float>> saved;
    for (const auto& f : a->fields())
        saved.emplace_back(f.data, f.data + f.size());
    prop.forward(*a, nt - cut, p.geometry, p.source, straight.data(), nt);

    auto b = prop.new_state();
    prop.forward(*b, 7, p.geometry, p.source, nullptr, nt); // data that the restore must overwrite
    auto fields = b->fields();
    QCOMPARE(fields.size(), saved.size());
    for (std::size_t i = 0; i < fields.size(); ++i)
        std::copy(saved[i].begin(), saved[i].end(), fields[i].data);
    b->from_host();
    b->step = cut;
    for (std::size_t r = 0; r < nr; ++r)
        std::copy_n(straight.begin() + std::ptrdiff_t(r * std::size_t(nt)), cut,
                    resumed.begin() + std::ptrdiff_t(r * std::size_t(nt)));
    prop.forward(*b, nt - cut, p.geometry, p.source, resumed.data(), nt);
    QVERIFY(std::memcmp(straight.data(), resumed.data(), straight.size() * sizeof(float)) == 0);
    a->to_host();
    b->to_host();
    const auto fa = a->fields(), fb = b->fields();
    for (std::size_t i = 0; i < fa.size(); ++i) {
        QVERIFY2(norm2(fa[i].span()) > 0, "every field must hold data for the check to mean something");
        QVERIFY(std::memcmp(fa[i].data, fb[i].data, std::size_t(fa[i].size()) * sizeof(float)) == 0);
    }
}

/// A CPU state copied field by field into a state of `backend` continues as the CPU run does: the packed
/// layout is the CPU's (a wrong place for any strip value would show as an error far above the tolerance).
inline void check_cpu_checkpoint_continues_3d(const std::string& backend, int order, double tolerance) {
    BackendPair3D p = make_pair_3d(backend, order, 200);
    const std::int64_t nt = p.nt, cut = 120;
    const std::size_t nr = p.receivers();
    std::vector<float> ref(nr * std::size_t(nt)), got(nr * std::size_t(nt));
    auto c = p.cpu->new_state();
    p.cpu->forward(*c, cut, p.geometry, p.source, ref.data(), nt);
    c->to_host();
    auto o = p.other->new_state();
    const auto from = c->fields();
    auto to = o->fields();
    QCOMPARE(to.size(), from.size());
    for (std::size_t i = 0; i < from.size(); ++i) {
        QCOMPARE(to[i].size(), from[i].size());
        QVERIFY(norm2(from[i].span()) > 0);
        std::copy_n(from[i].data, from[i].size(), to[i].data);
    }
    o->from_host();
    o->step = cut;
    p.cpu->forward(*c, nt - cut, p.geometry, p.source, ref.data(), nt);
    p.other->forward(*o, nt - cut, p.geometry, p.source, got.data(), nt);
    std::vector<float> ref_tail, got_tail; // the samples recorded after the restore
    for (std::size_t r = 0; r < nr; ++r)
        for (std::int64_t n = cut; n < nt; ++n) {
            ref_tail.push_back(ref[r * std::size_t(nt) + std::size_t(n)]);
            got_tail.push_back(got[r * std::size_t(nt) + std::size_t(n)]);
        }
    const double e_traces = relative_l2_3d(got_tail, ref_tail);
    c->to_host();
    o->to_host();
    double e_fields = 0;
    const auto fc = c->fields(), fo = o->fields();
    for (std::size_t i = 0; i < fc.size(); ++i)
        e_fields = std::max(e_fields, relative_l2_3d(fo[i].span(), fc[i].span()));
    qInfo("%s: a CPU checkpoint continued: traces %.3g, fields (worst) %.3g", backend.c_str(), e_traces,
          e_fields);
    FWI_VERIFY_CLOSE(e_traces, tolerance, "traces after the restore");
    FWI_VERIFY_CLOSE(e_fields, tolerance, "fields after the restore");
}

} // namespace fwi::test
