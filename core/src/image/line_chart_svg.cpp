// A LineChart as SVG, placed as in the PNG: polylines with dotted points, ticks and grid as lines, markers as
// ringed diamonds, every label as <text>.
#include "fwi/line_chart.hpp"
#include "image/line_chart_layout.hpp"
#include "image/picture_file.hpp"
#include "io/xml_text.hpp"

#include <sstream>

namespace fwi {
namespace {

constexpr int kTick = 6;

std::string colour(std::size_t i) {
    const auto c = chart_detail::series_rgb(i);
    std::ostringstream o;
    o << "rgb(" << int(c[0]) << "," << int(c[1]) << "," << int(c[2]) << ")";
    return o.str();
}

} // namespace

std::string line_chart_svg(const LineChart& chart) {
    const chart_detail::ChartLayout l = chart_detail::chart_layout_of(chart);
    const double right = l.plot_x + l.plot_w, below = l.plot_y + l.plot_h;
    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << l.width << "\" height=\"" << l.height
      << "\" viewBox=\"0 0 " << l.width << " " << l.height
      << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"14\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    detail::svg_text(o, l.width / 2.0, 30, chart.title, "middle", " font-size=\"17\" font-weight=\"bold\"");
    o << "<g stroke=\"#e1e1e1\" stroke-width=\"1\">\n";
    for (const auto& t : l.x_ticks)
        detail::svg_line(o, l.plot_x + t.pixel, l.plot_y, l.plot_x + t.pixel, below);
    for (const auto& t : l.y_ticks)
        detail::svg_line(o, l.plot_x, l.plot_y + t.pixel, right, l.plot_y + t.pixel);
    o << "</g>\n";
    if (chart.has_reference_y)
        o << "<line x1=\"" << l.plot_x << "\" y1=\"" << l.py(chart.reference_y) << "\" x2=\"" << right
          << "\" y2=\"" << l.py(chart.reference_y) << "\" stroke=\"#6e6e6e\" stroke-dasharray=\"6 6\"/>\n";
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const ChartSeries& s = chart.series[i];
        o << "<g class=\"series\"><title>" << detail::xml_escaped(s.name)
          << "</title>\n<polyline fill=\"none\" stroke=\"" << colour(i) << "\" stroke-width=\"2\" points=\"";
        for (std::size_t k = 0; k < s.x.size(); ++k)
            o << (k ? " " : "") << l.px(s.x[k]) << "," << l.py(s.y[k]);
        o << "\"/>\n";
        for (std::size_t k = 0; k < s.x.size(); ++k)
            o << "<circle cx=\"" << l.px(s.x[k]) << "\" cy=\"" << l.py(s.y[k]) << "\" r=\"3\" fill=\""
              << colour(i) << "\"/>\n";
        o << "</g>\n";
        const double ly = l.legend_y + double(i) * (figure_detail::kCharH + 10);
        o << "<line x1=\"" << l.legend_x << "\" y1=\"" << ly + 7 << "\" x2=\"" << l.legend_x + 24
          << "\" y2=\"" << ly + 7 << "\" stroke=\"" << colour(i) << "\" stroke-width=\"2\"/>\n";
        detail::svg_text(o, l.legend_x + 32, ly + 12, s.name, "start");
    }
    for (const ChartMarker& m : chart.markers) {
        const double x = l.px(m.x), y = l.py(m.y);
        o << "<polygon class=\"marker\" points=\"" << x << "," << y - 7 << " " << x + 7 << "," << y << " "
          << x << "," << y + 7 << " " << x - 7 << "," << y
          << "\" fill=\"gold\" stroke=\"black\" stroke-width=\"1.5\"/>\n";
        const bool left = x + 10 + 8.0 * double(m.label.size()) > right;
        detail::svg_text(o, left ? x - 10 : x + 10, y - 10, m.label, left ? "end" : "start");
    }
    o << "<g fill=\"none\" stroke=\"black\" stroke-width=\"1\">\n<rect x=\"" << l.plot_x - 0.5 << "\" y=\""
      << l.plot_y - 0.5 << "\" width=\"" << l.plot_w + 1 << "\" height=\"" << l.plot_h + 1 << "\"/>\n";
    for (const auto& t : l.x_ticks)
        detail::svg_line(o, l.plot_x + t.pixel, below, l.plot_x + t.pixel, below + kTick);
    for (const auto& t : l.y_ticks)
        detail::svg_line(o, l.plot_x - kTick, l.plot_y + t.pixel, l.plot_x, l.plot_y + t.pixel);
    o << "</g>\n";
    for (const auto& t : l.x_ticks)
        detail::svg_text(o, l.plot_x + t.pixel, below + kTick + 16, t.label, "middle");
    for (const auto& t : l.y_ticks)
        detail::svg_text(o, l.plot_x - kTick - 4, l.plot_y + t.pixel + 5, t.label, "end");
    const double xlabel_y = below + kTick + 4 + figure_detail::kCharH + 22;
    detail::svg_text(o, l.plot_x + l.plot_w / 2.0, xlabel_y, chart.x_label, "middle");
    const double vy = l.plot_y + l.plot_h / 2.0;
    std::ostringstream rot;
    rot << " transform=\"rotate(-90 28 " << vy << ")\"";
    detail::svg_text(o, 28, vy, chart.y_label, "middle", rot.str());
    detail::svg_text(o, l.plot_x, xlabel_y + figure_detail::kCharH + 14, chart.caption, "start",
                     " fill=\"#3c3c3c\"");
    o << "</svg>\n";
    return o.str();
}

} // namespace fwi
