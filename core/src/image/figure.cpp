// Figure: checks, scales, ticks and layout shared by the PNG and SVG writers; write_figure picks the format.
#include "fwi/figure.hpp"

#include "fwi/error.hpp"
#include "image/figure_layout.hpp"
#include "image/picture_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <span>

namespace fwi {

namespace figure_detail {
namespace {

/// Axis in display units: metres become km when the axis spans 2 km or more.
struct DisplayAxis {
    std::string label;
    double lo, hi; ///< outer edges of the first and last cells
};

DisplayAxis display_axis(const FigureAxis& a, std::int64_t n) {
    double lo = a.first - 0.5 * a.step, hi = a.first + (double(n) - 0.5) * a.step;
    std::string unit = a.unit;
    if (unit == "m" && std::abs(hi - lo) >= 2000) {
        lo /= 1000;
        hi /= 1000;
        unit = "km";
    }
    return {unit.empty() ? a.name : a.name + " (" + unit + ")", lo, hi};
}

ShownAxis shown(const DisplayAxis& d, int pixels, int target) {
    ShownAxis s{d.label, {}};
    const std::vector<double> ticks = nice_ticks(d.lo, d.hi, target);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : std::abs(d.hi - d.lo);
    for (double t : ticks)
        s.ticks.push_back({(t - d.lo) / (d.hi - d.lo) * pixels, format_number(t, step)});
    return s;
}

std::size_t widest(const ShownAxis& a) {
    std::size_t w = 0;
    for (const Tick& t : a.ticks)
        w = std::max(w, t.label.size());
    return w;
}

} // namespace

std::string format_number(double v, double step) {
    if (std::abs(v) < 1e-12 * std::max(1.0, std::abs(step))) return "0";
    char buf[32];
    if (std::abs(v) >= 1e5 || std::abs(step) < 1e-3)
        std::snprintf(buf, sizeof buf, "%.1e", v);
    else
        std::snprintf(buf, sizeof buf, "%.*f",
                      std::max(0, int(std::ceil(-std::log10(std::abs(step)) - 1e-9))), v);
    return buf;
}

Layout layout_of(const Figure& f) {
    if (!f.field.data || f.field.rows <= 0 || f.field.cols <= 0)
        throw ConfigError("figure: the field is empty");
    if (!(f.horizontal.step > 0) || !(f.vertical.step > 0))
        throw ConfigError("figure: axis steps must be positive");
    if (f.underlay.data && (f.underlay.rows != f.field.rows || f.underlay.cols != f.field.cols))
        throw ConfigError("figure: the underlay's shape differs from the field's");
    if (!(f.vmax > f.vmin) || !std::isfinite(f.vmax - f.vmin))
        throw ConfigError("figure: the colour scale needs vmin < vmax (both finite)");
    Layout l;
    // Same units on both axes: true aspect ratio, the longer side 900 px. Otherwise a fixed frame.
    if (f.horizontal.unit == f.vertical.unit) {
        const double eh = double(f.field.cols) * f.horizontal.step,
                     ev = double(f.field.rows) * f.vertical.step;
        l.plot_w = 900;
        l.plot_h = int(std::lround(900 * ev / eh));
        if (l.plot_h > 720) {
            l.plot_h = 720;
            l.plot_w = int(std::lround(720 * eh / ev));
        }
        l.plot_w = std::max(l.plot_w, 160);
        l.plot_h = std::max(l.plot_h, 120);
    } else {
        l.plot_w = 600;
        l.plot_h = 500;
    }
    l.horizontal = shown(display_axis(f.horizontal, f.field.cols), l.plot_w, std::max(3, l.plot_w / 110));
    l.vertical = shown(display_axis(f.vertical, f.field.rows), l.plot_h, std::max(3, l.plot_h / 80));
    l.bar = shown({f.colour_bar_label, f.vmax, f.vmin}, l.plot_h, 5);
    constexpr int pad = 16, tick = 6;
    l.plot_x = pad + kCharH + 10 + int(widest(l.vertical)) * kCharW + tick + 4;
    l.plot_y = pad + kCharH + 10 + kCharH + 8; // title row, then the colour bar's label row
    l.bar_x = l.plot_x + l.plot_w + 24;
    const int right = std::max(l.bar_x + l.bar_w + tick + 4 + int(widest(l.bar)) * kCharW + pad,
                               l.bar_x + int(f.colour_bar_label.size()) * kCharW + pad);
    const int title_w = int(f.title.size()) * kCharW + 2 * pad;
    const int caption_w = l.plot_x + int(f.caption.size()) * kCharW + pad;
    l.width = std::max({right, title_w, caption_w});
    l.height = l.plot_y + l.plot_h + tick + 4 + kCharH + 10 + kCharH + 14 + kCharH + pad;
    l.bar_label_y = l.plot_y - kCharH - 8;
    return l;
}

std::vector<std::uint8_t> field_rgb(const Figure& f) {
    const auto n = std::size_t(f.field.rows * f.field.cols);
    std::vector<std::uint8_t> rgb(n * 3);
    const double span = f.vmax > f.vmin ? f.vmax - f.vmin : 1.0;
    const double full = std::max(std::abs(f.vmin), std::abs(f.vmax));
    const double uspan = f.underlay_max > f.underlay_min ? f.underlay_max - f.underlay_min : 1.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = f.field.data[i];
        auto c = colormap_rgb(f.map, (v - f.vmin) / span);
        if (f.underlay.data) {
            // Grey model (lighter = faster); the field is opaque from a third of the scale up.
            const double t = std::clamp((f.underlay.data[i] - f.underlay_min) / uspan, 0.0, 1.0);
            const double grey = 100 + 130 * t;
            const double alpha = std::isfinite(v) && full > 0 ? std::min(1.0, 3 * std::abs(v) / full) : 0.0;
            for (auto& ch : c)
                ch = std::uint8_t(std::lround(alpha * ch + (1 - alpha) * grey));
        }
        std::memcpy(&rgb[i * 3], c.data(), 3);
    }
    return rgb;
}

std::vector<std::uint8_t> colour_bar_rgb(const Figure& f, int height) {
    std::vector<std::uint8_t> rgb(std::size_t(height) * 3);
    for (int y = 0; y < height; ++y) {
        const auto c = colormap_rgb(f.map, 1.0 - (y + 0.5) / height);
        std::memcpy(&rgb[std::size_t(y) * 3], c.data(), 3);
    }
    return rgb;
}

} // namespace figure_detail

double abs_percentile(std::span<const float> values, double percent) {
    if (values.empty()) throw ConfigError("percentile of an empty array");
    if (!(percent > 0 && percent <= 100)) throw ConfigError("percentile must be in (0, 100]");
    std::vector<float> mags(values.size());
    std::transform(values.begin(), values.end(), mags.begin(), [](float v) { return std::abs(v); });
    const auto rank = std::size_t(std::ceil(percent / 100 * double(mags.size()) - 1e-9)); // 1-based
    const auto k = std::clamp<std::size_t>(rank, 1, mags.size()) - 1;
    std::nth_element(mags.begin(), mags.begin() + std::ptrdiff_t(k), mags.end());
    return mags[k];
}

void use_symmetric_scale(Figure& f, double percent, const std::string& quantity) {
    double c = abs_percentile(f.field.span(), percent);
    if (!(c > 0) || !std::isfinite(c)) c = 1;
    f.map = Colormap::Seismic;
    f.vmin = -c;
    f.vmax = c;
    char buf[160];
    std::snprintf(buf, sizeof buf, "colour clipped at +/-%.3g (%gth percentile of |%s|)", c, percent,
                  quantity.c_str());
    f.caption = buf;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
    if (lo > hi) std::swap(lo, hi);
    const double span = hi - lo;
    if (!(span > 0) || !std::isfinite(span)) return {lo};
    const double raw = span / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    // 1, 2, 5 or 10 x mag: the one whose tick count is closest to the target (the finer one on a tie).
    double step = mag;
    long best = -1;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        const double st = m * mag;
        const long count = long(std::floor(hi / st + 1e-9) - std::ceil(lo / st - 1e-9)) + 1;
        const long miss = std::labs(count - target);
        if (best < 0 || miss < best) {
            best = miss;
            step = st;
        }
    }
    std::vector<double> ticks;
    for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step; k += 1)
        ticks.push_back(std::abs(k) < 0.5 ? 0.0 : k * step);
    return ticks;
}

std::pair<int, int> figure_png_size(const Figure& f) {
    const figure_detail::Layout l = figure_detail::layout_of(f);
    return {l.width, l.height};
}

void write_figure(const std::string& path, const Figure& f) {
    detail::write_picture_file(
        path, [&] { return figure_png(f); }, [&] { return figure_svg(f); });
}

} // namespace fwi
