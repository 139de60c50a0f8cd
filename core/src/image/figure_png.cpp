// A Figure as PNG: the field resampled (nearest cell) into the plot, axes, ticks and text in the 5 x 7 bitmap
// font.
#include "fwi/figure.hpp"
#include "fwi/image.hpp"
#include "image/figure_layout.hpp"
#include "inversion/canvas.hpp"

#include <algorithm>
#include <cmath>

namespace fwi {

using figure_detail::kCharH;
using figure_detail::kFontScale;
using inv::Rgb;

namespace {

constexpr Rgb kInk{0, 0, 0};
constexpr int kTick = 6;

int text_w(const std::string& s) {
    return inv::Canvas::text_width(s, kFontScale);
}

void frame(inv::Canvas& c, int x, int y, int w, int h) {
    c.fill_rect(x - 1, y - 1, x + w, y - 1, kInk);
    c.fill_rect(x - 1, y + h, x + w, y + h, kInk);
    c.fill_rect(x - 1, y - 1, x - 1, y + h, kInk);
    c.fill_rect(x + w, y - 1, x + w, y + h, kInk);
}

} // namespace

std::vector<std::uint8_t> figure_png(const Figure& f) {
    const figure_detail::Layout l = figure_detail::layout_of(f);
    inv::Canvas c(l.width, l.height);
    c.text((l.width - text_w(f.title)) / 2, 16, f.title, kInk, kFontScale);

    const std::vector<std::uint8_t> cells = figure_detail::field_rgb(f);
    for (int py = 0; py < l.plot_h; ++py) {
        const auto row = std::min<std::int64_t>(f.field.rows - 1, std::int64_t(py) * f.field.rows / l.plot_h);
        for (int px = 0; px < l.plot_w; ++px) {
            const auto col =
                std::min<std::int64_t>(f.field.cols - 1, std::int64_t(px) * f.field.cols / l.plot_w);
            const std::uint8_t* p = &cells[std::size_t(row * f.field.cols + col) * 3];
            c.set(l.plot_x + px, l.plot_y + py, {p[0], p[1], p[2]});
        }
    }
    frame(c, l.plot_x, l.plot_y, l.plot_w, l.plot_h);

    const int below = l.plot_y + l.plot_h;
    for (const figure_detail::Tick& t : l.horizontal.ticks) {
        const int x = l.plot_x + int(std::lround(t.pixel));
        c.fill_rect(x, below, x, below + kTick, kInk);
        c.text(x - text_w(t.label) / 2, below + kTick + 4, t.label, kInk, kFontScale);
    }
    const int hlabel_y = below + kTick + 4 + kCharH + 10;
    c.text(l.plot_x + (l.plot_w - text_w(l.horizontal.label)) / 2, hlabel_y, l.horizontal.label, kInk,
           kFontScale);
    for (const figure_detail::Tick& t : l.vertical.ticks) {
        const int y = l.plot_y + int(std::lround(t.pixel));
        c.fill_rect(l.plot_x - 1 - kTick, y, l.plot_x - 1, y, kInk);
        c.text(l.plot_x - kTick - 4 - text_w(t.label), y - kCharH / 2, t.label, kInk, kFontScale);
    }
    c.text_up(16, l.plot_y + (l.plot_h + text_w(l.vertical.label)) / 2, l.vertical.label, kInk, kFontScale);

    const std::vector<std::uint8_t> bar = figure_detail::colour_bar_rgb(f, l.plot_h);
    for (int y = 0; y < l.plot_h; ++y)
        c.fill_rect(l.bar_x, l.plot_y + y, l.bar_x + l.bar_w - 1, l.plot_y + y,
                    {bar[std::size_t(y) * 3], bar[std::size_t(y) * 3 + 1], bar[std::size_t(y) * 3 + 2]});
    frame(c, l.bar_x, l.plot_y, l.bar_w, l.plot_h);
    for (const figure_detail::Tick& t : l.bar.ticks) {
        const int y = l.plot_y + int(std::lround(t.pixel));
        c.fill_rect(l.bar_x + l.bar_w, y, l.bar_x + l.bar_w + kTick, y, kInk);
        c.text(l.bar_x + l.bar_w + kTick + 4, y - kCharH / 2, t.label, kInk, kFontScale);
    }
    c.text(l.bar_x, l.bar_label_y, l.bar.label, kInk, kFontScale);

    c.text(l.plot_x, hlabel_y + kCharH + 14, f.caption, {60, 60, 60}, kFontScale);
    return encode_png_rgb(c.pixels(), c.width(), c.height());
}

} // namespace fwi
