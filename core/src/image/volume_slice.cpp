#include "fwi/volume_slice.hpp"

#include "fwi/error.hpp"

namespace fwi {

const char* slice_name(SliceAxis axis) {
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
    if (g.rank != 3) throw ConfigError(std::string(slice_name(axis)) + " slice: the grid is not 3D");
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

std::vector<float> slice_values(const Grid& g, std::span<const float> volume, SliceAxis axis,
                                std::int64_t index) {
    slice_grid(g, axis); // refuses a 2D grid
    const std::string name = slice_name(axis);
    if (std::int64_t(volume.size()) != g.cells())
        throw ConfigError(name + " slice: " + std::to_string(volume.size()) + " values for a grid of " +
                          std::to_string(g.cells()) + " cells");
    if (index < 0 || index >= slice_count(g, axis))
        throw ConfigError(name + " slice " + std::to_string(index) + " is outside 0.." +
                          std::to_string(slice_count(g, axis) - 1));
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

Model slice_model(const Model& volume, SliceAxis axis, std::int64_t index) {
    Model m;
    m.grid = slice_grid(volume.grid, axis);
    m.vp_mps = slice_values(volume.grid, volume.vp_mps, axis, index);
    return m;
}

} // namespace fwi
