#include "fwi/byte_text.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <sstream>

namespace fwi {

std::string bytes_text(std::uint64_t bytes) {
    static const std::array<const char*, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < units.size()) {
        value /= 1024.0;
        ++unit;
    }
    std::ostringstream s;
    s.precision(unit == 0 ? 20 : 4);
    s << value << " " << units[unit];
    return s.str();
}

std::string exact_bytes_text(std::uint64_t bytes) {
    std::string digits = std::to_string(bytes);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(std::size_t(i), ",");
    return digits + " B";
}

std::pair<std::string, std::string> compared_bytes(std::uint64_t need, std::uint64_t limit) {
    std::string a = bytes_text(need), b = bytes_text(limit);
    if (a == b && need != limit) {
        a += " (" + exact_bytes_text(need) + ")";
        b += " (" + exact_bytes_text(limit) + ")";
    }
    return {a, b};
}

std::uint64_t parse_bytes(const std::string& text) {
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (...) {
        throw ConfigError("'" + text + "' is not a byte count (e.g. 512M, 2G, 1500000000)");
    }
    std::string unit = text.substr(used);
    std::transform(unit.begin(), unit.end(), unit.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    double scale = 1;
    if (unit.empty() || unit == "B")
        scale = 1;
    else if (unit == "K" || unit == "KB" || unit == "KIB")
        scale = 1024.0;
    else if (unit == "M" || unit == "MB" || unit == "MIB")
        scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "GB" || unit == "GIB")
        scale = 1024.0 * 1024 * 1024;
    else if (unit == "T" || unit == "TB" || unit == "TIB")
        scale = 1024.0 * 1024 * 1024 * 1024;
    else
        throw ConfigError("'" + text + "': unknown unit '" + unit + "' (use K, M, G or T)");
    if (!(value >= 0) || !std::isfinite(value)) throw ConfigError("'" + text + "' is not a valid byte count");
    if (value * scale >= 0x1p63) // the conversion would wrap (to 0: "no budget")
        throw ConfigError("'" + text + "' is more bytes than any machine has");
    return std::uint64_t(value * scale);
}

} // namespace fwi
