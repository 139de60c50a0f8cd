#pragma once
// The 3D entries of builtin_model()'s name table (private to core; see model_tools.hpp).
#include "fwi/model.hpp"

#include <string>

namespace fwi::detail {

/// "layered3d", "salt3d" or "marmousi2-3d" at their documented sizes; an empty model for any other name.
Model builtin_model_3d(const std::string& name);

} // namespace fwi::detail
