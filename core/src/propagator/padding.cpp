#include "propagator/padding.hpp"

#include <algorithm>

namespace fwi {
namespace {
std::int64_t clamp_to_model(std::int64_t p, std::int64_t origin, std::int64_t n) {
    return std::clamp<std::int64_t>(p - origin, 0, n - 1);
}
} // namespace

std::vector<float> pad_model(const PaddedGrid& g, std::span<const float> model_cells) {
    const std::int64_t nz = g.nz(), nx = g.nx(), o = g.origin();
    const std::int64_t mz = g.model.nz(), mx = g.model.nx();
    std::vector<float> out(std::size_t(nz * nx), 0.0f);
    // The halo is never updated by the kernels; it gets edge values too, so c and 1/c stay finite everywhere.
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            out[std::size_t(iz * nx + ix)] =
                model_cells[std::size_t(clamp_to_model(iz, o, mz) * mx + clamp_to_model(ix, o, mx))];
    return out;
}

void fold_padded(const PaddedGrid& g, std::span<const float> padded, std::span<float> model_cells) {
    const std::int64_t nz = g.nz(), nx = g.nx(), o = g.origin(), h = g.halo;
    const std::int64_t mz = g.model.nz(), mx = g.model.nx();
    for (std::int64_t iz = h; iz < nz - h; ++iz)
        for (std::int64_t ix = h; ix < nx - h; ++ix)
            model_cells[std::size_t(clamp_to_model(iz, o, mz) * mx + clamp_to_model(ix, o, mx))] +=
                padded[std::size_t(iz * nx + ix)];
}

void extract_model_region(const PaddedGrid& g, const float* padded, std::span<float> model_cells) {
    const std::int64_t o = g.origin(), nx = g.nx(), mx = g.model.nx();
    for (std::int64_t iz = 0; iz < g.model.nz(); ++iz)
        std::copy_n(padded + (iz + o) * nx + o, mx, model_cells.begin() + iz * mx);
}

} // namespace fwi
