#pragma once
// What the PNG and SVG writers of a LineChart share: the checked chart's data-to-pixel mapping, ticks,
// legend place and series colours.
#include "fwi/line_chart.hpp"
#include "image/figure_layout.hpp"

#include <array>
#include <cstdint>

namespace fwi::chart_detail {

using figure_detail::Tick;

struct ChartLayout {
    int width = 900, height = 560;
    int plot_x = 100, plot_y = 56, plot_w = 0, plot_h = 0;
    int legend_x = 0, legend_y = 0;                ///< top-left of the legend, right of the plot
    double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1; ///< data range shown (x in log10 units on a log axis)
    bool log_x = false;
    std::vector<Tick> x_ticks, y_ticks; ///< pixels from the plot's left / top edge

    double px(double x) const; ///< picture x of a data x
    double py(double y) const; ///< picture y of a data y
};

/// Checks the chart (ConfigError) and places everything.
ChartLayout chart_layout_of(const LineChart& chart);

/// Colour of series i (a fixed qualitative palette, repeating).
std::array<std::uint8_t, 3> series_rgb(std::size_t i);

} // namespace fwi::chart_detail
