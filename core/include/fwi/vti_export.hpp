#pragma once
// ParaView/VTK export: VTK XML ImageData (.vti) files and .pvd collections (time series), written by core
// itself (no VTK dependency). Layout: one point per cell centre; in 2D VTK's x is the model's x (fast axis)
// and VTK's y is depth, with Direction "1 0 0 0 -1 0 0 0 1" so that depth points down in ParaView, Spacing
// (dx, dz, 1); in 3D VTK's (x, y, z) are the model's (x, y, depth), Direction "1 0 0 0 1 0 0 0 -1", Spacing
// (dx, dy, dz). Origin (0, 0, 0) is the first cell centre; metres. Values are Float32, little endian, raw
// appended data with UInt64 block headers. Files are written atomically (temporary file, then rename).
#include "fwi/field.hpp"
#include "fwi/grid.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace fwi {

struct VtiArray {
    std::string name;     ///< e.g. "vp_mps", "gradient"; letters, digits, '_' and '-' only
    ConstFieldView field; ///< grid.rows() rows of grid.nx(): (z, x) in 2D, (z, y) rows of x in 3D
};

/// Writes `arrays` (one or more, each of the grid's shape) as point data of one image. ConfigError for a bad
/// name or shape, ResourceError naming the path when it cannot be written.
void write_vti(const std::filesystem::path& path, const Grid& grid, const std::vector<VtiArray>& arrays);

struct PvdEntry {
    double time = 0;            ///< e.g. seconds, or the iteration number
    std::filesystem::path file; ///< a .vti; written relative to the .pvd's directory when it lies under it
};

/// Writes a ParaView collection listing `entries` in order. ResourceError naming the path on failure.
void write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries);

} // namespace fwi
