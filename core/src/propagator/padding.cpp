#include "propagator/padding.hpp"

#include <algorithm>

namespace fwi {
namespace {
std::int64_t clamp_to_model(std::int64_t p, std::int64_t origin, std::int64_t n) {
    return std::clamp<std::int64_t>(p - origin, 0, n - 1);
}
} // namespace

std::vector<float> pad_model(const PaddedGrid& g, std::span<const float> model_cells) {
    const std::int64_t nz = g.nz(), ny = g.ny(), nx = g.nx(), o = g.origin(), oy = g.origin_y();
    const Grid& m = g.model;
    std::vector<float> out(std::size_t(g.cells()));
#pragma omp parallel for schedule(static) // first touch by the threads that will run the kernels
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix)
                out[std::size_t(g.index(iz, iy, ix))] =
                    model_cells[m.index(clamp_to_model(iz, o, m.nz()), clamp_to_model(iy, oy, m.ny()),
                                        clamp_to_model(ix, o, m.nx()))];
    return out;
}

void fold_padded(const PaddedGrid& g, std::span<const float> padded, std::span<float> model_cells) {
    const std::int64_t nz = g.nz(), ny = g.ny(), nx = g.nx(), o = g.origin(), oy = g.origin_y();
    const std::int64_t h = g.halo, hy = g.halo_y();
    const Grid& m = g.model;
    for (std::int64_t iz = h; iz < nz - h; ++iz)
        for (std::int64_t iy = hy; iy < ny - hy; ++iy)
            for (std::int64_t ix = h; ix < nx - h; ++ix)
                model_cells[m.index(clamp_to_model(iz, o, m.nz()), clamp_to_model(iy, oy, m.ny()),
                                    clamp_to_model(ix, o, m.nx()))] +=
                    padded[std::size_t(g.index(iz, iy, ix))];
}

void fold_velocity_gradient(const PaddedGrid& g, std::span<const float> grad_c,
                            std::span<const float> velocity, double dt_s, std::span<float> gradient_mps) {
    const double dt2 = dt_s * dt_s;
    const std::size_t not_state = g.free_surface ? std::size_t((g.origin() + 1) * g.ny() * g.nx()) : 0;
    std::vector<float> dv(grad_c.size(), 0.0f);
    for (std::size_t i = not_state; i < dv.size(); ++i)
        dv[i] = float(grad_c[i] * 2.0 * velocity[i] * dt2);
    fold_padded(g, dv, gradient_mps);
}

void extract_model_region(const PaddedGrid& g, const float* padded, std::span<float> model_cells) {
    const std::int64_t o = g.origin(), oy = g.origin_y();
    const Grid& m = g.model;
    for (std::int64_t iz = 0; iz < m.nz(); ++iz)
        for (std::int64_t iy = 0; iy < m.ny(); ++iy)
            std::copy_n(padded + g.index(iz + o, iy + oy, o), m.nx(),
                        model_cells.begin() + std::ptrdiff_t(m.index(iz, iy, 0)));
}

void wave_coefficients(std::span<const float> velocity, double dt_s, std::span<float> c,
                       std::span<float> inv_c) {
    const double dt2 = dt_s * dt_s;
    const auto n = std::int64_t(velocity.size());
    float* cp = c.data();
    float* icp = inv_c.data();
#pragma omp parallel for simd schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
        cp[i] = float(double(velocity[std::size_t(i)]) * velocity[std::size_t(i)] * dt2);
        icp[i] = 1.0f / cp[i];
    }
}

} // namespace fwi
