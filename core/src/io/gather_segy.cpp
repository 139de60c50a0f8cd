// Shot gathers as SEG-Y (see gather.hpp for the header fields used).
#include "fwi/error.hpp"
#include "fwi/gather.hpp"
#include "io/segy_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include <segyio/segy.h>

namespace fwi {
namespace {

constexpr const char* gathers_marker = "FWI STUDIO SHOT GATHERS";

std::string gathers_text_header(const std::vector<Gather>& gathers, int scalar) {
    std::vector<std::string> lines(5);
    char buf[81];
    std::snprintf(buf, 81, "C 1 %s", gathers_marker);
    lines[0] = buf;
    std::snprintf(buf, 81, "C 2 SHOTS=%zu SAMPLES=%lld", gathers.size(),
                  static_cast<long long>(gathers[0].samples));
    lines[1] = buf;
    std::snprintf(buf, 81, "C 3 DT_S=%.17g", gathers[0].dt_s);
    lines[2] = buf;
    std::snprintf(buf, 81, "C 4 FIELDRECORD=SHOT, SOURCEDEPTH=SOURCE Z, GROUP ELEV=-RECEIVER Z, SCALAR %d",
                  scalar);
    lines[3] = buf;
    lines[4] = "C 5 IEEE FLOAT32 SAMPLES, ONE TRACE PER RECEIVER";
    std::string text;
    for (auto& line : lines) {
        line.resize(80, ' ');
        text += line;
    }
    text.resize(39 * 80, ' ');
    text += "C40 END TEXTUAL HEADER";
    return text;
}

double max_abs_position(const std::vector<Gather>& gathers) {
    double m = 0;
    auto take = [&](const Point& p) { m = std::max({m, std::abs(p.x_m), std::abs(p.y_m), std::abs(p.z_m)}); };
    for (const Gather& g : gathers) {
        take(g.source);
        for (const Point& r : g.receivers)
            take(r);
    }
    return m;
}

// Whole microseconds for the 16-bit interval fields; 0 when dt does not fit (the text header keeps the exact
// value).
std::int32_t dt_microseconds(double dt_s) {
    const double us = std::round(dt_s * 1e6);
    return us >= 1 && us <= detail::segy_max_samples ? std::int32_t(us) : 0;
}

void check_gathers_for_segy(const std::string& path, const std::vector<Gather>& gathers) {
    if (gathers.empty()) throw ConfigError("SEG-Y '" + path + "': no gathers to write");
    std::size_t traces = 0;
    for (std::size_t s = 0; s < gathers.size(); ++s) {
        const Gather& g = gathers[s];
        validate_gather(g, "shot " + std::to_string(s));
        if (g.samples != gathers[0].samples || g.dt_s != gathers[0].dt_s) {
            std::ostringstream msg;
            msg << "SEG-Y '" << path << "': shot " << s << " has " << g.samples << " samples at dt " << g.dt_s
                << " s but shot 0 has " << gathers[0].samples << " at " << gathers[0].dt_s
                << " s (SEG-Y needs one trace length and interval)";
            throw ConfigError(msg.str());
        }
        traces += g.receivers.size();
        auto finite = [](const Point& p) {
            return std::isfinite(p.x_m) && std::isfinite(p.y_m) && std::isfinite(p.z_m);
        };
        if (!finite(g.source))
            throw ConfigError("SEG-Y '" + path + "': shot " + std::to_string(s) + " source is not finite");
        for (std::size_t r = 0; r < g.receivers.size(); ++r) {
            if (!finite(g.receivers[r]))
                throw ConfigError("SEG-Y '" + path + "': shot " + std::to_string(s) + " receiver " +
                                  std::to_string(r) + " is not finite");
        }
    }
    if (gathers[0].samples > detail::segy_max_samples ||
        traces > std::size_t(std::numeric_limits<int>::max())) {
        std::ostringstream msg;
        msg << "SEG-Y '" << path << "': " << gathers[0].samples << " samples per trace and " << traces
            << " traces exceed SEG-Y's limits (" << detail::segy_max_samples << " samples per trace)";
        throw ConfigError(msg.str());
    }
}

} // namespace

void write_gathers_segy(const std::string& path, const std::vector<Gather>& gathers) {
    check_gathers_for_segy(path, gathers);
    const int samples = int(gathers[0].samples);
    const int scalar = detail::coordinate_scalar(max_abs_position(gathers), "SEG-Y '" + path + "'");
    const std::int32_t interval = dt_microseconds(gathers[0].dt_s);

    detail::SegyFile file(path, detail::SegyFile::Mode::create);
    file.write_text_header(gathers_text_header(gathers, scalar));
    detail::BinaryHeader bin;
    bin.set(SEGY_BIN_TRACES, int(std::min<std::size_t>(gathers[0].receivers.size(), 32767)));
    bin.set(SEGY_BIN_INTERVAL, interval);
    bin.set(SEGY_BIN_SAMPLES, samples);
    bin.set(SEGY_BIN_FORMAT, detail::segy_format_ieee);
    bin.set(SEGY_BIN_SORTING_CODE, 1); // as recorded: shot by shot
    bin.set(SEGY_BIN_MEASUREMENT_SYSTEM, 1);
    bin.set(SEGY_BIN_SEGY_REVISION, 0x0100);
    bin.set(SEGY_BIN_TRACE_FLAG, 1);
    file.write_binary_header(bin, samples);

    int trace = 0;
    for (std::size_t s = 0; s < gathers.size(); ++s) {
        const Gather& g = gathers[s];
        const std::int32_t sx = detail::scaled_coordinate(g.source.x_m, scalar);
        for (std::size_t r = 0; r < g.receivers.size(); ++r, ++trace) {
            const Point& rec = g.receivers[r];
            const std::int32_t gx = detail::scaled_coordinate(rec.x_m, scalar);
            detail::TraceHeader th;
            th.set(SEGY_TR_SEQ_LINE, trace + 1);
            th.set(SEGY_TR_SEQ_FILE, trace + 1);
            th.set(SEGY_TR_FIELD_RECORD, int(s) + 1);
            th.set(SEGY_TR_NUMBER_ORIG_FIELD, int(r) + 1);
            th.set(SEGY_TR_NUM_IN_ENSEMBLE, int(r) + 1);
            th.set(SEGY_TR_TRACE_ID, 1);
            // The signed source-receiver distance (sign of the x difference; y is 0 in 2D surveys).
            const double dx = rec.x_m - g.source.x_m, dy = rec.y_m - g.source.y_m;
            th.set(SEGY_TR_OFFSET, detail::scaled_coordinate(std::copysign(std::hypot(dx, dy), dx), 1));
            th.set(SEGY_TR_RECV_GROUP_ELEV, detail::scaled_coordinate(-rec.z_m, scalar));
            th.set(SEGY_TR_SOURCE_DEPTH, detail::scaled_coordinate(g.source.z_m, scalar));
            th.set(SEGY_TR_ELEV_SCALAR, scalar);
            th.set(SEGY_TR_SOURCE_GROUP_SCALAR, scalar);
            th.set(SEGY_TR_SOURCE_X, sx);
            th.set(SEGY_TR_GROUP_X, gx);
            th.set(SEGY_TR_SOURCE_Y, detail::scaled_coordinate(g.source.y_m, scalar));
            th.set(SEGY_TR_GROUP_Y, detail::scaled_coordinate(rec.y_m, scalar));
            th.set(SEGY_TR_COORD_UNITS, 1);
            th.set(SEGY_TR_SAMPLE_COUNT, samples);
            th.set(SEGY_TR_SAMPLE_INTER, interval);
            file.write_trace_header(trace, th);
            file.write_trace(trace, g.traces.data() + r * std::size_t(samples));
        }
    }
    file.close();
}

std::vector<Gather> read_gathers_segy(const std::string& path) {
    detail::SegyFile file(path, detail::SegyFile::Mode::read);
    const std::string text = file.read_text_header();
    const detail::BinaryHeader bin = file.read_binary_header();
    const int samples = file.samples();
    const int traces = file.trace_count();
    if (traces <= 0) throw FormatError("SEG-Y '" + path + "': the file has no traces");

    double dt_s = NAN;
    if (text.find(gathers_marker) != std::string::npos) dt_s = detail::text_header_number(text, "DT_S");
    std::vector<Gather> gathers;
    std::int32_t current_record = 0;
    for (int t = 0; t < traces; ++t) {
        const detail::TraceHeader th = file.read_trace_header(t);
        if (t == 0 && !(dt_s > 0)) {
            std::int32_t us = bin.get(SEGY_BIN_INTERVAL);
            if (us <= 0) us = th.get(SEGY_TR_SAMPLE_INTER);
            if (us <= 0)
                throw FormatError("SEG-Y '" + path + "': no sample interval in the binary or trace header");
            dt_s = us / 1e6;
        }
        const std::int32_t record = th.get(SEGY_TR_FIELD_RECORD);
        const int scalar = th.get(SEGY_TR_SOURCE_GROUP_SCALAR);
        const int elev_scalar = th.get(SEGY_TR_ELEV_SCALAR);
        const Point source{detail::unscaled_coordinate(th.get(SEGY_TR_SOURCE_X), scalar),
                           detail::unscaled_coordinate(th.get(SEGY_TR_SOURCE_DEPTH), elev_scalar),
                           detail::unscaled_coordinate(th.get(SEGY_TR_SOURCE_Y), scalar)};
        // One shot gather has one source: a trace that says otherwise is a sorting or header error, which
        // would otherwise be modelled from the first trace's source without a word.
        if (!gathers.empty() && record == current_record && !(source == gathers.back().source)) {
            std::ostringstream msg;
            msg << "SEG-Y '" << path << "': trace " << t + 1 << " (FieldRecord " << record
                << ") has its source at x=" << source.x_m << " m, y=" << source.y_m << " m, depth "
                << source.z_m << " m, unlike the shot's first trace (x=" << gathers.back().source.x_m
                << " m, y=" << gathers.back().source.y_m << " m, depth " << gathers.back().source.z_m
                << " m): a shot gather has one source";
            throw FormatError(msg.str());
        }
        if (gathers.empty() || record != current_record) {
            Gather g;
            g.source = source;
            g.samples = samples;
            g.dt_s = dt_s;
            gathers.push_back(std::move(g));
            current_record = record;
        }
        Gather& g = gathers.back();
        // Elevation is positive up; our z is depth, positive down. 0.0 - x keeps +0 for a receiver at the
        // surface.
        g.receivers.push_back(
            {detail::unscaled_coordinate(th.get(SEGY_TR_GROUP_X), scalar),
             0.0 - detail::unscaled_coordinate(th.get(SEGY_TR_RECV_GROUP_ELEV), elev_scalar),
             detail::unscaled_coordinate(th.get(SEGY_TR_GROUP_Y), scalar)});
        const std::vector<float> samples_of_trace = file.read_trace(t);
        g.traces.insert(g.traces.end(), samples_of_trace.begin(), samples_of_trace.end());
    }
    return gathers;
}

} // namespace fwi
