#include "fwi/volume_slice.hpp"

#include "fwi/error.hpp"

namespace fwi {

std::string slice_name(SliceAxis axis) {
    switch (axis) {
    case SliceAxis::Inline:
        return "inline";
    case SliceAxis::Crossline:
        return "crossline";
    case SliceAxis::Depth:
        return "depth";
    }
    return "?";
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

Grid slice_grid(const Grid& g, SliceAxis axis) {
    if (g.rank != 3) throw ConfigError(slice_name(axis) + " slice: the grid is not 3D");
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

std::vector<float> slice_values(const Grid& g, std::span<const float> values, SliceAxis axis,
                                std::int64_t index) {
    const Grid s = slice_grid(g, axis);
    if (std::int64_t(values.size()) != g.cells())
        throw ConfigError(slice_name(axis) + " slice: " + std::to_string(values.size()) +
                          " values for a grid of " + std::to_string(g.cells()) + " cells");
    if (index < 0 || index >= slice_count(g, axis))
        throw ConfigError(slice_name(axis) + " slice " + std::to_string(index) + " is outside 0.." +
                          std::to_string(slice_count(g, axis) - 1));
    std::vector<float> out(std::size_t(s.cells()));
    const std::int64_t ny = g.ny(), nx = g.nx();
    for (std::int64_t r = 0; r < s.nz(); ++r)
        for (std::int64_t c = 0; c < s.nx(); ++c) {
            std::int64_t iz = 0, iy = 0, ix = 0;
            switch (axis) {
            case SliceAxis::Inline:
                iz = r, iy = index, ix = c;
                break;
            case SliceAxis::Crossline:
                iz = r, iy = c, ix = index;
                break;
            case SliceAxis::Depth:
                iz = index, iy = r, ix = c;
                break;
            }
            out[std::size_t(r * s.nx() + c)] = values[std::size_t((iz * ny + iy) * nx + ix)];
        }
    return out;
}

Model slice_model(const Model& volume, SliceAxis axis, std::int64_t index) {
    Model m;
    m.grid = slice_grid(volume.grid, axis);
    m.vp_mps = slice_values(volume.grid, volume.vp_mps, axis, index);
    return m;
}

} // namespace fwi
