#include "propagator/pml_profile.hpp"

#include "fwi/propagator.hpp"

#include <cmath>
#include <numbers>

namespace fwi {

PmlProfile make_pml_profile(std::int64_t n_model, int width, int halo, double h_m, double dt_s,
                            double velocity_mps, double freq_hz, double reflection, bool absorb_low) {
    const std::int64_t n = n_model + 2 * (width + halo);
    PmlProfile p;
    p.a.assign(std::size_t(n), 1.0f);
    p.b.assign(std::size_t(n), 0.0f);
    p.b_over_a.assign(std::size_t(n), 0.0f);
    p.lo_begin = halo;
    p.lo_end = halo + width;
    p.hi_begin = halo + width + n_model;
    p.hi_end = p.hi_begin + width;
    if (width == 0) return p;
    const double thickness = width * h_m;
    const double d0 = -3.0 * velocity_mps * std::log(reflection) / (2.0 * thickness);
    const double alpha0 = std::numbers::pi * freq_hz;
    auto set = [&](std::int64_t i, double depth_cells) {
        const double x = depth_cells / width; // in (0, 1]
        const double d = d0 * x * x;
        const double alpha = alpha0 * (1.0 - x);
        const double a = std::exp(-(d + alpha) * dt_s);
        const double b = (d + alpha) > 0 ? d / (d + alpha) * (a - 1.0) : 0.0;
        p.a[std::size_t(i)] = float(a);
        p.b[std::size_t(i)] = float(b);
        p.b_over_a[std::size_t(i)] = float(b / a);
    };
    for (std::int64_t i = p.lo_begin; absorb_low && i < p.lo_end; ++i)
        set(i, double(p.lo_end - i));
    for (std::int64_t i = p.hi_begin; i < p.hi_end; ++i)
        set(i, double(i - p.hi_begin + 1));
    return p;
}

PmlProfile setup_pml_profile(const PropagatorSetup& s, int halo, int axis) {
    const auto a = std::size_t(axis);
    return make_pml_profile(s.grid.shape[a], s.pml_width, halo, s.grid.spacing_m[a], s.dt_s,
                            s.pml_velocity_mps, s.freq_hz, s.pml_reflection, axis != 0 || !s.free_surface);
}

} // namespace fwi
