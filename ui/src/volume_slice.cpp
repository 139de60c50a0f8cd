#include "fwi/ui/volume_slice.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace fwi::ui {
namespace {

/// The spacing along the slice's normal.
double normal_spacing(const Grid& g, SliceAxis axis) {
    switch (axis) {
    case SliceAxis::Inline:
        return g.dy();
    case SliceAxis::Crossline:
        return g.dx();
    case SliceAxis::Depth:
        return g.dz();
    }
    return 0;
}

} // namespace

const char* slice_axis_letter(SliceAxis axis) {
    switch (axis) {
    case SliceAxis::Inline:
        return "y";
    case SliceAxis::Crossline:
        return "x";
    case SliceAxis::Depth:
        return "z";
    }
    return "";
}

double slice_position_m(const Grid& g, SliceAxis axis, std::int64_t index) {
    return double(index) * normal_spacing(g, axis);
}

std::int64_t slice_index_at(const Grid& g, SliceAxis axis, double position_m) {
    const double h = normal_spacing(g, axis);
    const std::int64_t last = std::max<std::int64_t>(slice_count(g, axis) - 1, 0);
    if (!(h > 0)) return 0;
    return std::clamp<std::int64_t>(std::llround(position_m / h), 0, last);
}

Point to_slice_coordinates(Point p, SliceAxis axis) {
    switch (axis) {
    case SliceAxis::Inline:
        return {p.x_m, p.z_m, p.y_m};
    case SliceAxis::Crossline:
        return {p.y_m, p.z_m, p.x_m};
    case SliceAxis::Depth:
        return {p.x_m, p.y_m, p.z_m};
    }
    return p;
}

Point from_slice_coordinates(Point s, SliceAxis axis, double position_m) {
    switch (axis) {
    case SliceAxis::Inline:
        return {s.x_m, s.z_m, position_m};
    case SliceAxis::Crossline:
        return {position_m, s.z_m, s.x_m};
    case SliceAxis::Depth:
        return {s.x_m, position_m, s.z_m};
    }
    return s;
}

std::vector<Point> points_on_slice(const std::vector<Point>& points, const Grid& g, SliceAxis axis,
                                   std::int64_t index, double tolerance_cells) {
    const double position = slice_position_m(g, axis, index);
    const double tolerance_m = tolerance_cells * normal_spacing(g, axis);
    std::vector<Point> out;
    for (const Point& p : points) {
        const Point s = to_slice_coordinates(p, axis);
        if (tolerance_cells < 0 || std::abs(s.y_m - position) <= tolerance_m) out.push_back(s);
    }
    return out;
}

} // namespace fwi::ui
