#pragma once
// Line charts written by the product itself (.png or .svg, no plotting dependency), e.g. the performance
// model's predicted speed-up against the memory budget: one line per series with its points dotted, a legend,
// optional marked points with labels, an optional dashed reference line, a linear or log10 horizontal axis.
#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

struct ChartSeries {
    std::string name;         ///< shown in the legend
    std::vector<double> x, y; ///< same length, at least one point; x > 0 on a log axis
};

/// A point drawn as a black-ringed diamond with its label beside it (e.g. "current: revolve:12, zstd").
struct ChartMarker {
    std::string label;
    double x = 0, y = 0;
};

struct LineChart {
    std::string title;
    std::string x_label, y_label; ///< quantity and units, e.g. "memory budget (MB)"
    std::string caption;          ///< one line under the chart (e.g. the command that made it)
    bool log_x = false;
    std::vector<ChartSeries> series;
    std::vector<ChartMarker> markers;
    bool has_reference_y = false; ///< a dashed grey horizontal line at reference_y (e.g. speed-up 1)
    double reference_y = 0;
};

/// The chart as PNG file bytes. ConfigError for no series, an empty series, x and y of different lengths, a
/// non-finite value, or x <= 0 on a log axis.
std::vector<std::uint8_t> line_chart_png(const LineChart& chart);

/// The chart as SVG text (lines, dots and every label as vector elements). Errors as line_chart_png().
std::string line_chart_svg(const LineChart& chart);

/// Writes the chart as .png or .svg (by the extension; ConfigError for another), atomically; ResourceError
/// naming the path if it cannot be written.
void write_line_chart(const std::string& path, const LineChart& chart);

} // namespace fwi
