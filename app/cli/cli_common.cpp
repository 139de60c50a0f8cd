#include "cli_common.hpp"

#include "fwi/error.hpp"
#include "fwi/hdf5_model.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/npy.hpp"
#include "fwi/project_tools.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace fwi::cli {

std::string extension_of(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

void check_picture_name(const std::string& path, const std::string& option) {
    check_output_file(path, option, {".png", ".svg"});
}

void check_output_file(const std::string& path, const std::string& option,
                       std::initializer_list<const char*> extensions) {
    if (path.empty()) return;
    if (extensions.size() > 0) {
        const std::string ext = extension_of(path);
        std::string allowed;
        bool ok = false;
        for (const char* e : extensions) {
            ok = ok || ext == e;
            allowed += (allowed.empty() ? "" : " or ") + std::string(e);
        }
        if (!ok) throw ConfigError(option + " " + path + ": written as " + allowed);
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw ConfigError(option + " " + path + ": a directory; name a file");
    check_project_saveable(path); // the checks of every atomic write: read-only file, directory
}

void make_output_directory(const std::string& path, const std::string& option) {
    if (path.empty()) return;
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec))
        throw ConfigError(option + " " + path + ": a file, not a directory");
    std::filesystem::create_directories(path, ec);
    if (ec || !std::filesystem::is_directory(path))
        throw ResourceError(option + " " + path + ": cannot make the directory" +
                            (ec ? ": " + ec.message() : std::string()));
}

std::string grid_text(const Grid& g) {
    std::ostringstream s;
    if (g.rank == 3)
        s << g.nz() << " x " << g.ny() << " x " << g.nx() << " cells at " << g.dz() << " x " << g.dy()
          << " x " << g.dx() << " m";
    else
        s << g.nz() << " x " << g.nx() << " cells at " << g.dz() << " x " << g.dx() << " m";
    return s.str();
}

Model load_model_spec(const std::string& spec, const RawLayout& layout, bool quiet) {
    if (spec.rfind("builtin:", 0) == 0) return builtin_model(spec.substr(8));
    LoadReport report;
    Model m = load_model(spec, layout, &report);
    if (!quiet) {
        std::cerr << "fwi: loaded " << spec << " (" << report.format << ", " << grid_text(m.grid) << ")\n";
        if (!report.units_note.empty()) std::cerr << "fwi: " << report.units_note << "\n";
    }
    return m;
}

Model load_model_for_project(const std::string& spec, const Experiment& experiment, bool quiet) {
    const Grid& grid = working_model(experiment).grid;
    RawLayout layout;
    layout.nz = grid.nz();
    layout.nx = grid.nx();
    layout.dz_m = grid.dz();
    layout.dx_m = grid.dx();
    if (grid.rank == 3) {
        layout.ny = grid.ny();
        layout.dy_m = grid.dy();
    }
    Model m = load_model_spec(spec, layout, quiet);
    if (!(m.grid == grid)) {
        std::ostringstream msg;
        msg << "model " << spec << " is " << grid_text(m.grid) << "; the project's grid is "
            << grid_text(grid);
        throw ConfigError(msg.str());
    }
    return m;
}

void write_gathers(const std::string& path, const std::vector<Gather>& gathers) {
    const std::string ext = extension_of(path);
    if (ext == ".npy")
        write_gathers_npy(path, gathers);
    else if (ext == ".segy" || ext == ".sgy")
        write_gathers_segy(path, gathers);
    else if (ext == ".h5" || ext == ".hdf5")
        write_gathers_hdf5(path, gathers);
    else
        throw ConfigError("output " + path + ": gathers are written as .npy, .segy or .h5");
}

void write_model_array(const std::string& path, const Grid& grid, const std::vector<float>& values) {
    Model m;
    m.grid = grid;
    m.vp_mps = values;
    const std::string ext = extension_of(path);
    if (ext == ".npy")
        write_npy(path, NpyArray{grid.rank == 3 ? std::vector<std::int64_t>{grid.nz(), grid.ny(), grid.nx()}
                                                : std::vector<std::int64_t>{grid.nz(), grid.nx()},
                                 values});
    else if (ext == ".h5" || ext == ".hdf5")
        write_model_hdf5(path, m);
    else
        throw ConfigError("output " + path + ": arrays are written as .npy or .h5");
}

void refuse_options_the_kind_ignores(const std::string& command, const std::string& what,
                                     const std::function<bool(const char*)>& given,
                                     std::initializer_list<OptionReaders> readers) {
    for (const OptionReaders& r : readers) {
        if (!given(r.option) || std::find(r.kinds.begin(), r.kinds.end(), what) != r.kinds.end()) continue;
        std::string kinds;
        for (const char* kind : r.kinds)
            kinds += std::string(kinds.empty() ? "" : "|") + kind;
        throw ConfigError(std::string(r.option) + " is for `fwi " + command + " " + kinds + "`, not `fwi " +
                          command + " " + what + "`");
    }
}

void save_project_back_or_beside(const std::string& path, Project& project) {
    try {
        save_project_back(path, project);
    } catch (const ProjectChangedError& e) {
        const std::string stem = extension_of(path) == ".fwi" ? path.substr(0, path.size() - 4) : path;
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
        std::string beside = stem + ".conflict-" + stamp + ".fwi";
        for (int n = 2; std::filesystem::exists(beside); ++n)
            beside = stem + ".conflict-" + stamp + "-" + std::to_string(n) + ".fwi";
        save_project(beside, project);
        throw ProjectChangedError(std::string(e.what()) + "; this command's project is saved as '" + beside +
                                  "'");
    }
}

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

void apply_budget(GradientSettings& settings, const std::string& text) {
    // Inside the engine 0 means "no limit"; a user who types 0 (or 0.5) means the opposite, so it is refused
    // rather than silently lifting the limit.
    const auto budget = [&](const std::string& part, const char* tier) {
        const std::uint64_t bytes = parse_bytes(part);
        if (bytes == 0)
            throw ConfigError("--budget " + text + ": a " + tier + " budget of " + part +
                              " holds nothing (leave --budget out for no limit)");
        return bytes;
    };
    const auto comma = text.find(',');
    settings.budget_bytes = budget(text.substr(0, comma), "memory");
    if (comma != std::string::npos) settings.disk_budget_bytes = budget(text.substr(comma + 1), "disk");
}

} // namespace fwi::cli
