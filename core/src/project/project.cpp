// load_project / save_project: the root of the schema (version check, models, metadata); the sections are in
// settings_io.cpp, acquisition_io.cpp and results_io.cpp. Layout: docs/file-format.md.
#include "fwi/project.hpp"

#include "fwi/isolated_read.hpp"
#include "hdf5/atomic_write.hpp"
#include "hdf5/model_layout.hpp"
#include "project/project_io.hpp"

namespace fwi {

namespace {

constexpr const char* schema_attribute = "fwi_studio_schema";

struct ModelSlot {
    const char* name;
    Model Experiment::*model;
};
constexpr ModelSlot model_slots[] = {
    {"true", &Experiment::true_model},
    {"initial", &Experiment::initial_model},
    {"current", &Experiment::current_model},
};

/// The file's schema version, checked to be one this build reads.
std::int64_t check_schema(const h5::Group& root) {
    if (!root.has_attribute(schema_attribute))
        throw FormatError("'" + root.file_path() + "' is not an FWI Studio project (no '" + schema_attribute +
                          "' attribute on its root group)");
    const std::int64_t version = root.attribute<std::int64_t>(schema_attribute);
    // Schema 2 stores strings fixed-length; schema 1 stored them variable-length and is still read.
    if (version > project_schema_version)
        throw FormatError("'" + root.file_path() + "' was written by a newer FWI Studio (project schema " +
                          std::to_string(version) + "); this version reads schema " +
                          std::to_string(project_schema_version) + " and older. Please update FWI Studio.");
    if (version < 1)
        throw FormatError("'" + root.file_path() + "' has an invalid project schema version " +
                          std::to_string(version));
    return version;
}

void write_metadata(const h5::Group& root, const std::map<std::string, std::string>& metadata) {
    if (metadata.empty()) return;
    const h5::Group group = root.create_group("metadata");
    for (const auto& [key, value] : metadata) {
        if (key.empty()) throw ConfigError("project metadata: a key is empty");
        group.set_attribute(key, value);
    }
}

std::map<std::string, std::string> read_metadata(const h5::Group& root) {
    std::map<std::string, std::string> metadata;
    if (!root.has("metadata")) return metadata;
    const h5::Group group = root.open_group("metadata");
    for (const auto& name : group.attribute_names())
        metadata[name] = group.attribute<std::string>(name);
    return metadata;
}

/// The rank of the project's models; ConfigError when they disagree (a 2D starting model for a 3D true
/// model cannot be saved, nor run).
int project_rank(const Project& project) {
    int rank = 0;
    for (const auto& slot : model_slots) {
        const Model& model = project.experiment.*slot.model;
        if (model.vp_mps.empty()) continue;
        if (rank != 0 && model.grid.rank != rank)
            throw ConfigError(std::string("project: the ") + slot.name + " model is " +
                              std::to_string(model.grid.rank) + "D but another model is " +
                              std::to_string(rank) + "D; all models of a project have the same rank");
        rank = model.grid.rank;
    }
    return rank == 0 ? 2 : rank;
}

Project read_project(const std::string& path, const ProjectParts& parts) {
    const auto lock = h5::lock_library();
    const h5::File file = h5::File::open(path);
    const h5::Group root = file.root();
    // Schema 2 writes fixed-length strings only: a variable-length one is damage, never read (schema 1 needs
    // them).
    if (check_schema(root) >= 2) file.forbid_variable_strings();

    Project project;
    const h5::Group models = root.open_group("models");
    for (const auto& slot : model_slots) // each model has its own grid (docs/file-format.md)
        if (models.has(slot.name))
            project.experiment.*slot.model = h5::read_model(models.open_dataset(slot.name));
    int rank = 2;
    try {
        rank = project_rank(project);
    } catch (const ConfigError& e) { // a file mixing ranks is damaged
        root.fail(e.what());
    }
    project.experiment.acquisition = project_io::read_acquisition(root, rank);
    project_io::read_settings(root, project.experiment);
    if (parts.observed) project.observed = project_io::read_observed(root);
    if (parts.results) project_io::read_results(root, project);
    project.metadata = read_metadata(root);
    project.partial = !parts.all();
    return project;
}

} // namespace

Project load_project(const std::string& path) {
    return load_project(path, ProjectParts{});
}

Project load_project(const std::string& path, const ProjectParts& parts) {
    // Each set of parts reads other objects of the file, so each is its own reader for the checked-files
    // record.
    std::string reader = "project";
    if (!parts.observed) reader += " without observed data";
    if (!parts.results) reader += " without results";
    // Before reading: a write during the read then shows as a change to save_project_back.
    const FileVersion version = file_version(path);
    Project project = read_isolated(path, h5::reader_name(reader), [&] { return read_project(path, parts); });
    project.file_version = version;
    return project;
}

bool project_file_changed(const std::string& path, const Project& project) {
    return project.file_version.exists() && !(file_version(path) == project.file_version);
}

void save_project_back(const std::string& path, Project& project) {
    if (project_file_changed(path, project))
        throw ProjectChangedError("'" + path +
                                  "' changed since it was read (another program, such as fwi or the desktop "
                                  "application, wrote it meanwhile); it was not overwritten");
    save_project(path, project);
    project.file_version = file_version(path);
}

void check_project_saveable(const std::string& path) {
    h5::check_replaceable(path);
}

void save_project(const std::string& path, const Project& project) {
    if (project.partial)
        throw ConfigError("'" + path +
                          "': this project was read without its observed data or results; saving it "
                          "would drop them (read it whole to save it)");
    const auto lock = h5::lock_library();
    h5::write_atomically(path, [&](const h5::Group& root) {
        const int rank = project_rank(project);
        // A 2D project is written as schema 2, which builds before 3D read too; a 3D one needs schema 3.
        root.set_attribute(schema_attribute, std::int64_t(rank == 3 ? 3 : 2));
        const h5::Group models = root.create_group("models");
        for (const auto& slot : model_slots) {
            const Model& model = project.experiment.*slot.model;
            if (!model.vp_mps.empty())
                h5::write_model(models, slot.name, model, std::string(slot.name) + " model");
        }
        project_io::write_acquisition(root, project.experiment.acquisition, rank);
        project_io::write_settings(root, project.experiment);
        project_io::write_observed(root, project.observed);
        project_io::write_results(root, project);
        write_metadata(root, project.metadata);
    });
}

} // namespace fwi
