#pragma once
// Orthogonal slices of a 3D field, as 2D fields on 2D grids, so that every 2D picture and view shows them:
//   inline    (x, z) at one y: grid (nz, nx), spacing (dz, dx)    - rows down z, columns along x
//   crossline (y, z) at one x: grid (nz, ny), spacing (dz, dy)    - rows down z, columns along y
//   depth     (x, y) at one z: grid (ny, nx), spacing (dy, dx)    - rows along y, columns along x
// Values are copied as they are (no interpolation): a slice of a slice's cells is bit for bit the volume's.
#include "fwi/model.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fwi {

enum class SliceAxis { Inline, Crossline, Depth };

/// "inline", "crossline", "depth".
const char* slice_name(SliceAxis axis);
/// The axis the slice is taken across (y, x, z) and the number of slices along it (ny, nx, nz).
std::int64_t slice_count(const Grid& volume, SliceAxis axis);
/// The slice's 2D grid (see the table above). ConfigError unless `volume` is 3D.
Grid slice_grid(const Grid& volume, SliceAxis axis);
/// Slice `index` of `values` (volume.cells() values). ConfigError for a 2D grid, a wrong value count or an
/// index outside [0, slice_count).
std::vector<float> slice_values(const Grid& volume, std::span<const float> values, SliceAxis axis,
                                std::int64_t index);
/// The slice of a 3D model as a 2D model.
Model slice_model(const Model& volume, SliceAxis axis, std::int64_t index);

} // namespace fwi
