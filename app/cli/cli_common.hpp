#pragma once
// Helpers shared by the subcommands.
#include "fwi/byte_text.hpp"
#include "fwi/gather.hpp"
#include "fwi/model.hpp"
#include "fwi/model_io.hpp"
#include "fwi/project.hpp"

#include "fwi/settings.hpp"

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace fwi::cli {

/// "101 x 201 cells at 10 x 10 m" (2D) or "40 x 50 x 60 cells at 20 x 20 x 20 m" (3D): z first, as arrays.
std::string grid_text(const Grid& grid);
/// "builtin:NAME" or a file path (with the raw layout for files that need one).
Model load_model_spec(const std::string& spec, const RawLayout& layout, bool quiet);
/// A model to run on a project's grid (`--model` of forward and gradient): a file without spacing (.npy, raw)
/// takes the project's cell sizes (and raw files its shape). ConfigError when the grid still differs, naming
/// both.
Model load_model_for_project(const std::string& spec, const Experiment& experiment, bool quiet);
/// Writes gathers by extension: .npy, .segy/.sgy. ConfigError for another extension.
void write_gathers(const std::string& path, const std::vector<Gather>& gathers);
/// Writes a model-grid array (e.g. a gradient) by extension: .npy, .h5/.hdf5, or raw otherwise.
void write_model_array(const std::string& path, const Grid& grid, const std::vector<float>& values);
std::string extension_of(const std::string& path);
/// Refuses now (before any work) an output file `option` names that could not be written at the end: an
/// extension not among `extensions` (when given), a read-only file, a directory, a missing or unwritable
/// directory. Nothing to check for an empty path.
void check_output_file(const std::string& path, const std::string& option,
                       std::initializer_list<const char*> extensions = {});
/// The same for an output directory: made now if missing (ResourceError naming it if it cannot be), refused
/// if it is a file.
void make_output_directory(const std::string& path, const std::string& option);
/// check_output_file for a picture: .png or .svg.
void check_picture_name(const std::string& path, const std::string& option);
/// An option of a command whose first positional picks a kind of output (`fwi plot WHAT`, `fwi export
/// WHAT`), and the kinds that read it.
struct OptionReaders {
    const char* option;
    std::initializer_list<const char*> kinds;
};
/// Refuses (ConfigError) an option that `given` says was given when the kind `what` does not read it, which
/// would ignore it without a word: "--percentile is for `fwi plot gradient|gather|wavefield`, not `fwi plot
/// model`".
void refuse_options_the_kind_ignores(const std::string& command, const std::string& what,
                                     const std::function<bool(const char*)>& given,
                                     std::initializer_list<OptionReaders> readers);
/// Saves a command's project back over the file it read it from (save_project_back). When another program
/// wrote that file meanwhile, the file is left as it is, this command's project is saved beside it
/// (NAME.conflict-YYYYMMDD-HHMMSS.fwi) and a ProjectChangedError names both: neither side's work is lost.
void save_project_back_or_beside(const std::string& path, Project& project);
/// Human-readable bytes ("1.5 GiB").
std::string format_bytes(double bytes);
/// Sets the RAM (and, after a comma, the disk) budget of `settings` from "RAM[,DISK]", e.g. "512M,20G".
void apply_budget(GradientSettings& settings, const std::string& text);

} // namespace fwi::cli
