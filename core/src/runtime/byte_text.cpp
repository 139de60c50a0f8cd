#include "fwi/byte_text.hpp"

#include <array>
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

} // namespace fwi
