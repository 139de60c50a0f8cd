// Velocity models as SEG-Y: one trace per x position, samples running down in z (see model_io.hpp). 3D
// volumes are in segy_volume.cpp; this file reads every trace header first and hands a volume over there.
#include "fwi/error.hpp"
#include "fwi/model_io.hpp"
#include "io/model_shape.hpp"
#include "io/segy_file.hpp"
#include "io/segy_model_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include <segyio/segy.h>

namespace fwi {
namespace {

std::string model_text_header(const Model& model, int scalar) {
    char lines[6][81];
    std::snprintf(lines[0], 81, "C 1 %s", detail::segy_model_marker);
    std::snprintf(lines[1], 81, "C 2 VP IN M/S, IEEE FLOAT32, ONE TRACE PER X POSITION, SAMPLES DOWN IN Z");
    std::snprintf(lines[2], 81, "C 3 NZ=%lld NX=%lld", static_cast<long long>(model.grid.nz()),
                  static_cast<long long>(model.grid.nx()));
    std::snprintf(lines[3], 81, "C 4 DZ_M=%.17g DX_M=%.17g", model.grid.dz(), model.grid.dx());
    std::snprintf(lines[4], 81, "C 5 SAMPLE INTERVAL = DZ IN MM; CDP_X = IX*DX, SCALAR %d", scalar);
    std::snprintf(lines[5], 81, "C40 END TEXTUAL HEADER");
    std::string text;
    for (int i = 0; i < 5; ++i) {
        std::string line = lines[i];
        line.resize(80, ' ');
        text += line;
    }
    text.resize(39 * 80, ' ');
    text += lines[5];
    return text;
}

} // namespace

void write_model_segy(const std::string& path, const Model& model) {
    detail::check_model_shape(model, path);
    if (model.grid.rank == 3) return detail::write_volume_segy(path, model);
    const Grid& g = model.grid;
    if (g.nz() > detail::segy_max_samples || g.nx() > std::numeric_limits<int>::max()) {
        std::ostringstream msg;
        msg << "SEG-Y '" << path << "': the model has nz = " << g.nz()
            << " samples per trace; SEG-Y allows at most " << detail::segy_max_samples;
        throw ConfigError(msg.str());
    }
    const int nz = int(g.nz()), nx = int(g.nx());
    const int scalar = detail::coordinate_scalar(g.width_m(), "SEG-Y '" + path + "'");
    const std::int32_t interval = detail::dz_micro_units(g.dz());

    detail::SegyFile file(path, detail::SegyFile::Mode::create);
    file.write_text_header(model_text_header(model, scalar));
    detail::BinaryHeader bin;
    bin.set(SEGY_BIN_TRACES, 1);
    bin.set(SEGY_BIN_INTERVAL, interval);
    bin.set(SEGY_BIN_SAMPLES, nz);
    bin.set(SEGY_BIN_FORMAT, detail::segy_format_ieee);
    bin.set(SEGY_BIN_MEASUREMENT_SYSTEM, 1); // metres
    bin.set(SEGY_BIN_SEGY_REVISION, 0x0100);
    bin.set(SEGY_BIN_TRACE_FLAG, 1); // fixed trace length
    file.write_binary_header(bin, nz);

    std::vector<float> column(static_cast<std::size_t>(nz));
    for (int ix = 0; ix < nx; ++ix) {
        detail::TraceHeader th;
        const std::int32_t x = detail::scaled_coordinate(double(ix) * g.dx(), scalar);
        th.set(SEGY_TR_SEQ_LINE, ix + 1);
        th.set(SEGY_TR_SEQ_FILE, ix + 1);
        th.set(SEGY_TR_FIELD_RECORD, 1);
        th.set(SEGY_TR_NUMBER_ORIG_FIELD, ix + 1);
        th.set(SEGY_TR_ENSEMBLE, ix + 1);
        th.set(SEGY_TR_NUM_IN_ENSEMBLE, 1);
        th.set(SEGY_TR_TRACE_ID, 1);
        th.set(SEGY_TR_SOURCE_GROUP_SCALAR, scalar);
        th.set(SEGY_TR_SOURCE_X, x);
        th.set(SEGY_TR_GROUP_X, x);
        th.set(SEGY_TR_COORD_UNITS, 1);
        th.set(SEGY_TR_SAMPLE_COUNT, nz);
        th.set(SEGY_TR_SAMPLE_INTER, interval);
        th.set(SEGY_TR_CDP_X, x);
        th.set(SEGY_TR_INLINE, 1);
        th.set(SEGY_TR_CROSSLINE, ix + 1);
        file.write_trace_header(ix, th);
        for (int iz = 0; iz < nz; ++iz)
            column[std::size_t(iz)] = model.at(iz, ix);
        file.write_trace(ix, column.data());
    }
    file.close();
}

Model read_model_segy(const std::string& path, double fallback_dz_m, double fallback_dx_m,
                      std::string* spacing_note, double fallback_dy_m) {
    detail::SegyFile file(path, detail::SegyFile::Mode::read);
    const std::string text = file.read_text_header();
    const detail::BinaryHeader bin = file.read_binary_header();
    const int nz = file.samples();
    const int nx = file.trace_count();
    if (nx <= 0) throw FormatError("SEG-Y '" + path + "': the file has no traces");

    std::vector<detail::TraceHeader> headers;
    headers.reserve(std::size_t(nx));
    std::vector<std::int32_t> inlines, crosslines;
    for (int t = 0; t < nx; ++t) {
        headers.push_back(file.read_trace_header(t));
        inlines.push_back(headers.back().get(SEGY_TR_INLINE));
        crosslines.push_back(headers.back().get(SEGY_TR_CROSSLINE));
    }
    const detail::SegyGeometry geometry = detail::survey_geometry(inlines, crosslines, path);
    if (geometry.three_d())
        return detail::read_volume_segy(file, text, bin, headers, geometry,
                                        {fallback_dz_m, fallback_dy_m, fallback_dx_m}, spacing_note);

    Model model;
    model.vp_mps.resize(std::size_t(nz) * std::size_t(nx));
    for (int ix = 0; ix < nx; ++ix) {
        const std::vector<float> column = file.read_trace(ix);
        for (int iz = 0; iz < nz; ++iz)
            model.vp_mps[std::size_t(iz) * std::size_t(nx) + std::size_t(ix)] = column[std::size_t(iz)];
    }

    // Spacing: our own exact record first, then the headers, then the caller's fallback.
    detail::SpacingSource dz{NAN, ""}, dx{NAN, ""};
    if (text.find(detail::segy_model_marker) != std::string::npos) {
        dz = {detail::text_header_number(text, "DZ_M"), "the FWI Studio textual header"};
        dx = {detail::text_header_number(text, "DX_M"), "the FWI Studio textual header"};
    }
    if (!dz.known()) dz = detail::dz_from_sample_interval(bin, headers[0]);
    if (!dx.known() && nx > 1) {
        for (int field : {SEGY_TR_CDP_X, SEGY_TR_GROUP_X, SEGY_TR_SOURCE_X}) {
            const int scalar = headers[0].get(SEGY_TR_SOURCE_GROUP_SCALAR);
            const double step = detail::unscaled_coordinate(headers[1].get(field), scalar) -
                                detail::unscaled_coordinate(headers[0].get(field), scalar);
            if (step > 0) {
                dx = {step, "trace coordinates"};
                break;
            }
        }
    }
    if (!dz.known() && fallback_dz_m > 0) dz = {fallback_dz_m, "the given layout"};
    if (!dx.known() && fallback_dx_m > 0) dx = {fallback_dx_m, "the given layout"};
    if (!dz.known() || !dx.known() || !std::isfinite(dz.value_m) || !std::isfinite(dx.value_m)) {
        throw ConfigError("SEG-Y '" + path + "': " + (dz.known() ? "dx" : "dz") +
                          " is not in the file's headers; give the spacing (dz_m, dx_m) explicitly");
    }
    model.grid = Grid(nz, nx, dz.value_m, dx.value_m);
    if (spacing_note) *spacing_note = detail::spacing_note({"dz", "dx"}, {dz, dx});
    return model;
}

namespace detail {

std::int32_t dz_micro_units(double dz_m) {
    const double mm = dz_m * 1000.0;
    const double rounded = std::round(mm);
    if (rounded < 1 || rounded > segy_max_samples || std::abs(mm - rounded) > 1e-6 * mm) return 0;
    return std::int32_t(rounded);
}

SpacingSource dz_from_sample_interval(const BinaryHeader& bin, const TraceHeader& first) {
    std::int32_t interval = bin.get(SEGY_BIN_INTERVAL);
    if (interval <= 0) interval = first.get(SEGY_TR_SAMPLE_INTER);
    if (interval <= 0) return {NAN, ""};
    return {interval / 1000.0, "the sample interval (thousandths of a metre)"};
}

std::string spacing_note(const std::vector<std::string>& names, const std::vector<SpacingSource>& spacings) {
    const auto value = [&](std::size_t i) {
        std::ostringstream s;
        s << names[i] << " = " << spacings[i].value_m << " m";
        return s.str();
    };
    const bool one_source = std::all_of(spacings.begin(), spacings.end(),
                                        [&](const SpacingSource& s) { return s.from == spacings[0].from; });
    std::string note;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) note += ", ";
        note += value(i);
        if (!one_source) note += " from " + spacings[i].from;
    }
    return one_source ? note + " from " + spacings[0].from : note;
}

} // namespace detail
} // namespace fwi
