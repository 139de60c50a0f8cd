#pragma once
// A project's arrays as ParaView files (fwi/vti_export.hpp), one writer for the CLI's `fwi export` and the
// GUI's File > Export to ParaView, so both name things alike:
//   models     one .vti with vp_true, vp_initial and vp_current (m/s), each when the project has it on the
//              working model's grid
//   gradient   one .vti with gradient (dJ/dv, s/m) and vp_mps (the working model it belongs to)
//   history    iteration_NNNNN.vti per recorded iteration (vp_mps and gradient, whichever were kept) and a
//              .pvd listing them in order with the iteration number as time, so ParaView plays the inversion
#include "fwi/project.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace fwi {

/// Writes the models selected by `which` (all | true | initial | current) into the .vti `file`; returns the
/// array names written. ConfigError when the project has no such model; ResourceError naming the file.
std::vector<std::string> export_models_vti(const Experiment& experiment, const std::filesystem::path& file,
                                           const std::string& which = "all");

/// Writes the project's last gradient and its model into the .vti `file`. ConfigError when there is none.
void export_gradient_vti(const Project& project, const std::filesystem::path& file);

/// Writes each history iteration into `vti_dir` (created if missing) and the series into `pvd`; returns
/// the .vti files in order. ConfigError when the history keeps no models or gradients.
std::vector<std::filesystem::path> export_history_series(const Project& project,
                                                         const std::filesystem::path& vti_dir,
                                                         const std::filesystem::path& pvd);

} // namespace fwi
