#pragma once
// Writers refuse models whose grid and data disagree, but not unusual values: a file may legitimately hold an
// intermediate or broken model that the user wants to inspect elsewhere.
#include "fwi/model.hpp"

#include <string>

namespace fwi::detail {

/// Throws ConfigError when the grid shape or spacing is not positive or the data size does not match it.
void check_model_shape(const Model& model, const std::string& path);

} // namespace fwi::detail
