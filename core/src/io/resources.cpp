#include "fwi/resources.hpp"

#include "fwi/error.hpp"

#include <cstdlib>
#include <filesystem>

#ifndef FWI_RESOURCE_DIR
#define FWI_RESOURCE_DIR ""
#endif

namespace fwi {
namespace fs = std::filesystem;

std::string resource_dir() {
    if (const char* env = std::getenv("FWI_RESOURCE_DIR"); env && *env) return env;
    std::error_code ec;
    // Installed layout: <prefix>/bin/fwi next to <prefix>/share/fwi-studio/resources.
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path() / ".." / "share" / "fwi-studio" / "resources";
        if (fs::is_directory(installed, ec)) return fs::weakly_canonical(installed, ec).string();
    }
    return FWI_RESOURCE_DIR;
}

std::string resource_path(const std::string& relative) {
    const std::string dir = resource_dir();
    const fs::path path = fs::path(dir) / relative;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        throw ResourceError("resource '" + relative + "' not found in '" + dir +
                            "' (set FWI_RESOURCE_DIR to the resources directory)");
    }
    return path.string();
}

Model load_marmousi2(const std::string& which, LoadReport* report) {
    std::string file;
    if (which == "true")
        file = "marmousi_II_marine.vp";
    else if (which == "smooth")
        file = "marmousi_II_smooth2.vp";
    else if (which == "start1d")
        file = "marmousi_II_start_1D.vp";
    else
        throw ConfigError("Marmousi-II: unknown variant '" + which + "' (expected true, smooth or start1d)");
    RawLayout layout;
    layout.nz = 174;
    layout.nx = 500;
    layout.dz_m = layout.dx_m = 20.0;
    layout.x_major = true;
    layout.units = "m/s";
    return load_model(resource_path("models/marmousi2/" + file), layout, report);
}

Model load_marmousi(LoadReport* report) {
    RawLayout layout;
    layout.nz = 401;
    layout.nx = 1601;
    layout.dz_m = layout.dx_m = 7.5;
    layout.x_major = true;
    layout.units = "km/s";
    return load_model(resource_path("models/marmousi/vp_marmousi_bi"), layout, report);
}

} // namespace fwi
