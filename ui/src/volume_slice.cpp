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

const char* slice_name(SliceAxis axis) {
    switch (axis) {
    case SliceAxis::Inline:
        return "inline";
    case SliceAxis::Crossline:
        return "crossline";
    case SliceAxis::Depth:
        return "depth";
    }
    return "";
}

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

std::int64_t slice_count(const Grid& g, SliceAxis axis) {
    switch (axis) {
    case SliceAxis::Inline:
        return g.ny();
    case SliceAxis::Crossline:
        return g.nx();
    case SliceAxis::Depth:
        return g.nz();
    }
    return 0;
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

Grid slice_grid(const Grid& g, SliceAxis axis) {
    switch (axis) {
    case SliceAxis::Inline:
        return Grid(g.nz(), g.nx(), g.dz(), g.dx());
    case SliceAxis::Crossline:
        return Grid(g.nz(), g.ny(), g.dz(), g.dy());
    case SliceAxis::Depth:
        return Grid(g.ny(), g.nx(), g.dy(), g.dx());
    }
    return {};
}

std::vector<float> slice_of(std::span<const float> volume, const Grid& g, SliceAxis axis,
                            std::int64_t index) {
    if (g.rank != 3) throw ConfigError("slice_of: the grid is 2D, not a volume");
    if (std::int64_t(volume.size()) != g.cells())
        throw ConfigError("slice_of: " + std::to_string(volume.size()) + " values for a grid of " +
                          std::to_string(g.cells()) + " cells");
    if (index < 0 || index >= slice_count(g, axis))
        throw ConfigError(std::string("slice_of: ") + slice_name(axis) + " slice " + std::to_string(index) +
                          " is outside 0.." + std::to_string(slice_count(g, axis) - 1));
    const std::int64_t nz = g.nz(), ny = g.ny(), nx = g.nx();
    std::vector<float> out;
    switch (axis) {
    case SliceAxis::Inline: // rows z, cols x: one contiguous row of x per z
        out.reserve(std::size_t(nz * nx));
        for (std::int64_t iz = 0; iz < nz; ++iz) {
            const auto row = volume.subspan(g.index(iz, index, 0), std::size_t(nx));
            out.insert(out.end(), row.begin(), row.end());
        }
        break;
    case SliceAxis::Crossline: // rows z, cols y: a strided gather
        out.reserve(std::size_t(nz * ny));
        for (std::int64_t iz = 0; iz < nz; ++iz)
            for (std::int64_t iy = 0; iy < ny; ++iy)
                out.push_back(volume[g.index(iz, iy, index)]);
        break;
    case SliceAxis::Depth: { // rows y, cols x: one contiguous plane
        const auto plane = volume.subspan(g.index(index, 0, 0), std::size_t(ny * nx));
        out.assign(plane.begin(), plane.end());
        break;
    }
    }
    return out;
}

Model slice_of(const Model& model, SliceAxis axis, std::int64_t index) {
    Model out;
    out.grid = slice_grid(model.grid, axis);
    out.vp_mps = slice_of(model.vp_mps, model.grid, axis, index);
    return out;
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
