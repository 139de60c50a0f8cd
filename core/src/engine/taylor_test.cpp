#include "fwi/taylor_test.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>

namespace fwi {
namespace {

double l2_misfit_of(const std::vector<Gather>& modelled, const std::vector<Gather>& observed,
                    const std::vector<int>& shots) {
    double j = 0;
    for (std::size_t i = 0; i < modelled.size(); ++i) {
        const Gather& o = observed[std::size_t(shots.empty() ? int(i) : shots[i])];
        for (std::size_t k = 0; k < modelled[i].traces.size(); ++k) {
            const double r = double(modelled[i].traces[k]) - double(o.traces[k]);
            j += 0.5 * r * r;
        }
    }
    return j;
}

} // namespace

std::vector<float> taylor_direction(const std::vector<float>& gradient, const Model& m, double max_change_mps,
                                    double min_mps, double max_mps) {
    float gmax = 0;
    for (float v : gradient)
        gmax = std::max(gmax, std::abs(v));
    if (!(gmax > 0)) throw ConfigError("the gradient is zero: no direction for a Taylor test");
    std::vector<float> dm(gradient.size());
    for (std::size_t i = 0; i < dm.size(); ++i) {
        const double d = double(gradient[i]) * max_change_mps / gmax;
        const double v = m.vp_mps[i];
        dm[i] = float(std::clamp(d, min_mps - v, max_mps - v));
    }
    return dm;
}

double fitted_slope(const std::vector<double>& h, const std::vector<double>& r, std::size_t first,
                    std::size_t last) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = double(last - first + 1);
    for (std::size_t i = first; i <= last; ++i) {
        const double x = std::log(h[i]), y = std::log(std::max(r[i], 1e-300));
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TaylorResult taylor_test(Simulation& sim, const Model& m, const std::vector<Gather>& observed,
                         const std::vector<float>& dm, const std::vector<double>& hs,
                         const GradientOptions& options) {
    if (hs.size() < 2) throw ConfigError("a Taylor test needs at least two step sizes");
    for (double h : hs)
        if (!(h > 0)) throw ConfigError("Taylor test step sizes must be positive");
    if (dm.size() != m.vp_mps.size())
        throw ConfigError("Taylor test direction does not have the model's size");
    TaylorResult t;
    const GradientResult g = compute_gradient(sim, m, observed, options);
    t.misfit = g.misfit;
    for (std::size_t i = 0; i < dm.size(); ++i)
        t.directional_derivative += double(g.gradient[i]) * dm[i];
    for (double h : hs) {
        Model mh = m;
        for (std::size_t i = 0; i < dm.size(); ++i)
            mh.vp_mps[i] += float(h * dm[i]);
        sim.set_model(mh);
        const double j =
            l2_misfit_of(sim.forward(options.shots, nullptr, options.cancel), observed, options.shots);
        t.h.push_back(h);
        t.first_order.push_back(std::abs(j - t.misfit));
        t.second_order.push_back(std::abs(j - t.misfit - h * t.directional_derivative));
    }
    t.slope1 = fitted_slope(t.h, t.first_order, 0, t.h.size() - 1);
    t.slope2 = fitted_slope(t.h, t.second_order, 0, t.h.size() - 1);
    sim.set_model(m);
    return t;
}

} // namespace fwi
