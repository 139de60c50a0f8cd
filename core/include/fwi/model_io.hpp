#pragma once
// Velocity model files. The format is chosen by extension (case-insensitive):
//   .npy            float32/float64 array of shape (nz, nx) or (nz, ny, nx), C order (see npy.hpp); spacing
//                   from RawLayout
//   .segy / .sgy    one trace per depth column: per x position (2D) or per (inline, crossline), see
//                   read_model_segy
//   .h5 / .hdf5     dataset "vp" (nz, nx) or (nz, ny, nx) with a "spacing_m" attribute, see hdf5_model.hpp
//   anything else   raw little-endian float32 without header; shape, spacing and order from RawLayout
// 3D models are (z, y, x) with x fast, as grid.hpp; every format converts to that at the boundary.
// Every loaded model is converted to m/s (see RawLayout::units) and checked with validate_model.
#include "fwi/model.hpp"

#include <cstdint>
#include <string>

namespace fwi {

/// What the file does not say itself. Raw files need all of nz, nx, dz_m, dx_m (and ny, dy_m for a 3D
/// volume); .npy files need dz_m, dx_m (and dy_m for a 3D array); SEG-Y files use these only when their
/// headers carry no spacing.
struct RawLayout {
    std::int64_t nz = 0, nx = 0;
    double dz_m = 0, dx_m = 0;
    /// Raw only. true ("x-major"): one vertical trace per column, z fast: 2D element (iz, ix) at ix * nz +
    /// iz, 3D element (iz, iy, ix) at (ix * ny + iy) * nz + iz, i.e. Fortran order of (z, y, x), as the
    /// shipped files and Overthrust-style volumes. false ("z-major"): our own (z, [y,] x) C order, x fast.
    bool x_major = true;
    std::string units = "auto"; ///< auto | m/s | km/s; auto treats a maximum below 20 as km/s
    // Last, so that positional initialisers of 2D layouts ({nz, nx, dz, dx, x_major, units}) keep their
    // meaning.
    std::int64_t ny = 0; ///< raw only: > 0 makes the file a 3D volume (nz, ny, nx); 0 = a 2D model
    double dy_m = 0;     ///< 3D only (raw, .npy, SEG-Y fallback)
    /// HDF5 only: the dataset to read; empty: "vp", else the file's only 2D or 3D float dataset.
    std::string dataset = {};
};

/// What was detected or converted, to tell the user.
struct LoadReport {
    std::string format;       ///< "npy", "segy", "hdf5" or "raw float32 (x-major)" / "raw float32 (z-major)"
    std::string units_note;   ///< e.g. "velocities looked like km/s (1.028-4.700); converted to m/s"
    std::string spacing_note; ///< where dz, dx came from
};

/// True when load_model reads `path` as raw float32 (its extension names none of .npy, .segy/.sgy,
/// .h5/.hdf5): the only format whose shape and order come from the RawLayout (nz, nx, ny, x_major).
bool is_raw_model_file(const std::string& path);

/// Throws ResourceError (cannot open), FormatError (malformed file, wrong size: raw files must hold exactly
/// nz * nx * 4 bytes, or nz * ny * nx * 4 in 3D; a SEG-Y volume whose inline/crossline numbers do not form a
/// full regular grid) and ConfigError (missing layout values, unknown units, bad velocities via
/// validate_model).
Model load_model(const std::string& path, const RawLayout& layout = {}, LoadReport* report = nullptr);
/// Writes by extension as above, 2D or 3D as the model; raw files are written x-major unless layout.x_major
/// is false (other layout fields are ignored). Velocities are written in m/s. Throws ResourceError if the
/// path is not writable.
void save_model(const std::string& path, const Model& model, const RawLayout& layout = {});

// The individual formats. These return velocities as stored (no unit conversion, no validation).
Model read_model_raw(const std::string& path, const RawLayout& layout);
void write_model_raw(const std::string& path, const Model& model, bool x_major = true);
/// A 2D array gives a 2D model (dy_m unused), a 3D array (nz, ny, nx) a 3D one (dy_m needed).
Model read_model_npy(const std::string& path, double dz_m, double dx_m, double dy_m = 0);
void write_model_npy(const std::string& path, const Model& model);
/// SEG-Y models: trace ix is the column at x = ix * dx, samples run down in z. Sample format IEEE float32
/// (code 5; IBM float, code 1, is read too). The sample interval (binary header 3217, trace header 117) holds
/// dz in thousandths of a metre (the usual "micro-units" convention for depth data; 0 when dz >= 32.768 m or
/// not a whole mm). CDP_X (181, scaled by 71) holds ix * dx. The textual header also records the exact dz and
/// dx, which the reader prefers when present; otherwise headers, then `fallback_dz_m`/`fallback_dx_m`
/// (ConfigError if none is usable).
/// 3D volumes: a file whose traces carry more than one inline number (trace header byte 189) and more than
/// one crossline number (193) is a volume. The inline number runs along y, the crossline number along x (both
/// ascending), so iy is the inline's rank and ix the crossline's; traces may come in any order. Every
/// (inline, crossline) pair of evenly stepped numbers must occur exactly once (FormatError naming a missing
/// or duplicated pair otherwise). dx is the CDP (X, Y) distance (181/185) between neighbouring crosslines, dy
/// between neighbouring inlines (our textual header's DY_M first, `fallback_dy_m` last). Any other file is
/// read as a 2D model, one trace per x in file order, as before.
Model read_model_segy(const std::string& path, double fallback_dz_m = 0, double fallback_dx_m = 0,
                      std::string* spacing_note = nullptr, double fallback_dy_m = 0);
void write_model_segy(const std::string& path, const Model& model);

} // namespace fwi
