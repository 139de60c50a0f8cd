#pragma once
// How a velocity model lies in any FWI Studio HDF5 file (standalone model files and projects alike, see
// docs/file-format.md): one float32 dataset of shape (nz, nx) in 2D or (nz, ny, nx) in 3D, x fast, with
// attributes spacing_m = [dz, dx] or [dz, dy, dx] (float64, metres) and units = "m/s". The dataset's rank is
// the model's rank.
#include "fwi/model.hpp"
#include "hdf5/h5.hpp"

#include <array>
#include <string>

namespace fwi::h5 {

/// Writes `model` as dataset `name` of `group` (compressed when large). ConfigError naming `what` when the
/// values do not fill the grid or the grid is empty or has a non-positive spacing.
void write_model(const Group& group, const std::string& name, const Model& model, const std::string& what);

/// Reads a model dataset (rank 2 or 3, non-empty, numeric). The spacing comes from the dataset's spacing_m
/// attribute, else from `spacing_holder`'s (may be null; e.g. the file root), both with one value per axis,
/// else from `fallback_spacing_m` = {dz, dy, dx} (dy unused for a 2D dataset) when the values used are
/// positive, else ConfigError. Values in units = "km/s" are converted to m/s; other units are a
/// FormatError. `units` is what the reader was told ("auto": whatever the file says; "m/s" or "km/s": a
/// file without a units attribute is read in those units, one whose attribute says otherwise is a
/// ConfigError naming both).
Model read_model(const Dataset& dataset, const Object* spacing_holder = nullptr,
                 std::array<double, 3> fallback_spacing_m = {0, 0, 0}, const std::string& units = "auto");

/// Writes `values` (model cells of `grid`) as (nz, nx) or (nz, ny, nx) when they fill the grid, else as a
/// flat (n) array.
void write_cells(const Group& group, const std::string& name, const std::vector<float>& values,
                 const Grid& grid);

} // namespace fwi::h5
