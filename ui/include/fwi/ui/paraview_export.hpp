#pragma once
// File › Export to ParaView: the project's models, gradient and inversion history as VTK XML ImageData
// (fwi/vti_export.hpp), in one folder:
//   model.vti              vp_mps (the current model), plus true_vp_mps and initial_vp_mps when the
//                          project has them on the same grid
//   gradient.vti           the last gradient (dJ/dv, s/m), when the project has one
//   history/iteration_NNN.vti and history.pvd
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
