#pragma once
// C-PML profiles along one axis of the padded grid (Komatitsch & Martin 2007; Pasalic & McGarry 2010), kappa
// = 1:
//   d(x) = d0 (x/L)^2,  d0 = -3 v ln(R) / (2 L),  alpha(x) = pi f (1 - x/L),
//   a = exp(-(d + alpha) dt),  b = d / (d + alpha) (a - 1),
// with x the distance into the layer (one cell = 1/width) and L its thickness. Outside the layer a = 1, b =
// 0, so the memory variables stay exactly zero there. `b_over_a` (= b / a) lets the adjoint rebuild b * (.)
// from the stored a * (.).
#include <cstdint>
#include <vector>

namespace fwi {

struct PropagatorSetup; // fwi/propagator.hpp

struct PmlProfile {
    std::vector<float> a, b, b_over_a;     ///< one value per padded index along the axis
    std::int64_t lo_begin = 0, lo_end = 0; ///< padded indices [lo_begin, lo_end) form the low-side layer
    std::int64_t hi_begin = 0, hi_end = 0; ///< and [hi_begin, hi_end) the high-side layer
};

/// `n_model` model cells, `width` PML cells, `halo` zero cells on each side, spacing `h_m`. With `absorb_low`
/// false the low-side layer keeps its cells but a = 1, b = 0 (a free surface's top: free_surface.hpp).
PmlProfile make_pml_profile(std::int64_t n_model, int width, int halo, double h_m, double dt_s,
                            double velocity_mps, double freq_hz, double reflection, bool absorb_low = true);

/// The profile every propagator of `setup` uses along axis 0 (z), 1 (y) or 2 (x) (Grid's shape order; a 2D
/// grid uses 0 and 2): the setup's PML width, time step, reference velocity, frequency and reflection, and
/// under a free surface a top (low z) layer that does not absorb.
PmlProfile setup_pml_profile(const PropagatorSetup& setup, int halo, int axis);

} // namespace fwi
