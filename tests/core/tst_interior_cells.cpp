// The AVX2 interior updates (avx2_interior.hpp) against the portable ones (interior_cells.hpp): the same
// bits, cell by cell, for every order, with and without a snapshot, for every row length up to five vectors
// and every start within a vector (so the masked last vector of a row is checked at each of its widths), on
// fields of random values of mixed signs and magnitudes.
#include "propagator/interior_cells.hpp"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace fwi;
using stencil::Index;

namespace {

constexpr Index nz = 11, nx = 61; // an odd row length: rows start at every offset within a vector

std::vector<float> random_field(std::mt19937& rng, float low, float high) {
    std::uniform_real_distribution<float> value(low, high);
    std::uniform_int_distribution<int> scale(-6, 6);
    std::vector<float> f(std::size_t(nz * nx));
    for (float& x : f)
        x = value(rng) * std::ldexp(1.0f, scale(rng));
    return f;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

#ifdef FWI_AVX2_INTERIOR
/// Calls same(b, e) on every piece [b, e) of a middle row that order 2R can compute: lengths 1 to 40 (five
/// vectors), each from every start within a vector. The first piece for which it returns false, as text
/// ("cells [b, e)"); empty when there is none.
template <int R, class Same> QString first_differing_piece(Same&& same) {
    for (Index n = 1; n <= 40; ++n)
        for (Index start = R; start + n <= nx - R && start < R + 8; ++start) {
            const Index b = 5 * nx + start, e = b + n;
            if (!same(b, e)) return QString("cells [%1, %2)").arg(b).arg(e);
        }
    return {};
}

/// The forward updates of both implementations on the same fields; the first difference found, if any.
template <int R, bool Snap> QString compare_forward(std::mt19937& rng) {
    const auto u = random_field(rng, -1, 1), c = random_field(rng, 0.01f, 0.5f),
               u_prev = random_field(rng, -1, 1);
    const float idx2 = 1 / 144.0f, idz2 = 1 / 100.0f;
    const QString piece = first_differing_piece<R>([&](Index b, Index e) {
        auto un_a = u_prev, un_p = u_prev;
        std::vector<float> out_a(std::size_t(e - b), -7), out_p(std::size_t(e - b), -7);
        cpu::avx2::forward_cells<R, Snap>(u.data(), un_a.data(), c.data(), out_a.data(), b, e, nx, idx2,
                                          idz2);
        cpu::portable::forward_cells<R, Snap>(u.data(), un_p.data(), c.data(), out_p.data(), b, e, nx, idx2,
                                              idz2);
        return same_bits(un_a, un_p) && same_bits(out_a, out_p);
    });
    return piece.isEmpty() ? piece
                           : QString("order %1, snapshot %2: %3 differ").arg(2 * R).arg(Snap).arg(piece);
}

/// The adjoint updates of both implementations on the same fields; the first difference found, if any.
template <int R, bool Snap> QString compare_adjoint(std::mt19937& rng) {
    const auto mu = random_field(rng, -1, 1), c = random_field(rng, 0.01f, 0.5f),
               mu_prev = random_field(rng, -1, 1), snap = random_field(rng, -1, 1),
               grad = random_field(rng, -1, 1);
    const float idx2 = 1 / 144.0f, idz2 = 1 / 100.0f, weight = 0.37f;
    const QString piece = first_differing_piece<R>([&](Index b, Index e) {
        auto mn_a = mu_prev, mn_p = mu_prev, gr_a = grad, gr_p = grad;
        cpu::avx2::adjoint_cells<R, Snap>(mu.data(), mn_a.data(), c.data(), snap.data(), gr_a.data(), weight,
                                          b, e, nx, idx2, idz2);
        cpu::portable::adjoint_cells<R, Snap>(mu.data(), mn_p.data(), c.data(), snap.data(), gr_p.data(),
                                              weight, b, e, nx, idx2, idz2);
        return same_bits(mn_a, mn_p) && same_bits(gr_a, gr_p);
    });
    return piece.isEmpty() ? piece
                           : QString("order %1, gradient %2: %3 differ").arg(2 * R).arg(Snap).arg(piece);
}

template <int R> QString compare_order(std::mt19937& rng) {
    for (const QString& failure : {compare_forward<R, false>(rng), compare_forward<R, true>(rng),
                                   compare_adjoint<R, false>(rng), compare_adjoint<R, true>(rng)})
        if (!failure.isEmpty()) return failure;
    return {};
}
#endif

/// stencils.hpp's order-8 Laplacian with every product rounded on its own.
[[gnu::optimize("fp-contract=off")]] float unfused_laplacian(const float* p, Index i) {
    return stencil::laplacian<4>(p, i, nx, 1 / 144.0f, 1 / 100.0f);
}

} // namespace

class TestInteriorCells : public QObject {
    Q_OBJECT
  private slots:
    void avx2_gives_the_portable_bits() {
#ifndef FWI_AVX2_INTERIOR
        QSKIP("this build does not target AVX2 + FMA: the kernels use the portable loops only");
#else
        std::mt19937 rng(20261128);
        for (const QString& failure :
             {compare_order<1>(rng), compare_order<2>(rng), compare_order<3>(rng), compare_order<4>(rng)})
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
#endif
    }

    // The comparison above is only worth something if a change of arithmetic shows on these fields: the
    // portable Laplacian without fused multiply-adds changes some cells' last bits.
    void the_comparison_sees_a_different_rounding() {
#ifndef FWI_AVX2_INTERIOR
        QSKIP("this build does not target AVX2 + FMA: there is no second loop to compare");
#endif
        std::mt19937 rng(7);
        const auto u = random_field(rng, -1, 1);
        int differ = 0;
        for (Index i = 5 * nx + 4; i < 5 * nx + nx - 4; ++i)
            differ += stencil::laplacian<4>(u.data(), i, nx, 1 / 144.0f, 1 / 100.0f) !=
                      unfused_laplacian(u.data(), i);
        QVERIFY2(differ > 0,
                 "a Laplacian without fused multiply-adds changed no cell: the fields are too easy");
    }
};

QTEST_APPLESS_MAIN(TestInteriorCells)
#include "tst_interior_cells.moc"
