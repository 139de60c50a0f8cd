#pragma once
// fwi demo --3d: a 3D gradient whose store-all need is over 10 GB, run within a RAM budget.
#include <nlohmann/json.hpp>
#include <string>

namespace fwi::cli {

struct Demo3DOptions {
    std::string out = "fwi-demo-3d", backend = "auto", schedule = "auto", compression = "none";
    std::string budget = "1.5G";
    int shots = 1;
    double freq_hz = 3, duration_s = 4;
    int ny = 80; ///< cells across (40 m each)
};

/// Builds the 3D Marmousi-II project (the 2D sections at 40 m extruded along y), models the observed data,
/// computes the gradient at the smooth starting model under the budget and writes the project, gathers,
/// gradient and slice pictures into `out`. Returns the JSON summary (also written as summary.json).
nlohmann::json run_demo_3d(const Demo3DOptions& options, bool quiet);

} // namespace fwi::cli
