#pragma once
// What the 2D (segy_model.cpp) and 3D (segy_volume.cpp) SEG-Y model readers and writers share (private to
// core): our textual-header marker, the depth sample interval and where each spacing came from.
#include "fwi/model.hpp"
#include "io/segy_file.hpp"
#include "io/segy_geometry.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fwi::detail {

inline constexpr const char* segy_model_marker = "FWI STUDIO VELOCITY MODEL";

/// dz in thousandths of a metre when that is a whole number that fits the 16-bit field; 0 otherwise.
std::int32_t dz_micro_units(double dz_m);

/// One spacing and where it came from ("the sample interval ...", "trace coordinates", ...); NaN if unknown.
struct SpacingSource {
    double value_m;
    std::string from;
    bool known() const { return value_m > 0; }
};

/// dz from the sample interval (binary header, else the first trace header), else NaN.
SpacingSource dz_from_sample_interval(const BinaryHeader& bin, const TraceHeader& first);

/// "dz = 10 m, dx = 12.5 m from X" or "dz = 10 m from X, dx = 12.5 m from Y": names in order, e.g. {"dz",
/// "dx"}.
std::string spacing_note(const std::vector<std::string>& names, const std::vector<SpacingSource>& spacings);

/// The 3D halves (segy_volume.cpp). `headers` are all trace headers in file order.
void write_volume_segy(const std::string& path, const Model& model);
Model read_volume_segy(SegyFile& file, const std::string& text, const BinaryHeader& bin,
                       const std::vector<TraceHeader>& headers, const SegyGeometry& geometry,
                       const std::array<double, 3>& fallback_spacing_m, std::string* note);

} // namespace fwi::detail
