#pragma once
// The product's standard pictures (fwi plot, fwi demo): a velocity model, a gradient, a shot gather and a
// wavefield snapshot over its model, each with axes in m/km or s, units on the colour bar and, for signed
// fields, a symmetric scale clipped at a stated percentile of |x|. The returned Figure views the arguments:
// keep them alive.
#include "fwi/figure.hpp"
#include "fwi/gather.hpp"
#include "fwi/model.hpp"

#include <string>
#include <vector>

namespace fwi {

/// Velocity on [vmin, vmax] (the model's own range when vmin >= vmax), Viridis, colour bar "vp (m/s)".
Figure model_figure(const Model& model, const std::string& title, double vmin = 0, double vmax = 0);

/// A gradient on the model's grid (grid.cells() values), symmetric scale at `percent`.
Figure gradient_figure(const Model& model, const std::vector<float>& gradient, const std::string& title,
                       double percent = 99);

/// Time (s) down, receivers across at their x (m/km; receiver number when the receivers' x do not increase
/// evenly). `transposed` receives the (samples, receivers) image the figure views.
Figure gather_figure(const Gather& gather, std::vector<float>& transposed, const std::string& title,
                     double percent = 99);

/// A pressure snapshot (model cells) over the model drawn in grey.
Figure wavefield_figure(const Model& model, const std::vector<float>& pressure, const std::string& title,
                        double percent = 99);

} // namespace fwi
