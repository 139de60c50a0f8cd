#pragma once
// Velocity model files. The format is chosen by extension (case-insensitive):
//   .npy            2D float32/float64 array of shape (nz, nx), C order (see npy.hpp); spacing from RawLayout
//   .segy / .sgy    one trace per x position (a depth column), see read_model_segy
//   .h5 / .hdf5     dataset "vp" (nz, nx) with a "spacing_m" attribute, see hdf5_model.hpp
//   anything else   raw little-endian float32 without header; shape, spacing and order from RawLayout
// Every loaded model is converted to m/s (see RawLayout::units) and checked with validate_model.
#include "fwi/model.hpp"

#include <cstdint>
#include <string>

namespace fwi {

/// What the file does not say itself. Raw files need all of nz, nx, dz_m, dx_m; .npy files need dz_m, dx_m;
/// SEG-Y files use these only when their headers carry no spacing.
struct RawLayout {
    std::int64_t nz = 0, nx = 0;
    double dz_m = 0, dx_m = 0;
    bool x_major =
        true; ///< raw only: true = one vertical trace per x, z fast (as the shipped files); false = (z, x)
    std::string units = "auto"; ///< auto | m/s | km/s; auto treats a maximum below 20 as km/s
};

/// What was detected or converted, to tell the user.
struct LoadReport {
    std::string format;       ///< "npy", "segy", "hdf5" or "raw float32 (x-major)" / "raw float32 (z-major)"
    std::string units_note;   ///< e.g. "velocities looked like km/s (1.028-4.700); converted to m/s"
    std::string spacing_note; ///< where dz, dx came from
};

/// Throws ResourceError (cannot open), FormatError (malformed file, wrong size: raw files must hold exactly
/// nz * nx * 4 bytes) and ConfigError (missing layout values, unknown units, bad velocities via
/// validate_model).
Model load_model(const std::string& path, const RawLayout& layout = {}, LoadReport* report = nullptr);
/// Writes by extension as above; raw files are written x-major unless layout.x_major is false (other layout
/// fields are ignored). Velocities are written in m/s. Throws ResourceError if the path is not writable.
void save_model(const std::string& path, const Model& model, const RawLayout& layout = {});

// The individual formats. These return velocities as stored (no unit conversion, no validation).
Model read_model_raw(const std::string& path, const RawLayout& layout);
void write_model_raw(const std::string& path, const Model& model, bool x_major = true);
Model read_model_npy(const std::string& path, double dz_m, double dx_m);
void write_model_npy(const std::string& path, const Model& model);
/// SEG-Y models: trace ix is the column at x = ix * dx, samples run down in z. Sample format IEEE float32
/// (code 5; IBM float, code 1, is read too). The sample interval (binary header 3217, trace header 117) holds
/// dz in thousandths of a metre (the usual "micro-units" convention for depth data; 0 when dz >= 32.768 m or
/// not a whole mm). CDP_X (181, scaled by 71) holds ix * dx. The textual header also records the exact dz and
/// dx, which the reader prefers when present; otherwise headers, then `fallback_dz_m`/`fallback_dx_m`
/// (ConfigError if none is usable).
Model read_model_segy(const std::string& path, double fallback_dz_m = 0, double fallback_dx_m = 0,
                      std::string* spacing_note = nullptr);
void write_model_segy(const std::string& path, const Model& model);

} // namespace fwi
