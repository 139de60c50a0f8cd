#pragma once
// Taylor test of the gradient on any experiment: with J(m) the L2 misfit and g its computed gradient,
//   r1(h) = |J(m + h dm) - J(m)|              falls like h   (slope 1 on a log-log plot),
//   r2(h) = |J(m + h dm) - J(m) - h <g, dm>|  falls like h^2 (slope 2) only if g is the true gradient.
// The engine runs in float32, so r2 reaches a round-off floor of about 1e-6 J for small h; choose h above it.
#include "fwi/gather.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/model.hpp"
#include "fwi/simulation.hpp"

#include <vector>

namespace fwi {

struct TaylorResult {
    double misfit = 0;                                ///< J(m)
    double directional_derivative = 0;                ///< <g, dm>
    std::vector<double> h, first_order, second_order; ///< h and r1(h), r2(h)
    double slope1 = 0, slope2 = 0; ///< least-squares slopes of log r against log h over all h
};

/// The direction used by `fwi taylor`: the gradient scaled so its largest entry is `max_change_mps`, clipped
/// so that m + dm stays within [min_mps, max_mps] (the CFL reference velocity fixes the top).
std::vector<float> taylor_direction(const std::vector<float>& gradient, const Model& m, double max_change_mps,
                                    double min_mps, double max_mps);

/// Runs the test with `options` (shots, schedule, ...) for the gradient, plain forward modelling for J(m + h
/// dm). Throws ConfigError for an empty or non-positive h list or a direction of the wrong size.
TaylorResult taylor_test(Simulation& sim, const Model& m, const std::vector<Gather>& observed,
                         const std::vector<float>& dm, const std::vector<double>& h,
                         const GradientOptions& options);

/// Least-squares slope of log(r) against log(h) over indices [first, last].
double fitted_slope(const std::vector<double>& h, const std::vector<double>& r, std::size_t first,
                    std::size_t last);

} // namespace fwi
