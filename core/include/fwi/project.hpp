#pragma once
// The project: everything FWI Studio persists, in one HDF5 file (.fwi). The GUI and the CLI read and write
// the same files. The schema (every group, dataset and attribute, with types, shapes and units) and its
// versioning policy are in docs/file-format.md. Arrays keep the product's axis order: (z, x) or (z, y, x),
// x fast (grid.hpp).
#include "fwi/error.hpp"
#include "fwi/file_version.hpp"
#include "fwi/model.hpp"
#include "fwi/settings.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace fwi {

/// The newest schema version this build reads (root attribute "fwi_studio_schema"). It writes 2D projects as
/// schema 2 (readable by builds before 3D) and 3D projects as schema 3 (3D models and [z, y, x] points).
inline constexpr int project_schema_version = 3;

/// The observed traces of one shot.
struct ShotRecord {
    std::int64_t receivers = 0;
    std::int64_t samples = 0;
    double dt_s = 0;           ///< sample interval
    std::vector<float> traces; ///< receivers x samples, sample fast: traces[r * samples + n]
    bool operator==(const ShotRecord&) const = default;
};

/// One step of an inversion, kept so that the user can look back at (and restart from) any iteration.
struct IterationRecord {
    int iteration = 0;
    int stage = 0;      ///< frequency-continuation stage
    double freq_hz = 0; ///< the stage's low-pass cut-off (0 = unfiltered)
    double misfit = std::numeric_limits<double>::quiet_NaN();
    double model_error = std::numeric_limits<double>::quiet_NaN(); ///< vs the true model, when known
    double seconds = 0;                                            ///< wall time of the iteration
    Model model;                 ///< the model after the iteration; may be empty
    std::vector<float> gradient; ///< model cells; may be empty
};

struct Project {
    Experiment experiment;            ///< models, acquisition and every setting
    std::vector<ShotRecord> observed; ///< one per shot; may be empty (not simulated or imported yet)
    std::vector<float> gradient;      ///< last computed gradient (model cells); may be empty
    double misfit = std::numeric_limits<double>::quiet_NaN(); ///< last misfit; NaN = none
    std::vector<IterationRecord> history;
    std::map<std::string, std::vector<double>> optimizer_state; ///< opaque; written back verbatim (resume)
    std::map<std::string, std::string> metadata;                ///< free text: created_by, notes, ...
    /// Read without some of its parts (load_project(path, parts)): save_project refuses it, as saving it
    /// would drop them from the file.
    bool partial = false;
    /// The file as load_project found it before reading, or as save_project_back left it: what
    /// save_project_back compares the file with. None (exists() false) for a project made in memory.
    FileVersion file_version;
};

/// What load_project reads besides the models, the acquisition, the settings and the metadata, which it
/// always reads. A command that only models skips the observed data and the results (the last gradient and
/// the inversion history, a model and a gradient per iteration), which a long inversion makes far larger
/// than the models.
struct ProjectParts {
    bool observed = true; ///< the observed traces
    bool results = true;  ///< gradient, misfit, history, optimizer state
    bool all() const { return observed && results; }
};

/// Reads a project. ResourceError naming the file for a missing or unreadable one (a file whose mode has no
/// read bit is unreadable for root too); FormatError naming the file (and the object at fault) for a corrupt
/// or truncated file, a file that is not a project, or one written with a newer schema than
/// project_schema_version.
Project load_project(const std::string& path);
/// Reads only `parts` of the rest; the project is `partial` unless `parts` is all of it.
Project load_project(const std::string& path, const ProjectParts& parts);

/// Thrown by save_project_back: the file changed since the project was read from it, because another program
/// (another `fwi`, the desktop application) wrote it meanwhile. A ResourceError: the CLI exits 3.
class ProjectChangedError : public ResourceError {
  public:
    using ResourceError::ResourceError;
};

/// True when the file at `path` is no longer the version `project` was read as (or last saved back as):
/// another program wrote, replaced or removed it meanwhile. False for a project made in memory.
bool project_file_changed(const std::string& path, const Project& project);

/// save_project over the file `project` was read from, but only when that file is still the version it was
/// read as (project.file_version), so that another program's write in between is not lost: otherwise
/// ProjectChangedError naming the file, which is left as it is. On success project.file_version is the new
/// file's, so the next save_project_back of the same project checks against it. A project made in memory is
/// saved as save_project does. Another program's write in the moment between the check and the rename is not
/// seen (no lock is taken: other programs take none either).
void save_project_back(const std::string& path, Project& project);

/// Writes a project atomically (temporary file in the same directory, then rename), so the previous file
/// survives any failure. ResourceError naming `path` when it cannot be written; ConfigError for content that
/// cannot be saved (a partial project, a model whose values do not fill its grid, an empty or '/'-containing
/// optimizer-state name or metadata key).
void save_project(const std::string& path, const Project& project);
/// Throws ResourceError naming `path` now if save_project(path, ...) would be refused before writing anything
/// (a read-only project: no write bit in its mode, root included; an unwritable directory), so that a long
/// job fails before it starts instead of after.
void check_project_saveable(const std::string& path);

} // namespace fwi
