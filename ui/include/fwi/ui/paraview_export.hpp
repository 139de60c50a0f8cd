#pragma once
// File > Export to ParaView: the project's models, gradient and inversion history in one folder, written by
// core's project export (fwi/project_export.hpp, the same writer as `fwi export`):
//   model.vti              vp_true, vp_initial and vp_current, each when the project has it on the working
//   grid gradient.vti           the last gradient (dJ/dv, s/m) with vp_mps, when the project has one
//   history/iteration_NNNNN.vti and history.pvd
//                          each recorded iteration's model (vp_mps) and gradient when kept; the .pvd's time
//                          is the iteration number, so ParaView plays the inversion as a time series
#include "fwi/project.hpp"

#include <QString>
#include <QStringList>

namespace fwi::ui {

/// Writes the files above into `dir` (created if missing) and returns their paths. Throws fwi::ConfigError
/// or ResourceError naming the problem (an unwritable folder, a model whose values do not fill its grid).
QStringList export_paraview(const Project& project, const QString& dir);

} // namespace fwi::ui
