#pragma once
// Sources, receivers and wavelets. Positions in metres from the model's first cell centre (x right, y across,
// z down).
#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

/// A source or receiver position. y comes last so that a 2D point is still written {x, z}; 2D ignores y.
struct Point {
    double x_m = 0;
    double z_m = 0;
    double y_m = 0;
    bool operator==(const Point&) const = default;
};

/// One shot: a point source and the receivers that record it.
struct Shot {
    Point source;
    std::vector<Point> receivers;
    bool operator==(const Shot&) const = default;
};

struct Acquisition {
    std::vector<Shot> shots;
    bool operator==(const Acquisition&) const = default;
    std::size_t receiver_count() const; ///< summed over shots
};

/// `count` points evenly from (x0, z) to (x1, z); count == 1 gives (x0, z).
std::vector<Point> line_of_points(int count, double x0_m, double x1_m, double z_m);

/// Shots along a line at depth source_z, each recorded by the same receiver line (the classic surface
/// survey).
Acquisition surface_survey(int shots, double sx0_m, double sx1_m, double source_z_m, int receivers,
                           double rx0_m, double rx1_m, double receiver_z_m);

/// An areal grid of points at one depth: count_x x count_y points evenly over [x0, x1] x [y0, y1] (the last
/// point of each axis exactly at x1 / y1; a count of 1 puts the points at x0 / y0). count_y == 1 is a line.
struct PointGrid {
    int count_x = 1, count_y = 1;
    double x0_m = 0, x1_m = 0, y0_m = 0, y1_m = 0, z_m = 0;
};
/// The grid's points, y slow and x fast. ConfigError for a count below 1 or more than 10^7 points.
std::vector<Point> grid_of_points(const PointGrid& grid);

/// Every source recorded by the same receivers (a fixed spread: the areal and line surveys of `fwi new`).
/// ConfigError above 10^8 traces (sources x receivers).
Acquisition fixed_spread(const std::vector<Point>& sources, const std::vector<Point>& receivers);

/// Points from a text file, one per line: "x z" in 2D (rank 2) or "x y z" in 3D (rank 3), metres, separated
/// by spaces, tabs or commas; blank lines and text after '#' are ignored. ResourceError if the file cannot be
/// read; FormatError naming the file and line for a line that is not `rank` finite numbers, or a file with
/// no points.
std::vector<Point> read_points_file(const std::string& path, int rank);

/// Ricker wavelet (1 - 2 pi^2 f^2 tau^2) exp(-pi^2 f^2 tau^2), tau = t - delay, sampled at i * dt_s, i < nt.
/// A negative delay means the customary 1.5 / f.
std::vector<float> ricker(double freq_hz, double dt_s, std::int64_t nt, double delay_s = -1.0);

} // namespace fwi
