// LineChart layout (shared by the PNG and SVG writers) and the atomic .png/.svg write.
#include "fwi/error.hpp"
#include "fwi/figure.hpp"
#include "image/line_chart_layout.hpp"
#include "image/picture_file.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fwi {
namespace chart_detail {
namespace {

void check(const LineChart& c) {
    if (c.series.empty()) throw ConfigError("line chart '" + c.title + "': no series to draw");
    const auto finite = [](double v) { return std::isfinite(v); };
    for (const ChartSeries& s : c.series) {
        if (s.x.empty() || s.x.size() != s.y.size())
            throw ConfigError("line chart series '" + s.name + "': " + std::to_string(s.x.size()) +
                              " x and " + std::to_string(s.y.size()) +
                              " y values (need the same number, at least one)");
        if (!std::all_of(s.x.begin(), s.x.end(), finite) || !std::all_of(s.y.begin(), s.y.end(), finite))
            throw ConfigError("line chart series '" + s.name + "': a value is not finite");
        if (c.log_x && *std::min_element(s.x.begin(), s.x.end()) <= 0)
            throw ConfigError("line chart series '" + s.name + "': x <= 0 on a log axis");
    }
    for (const ChartMarker& m : c.markers)
        if (!std::isfinite(m.x) || !std::isfinite(m.y) || (c.log_x && m.x <= 0))
            throw ConfigError("line chart marker '" + m.label + "': bad position");
}

/// 1, 2 and 5 x 10^k inside [lo, hi] (log10 units); the decades alone when that gives enough.
std::vector<double> log_ticks(double lo, double hi) {
    std::vector<double> all, decades;
    for (double k = std::floor(lo); k <= std::ceil(hi); k += 1)
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, k);
            const double u = std::log10(v);
            if (u < lo - 1e-9 || u > hi + 1e-9) continue;
            all.push_back(v);
            if (m == 1.0) decades.push_back(v);
        }
    return decades.size() >= 3 ? decades : all;
}

} // namespace

double ChartLayout::px(double x) const {
    const double u = log_x ? std::log10(x) : x;
    return plot_x + (u - x_lo) / (x_hi - x_lo) * plot_w;
}

double ChartLayout::py(double y) const {
    return plot_y + (y_hi - y) / (y_hi - y_lo) * plot_h;
}

ChartLayout chart_layout_of(const LineChart& c) {
    check(c);
    ChartLayout l;
    l.log_x = c.log_x;
    double xmin = std::numeric_limits<double>::max(), xmax = -xmin, ymin = xmin, ymax = -xmin;
    const auto take = [&](double x, double y) {
        const double u = c.log_x ? std::log10(x) : x;
        xmin = std::min(xmin, u);
        xmax = std::max(xmax, u);
        ymin = std::min(ymin, y);
        ymax = std::max(ymax, y);
    };
    for (const ChartSeries& s : c.series)
        for (std::size_t i = 0; i < s.x.size(); ++i)
            take(s.x[i], s.y[i]);
    for (const ChartMarker& m : c.markers)
        take(m.x, m.y);
    if (c.has_reference_y) {
        ymin = std::min(ymin, c.reference_y);
        ymax = std::max(ymax, c.reference_y);
    }
    // A single value still gets a range; data keep a margin inside the frame.
    if (xmax - xmin < 1e-12) xmin -= 0.5, xmax += 0.5;
    if (ymax - ymin < 1e-12 * std::max(1.0, std::abs(ymax))) ymin -= 0.5, ymax += 0.5;
    const double xpad = 0.03 * (xmax - xmin), ypad = 0.06 * (ymax - ymin);
    l.x_lo = xmin - xpad, l.x_hi = xmax + xpad, l.y_lo = ymin - ypad, l.y_hi = ymax + ypad;

    std::size_t legend_chars = 0;
    for (const ChartSeries& s : c.series)
        legend_chars = std::max(legend_chars, s.name.size());
    const int legend_w = 40 + int(legend_chars) * figure_detail::kCharW;
    l.plot_w = std::max(300, l.width - l.plot_x - legend_w - 30);
    l.width = l.plot_x + l.plot_w + legend_w + 30;
    l.plot_h = l.height - l.plot_y - 100;
    // Wide enough for the title and the caption (one line each).
    l.width = std::max({l.width, l.plot_x + int(c.caption.size()) * figure_detail::kCharW + 20,
                        int(c.title.size()) * figure_detail::kCharW + 40});
    l.legend_x = l.plot_x + l.plot_w + 20;
    l.legend_y = l.plot_y;

    const std::vector<double> xt = c.log_x ? log_ticks(l.x_lo, l.x_hi) : nice_ticks(l.x_lo, l.x_hi, 7);
    for (double t : xt)
        l.x_ticks.push_back(
            {l.px(t) - l.plot_x, figure_detail::format_number(t, c.log_x         ? t
                                                                 : xt.size() > 1 ? xt[1] - xt[0]
                                                                                 : 1)});
    const std::vector<double> yt = nice_ticks(l.y_lo, l.y_hi, 6);
    for (double t : yt)
        l.y_ticks.push_back(
            {l.py(t) - l.plot_y, figure_detail::format_number(t, yt.size() > 1 ? yt[1] - yt[0] : 1)});
    return l;
}

std::array<std::uint8_t, 3> series_rgb(std::size_t i) {
    static constexpr std::array<std::array<std::uint8_t, 3>, 8> kPalette{{{31, 119, 180},
                                                                          {255, 127, 14},
                                                                          {44, 160, 44},
                                                                          {214, 39, 40},
                                                                          {148, 103, 189},
                                                                          {140, 86, 75},
                                                                          {227, 119, 194},
                                                                          {127, 127, 127}}};
    return kPalette[i % kPalette.size()];
}

} // namespace chart_detail

void write_line_chart(const std::string& path, const LineChart& chart) {
    detail::write_picture_file(
        path, [&] { return line_chart_png(chart); }, [&] { return line_chart_svg(chart); });
}

} // namespace fwi
