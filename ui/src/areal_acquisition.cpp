#include "fwi/ui/areal_acquisition.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <string>

namespace fwi::ui {

std::vector<Point> areal_grid(Point a, Point b, int count_x, int count_y) {
    if (count_x < 1 || count_y < 1)
        throw ConfigError("An areal grid needs at least 1 point per axis, got " + std::to_string(count_x) +
                          " x " + std::to_string(count_y));
    const double x0 = std::min(a.x_m, b.x_m), x1 = std::max(a.x_m, b.x_m);
    const double y0 = std::min(a.y_m, b.y_m), y1 = std::max(a.y_m, b.y_m);
    auto at = [](double lo, double hi, int i, int n) {
        return n == 1 ? lo : lo + (hi - lo) * double(i) / double(n - 1);
    };
    std::vector<Point> out;
    out.reserve(std::size_t(count_x) * std::size_t(count_y));
    for (int iy = 0; iy < count_y; ++iy)
        for (int ix = 0; ix < count_x; ++ix)
            out.push_back({at(x0, x1, ix, count_x), a.z_m, at(y0, y1, iy, count_y)});
    return out;
}

Acquisition with_areal_grid(const Acquisition& acq, const Grid& grid, PointKind kind, Point a, Point b,
                            int count_x, int count_y, int shot) {
    if (grid.rank != 3) throw ConfigError("Areal acquisition needs a 3D model; this one is 2D");
    const std::vector<Point> points = areal_grid(a, b, count_x, count_y);
    for (Point corner : {a, Point{b.x_m, a.z_m, b.y_m}})
        if (const std::string msg = outside_message(grid, corner, kind); !msg.empty())
            throw ConfigError("Areal grid corner: " + msg);
    Acquisition out = acq;
    for (const Point& p : points)
        out = with_point_added(out, grid, kind, p, shot);
    return out;
}

} // namespace fwi::ui
