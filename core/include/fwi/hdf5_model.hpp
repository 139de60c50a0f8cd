#pragma once
// Velocity models in standalone HDF5 files (the project file uses the same layout for its models).
// Layout: dataset "vp" float32 of shape (nz, nx), or (nz, ny, nx) for a 3D model [x fast, as grid.hpp],
// attributes "spacing_m" = [dz, dx] or [dz, dy, dx] (double), "units" = "m/s". Any HDF5 tool can read it.
#include "fwi/model.hpp"

#include <array>
#include <string>

namespace fwi {

/// Reads `dataset` (default "vp"; if absent and the file holds exactly one 2D or 3D float dataset, that one);
/// the dataset's rank is the model's. Spacing from the "spacing_m" attribute (one value per axis), or
/// `fallback_spacing_m` = {dz, dy, dx} when the file has none (dy only used for a 3D dataset; ConfigError if
/// neither). Throws FormatError naming the file and dataset for anything malformed. Velocities in m/s: a
/// "units" attribute of "km/s" is converted. `units` ("auto", "m/s" or "km/s") is what the caller was told:
/// a file without the attribute is read in those units ("auto": m/s), and one whose attribute says otherwise
/// is a ConfigError naming both (a file's own units are never silently overridden, nor the caller's).
Model read_model_hdf5(const std::string& path, const std::string& dataset = "",
                      std::array<double, 3> fallback_spacing_m = {0, 0, 0},
                      const std::string& units = "auto");
/// Writes atomically (temporary file, then rename). Throws ResourceError if the path is not writable.
void write_model_hdf5(const std::string& path, const Model& model);

} // namespace fwi
