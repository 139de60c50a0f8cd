#pragma once
// The files of the product's pictures (figures and line charts): the name's extension chooses the format, and
// the bytes are encoded in memory and then replace the file atomically, so a failed write names the file and
// leaves no partial picture. Also the two SVG elements both SVG writers draw with.
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace fwi::detail {

/// Writes `path` (.png or .svg, any case) with the matching encoder. ConfigError for another extension,
/// ResourceError naming the file when it cannot be written.
void write_picture_file(const std::string& path, const std::function<std::vector<std::uint8_t>()>& png,
                        const std::function<std::string()>& svg);

/// <text> at (x, y) with its anchor (start | middle | end) and extra attributes (each with a leading space);
/// the text is XML-escaped.
void svg_text(std::ostringstream& o, double x, double y, const std::string& s, const char* anchor,
              const std::string& extra = {});
void svg_line(std::ostringstream& o, double x0, double y0, double x1, double y1);

} // namespace fwi::detail
