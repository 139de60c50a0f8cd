#pragma once
// Publication pictures of one 2D field (velocity model, gradient, wavefield, shot gather) as PNG or SVG: the
// field with axes in m or km (or s), ticks and labels, a title, a colour bar with its units and a caption.
// Signed fields use a symmetric scale clipped at a stated percentile of |x|. A wavefield can be drawn over
// its model in grey. No plotting dependency: PNG text uses the built-in bitmap font, SVG uses <text>.
#include "fwi/field.hpp"
#include "fwi/image.hpp"

#include <span>
#include <string>
#include <vector>

namespace fwi {

/// One axis of the picture: the coordinate of the centre of row/column i is first + i * step.
struct FigureAxis {
    std::string name; ///< e.g. "x", "depth", "time", "receiver x"
    std::string unit; ///< "m" (shown in km when the axis spans 2 km or more), "s", or anything else as is
    double first = 0;
    double step = 1;
};

struct Figure {
    std::string title;
    ConstFieldView field; ///< rows run down the vertical axis, columns across the horizontal one
    FigureAxis horizontal, vertical;
    Colormap map = Colormap::Viridis;
    double vmin = 0, vmax = 1;
    std::string colour_bar_label; ///< quantity and units, e.g. "vp (m/s)"
    std::string caption;          ///< one line under the picture, e.g. how the scale was clipped
    /// Optional model drawn in grey under `field` (same shape): values of `field` fade to transparent towards
    /// zero, so a wavefield shows where it is in the model.
    ConstFieldView underlay{};
    double underlay_min = 0, underlay_max = 1;
};

/// Nearest-rank percentile of |values| (percent in (0, 100]): the ceil(percent/100 * n)-th smallest |x|.
/// ConfigError for an empty array or a percent outside (0, 100].
double abs_percentile(std::span<const float> values, double percent);

/// Sets a symmetric scale [-c, c], c = abs_percentile(field, percent) (1 if that is 0), the Seismic colormap,
/// and a caption stating the clip, e.g. "colour clipped at +/-3.2E-05 (99th percentile of |gradient|)".
void use_symmetric_scale(Figure& figure, double percent, const std::string& quantity);

/// "Nice" tick values (1, 2 or 5 x 10^k apart) inside [lo, hi], about `target` of them.
std::vector<double> nice_ticks(double lo, double hi, int target = 6);

/// The picture as SVG text (the field embedded as a PNG image, everything else vector: axes, <text>).
std::string figure_svg(const Figure& figure);

/// Writes the picture as .png or .svg (chosen by the extension; ConfigError for another). Atomic (temporary
/// file then rename); ResourceError naming the path if it cannot be written. ConfigError for an empty field
/// or a non-positive axis step.
void write_figure(const std::string& path, const Figure& figure);

/// PNG pixel size write_figure gives `figure` (width, height).
std::pair<int, int> figure_png_size(const Figure& figure);

} // namespace fwi
