#pragma once
// Where the traces of a SEG-Y velocity file lie on the model grid (private to core). A file whose traces
// carry more than one inline number and more than one crossline number is a 3D volume: the inline number runs
// along y and the crossline number along x (the usual convention of post-stack volumes: an inline is a
// vertical section along x at fixed y), both ascending. Anything else is a 2D line, one trace per x in file
// order.
#include <cstdint>
#include <string>
#include <vector>

namespace fwi::detail {

struct SegyGeometry {
    std::int64_t ny = 1; ///< 1 for a 2D line
    std::int64_t nx = 0;
    /// The trace of column (iy, ix) at iy * nx + ix.
    std::vector<int> trace_at;
    bool three_d() const { return ny > 1; }
};

/// From each trace's inline (byte 189) and crossline (193) numbers, in file order. Throws FormatError naming
/// `path` and the problem when a volume is not a full regular grid: numbers off an even step, an (inline,
/// crossline) pair with no trace, or one with two.
SegyGeometry survey_geometry(const std::vector<std::int32_t>& inlines,
                             const std::vector<std::int32_t>& crosslines, const std::string& path);

} // namespace fwi::detail
