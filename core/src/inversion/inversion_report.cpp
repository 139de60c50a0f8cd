#include "fwi/inversion_report.hpp"

#include "fwi/error.hpp"
#include "fwi/image.hpp"
#include "inversion/canvas.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fwi {
namespace {

using inv::Canvas;
using inv::Rgb;

constexpr Rgb kBlack{0, 0, 0}, kGrid{215, 215, 215}, kAxis{90, 90, 90}, kLine{31, 119, 180},
    kStage{200, 80, 40};

std::string format(const char* fmt, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

/// Plot area of a chart and its mapping from data to pixels.
struct Frame {
    int left, top, right, bottom;
    double x0, x1, y0, y1;
    bool log_y = false;
    double px(double x) const { return left + (x - x0) / (x1 - x0) * (right - left); }
    double py(double y) const {
        const double t = log_y ? (std::log10(y) - std::log10(y0)) / (std::log10(y1) - std::log10(y0))
                               : (y - y0) / (y1 - y0);
        return bottom - t * (bottom - top);
    }
};

double nice_step(double range, int target) {
    const double raw = range / target, mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) return m * mag;
    return 10 * mag;
}

void draw_axes(Canvas& c, const Frame& f, const std::string& title, const std::vector<IterationRecord>& h) {
    c.text(f.left, f.top - 24, title, kBlack);
    // x ticks (iterations) and the grid
    const double xstep = std::max(1.0, nice_step(f.x1 - f.x0, 10));
    for (double x = f.x0; x <= f.x1 + 1e-9; x += xstep) {
        const int X = int(std::lround(f.px(x)));
        c.line(X, f.top, X, f.bottom, kGrid);
        const std::string label = format("%.0f", x);
        c.text(X - Canvas::text_width(label) / 2, f.bottom + 8, label, kBlack);
    }
    // y ticks
    if (f.log_y) {
        for (double e = std::ceil(std::log10(f.y0) - 1e-9); e <= std::log10(f.y1) + 1e-9; e += 1) {
            const int Y = int(std::lround(f.py(std::pow(10.0, e))));
            c.line(f.left, Y, f.right, Y, kGrid);
            const std::string label = format("%g", std::pow(10.0, e));
            c.text(f.left - 8 - Canvas::text_width(label), Y - 7, label, kBlack);
        }
    } else {
        const double ystep = nice_step(f.y1 - f.y0, 5);
        for (double y = std::ceil(f.y0 / ystep) * ystep; y <= f.y1 + 1e-12; y += ystep) {
            const int Y = int(std::lround(f.py(y)));
            c.line(f.left, Y, f.right, Y, kGrid);
            const std::string label = format("%g", std::round(y / ystep) * ystep);
            c.text(f.left - 8 - Canvas::text_width(label), Y - 7, label, kBlack);
        }
    }
    // stage boundaries, labelled by the cut-off
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (i > 0 && h[i].stage == h[i - 1].stage) continue;
        const double x = i == 0 ? h[i].iteration : h[i].iteration - 0.5;
        const int X = int(std::lround(f.px(x)));
        if (i > 0) c.dashed_vline(X, f.top, f.bottom, kStage);
        const std::string label = h[i].freq_hz > 0 ? format("%g HZ", h[i].freq_hz) : std::string("FULL");
        c.text(X + 4, f.top + 4, label, kStage);
    }
    c.line(f.left, f.bottom, f.right, f.bottom, kAxis);
    c.line(f.left, f.top, f.left, f.bottom, kAxis);
    const std::string xlabel = "ITERATION";
    c.text((f.left + f.right - Canvas::text_width(xlabel)) / 2, f.bottom + 28, xlabel, kBlack);
}

} // namespace

void write_model_panels_png(const std::string& path, const std::vector<std::pair<std::string, Model>>& panels,
                            double vmin, double vmax, int scale) {
    if (panels.empty()) throw ConfigError("model picture " + path + ": no models");
    if (scale < 1 || scale > 16) throw ConfigError("model picture " + path + ": scale must be in 1..16");
    if (!(vmax > vmin)) throw ConfigError("model picture " + path + ": empty velocity range");
    const Grid& g = panels.front().second.grid;
    for (const auto& [title, m] : panels)
        if (!(m.grid == g) || m.vp_mps.size() != std::size_t(g.cells()))
            throw ConfigError("model picture " + path + ": model '" + title +
                              "' is not on the first model's grid");
    const int w = int(g.nx()) * scale, h = int(g.nz()) * scale, gap = 16, title_h = 24, bar_h = 60;
    const int n = int(panels.size());
    Canvas c(n * w + (n + 1) * gap, title_h + h + bar_h + 2 * gap);
    for (int p = 0; p < n; ++p) {
        const int x0 = gap + p * (w + gap), y0 = gap + title_h;
        c.text(x0, gap, panels[std::size_t(p)].first, kBlack);
        const Model& m = panels[std::size_t(p)].second;
        for (int iz = 0; iz < h; ++iz)
            for (int ix = 0; ix < w; ++ix)
                c.set(x0 + ix, y0 + iz,
                      colormap_rgb(Colormap::Viridis, (m.at(iz / scale, ix / scale) - vmin) / (vmax - vmin)));
    }
    // Colour bar: 320 px, labelled at both ends and in the middle.
    const int bx = gap, by = gap + title_h + h + 14, bw = std::min(320, c.width() - 2 * gap);
    for (int x = 0; x < bw; ++x)
        c.fill_rect(bx + x, by, bx + x, by + 12, colormap_rgb(Colormap::Viridis, double(x) / (bw - 1)));
    c.text(bx, by + 20, format("%.0f", vmin), kBlack);
    const std::string mid = format("%.0f", 0.5 * (vmin + vmax)), top = format("%.0f M/S", vmax);
    c.text(bx + bw / 2 - Canvas::text_width(mid) / 2, by + 20, mid, kBlack);
    c.text(bx + bw - Canvas::text_width(top), by + 20, top, kBlack);
    c.write_png(path);
}

void write_history_png(const std::string& path, const std::vector<IterationRecord>& h) {
    if (h.empty()) throw ConfigError("history picture " + path + ": the history is empty");
    const int width = 960, chart_h = 300;
    const bool has_error =
        std::any_of(h.begin(), h.end(), [](const auto& r) { return std::isfinite(r.model_error); });
    Canvas c(width, has_error ? 2 * chart_h + 60 : chart_h + 20);
    const double x0 = h.front().iteration, x1 = std::max(double(h.back().iteration), x0 + 1);

    // Misfit relative to the first record of its stage.
    std::vector<double> rel(h.size());
    double lo = 1;
    for (std::size_t i = 0, first = 0; i < h.size(); ++i) {
        if (i > 0 && h[i].stage != h[i - 1].stage) first = i;
        rel[i] = h[first].misfit > 0 ? h[i].misfit / h[first].misfit : 1;
        if (rel[i] > 0 && std::isfinite(rel[i])) lo = std::min(lo, rel[i]);
    }
    double hi = 1;
    for (double r : rel)
        if (std::isfinite(r)) hi = std::max(hi, r);
    Frame f{100,
            50,
            width - 30,
            chart_h - 30,
            x0,
            x1,
            std::pow(10.0, std::floor(std::log10(lo))),
            std::pow(10.0, std::ceil(std::log10(hi) + 1e-12)),
            true};
    if (f.y1 <= f.y0) f.y1 = f.y0 * 10;
    draw_axes(c, f, "MISFIT / FIRST OF ITS STAGE", h);
    for (std::size_t i = 1; i < h.size(); ++i)
        if (h[i].stage == h[i - 1].stage && rel[i] > 0 && rel[i - 1] > 0)
            c.line(f.px(h[i - 1].iteration), f.py(rel[i - 1]), f.px(h[i].iteration), f.py(rel[i]), kLine, 3);
    for (std::size_t i = 0; i < h.size(); ++i)
        if (rel[i] > 0)
            c.fill_rect(int(f.px(h[i].iteration)) - 2, int(f.py(rel[i])) - 2, int(f.px(h[i].iteration)) + 2,
                        int(f.py(rel[i])) + 2, kLine);

    if (has_error) {
        double elo = 1e300, ehi = 0;
        for (const auto& r : h)
            if (std::isfinite(r.model_error)) {
                elo = std::min(elo, r.model_error);
                ehi = std::max(ehi, r.model_error);
            }
        const double pad = std::max(0.05 * (ehi - elo), 1e-3 * ehi);
        Frame e{100,       chart_h + 70, width - 30, 2 * chart_h, x0, x1, std::max(0.0, elo - pad),
                ehi + pad, false};
        draw_axes(c, e, "RELATIVE MODEL ERROR", h);
        for (std::size_t i = 1; i < h.size(); ++i)
            if (std::isfinite(h[i].model_error) && std::isfinite(h[i - 1].model_error))
                c.line(e.px(h[i - 1].iteration), e.py(h[i - 1].model_error), e.px(h[i].iteration),
                       e.py(h[i].model_error), kLine, 3);
    }
    c.write_png(path);
}

} // namespace fwi
