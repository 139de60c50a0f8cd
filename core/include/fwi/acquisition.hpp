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

/// Ricker wavelet (1 - 2 pi^2 f^2 tau^2) exp(-pi^2 f^2 tau^2), tau = t - delay, sampled at i * dt_s, i < nt.
/// A negative delay means the customary 1.5 / f.
std::vector<float> ricker(double freq_hz, double dt_s, std::int64_t nt, double delay_s = -1.0);

} // namespace fwi
