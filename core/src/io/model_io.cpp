// Format dispatch by extension, unit detection and the final validation of every loaded model.
#include "fwi/model_io.hpp"

#include "fwi/error.hpp"
#include "fwi/hdf5_model.hpp"
#include "io/file_access.hpp"
#include "io/file_bytes.hpp"

#include <cstdio>
#include <sstream>

namespace fwi {
namespace {

// No rock is slower than 20 m/s, and no rock is faster than 20 km/s: below 20 the file can only be in km/s.
constexpr float km_per_s_threshold = 20.0f;
/// Faster than this is a unit mix-up or a damaged file, and would make the time step absurdly small.
constexpr float max_plausible_mps = 30000.0f;

enum class Format { npy, segy, hdf5, raw };

Format format_of(const std::string& path) {
    const std::string ext = detail::lower_extension(path);
    if (ext == ".npy") return Format::npy;
    if (ext == ".segy" || ext == ".sgy") return Format::segy;
    if (ext == ".h5" || ext == ".hdf5") return Format::hdf5;
    return Format::raw;
}

std::string velocity_range(const Model& model) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f-%.3f", double(model.min_velocity()), double(model.max_velocity()));
    return buf;
}

void validate_units(const std::string& units, const std::string& path) {
    if (units != "auto" && units != "m/s" && units != "km/s")
        throw ConfigError("model '" + path + "': unknown units '" + units + "' (expected auto, m/s or km/s)");
}

std::string convert_units(Model& model, const std::string& units, const std::string& path) {
    validate_units(units, path);
    const bool km = units == "km/s" || (units == "auto" && model.max_velocity() < km_per_s_threshold);
    if (!km) return "velocities in m/s (" + velocity_range(model) + ")";
    const std::string before = velocity_range(model);
    for (float& v : model.vp_mps)
        v *= 1000.0f;
    return units == "auto" ? "velocities looked like km/s (" + before + "); converted to m/s"
                           : "velocities given in km/s (" + before + "); converted to m/s";
}

} // namespace

bool is_raw_model_file(const std::string& path) {
    return format_of(path) == Format::raw;
}

Model load_model(const std::string& path, const RawLayout& layout, LoadReport* report) {
    if (!layout.dataset.empty() && format_of(path) != Format::hdf5)
        throw ConfigError("'" + path + "': a dataset name (" + layout.dataset + ") is for HDF5 models (.h5)");
    // Before the format's own checks: a missing raw file used to be reported as a layout problem.
    detail::require_readable(path);
    if (detail::lower_extension(path) == ".fwi")
        throw ConfigError("'" + path + "' is a project, not a model file (.npy, .segy, .h5 or raw float32)");
    LoadReport r;
    Model model;
    switch (format_of(path)) {
    case Format::npy:
        r.format = "npy";
        model = read_model_npy(path, layout.dz_m, layout.dx_m, layout.dy_m);
        r.spacing_note = "spacing from the given layout (.npy holds none)";
        break;
    case Format::segy:
        r.format = "segy";
        model = read_model_segy(path, layout.dz_m, layout.dx_m, &r.spacing_note, layout.dy_m);
        break;
    case Format::hdf5:
        r.format = "hdf5";
        // The reader applies given units itself (it knows whether the file states its own); "auto" still
        // looks at the values below.
        validate_units(layout.units, path);
        model = read_model_hdf5(path, layout.dataset, {layout.dz_m, layout.dy_m, layout.dx_m}, layout.units);
        r.spacing_note = "spacing from the file (or the given layout if the file has none)";
        break;
    case Format::raw:
        r.format = layout.x_major ? "raw float32 (x-major)" : "raw float32 (z-major)";
        model = read_model_raw(path, layout);
        r.spacing_note = "spacing from the given layout";
        break;
    }
    // HDF5 with given units: converted by the reader.
    r.units_note =
        format_of(path) == Format::hdf5 && layout.units != "auto"
            ? (layout.units == "km/s" ? "velocities in km/s; converted to m/s (" + velocity_range(model) + ")"
                                      : "velocities in m/s (" + velocity_range(model) + ")")
            : convert_units(model, layout.units, path);
    validate_model(model, "model '" + path + "'");
    if (model.max_velocity() > max_plausible_mps) {
        std::ostringstream msg;
        msg << "model '" << path << "': velocities up to " << model.max_velocity()
            << " m/s, faster than any rock (" << max_plausible_mps / 1000 << " km/s); "
            << (layout.units == "km/s" ? "is the file in m/s (--units m/s)?" : "are the units right?");
        throw ConfigError(msg.str());
    }
    if (report) *report = std::move(r);
    return model;
}

void save_model(const std::string& path, const Model& model, const RawLayout& layout) {
    switch (format_of(path)) {
    case Format::npy:
        write_model_npy(path, model);
        break;
    case Format::segy:
        write_model_segy(path, model);
        break;
    case Format::hdf5:
        write_model_hdf5(path, model);
        break;
    case Format::raw:
        write_model_raw(path, model, layout.x_major);
        break;
    }
}

} // namespace fwi
