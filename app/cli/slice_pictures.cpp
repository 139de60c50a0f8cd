#include "slice_pictures.hpp"

#include "fwi/volume_slice.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace fwi::cli {

namespace {

std::string with_suffix(const std::string& path, const std::string& suffix) {
    const std::filesystem::path p(path);
    return (p.parent_path() / (p.stem().string() + "-" + suffix + p.extension().string())).string();
}

std::string metres(double m) {
    char text[32];
    std::snprintf(text, sizeof text, "%g m", m);
    return text;
}

} // namespace

std::vector<std::string> write_pictures(const std::string& path, const Model& model,
                                        const std::vector<float>& values, const FigureMaker& make,
                                        std::array<std::int64_t, 3> centre) {
    const Grid& g = model.grid;
    if (g.rank != 3) {
        write_figure(path, make(model, values));
        return {path};
    }
    const std::int64_t iz = centre[0] >= 0 ? centre[0] : g.nz() / 2;
    const std::int64_t iy = centre[1] >= 0 ? centre[1] : g.ny() / 2;
    const std::int64_t ix = centre[2] >= 0 ? centre[2] : g.nx() / 2;
    std::vector<std::string> written;
    for (SliceAxis axis : {SliceAxis::Inline, SliceAxis::Crossline, SliceAxis::Depth}) {
        const std::int64_t index = axis == SliceAxis::Inline ? iy : axis == SliceAxis::Crossline ? ix : iz;
        const Model slice = slice_model(model, axis, index);
        const std::vector<float> slice_data = slice_values(g, values, axis, index);
        Figure f = make(slice, slice_data);
        if (axis == SliceAxis::Inline) {
            f.title += ", inline at y = " + metres(double(index) * g.dy());
        } else if (axis == SliceAxis::Crossline) {
            f.horizontal = {"y", "m", 0, g.dy()};
            f.title += ", crossline at x = " + metres(double(index) * g.dx());
        } else {
            f.vertical = {"y", "m", 0, g.dy()};
            f.title += ", depth slice at z = " + metres(double(index) * g.dz());
        }
        const std::string file = with_suffix(path, slice_name(axis));
        write_figure(file, f);
        written.push_back(file);
    }
    return written;
}

} // namespace fwi::cli
