// Picture files by extension, written atomically; the shared SVG elements (see picture_file.hpp).
#include "image/picture_file.hpp"

#include "fwi/error.hpp"
#include "io/atomic_file.hpp"
#include "io/xml_text.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <span>

namespace fwi::detail {

void write_picture_file(const std::string& path, const std::function<std::vector<std::uint8_t>()>& png,
                        const std::function<std::string()>& svg) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext != ".png" && ext != ".svg")
        throw ConfigError("picture " + path + ": the name must end in .png or .svg");
    std::vector<std::uint8_t> bytes;
    if (ext == ".png") {
        bytes = png();
    } else {
        const std::string text = svg();
        bytes.assign(text.begin(), text.end());
    }
    try {
        replace_file(path, std::as_bytes(std::span(bytes)));
    } catch (const ResourceError& e) {
        throw ResourceError("cannot write picture " + path + " (" + e.what() + ")");
    }
}

void svg_text(std::ostringstream& o, double x, double y, const std::string& s, const char* anchor,
              const std::string& extra) {
    o << "<text x=\"" << x << "\" y=\"" << y << "\" text-anchor=\"" << anchor << "\"" << extra << ">"
      << xml_escaped(s) << "</text>\n";
}

void svg_line(std::ostringstream& o, double x0, double y0, double x1, double y1) {
    o << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x1 << "\" y2=\"" << y1 << "\"/>\n";
}

} // namespace fwi::detail
