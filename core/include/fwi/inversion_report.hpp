#pragma once
// Pictures of an inversion drawn by the product itself (PNG, no plotting dependency): models side by side on
// one colour scale, and the misfit and model-error curves of an iteration history. Throw ResourceError naming
// the path if it cannot be written, ConfigError for empty input or panels on different grids.
#include "fwi/model.hpp"
#include "fwi/project.hpp"

#include <string>
#include <utility>
#include <vector>

namespace fwi {

/// Titled panels side by side (e.g. start | result | true), viridis over [vmin, vmax] m/s, each cell scale x
/// scale pixels, with a colour bar labelled in m/s underneath.
void write_model_panels_png(const std::string& path, const std::vector<std::pair<std::string, Model>>& panels,
                            double vmin_mps, double vmax_mps, int scale = 2);

/// Two charts over the iteration number: the misfit relative to the first record of its stage (log scale; a
/// stage's misfit is of its own filtered data, so stages are not comparable), with stage boundaries marked by
/// their cut-off, and the relative model error (when the history has one).
void write_history_png(const std::string& path, const std::vector<IterationRecord>& history);

} // namespace fwi
