#pragma once
// What the PNG and SVG writers of a Figure share: where the plot, colour bar and texts go (in pixels), the
// axes' ticks in display units (m or km), number formatting and the field's colours.
#include "fwi/figure.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fwi::figure_detail {

struct Tick {
    double pixel; ///< along the axis, from the plot's left (horizontal) or top (vertical) edge
    std::string label;
};

/// An axis as shown: its label with units ("x (km)") and ticks.
struct ShownAxis {
    std::string label;
    std::vector<Tick> ticks;
};

struct Layout {
    int width = 0, height = 0;  ///< whole picture
    int plot_x = 0, plot_y = 0; ///< plot's top-left corner
    int plot_w = 0, plot_h = 0;
    int bar_x = 0, bar_w = 18;           ///< colour bar, as tall as the plot
    int bar_label_y = 0;                 ///< top of the colour bar's label (above the bar, from bar_x)
    ShownAxis horizontal, vertical, bar; ///< bar ticks: pixel from the bar's top (vmax) down
};

constexpr int kFontScale = 2; ///< PNG text: 5 x 7 glyphs drawn 2 x 2
constexpr int kCharW = 6 * kFontScale, kCharH = 7 * kFontScale;

/// Checks the figure (ConfigError) and places everything.
Layout layout_of(const Figure& f);

/// Display colours of the field (rows x cols x RGB, the underlay blended in where given).
std::vector<std::uint8_t> field_rgb(const Figure& f);

/// Colour bar pixels: `height` rows from vmax (top) to vmin, one column.
std::vector<std::uint8_t> colour_bar_rgb(const Figure& f, int height);

/// A number for a label: fixed with enough decimals for `step`, or scientific for very large/small values.
std::string format_number(double v, double step);

} // namespace fwi::figure_detail

namespace fwi {
/// The PNG half of write_figure (figure_png.cpp): the encoded file.
std::vector<std::uint8_t> figure_png(const Figure& f);
} // namespace fwi
