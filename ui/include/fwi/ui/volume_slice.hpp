#pragma once
// Orthogonal slices of a 3D array for the 2D image views: positions and points on them. Pure data (no Qt, no
// VTK), so tests can check values exactly.
//
// Volumes have the product's layout (grid.hpp): (z, y, x) row-major, x fast. A slice is a 2D array in the
// image views' layout, (rows, cols) with cols fast:
//   Inline    the x-z plane at a y index: rows z, cols x (what a 2D model shows);
//   Crossline the y-z plane at an x index: rows z, cols y;
//   Depth     the x-y plane at a z index: rows y, cols x (the map view).
// Slice coordinates put the column axis in Point::x_m and the row axis in Point::z_m, so that the 2D views
// (ModelView, acquisition markers) draw a slice exactly as they draw a 2D model.
#include "fwi/acquisition.hpp"
#include "fwi/grid.hpp"
#include "fwi/model.hpp"
#include "fwi/volume_slice.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace fwi::ui {

// The slices themselves (SliceAxis, slice_grid, slice_values, slice_model, ...) are core's
// (fwi/volume_slice.hpp); this adds what the views need to place points and sliders on them.
using fwi::slice_count;
using fwi::slice_grid;
using fwi::slice_model;
using fwi::slice_name;
using fwi::slice_values;
using fwi::SliceAxis;
inline constexpr SliceAxis slice_axes[3] = {SliceAxis::Inline, SliceAxis::Crossline, SliceAxis::Depth};

const char* slice_axis_letter(SliceAxis axis); ///< the axis the slice is taken along: "y", "x", "z"

/// Metres of slice `index` along the axis (cell centres from 0).
double slice_position_m(const Grid& grid, SliceAxis axis, std::int64_t index);
/// The slice index nearest to `position_m`, clamped to the grid.
std::int64_t slice_index_at(const Grid& grid, SliceAxis axis, double position_m);

/// A 3D point in the slice's coordinates (column axis in x_m, row axis in z_m, the normal axis in y_m).
Point to_slice_coordinates(Point p, SliceAxis axis);
/// Back: slice coordinates (x_m, z_m) at `position_m` along the normal.
Point from_slice_coordinates(Point slice_point, SliceAxis axis, double position_m);

/// The points within `tolerance_cells` cells of slice `index` (along the normal), in slice coordinates; a
/// negative tolerance takes every point (projected onto the slice).
std::vector<Point> points_on_slice(const std::vector<Point>& points, const Grid& grid, SliceAxis axis,
                                   std::int64_t index, double tolerance_cells);

} // namespace fwi::ui
