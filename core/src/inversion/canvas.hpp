#pragma once
// A tiny RGB raster for report pictures (no plotting dependency): pixels, lines, rectangles and text in a
// built-in 5 x 7 bitmap font (digits, both cases and common punctuation).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fwi::inv {

using Rgb = std::array<std::uint8_t, 3>;

class Canvas {
  public:
    Canvas(int width, int height, Rgb background = {255, 255, 255});
    int width() const { return width_; }
    int height() const { return height_; }
    void set(int x, int y, Rgb c);                         ///< ignored outside the canvas
    void fill_rect(int x0, int y0, int x1, int y1, Rgb c); ///< inclusive corners
    void line(double x0, double y0, double x1, double y1, Rgb c, int thickness = 1);
    void dashed_vline(int x, int y0, int y1, Rgb c, int dash = 4);
    /// Text with its top-left corner at (x, y); each font pixel drawn as scale x scale. Returns the width
    /// drawn.
    int text(int x, int y, const std::string& s, Rgb c, int scale = 2);
    /// Text turned 90 degrees anticlockwise (reading upwards), the first character's bottom-left at (x, y).
    void text_up(int x, int y, const std::string& s, Rgb c, int scale = 2);
    static int text_width(const std::string& s, int scale = 2) { return int(s.size()) * 6 * scale - scale; }
    static int text_height(int scale = 2) { return 7 * scale; }
    const std::vector<std::uint8_t>& pixels() const { return rgb_; }
    void write_png(const std::string& path) const;

  private:
    int width_, height_;
    std::vector<std::uint8_t> rgb_;
};

} // namespace fwi::inv
