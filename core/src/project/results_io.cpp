// /results: the last misfit and gradient, the iteration history and the optimizer's opaque state.
#include "project/project_io.hpp"

#include "hdf5/model_layout.hpp"

#include <algorithm>

namespace fwi::project_io {

namespace {

/// Dataset names may not contain '/' or be "." (HDF5 path syntax); the optimizer's keys are ours, so refuse.
void check_state_name(const std::string& name) {
    if (name.empty() || name == "." || name.find('/') != std::string::npos)
        throw ConfigError("optimizer state name '" + name + "' cannot be saved (empty, '.' or contains '/')");
}

/// A per-cell array: (nz, nx) or (nz, ny, nx) of its model, or flat when it was saved without a matching grid
/// (see write_cells).
std::vector<float> read_cells(const h5::Group& group, const std::string& name) {
    if (!group.has(name)) return {};
    const h5::Dataset dataset = group.open_dataset(name);
    if (dataset.shape().size() > 3) dataset.fail("must have one, two or three dimensions");
    return dataset.read<float>();
}

void write_iteration(const h5::Group& group, const IterationRecord& record, std::size_t index) {
    group.set_attribute("iteration", std::int64_t(record.iteration));
    group.set_attribute("stage", std::int64_t(record.stage));
    group.set_attribute("freq_hz", record.freq_hz);
    group.set_attribute("misfit", record.misfit);
    group.set_attribute("model_error", record.model_error);
    group.set_attribute("seconds", record.seconds);
    if (!record.model.vp_mps.empty())
        h5::write_model(group, "model", record.model, "model of history entry " + std::to_string(index));
    if (!record.gradient.empty()) h5::write_cells(group, "gradient", record.gradient, record.model.grid);
}

IterationRecord read_iteration(const h5::Group& group) {
    IterationRecord record;
    record.iteration = group.attribute_int("iteration");
    record.stage = group.attribute_int("stage");
    record.freq_hz = group.attribute<double>("freq_hz");
    record.misfit = group.attribute<double>("misfit");
    record.model_error = group.attribute<double>("model_error");
    record.seconds = group.attribute<double>("seconds");
    if (group.has("model")) record.model = h5::read_model(group.open_dataset("model"));
    record.gradient = read_cells(group, "gradient");
    return record;
}

} // namespace

void write_results(const h5::Group& root, const Project& project) {
    const h5::Group results = root.create_group("results");
    results.set_attribute("misfit", project.misfit);
    if (!project.gradient.empty())
        h5::write_cells(results, "gradient", project.gradient, project.experiment.current_model.grid);

    if (!project.history.empty()) {
        const h5::Group history = results.create_group("history");
        history.set_attribute("count", std::int64_t(project.history.size()));
        for (std::size_t i = 0; i < project.history.size(); ++i)
            write_iteration(history.create_group(indexed_name("iter", i)), project.history[i], i);
    }

    if (!project.optimizer_state.empty()) {
        const h5::Group state = results.create_group("optimizer_state");
        for (const auto& [name, values] : project.optimizer_state) {
            check_state_name(name);
            state.write_dataset<double>(name, values, {std::int64_t(values.size())});
        }
    }
}

void read_results(const h5::Group& root, Project& project) {
    const h5::Group results = root.open_group("results");
    project.misfit = results.attribute<double>("misfit");
    project.gradient = read_cells(results, "gradient");

    if (results.has("history")) {
        const h5::Group history = results.open_group("history");
        const std::int64_t count = history.attribute<std::int64_t>("count");
        if (count < 0 || count > max_history)
            history.fail("count " + std::to_string(count) + " is outside 0.." + std::to_string(max_history));
        for (std::int64_t i = 0; i < count; ++i)
            project.history.push_back(
                read_iteration(history.open_group(indexed_name("iter", std::size_t(i)))));
    }

    if (results.has("optimizer_state")) {
        // L-BFGS keeps a few vectors of the model's size per remembered pair; far more is a damaged file.
        const std::int64_t cells = std::max<std::int64_t>(project.experiment.current_model.grid.cells(), 1);
        const std::int64_t max_state = 256 * cells + 4096;
        const h5::Group state = results.open_group("optimizer_state");
        for (const auto& name : state.children()) {
            const h5::Dataset dataset = state.open_dataset(name);
            const auto shape = dataset.shape();
            if (shape.size() != 1) dataset.fail("must have one dimension");
            if (shape[0] > max_state)
                dataset.fail("declares " + std::to_string(shape[0]) +
                             " values, more than the optimizer keeps");
            project.optimizer_state[name] = dataset.read<double>();
        }
    }
}

} // namespace fwi::project_io
