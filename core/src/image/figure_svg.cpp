// A Figure as SVG: the field and the colour bar as embedded PNG images (drawn pixelated, cell for cell), the
// frame and ticks as lines, every label as <text> (searchable, scalable), placed as in the PNG.
#include "fwi/figure.hpp"
#include "image/figure_layout.hpp"
#include "image/picture_file.hpp"

#include <cmath>
#include <sstream>

namespace fwi {
namespace {

constexpr int kTick = 6;

std::string base64(const std::vector<std::uint8_t>& in) {
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < in.size(); i += 3) {
        const std::uint32_t n = std::uint32_t(in[i]) << 16 |
                                (i + 1 < in.size() ? std::uint32_t(in[i + 1]) << 8 : 0) |
                                (i + 2 < in.size() ? std::uint32_t(in[i + 2]) : 0);
        out += kDigits[(n >> 18) & 63];
        out += kDigits[(n >> 12) & 63];
        out += i + 1 < in.size() ? kDigits[(n >> 6) & 63] : '=';
        out += i + 2 < in.size() ? kDigits[n & 63] : '=';
    }
    return out;
}

void image(std::ostringstream& o, double x, double y, double w, double h,
           const std::vector<std::uint8_t>& rgb, int cols, int rows) {
    o << "<image x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h
      << "\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64,"
      << base64(encode_png_rgb(rgb, cols, rows)) << "\"/>\n";
}

} // namespace

std::string figure_svg(const Figure& f) {
    const figure_detail::Layout l = figure_detail::layout_of(f);
    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << l.width << "\" height=\"" << l.height
      << "\" viewBox=\"0 0 " << l.width << " " << l.height
      << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
      << "font-size=\"14\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    detail::svg_text(o, l.width / 2.0, 30, f.title, "middle", " font-size=\"17\" font-weight=\"bold\"");
    image(o, l.plot_x, l.plot_y, l.plot_w, l.plot_h, figure_detail::field_rgb(f), int(f.field.cols),
          int(f.field.rows));
    image(o, l.bar_x, l.plot_y, l.bar_w, l.plot_h, figure_detail::colour_bar_rgb(f, 256), 1, 256);
    o << "<g fill=\"none\" stroke=\"black\" stroke-width=\"1\">\n"
      << "<rect x=\"" << l.plot_x - 0.5 << "\" y=\"" << l.plot_y - 0.5 << "\" width=\"" << l.plot_w + 1
      << "\" height=\"" << l.plot_h + 1 << "\"/>\n"
      << "<rect x=\"" << l.bar_x - 0.5 << "\" y=\"" << l.plot_y - 0.5 << "\" width=\"" << l.bar_w + 1
      << "\" height=\"" << l.plot_h + 1 << "\"/>\n";
    const double below = l.plot_y + l.plot_h;
    for (const auto& t : l.horizontal.ticks)
        detail::svg_line(o, l.plot_x + t.pixel, below, l.plot_x + t.pixel, below + kTick);
    for (const auto& t : l.vertical.ticks)
        detail::svg_line(o, l.plot_x - kTick, l.plot_y + t.pixel, l.plot_x, l.plot_y + t.pixel);
    for (const auto& t : l.bar.ticks)
        detail::svg_line(o, l.bar_x + l.bar_w, l.plot_y + t.pixel, l.bar_x + l.bar_w + kTick,
                         l.plot_y + t.pixel);
    o << "</g>\n";
    for (const auto& t : l.horizontal.ticks)
        detail::svg_text(o, l.plot_x + t.pixel, below + kTick + 16, t.label, "middle");
    for (const auto& t : l.vertical.ticks)
        detail::svg_text(o, l.plot_x - kTick - 4, l.plot_y + t.pixel + 5, t.label, "end");
    for (const auto& t : l.bar.ticks)
        detail::svg_text(o, l.bar_x + l.bar_w + kTick + 4, l.plot_y + t.pixel + 5, t.label, "start");
    const double hlabel_y = below + kTick + 4 + figure_detail::kCharH + 10 + 12;
    detail::svg_text(o, l.plot_x + l.plot_w / 2.0, hlabel_y, l.horizontal.label, "middle");
    const double vy = l.plot_y + l.plot_h / 2.0;
    std::ostringstream rot;
    rot << " transform=\"rotate(-90 28 " << vy << ")\"";
    detail::svg_text(o, 28, vy, l.vertical.label, "middle", rot.str());
    detail::svg_text(o, l.bar_x, l.bar_label_y + figure_detail::kCharH, l.bar.label, "start");
    detail::svg_text(o, l.plot_x, hlabel_y + figure_detail::kCharH + 14, f.caption, "start",
                     " fill=\"#3c3c3c\"");
    o << "</svg>\n";
    return o.str();
}

} // namespace fwi
