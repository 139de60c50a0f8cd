#pragma once
// fwi plan --sweep: the performance model's speed-up of Revolve + compression over Revolve alone across
// memory budgets (core's plan_sweep), as a table, JSON and an optional chart, with the project's own point
// marked.
#include "fwi/plan_sweep.hpp"
#include "fwi/settings.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fwi::cli {

struct SweepReportOptions {
    std::string project;      ///< named in the chart's caption
    std::string budgets;      ///< --sweep-budgets: BYTES separated by ','; empty = the default range
    std::string plot;         ///< --plot: .png or .svg; empty = none
    GradientSettings current; ///< the project's settings: its budget and codec are the marked point
    int current_curve =
        -1;            ///< index of the project's codec in the request's codecs; -1: none (Revolve alone)
    bool print = true; ///< the human table on stdout
};

/// Runs the sweep on `request` (its budgets filled from options.budgets, the current budget added), prints
/// and plots as asked, and returns the JSON summary.
nlohmann::json plan_sweep_report(SweepRequest request, const SweepReportOptions& options);

} // namespace fwi::cli
