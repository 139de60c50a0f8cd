#include "io/segy_geometry.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <sstream>

namespace fwi::detail {
namespace {

/// Evenly stepped line numbers: the smallest, the step and the count. The step is the smallest difference, so
/// a missing line shows up as a gap in the lattice rather than as a coarser step.
struct LineAxis {
    std::int64_t first = 0, step = 1, count = 1;
    std::int64_t rank(std::int32_t number) const { return (std::int64_t(number) - first) / step; }
};

LineAxis line_axis(std::vector<std::int32_t> numbers, const char* kind, const std::string& path) {
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    LineAxis axis;
    axis.first = numbers.front();
    if (numbers.size() < 2) return axis;
    axis.step = std::int64_t(numbers[1]) - numbers[0];
    for (std::size_t k = 2; k < numbers.size(); ++k)
        axis.step = std::min(axis.step, std::int64_t(numbers[k]) - numbers[k - 1]);
    axis.count = (std::int64_t(numbers.back()) - axis.first) / axis.step + 1;
    for (std::int64_t k = 0, at = 0; k < axis.count; ++k) {
        const std::int64_t expected = axis.first + k * axis.step;
        if (numbers[std::size_t(at)] == expected) {
            ++at;
            continue;
        }
        std::ostringstream msg;
        msg << "SEG-Y '" << path << "': " << kind << " numbers run from " << axis.first << " to "
            << numbers.back() << " in steps of " << axis.step << ", but ";
        if (numbers[std::size_t(at)] < expected + axis.step)
            msg << kind << " " << numbers[std::size_t(at)] << " is off that step";
        else
            msg << kind << " " << expected << " has no traces";
        msg << " (a 3D volume needs a full regular grid of inlines and crosslines)";
        throw FormatError(msg.str());
    }
    return axis;
}

bool several(const std::vector<std::int32_t>& numbers) {
    return std::any_of(numbers.begin(), numbers.end(), [&](std::int32_t n) { return n != numbers.front(); });
}

} // namespace

SegyGeometry survey_geometry(const std::vector<std::int32_t>& inlines,
                             const std::vector<std::int32_t>& crosslines, const std::string& path) {
    SegyGeometry g;
    const int traces = int(inlines.size());
    if (traces == 0 || !several(inlines) || !several(crosslines)) {
        g.nx = traces;
        g.trace_at.resize(std::size_t(traces));
        for (int t = 0; t < traces; ++t)
            g.trace_at[std::size_t(t)] = t;
        return g;
    }
    const LineAxis y = line_axis(inlines, "inline", path);
    const LineAxis x = line_axis(crosslines, "crossline", path);
    g.ny = y.count;
    g.nx = x.count;
    // Absurd numbers in a damaged header must not allocate a huge grid the file cannot fill (long double:
    // two spans of 2^32 lines would overflow).
    const long double span = static_cast<long double>(g.ny) * static_cast<long double>(g.nx);
    if (span > 4.0L * traces + 1024) {
        std::ostringstream msg;
        msg << "SEG-Y '" << path << "': inlines " << y.first << " to " << y.first + (y.count - 1) * y.step
            << " and crosslines " << x.first << " to " << x.first + (x.count - 1) * x.step << " span "
            << static_cast<double>(span) << " trace positions, but the file has only " << traces
            << " traces (a 3D volume needs one trace per inline and crossline)";
        throw FormatError(msg.str());
    }
    const auto cells = std::size_t(g.ny * g.nx);
    g.trace_at.assign(cells, -1);
    for (int t = 0; t < traces; ++t) {
        const std::size_t cell =
            std::size_t(y.rank(inlines[std::size_t(t)]) * g.nx + x.rank(crosslines[std::size_t(t)]));
        if (g.trace_at[cell] >= 0) {
            std::ostringstream msg;
            msg << "SEG-Y '" << path << "': inline " << inlines[std::size_t(t)] << ", crossline "
                << crosslines[std::size_t(t)] << " occurs twice (traces " << g.trace_at[cell] + 1 << " and "
                << t + 1 << ", counted from 1)";
            throw FormatError(msg.str());
        }
        g.trace_at[cell] = t;
    }
    const auto empty = std::find(g.trace_at.begin(), g.trace_at.end(), -1);
    if (empty != g.trace_at.end()) {
        const auto cell = std::int64_t(empty - g.trace_at.begin());
        std::ostringstream msg;
        msg << "SEG-Y '" << path << "': inline " << y.first + cell / g.nx * y.step << ", crossline "
            << x.first + cell % g.nx * x.step << " has no trace (a 3D volume needs one trace per inline and "
            << "crossline: " << g.ny << " x " << g.nx << " = " << cells << ", the file has " << traces << ")";
        throw FormatError(msg.str());
    }
    return g;
}

} // namespace fwi::detail
