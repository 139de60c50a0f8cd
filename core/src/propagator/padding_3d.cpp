#include "propagator/padding_3d.hpp"

#include <algorithm>

namespace fwi {
namespace {
std::int64_t clamp_to_model(std::int64_t p, std::int64_t origin, std::int64_t n) {
    return std::clamp<std::int64_t>(p - origin, 0, n - 1);
}
} // namespace

std::vector<float> pad_model_3d(const PaddedGrid3D& g, std::span<const float> model_cells) {
    const std::int64_t nz = g.nz(), ny = g.ny(), nx = g.nx(), o = g.origin();
    const std::int64_t mz = g.model.shape[0], my = g.model.shape[1], mx = g.model.shape[2];
    std::vector<float> out(std::size_t(g.cells()));
#pragma omp parallel for schedule(static) // first touch by the threads that will run the kernels
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix)
                out[std::size_t(g.index(iz, iy, ix))] = model_cells[std::size_t(
                    (clamp_to_model(iz, o, mz) * my + clamp_to_model(iy, o, my)) * mx +
                    clamp_to_model(ix, o, mx))];
    return out;
}

void fold_padded_3d(const PaddedGrid3D& g, std::span<const float> padded, std::span<float> model_cells) {
    const std::int64_t nz = g.nz(), ny = g.ny(), nx = g.nx(), o = g.origin(), h = g.halo;
    const std::int64_t mz = g.model.shape[0], my = g.model.shape[1], mx = g.model.shape[2];
    for (std::int64_t iz = h; iz < nz - h; ++iz)
        for (std::int64_t iy = h; iy < ny - h; ++iy)
            for (std::int64_t ix = h; ix < nx - h; ++ix)
                model_cells[std::size_t((clamp_to_model(iz, o, mz) * my + clamp_to_model(iy, o, my)) * mx +
                                        clamp_to_model(ix, o, mx))] +=
                    padded[std::size_t(g.index(iz, iy, ix))];
}

void extract_model_region_3d(const PaddedGrid3D& g, const float* padded, std::span<float> model_cells) {
    const std::int64_t o = g.origin(), mz = g.model.shape[0], my = g.model.shape[1], mx = g.model.shape[2];
    for (std::int64_t iz = 0; iz < mz; ++iz)
        for (std::int64_t iy = 0; iy < my; ++iy)
            std::copy_n(padded + g.index(iz + o, iy + o, o), mx, model_cells.begin() + (iz * my + iy) * mx);
}

} // namespace fwi
