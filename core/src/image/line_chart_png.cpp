// A LineChart as PNG: lines two pixels wide with dotted points, ticks and text in the 5 x 7 bitmap font, the
// legend right of the plot, markers as black-ringed diamonds.
#include "fwi/image.hpp"
#include "fwi/line_chart.hpp"
#include "image/line_chart_layout.hpp"
#include "inversion/canvas.hpp"

#include <cmath>

namespace fwi {

using figure_detail::kCharH;
using figure_detail::kFontScale;
using inv::Rgb;

namespace {

constexpr Rgb kInk{0, 0, 0};
constexpr Rgb kGrid{225, 225, 225};
constexpr int kTick = 6;

int text_w(const std::string& s) {
    return inv::Canvas::text_width(s, kFontScale);
}

void diamond(inv::Canvas& c, double x, double y, int radius, Rgb fill) {
    for (int dy = -radius - 2; dy <= radius + 2; ++dy)
        for (int dx = -radius - 2; dx <= radius + 2; ++dx) {
            const int d = std::abs(dx) + std::abs(dy);
            if (d <= radius + 2)
                c.set(int(std::lround(x)) + dx, int(std::lround(y)) + dy, d <= radius ? fill : kInk);
        }
}

} // namespace

std::vector<std::uint8_t> line_chart_png(const LineChart& chart) {
    const chart_detail::ChartLayout l = chart_detail::chart_layout_of(chart);
    inv::Canvas c(l.width, l.height);
    c.text((l.width - text_w(chart.title)) / 2, 18, chart.title, kInk, kFontScale);

    const int right = l.plot_x + l.plot_w, below = l.plot_y + l.plot_h;
    for (const auto& t : l.x_ticks)
        c.fill_rect(l.plot_x + int(std::lround(t.pixel)), l.plot_y, l.plot_x + int(std::lround(t.pixel)),
                    below, kGrid);
    for (const auto& t : l.y_ticks)
        c.fill_rect(l.plot_x, l.plot_y + int(std::lround(t.pixel)), right,
                    l.plot_y + int(std::lround(t.pixel)), kGrid);
    if (chart.has_reference_y) {
        const int y = int(std::lround(l.py(chart.reference_y)));
        for (int x = l.plot_x; x <= right; ++x)
            if ((x - l.plot_x) / 6 % 2 == 0) c.set(x, y, {110, 110, 110});
    }
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const ChartSeries& s = chart.series[i];
        const auto rgb = chart_detail::series_rgb(i);
        for (std::size_t k = 0; k + 1 < s.x.size(); ++k)
            c.line(l.px(s.x[k]), l.py(s.y[k]), l.px(s.x[k + 1]), l.py(s.y[k + 1]), rgb, 2);
        for (std::size_t k = 0; k < s.x.size(); ++k) {
            const int x = int(std::lround(l.px(s.x[k]))), y = int(std::lround(l.py(s.y[k])));
            c.fill_rect(x - 2, y - 2, x + 2, y + 2, rgb);
        }
        const int ly = l.legend_y + int(i) * (kCharH + 10);
        c.fill_rect(l.legend_x, ly + kCharH / 2 - 1, l.legend_x + 24, ly + kCharH / 2, rgb);
        c.text(l.legend_x + 32, ly, s.name, kInk, kFontScale);
    }
    for (const ChartMarker& m : chart.markers) {
        diamond(c, l.px(m.x), l.py(m.y), 5, {255, 215, 0});
        const int tx = int(std::lround(l.px(m.x))) + 10;
        const int w = text_w(m.label);
        c.text(tx + w > right ? int(std::lround(l.px(m.x))) - 10 - w : tx,
               int(std::lround(l.py(m.y))) - kCharH - 6, m.label, kInk, kFontScale);
    }

    c.fill_rect(l.plot_x - 1, l.plot_y - 1, right, l.plot_y - 1, kInk);
    c.fill_rect(l.plot_x - 1, below, right, below, kInk);
    c.fill_rect(l.plot_x - 1, l.plot_y - 1, l.plot_x - 1, below, kInk);
    c.fill_rect(right, l.plot_y - 1, right, below, kInk);
    for (const auto& t : l.x_ticks) {
        const int x = l.plot_x + int(std::lround(t.pixel));
        c.fill_rect(x, below, x, below + kTick, kInk);
        c.text(x - text_w(t.label) / 2, below + kTick + 4, t.label, kInk, kFontScale);
    }
    const int xlabel_y = below + kTick + 4 + kCharH + 10;
    c.text(l.plot_x + (l.plot_w - text_w(chart.x_label)) / 2, xlabel_y, chart.x_label, kInk, kFontScale);
    for (const auto& t : l.y_ticks) {
        const int y = l.plot_y + int(std::lround(t.pixel));
        c.fill_rect(l.plot_x - 1 - kTick, y, l.plot_x - 1, y, kInk);
        c.text(l.plot_x - kTick - 4 - text_w(t.label), y - kCharH / 2, t.label, kInk, kFontScale);
    }
    c.text_up(16, l.plot_y + (l.plot_h + text_w(chart.y_label)) / 2, chart.y_label, kInk, kFontScale);
    c.text(l.plot_x, xlabel_y + kCharH + 14, chart.caption, {60, 60, 60}, kFontScale);
    return encode_png_rgb(c.pixels(), c.width(), c.height());
}

} // namespace fwi
