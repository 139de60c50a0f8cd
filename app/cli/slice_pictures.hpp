#pragma once
// Pictures of fields on 2D or 3D grids: one picture in 2D; in 3D, one per orthogonal slice
// (volume_slice.hpp).
#include "fwi/figure.hpp"
#include "fwi/model.hpp"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace fwi::cli {

/// Makes the figure of `values` (cells of `model`'s grid) over `model`, e.g. a gradient_figure.
using FigureMaker = std::function<Figure(const Model& model, const std::vector<float>& values)>;

/// 2D: writes make(model, values) at `path`. 3D: writes three pictures through cell `centre` = (iz, iy, ix)
/// (a negative index: the middle of that axis), <stem>-inline<ext> (x-z), <stem>-crossline<ext> (y-z) and
/// <stem>-depth<ext> (x-y), each titled with its position. Returns the paths written.
std::vector<std::string> write_pictures(const std::string& path, const Model& model,
                                        const std::vector<float>& values, const FigureMaker& make,
                                        std::array<std::int64_t, 3> centre = {-1, -1, -1});

} // namespace fwi::cli
