#pragma once
// The acquisition options of `fwi new` and `fwi demo`: a source line or areal grid, a receiver line or areal
// grid (by count or by spacing), or explicit points from text files.
#include "fwi/acquisition.hpp"
#include "fwi/grid.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace fwi::cli {

/// The options beyond the 2D line's (--shots, --source-x0, ...): counts per axis (0 = not given), y extents
/// (empty = default; a given negative y is a position, refused if outside the model), a receiver spacing (0 =
/// by count) and point files (empty = none).
struct AreaOptions {
    int shots_x = 0, shots_y = 0, receivers_x = 0, receivers_y = 0;
    std::optional<double> sy0, sy1, ry0, ry1;
    double receiver_spacing_m = 0;
    std::string source_file, receiver_file;
};
void add_area_options(CLI::App* cmd, AreaOptions& area);

/// What the 2D line options say (counts, x extents, depths), with whether the counts were given.
struct SurveyLayout {
    int shots = 10, receivers = 100;
    bool shots_given = false, receivers_given = false;
    PointGrid sources, receiver_line; ///< x extents and depth; counts and y come from make_survey
};

/// The fixed-spread survey for `grid`. In 2D: a source line and a receiver line (y options refused). In 3D:
/// areal grids, by default 2 x 2 sources over the middle 90% and 25 x 25 receivers over the whole surface; a
/// count given with --shots / --receivers alone makes a line along x through the middle of y.
/// ConfigError for an areal option on a 2D model; points outside the model are left to
/// validate_acquisition.
Acquisition make_survey(const Grid& grid, const SurveyLayout& line, const AreaOptions& area);

} // namespace fwi::cli
