#include "survey_options.hpp"

#include "fwi/error.hpp"

#include <cmath>
#include <sstream>

namespace fwi::cli {

void add_area_options(CLI::App* cmd, AreaOptions& a) {
    cmd->add_option("--shots-x", a.shots_x, "3D: sources along x (areal grid; 2D: same as --shots)")
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--shots-y", a.shots_y, "3D: sources along y (areal grid)")->check(CLI::Range(1, 100000));
    cmd->add_option("--source-y0", a.sy0, "3D: first source y (m); default 5% of the breadth");
    cmd->add_option("--source-y1", a.sy1, "3D: last source y (m); default 95% of the breadth");
    cmd->add_option("--receivers-x", a.receivers_x, "3D: receivers along x (areal grid; 2D: --receivers)")
        ->check(CLI::Range(1, 1000000));
    cmd->add_option("--receivers-y", a.receivers_y, "3D: receivers along y (areal grid)")
        ->check(CLI::Range(1, 1000000));
    cmd->add_option("--receiver-y0", a.ry0, "3D: first receiver y (m); default 0");
    cmd->add_option("--receiver-y1", a.ry1, "3D: last receiver y (m); default the breadth");
    cmd->add_option("--receiver-spacing", a.receiver_spacing_m,
                    "receiver interval (m) along x (and y in 3D) instead of a count");
    cmd->add_option("--source-file", a.source_file,
                    "sources from a text file: one \"x z\" (2D) or \"x y z\" (3D) per line, metres");
    cmd->add_option("--receiver-file", a.receiver_file,
                    "receivers (the same for every shot) from a text file, as --source-file");
}

namespace {

/// Points from first to last at `spacing`: the count that fits, the last point where it falls.
void set_by_spacing(double spacing_m, int& count, double first_m, double& last_m, const char* axis) {
    const double extent = last_m - first_m;
    std::ostringstream msg;
    msg << "--receiver-spacing " << spacing_m << " m";
    if (!(spacing_m > 0) || !std::isfinite(spacing_m) || !(extent >= 0))
        throw ConfigError(msg.str() + " along " + axis +
                          ": need a positive spacing and a first receiver before the last");
    const double n = std::floor(extent / spacing_m * (1 + 1e-12)) + 1;
    if (n > 1e6) {
        msg << " gives " << n << " receivers along " << axis << "; at most 10^6";
        throw ConfigError(msg.str());
    }
    count = int(n);
    last_m = first_m + (count - 1) * spacing_m;
}

void refuse_in_2d(bool given, const char* option) {
    if (given) throw ConfigError(std::string(option) + " needs a 3D model (this one is 2D)");
}

} // namespace

Acquisition make_survey(const Grid& g, const SurveyLayout& line, const AreaOptions& a) {
    const bool three_d = g.rank == 3;
    if (!three_d) {
        refuse_in_2d(a.shots_y > 0, "--shots-y");
        refuse_in_2d(a.receivers_y > 0, "--receivers-y");
        refuse_in_2d(a.sy0 || a.sy1, "--source-y0/--source-y1");
        refuse_in_2d(a.ry0 || a.ry1, "--receiver-y0/--receiver-y1");
    }
    const double breadth = g.breadth_m();

    std::vector<Point> sources;
    if (!a.source_file.empty()) {
        sources = read_points_file(a.source_file, g.rank);
    } else {
        PointGrid s = line.sources;
        s.count_x = a.shots_x > 0 ? a.shots_x : (line.shots_given || !three_d ? line.shots : 2);
        s.count_y = a.shots_y > 0 ? a.shots_y : (line.shots_given || !three_d ? 1 : 2);
        if (three_d) {
            s.y0_m = a.sy0.value_or(s.count_y == 1 ? 0.5 * breadth : 0.05 * breadth);
            s.y1_m = a.sy1.value_or(0.95 * breadth);
        }
        sources = grid_of_points(s);
    }

    std::vector<Point> receivers;
    if (!a.receiver_file.empty()) {
        receivers = read_points_file(a.receiver_file, g.rank);
    } else {
        PointGrid r = line.receiver_line;
        r.count_x =
            a.receivers_x > 0 ? a.receivers_x : (line.receivers_given || !three_d ? line.receivers : 25);
        r.count_y = a.receivers_y > 0 ? a.receivers_y : (line.receivers_given || !three_d ? 1 : 25);
        if (three_d) {
            r.y0_m = a.ry0.value_or(r.count_y == 1 ? 0.5 * breadth : 0);
            r.y1_m = a.ry1.value_or(breadth);
        }
        if (a.receiver_spacing_m != 0) {
            set_by_spacing(a.receiver_spacing_m, r.count_x, r.x0_m, r.x1_m, "x");
            if (three_d && r.count_y > 1)
                set_by_spacing(a.receiver_spacing_m, r.count_y, r.y0_m, r.y1_m, "y");
        }
        receivers = grid_of_points(r);
    }
    return fixed_spread(sources, receivers);
}

} // namespace fwi::cli
