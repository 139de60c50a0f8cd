#pragma once
// What the 2D and the 3D CPU propagators do after a step's kernel, the same for both ranks: the point terms
// (the source into u^(n+1), the residual into mu^n) and then the free surface's mirror (free_surface.hpp),
// which must see the field with its point terms.
#include "fwi/propagator.hpp"
#include "propagator/free_surface.hpp"
#include "propagator/point_sampling.hpp"

#include <cstdint>
#include <span>

namespace fwi {

/// Forward step n: u^(n+1) += c S f^n (and S f^n into the snapshot B^n when given), except in a Born step
/// (`scattered`: its source is the secondary term the kernel added), then the mirror.
inline void end_forward_step(const PaddedGrid& grid, const PointStencil& source,
                             std::span<const float> wavelet, std::int64_t n, bool scattered, float* u_next,
                             const float* c, float* snapshot) {
    if (!scattered && n < std::int64_t(wavelet.size()))
        inject_point(source, wavelet[std::size_t(n)], u_next, c, snapshot);
    mirror_free_surface(grid, u_next);
}

/// Adjoint step n: mu^n += c R^T residual^n (through the sweep's step-major stage for dense surveys) where
/// the residual has sample n, then the mirror.
inline void end_adjoint_step(const PaddedGrid& grid, ResidualStage& stage, const ShotGeometry& geometry,
                             std::span<const float> residual, std::int64_t trace_length, std::int64_t n,
                             float* mu_next, const float* c) {
    if (n < trace_length && !residual.empty()) {
        std::int64_t stride = 0;
        const float* amounts = residual_amounts(stage, residual, trace_length, n,
                                                std::int64_t(geometry.receivers.size()), stride);
        inject_residuals(geometry.receivers, amounts, stride, mu_next, c);
    }
    mirror_free_surface(grid, mu_next);
}

} // namespace fwi
