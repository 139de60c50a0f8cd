// Source and receiver positions from a text file: one point per line, "x z" (2D) or "x y z" (3D).
#include "fwi/acquisition.hpp"
#include "fwi/error.hpp"
#include "io/file_bytes.hpp"

#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>

namespace fwi {

namespace {

constexpr std::size_t max_points = 10'000'000;

/// The numbers of one line (comment stripped), or an error text naming what is wrong.
bool parse_numbers(std::string_view line, std::vector<double>& numbers, std::string& error) {
    numbers.clear();
    std::size_t i = 0;
    while (i < line.size()) {
        const char c = line[i];
        if (c == ' ' || c == '\t' || c == ',' || c == '\r') {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != ',' &&
               line[end] != '\r')
            ++end;
        const std::string_view token = line.substr(i, end - i);
        double value = 0;
        const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || ptr != token.data() + token.size() || !std::isfinite(value)) {
            // A stream, not string operator+: GCC 12 warns (-Wrestrict, a false positive) on the latter here.
            std::ostringstream text;
            text << '\'' << token.substr(0, 40) << "' is not a finite number";
            error = text.str();
            return false;
        }
        numbers.push_back(value);
        i = end;
    }
    return true;
}

} // namespace

std::vector<Point> read_points_file(const std::string& path, int rank) {
    const std::vector<char> bytes = detail::read_file_bytes(path);
    const std::string_view text(bytes.data(), bytes.size());
    const std::size_t columns = rank == 3 ? 3 : 2;
    const std::string layout = rank == 3 ? "x y z" : "x z";
    std::vector<Point> points;
    std::vector<double> numbers;
    std::size_t line_number = 0;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++line_number;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        std::string error;
        if (!parse_numbers(line, numbers, error))
            throw FormatError("'" + path + "' line " + std::to_string(line_number) + ": " + error);
        if (numbers.empty()) continue;
        if (numbers.size() != columns)
            throw FormatError("'" + path + "' line " + std::to_string(line_number) + ": " +
                              std::to_string(numbers.size()) + " numbers; a " + std::to_string(columns) +
                              "D point is \"" + layout + "\" in metres");
        if (points.size() == max_points)
            throw FormatError("'" + path + "' holds more than " + std::to_string(max_points) + " points");
        points.push_back(rank == 3 ? Point{numbers[0], numbers[2], numbers[1]}
                                   : Point{numbers[0], numbers[1]});
    }
    if (points.empty())
        throw FormatError("'" + path + "' holds no points (one \"" + layout + "\" per line, in metres)");
    return points;
}

} // namespace fwi
