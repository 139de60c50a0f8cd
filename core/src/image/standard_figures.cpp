#include "fwi/standard_figures.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>

namespace fwi {
namespace {

Figure on_grid(const Model& m, const float* data, const std::string& title) {
    Figure f;
    f.title = title;
    f.field = {data, m.grid.nz(), m.grid.nx()};
    f.horizontal = {"x", "m", 0, m.grid.dx()};
    f.vertical = {"depth", "m", 0, m.grid.dz()};
    return f;
}

void check_cells(const Model& m, const std::vector<float>& v, const char* what) {
    if (m.vp_mps.empty() || std::int64_t(v.size()) != m.grid.cells())
        throw ConfigError(std::string(what) + " has " + std::to_string(v.size()) +
                          " values, the model grid " + std::to_string(m.grid.cells()));
}

} // namespace

Figure model_figure(const Model& m, const std::string& title, double vmin, double vmax) {
    check_cells(m, m.vp_mps, "the model");
    Figure f = on_grid(m, m.vp_mps.data(), title);
    if (!(vmin < vmax)) {
        vmin = m.min_velocity();
        vmax = m.max_velocity();
        if (!(vmin < vmax)) { // a constant model
            vmin -= 1;
            vmax += 1;
        }
    }
    f.vmin = vmin;
    f.vmax = vmax;
    f.colour_bar_label = "vp (m/s)";
    f.caption = std::to_string(m.grid.nz()) + " x " + std::to_string(m.grid.nx()) + " cells";
    return f;
}

Figure gradient_figure(const Model& m, const std::vector<float>& g, const std::string& title,
                       double percent) {
    check_cells(m, g, "the gradient");
    Figure f = on_grid(m, g.data(), title);
    use_symmetric_scale(f, percent, "gradient");
    f.colour_bar_label = "dJ/dvp (per m/s)";
    return f;
}

Figure gather_figure(const Gather& g, std::vector<float>& img, const std::string& title, double percent) {
    validate_gather(g);
    const auto nr = std::int64_t(g.receivers.size());
    img.assign(std::size_t(nr * g.samples), 0.f);
    for (std::int64_t r = 0; r < nr; ++r)
        for (std::int64_t t = 0; t < g.samples; ++t)
            img[std::size_t(t * nr + r)] = g.traces[std::size_t(r * g.samples + t)];
    Figure f;
    f.title = title;
    f.field = {img.data(), g.samples, nr};
    f.vertical = {"time", "s", 0, g.dt_s};
    const double step = nr > 1 ? (g.receivers.back().x_m - g.receivers.front().x_m) / double(nr - 1) : 0;
    bool even = step > 0;
    for (std::int64_t r = 0; even && r < nr; ++r)
        even = std::abs(g.receivers[std::size_t(r)].x_m - (g.receivers.front().x_m + double(r) * step)) <=
               0.01 * step;
    f.horizontal = even ? FigureAxis{"receiver x", "m", g.receivers.front().x_m, step}
                        : FigureAxis{"receiver", "", 1, 1};
    use_symmetric_scale(f, percent, "amplitude");
    f.colour_bar_label = "pressure (arbitrary units)";
    return f;
}

Figure wavefield_figure(const Model& m, const std::vector<float>& p, const std::string& title,
                        double percent) {
    check_cells(m, p, "the wavefield");
    check_cells(m, m.vp_mps, "the model");
    Figure f = on_grid(m, p.data(), title);
    use_symmetric_scale(f, percent, "pressure");
    f.colour_bar_label = "pressure (arbitrary units)";
    f.caption += "; model vp in grey";
    f.underlay = {m.vp_mps.data(), m.grid.nz(), m.grid.nx()};
    f.underlay_min = m.min_velocity();
    f.underlay_max = m.max_velocity();
    return f;
}

} // namespace fwi
