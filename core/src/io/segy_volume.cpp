// 3D velocity volumes as SEG-Y (see read_model_segy in model_io.hpp): one trace per (inline, crossline)
// column, inline iy + 1 along y, crossline ix + 1 along x, samples running down in z. Written inline by
// inline (crosslines fast), read in any trace order through the inline/crossline numbers.
#include "fwi/error.hpp"
#include "io/segy_model_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include <segyio/segy.h>

namespace fwi::detail {
namespace {

std::string volume_text_header(const Grid& g, int scalar) {
    // One value per line where a value can be long (%.17g): an 80-column card must never cut a number.
    std::vector<std::string> lines(8);
    char buf[81];
    std::snprintf(buf, sizeof buf, "C 1 %s", segy_model_marker);
    lines[0] = buf;
    lines[1] = "C 2 VP IN M/S, IEEE FLOAT32, ONE TRACE PER (Y, X) COLUMN, SAMPLES DOWN IN Z";
    std::snprintf(buf, sizeof buf, "C 3 NZ=%lld NY=%lld NX=%lld", static_cast<long long>(g.nz()),
                  static_cast<long long>(g.ny()), static_cast<long long>(g.nx()));
    lines[2] = buf;
    std::snprintf(buf, sizeof buf, "C 4 DZ_M=%.17g DX_M=%.17g", g.dz(), g.dx());
    lines[3] = buf;
    std::snprintf(buf, sizeof buf, "C 5 DY_M=%.17g", g.dy());
    lines[4] = buf;
    lines[5] = "C 6 INLINE (189) = IY+1 ALONG Y, CROSSLINE (193) = IX+1 ALONG X";
    std::snprintf(buf, sizeof buf, "C 7 SAMPLE INTERVAL = DZ IN MM; CDP_X = IX*DX, CDP_Y = IY*DY, SCALAR %d",
                  scalar);
    lines[6] = buf;
    std::string text;
    for (int i = 0; i < 7; ++i) {
        lines[std::size_t(i)].resize(80, ' ');
        text += lines[std::size_t(i)];
    }
    text.resize(39 * 80, ' ');
    return text + "C40 END TEXTUAL HEADER";
}

TraceHeader column_header(const Grid& g, int iy, int ix, int scalar, std::int32_t interval) {
    const int trace = iy * int(g.nx()) + ix;
    const std::int32_t x = scaled_coordinate(double(ix) * g.dx(), scalar);
    const std::int32_t y = scaled_coordinate(double(iy) * g.dy(), scalar);
    TraceHeader th;
    th.set(SEGY_TR_SEQ_LINE, trace + 1);
    th.set(SEGY_TR_SEQ_FILE, trace + 1);
    th.set(SEGY_TR_FIELD_RECORD, iy + 1);
    th.set(SEGY_TR_NUMBER_ORIG_FIELD, ix + 1);
    th.set(SEGY_TR_ENSEMBLE, trace + 1);
    th.set(SEGY_TR_NUM_IN_ENSEMBLE, 1);
    th.set(SEGY_TR_TRACE_ID, 1);
    th.set(SEGY_TR_SOURCE_GROUP_SCALAR, scalar);
    th.set(SEGY_TR_SOURCE_X, x);
    th.set(SEGY_TR_SOURCE_Y, y);
    th.set(SEGY_TR_GROUP_X, x);
    th.set(SEGY_TR_GROUP_Y, y);
    th.set(SEGY_TR_COORD_UNITS, 1);
    th.set(SEGY_TR_SAMPLE_COUNT, int(g.nz()));
    th.set(SEGY_TR_SAMPLE_INTER, interval);
    th.set(SEGY_TR_CDP_X, x);
    th.set(SEGY_TR_CDP_Y, y);
    th.set(SEGY_TR_INLINE, iy + 1);
    th.set(SEGY_TR_CROSSLINE, ix + 1);
    return th;
}

/// The distance between two traces' positions: CDP, else source, else group (X, Y) pairs, each scaled by its
/// own trace's scalar. A rotated survey still gives the true spacing. NaN when no pair differs.
double trace_distance(const TraceHeader& a, const TraceHeader& b) {
    const int pairs[3][2] = {{SEGY_TR_CDP_X, SEGY_TR_CDP_Y},
                             {SEGY_TR_SOURCE_X, SEGY_TR_SOURCE_Y},
                             {SEGY_TR_GROUP_X, SEGY_TR_GROUP_Y}};
    const int sa = a.get(SEGY_TR_SOURCE_GROUP_SCALAR), sb = b.get(SEGY_TR_SOURCE_GROUP_SCALAR);
    for (const auto& p : pairs) {
        const double dx = unscaled_coordinate(b.get(p[0]), sb) - unscaled_coordinate(a.get(p[0]), sa);
        const double dy = unscaled_coordinate(b.get(p[1]), sb) - unscaled_coordinate(a.get(p[1]), sa);
        const double d = std::hypot(dx, dy);
        if (d > 0) return d;
    }
    return NAN;
}

} // namespace

void write_volume_segy(const std::string& path, const Model& model) {
    const Grid& g = model.grid;
    if (g.nz() > segy_max_samples || double(g.ny()) * double(g.nx()) > std::numeric_limits<int>::max()) {
        std::ostringstream msg;
        msg << "SEG-Y '" << path << "': the volume has nz = " << g.nz() << " samples per trace and "
            << g.ny() * g.nx() << " traces; SEG-Y allows at most " << segy_max_samples << " samples and "
            << std::numeric_limits<int>::max() << " traces";
        throw ConfigError(msg.str());
    }
    const int nz = int(g.nz()), ny = int(g.ny()), nx = int(g.nx());
    const int scalar = coordinate_scalar(std::max(g.width_m(), g.breadth_m()), "SEG-Y '" + path + "'");
    const std::int32_t interval = dz_micro_units(g.dz());

    SegyFile file(path, SegyFile::Mode::create);
    file.write_text_header(volume_text_header(g, scalar));
    BinaryHeader bin;
    bin.set(SEGY_BIN_TRACES, nx); // traces per ensemble: one inline
    bin.set(SEGY_BIN_INTERVAL, interval);
    bin.set(SEGY_BIN_SAMPLES, nz);
    bin.set(SEGY_BIN_FORMAT, segy_format_ieee);
    bin.set(SEGY_BIN_SORTING_CODE, 4);       // horizontally stacked
    bin.set(SEGY_BIN_MEASUREMENT_SYSTEM, 1); // metres
    bin.set(SEGY_BIN_SEGY_REVISION, 0x0100);
    bin.set(SEGY_BIN_TRACE_FLAG, 1); // fixed trace length
    file.write_binary_header(bin, nz);

    std::vector<float> column(static_cast<std::size_t>(nz));
    for (int iy = 0; iy < ny; ++iy)
        for (int ix = 0; ix < nx; ++ix) {
            const int trace = iy * nx + ix;
            file.write_trace_header(trace, column_header(g, iy, ix, scalar, interval));
            for (int iz = 0; iz < nz; ++iz)
                column[std::size_t(iz)] = model.vp_mps[g.index(iz, iy, ix)];
            file.write_trace(trace, column.data());
        }
    file.close();
}

Model read_volume_segy(SegyFile& file, const std::string& text, const BinaryHeader& bin,
                       const std::vector<TraceHeader>& headers, const SegyGeometry& geometry,
                       const std::array<double, 3>& fallback_spacing_m, std::string* note) {
    const std::int64_t nz = file.samples(), ny = geometry.ny, nx = geometry.nx;
    Model model;
    model.vp_mps.resize(std::size_t(nz * ny * nx));
    for (std::int64_t column = 0; column < ny * nx; ++column) {
        const std::vector<float> samples = file.read_trace(geometry.trace_at[std::size_t(column)]);
        for (std::int64_t iz = 0; iz < nz; ++iz)
            model.vp_mps[std::size_t(iz * ny * nx + column)] = samples[std::size_t(iz)];
    }

    // Spacing: our own exact record first, then the headers, then the caller's fallback (dz, dy, dx).
    std::array<SpacingSource, 3> spacing{SpacingSource{NAN, ""}, SpacingSource{NAN, ""},
                                         SpacingSource{NAN, ""}};
    if (text.find(segy_model_marker) != std::string::npos) {
        const char* keys[3] = {"DZ_M", "DY_M", "DX_M"};
        for (int a = 0; a < 3; ++a)
            spacing[std::size_t(a)] = {text_header_number(text, keys[a]), "the FWI Studio textual header"};
    }
    const TraceHeader& origin = headers[std::size_t(geometry.trace_at[0])];
    if (!spacing[0].known()) spacing[0] = dz_from_sample_interval(bin, origin);
    if (!spacing[1].known())
        spacing[1] = {trace_distance(origin, headers[std::size_t(geometry.trace_at[std::size_t(nx)])]),
                      "trace coordinates"};
    if (!spacing[2].known())
        spacing[2] = {trace_distance(origin, headers[std::size_t(geometry.trace_at[1])]),
                      "trace coordinates"};
    const char* names[3] = {"dz", "dy", "dx"};
    for (std::size_t a = 0; a < 3; ++a) {
        if (!spacing[a].known() && fallback_spacing_m[a] > 0)
            spacing[a] = {fallback_spacing_m[a], "the given layout"};
        if (!spacing[a].known() || !std::isfinite(spacing[a].value_m))
            throw ConfigError(
                "SEG-Y '" + file.path() + "': " + names[a] +
                " is not in the file's headers; give the spacing (dz_m, dy_m, dx_m) explicitly");
    }
    model.grid = Grid(nz, ny, nx, spacing[0].value_m, spacing[1].value_m, spacing[2].value_m);
    if (note) *note = spacing_note({"dz", "dy", "dx"}, {spacing[0], spacing[1], spacing[2]});
    return model;
}

} // namespace fwi::detail
