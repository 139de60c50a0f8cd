// Areal and line acquisition: grids of points on a depth plane, and fixed spreads built from them.
#include "fwi/acquisition.hpp"
#include "fwi/error.hpp"

#include <sstream>

namespace fwi {

namespace {

constexpr double max_grid_points = 1e7; // far beyond any desktop survey; a typo's 10^12 is refused early

/// Position k of `count` evenly from a to b, b exactly for the last (no rounding error outside the model).
double even(int k, int count, double a, double b) {
    if (count == 1) return a;
    if (k == count - 1) return b;
    return a + (b - a) * double(k) / double(count - 1);
}

} // namespace

std::vector<Point> grid_of_points(const PointGrid& grid) {
    if (grid.count_x < 1 || grid.count_y < 1 ||
        double(grid.count_x) * double(grid.count_y) > max_grid_points) {
        std::ostringstream msg;
        msg << "grid of points: " << grid.count_x << " x " << grid.count_y
            << " points (need at least 1 per axis and at most " << max_grid_points << " in all)";
        throw ConfigError(msg.str());
    }
    std::vector<Point> points;
    points.reserve(std::size_t(grid.count_x) * std::size_t(grid.count_y));
    for (int j = 0; j < grid.count_y; ++j)
        for (int i = 0; i < grid.count_x; ++i)
            points.push_back({even(i, grid.count_x, grid.x0_m, grid.x1_m), grid.z_m,
                              even(j, grid.count_y, grid.y0_m, grid.y1_m)});
    return points;
}

Acquisition fixed_spread(const std::vector<Point>& sources, const std::vector<Point>& receivers) {
    // Every shot holds its own receivers (24 bytes each): 10^8 of them are 2.4 GB before any data.
    constexpr double max_traces = 1e8;
    if (double(sources.size()) * double(receivers.size()) > max_traces)
        throw ConfigError(
            std::to_string(sources.size()) + " sources x " + std::to_string(receivers.size()) +
            " receivers = " + std::to_string(sources.size() * receivers.size()) +
            " traces; at most 10^8 in a project (fewer shots or receivers, or several projects)");
    Acquisition acq;
    acq.shots.reserve(sources.size());
    for (const Point& s : sources)
        acq.shots.push_back({s, receivers});
    return acq;
}

} // namespace fwi
