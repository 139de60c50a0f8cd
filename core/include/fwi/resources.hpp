#pragma once
// Shipped resources (models, example data) and convenience loaders for the benchmark models.
#include "fwi/model.hpp"
#include "fwi/model_io.hpp"

#include <string>

namespace fwi {

/// The resources directory: $FWI_RESOURCE_DIR if set and non-empty, else <exe
/// dir>/../share/fwi-studio/resources if it exists (installed layout), else the source tree's resources/
/// (compile-time FWI_RESOURCE_DIR).
std::string resource_dir();
/// `relative` inside resource_dir(). Throws ResourceError naming the directory searched if the file does not
/// exist.
std::string resource_path(const std::string& relative);

/// Marmousi-II (500 x 174 cells at 20 m, m/s): which = "true" (marine, water on top), "smooth" (smoothed
/// starting model) or "start1d" (1D starting model). Throws ConfigError for another name.
Model load_marmousi2(const std::string& which = "true", LoadReport* report = nullptr);
/// Marmousi (1601 x 401 cells at 7.5 m), stored in km/s, returned in m/s (the report says so).
Model load_marmousi(LoadReport* report = nullptr);

} // namespace fwi
