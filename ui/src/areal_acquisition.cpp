#include "fwi/ui/areal_acquisition.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <string>

namespace fwi::ui {

Acquisition with_areal_grid(const Acquisition& acq, const Grid& grid, PointKind kind, Point a, Point b,
                            int count_x, int count_y, int shot) {
    if (grid.rank != 3) throw ConfigError("Areal acquisition needs a 3D model; this one is 2D");
    PointGrid area;
    area.count_x = count_x;
    area.count_y = count_y;
    area.x0_m = std::min(a.x_m, b.x_m);
    area.x1_m = std::max(a.x_m, b.x_m);
    area.y0_m = std::min(a.y_m, b.y_m);
    area.y1_m = std::max(a.y_m, b.y_m);
    area.z_m = a.z_m;
    const std::vector<Point> points = grid_of_points(area); // ConfigError for bad counts
    for (Point corner : {a, Point{b.x_m, a.z_m, b.y_m}})
        if (const std::string msg = outside_message(grid, corner, kind); !msg.empty())
            throw ConfigError("Areal grid corner: " + msg);
    Acquisition out = acq;
    for (const Point& p : points)
        out = with_point_added(out, grid, kind, p, shot);
    return out;
}

} // namespace fwi::ui
