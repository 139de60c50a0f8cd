#include "hdf5/model_layout.hpp"

#include <cmath>

namespace fwi::h5 {

namespace {

constexpr const char* spacing_attribute = "spacing_m";
constexpr const char* units_attribute = "units";

bool valid_spacing(const std::vector<double>& spacing_m) {
    for (double s : spacing_m)
        if (!std::isfinite(s) || !(s > 0)) return false;
    return !spacing_m.empty();
}

/// The model's shape and spacing in file order: (nz, nx) / [dz, dx] in 2D, (nz, ny, nx) / [dz, dy, dx] in 3D.
std::vector<std::int64_t> file_shape(const Grid& grid) {
    if (grid.rank == 3) return {grid.nz(), grid.ny(), grid.nx()};
    return {grid.nz(), grid.nx()};
}
std::vector<double> file_spacing(const Grid& grid) {
    if (grid.rank == 3) return {grid.dz(), grid.dy(), grid.dx()};
    return {grid.dz(), grid.dx()};
}

std::string axis_names(std::size_t rank) {
    return rank == 3 ? "[dz, dy, dx]" : "[dz, dx]";
}

std::string join(const std::vector<std::int64_t>& values) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    return text;
}

std::vector<double> spacing_from(const Object& holder, const Dataset& dataset, std::size_t rank) {
    const auto values = holder.attribute<std::vector<double>>(spacing_attribute);
    if (values.size() != rank || !valid_spacing(values))
        dataset.fail("needs " + std::to_string(rank) + " positive finite values " + axis_names(rank) +
                     " in attribute '" + std::string(spacing_attribute) + "' of " + holder.path());
    return values;
}

} // namespace

void write_model(const Group& group, const std::string& name, const Model& model, const std::string& what) {
    const Grid& grid = model.grid;
    if (grid.rank != 2 && grid.rank != 3)
        throw ConfigError(what + ": grid rank " + std::to_string(grid.rank) + " is not 2 or 3");
    const auto shape = file_shape(grid);
    const auto spacing = file_spacing(grid);
    for (std::int64_t n : shape)
        if (n <= 0) throw ConfigError(what + ": cannot save a model with grid shape (" + join(shape) + ")");
    if (!valid_spacing(spacing)) {
        std::string text;
        for (std::size_t i = 0; i < spacing.size(); ++i)
            text += (i ? ", " : "") + std::to_string(spacing[i]);
        throw ConfigError(what + ": cannot save a model with spacing (" + text + ") m");
    }
    if (std::int64_t(model.vp_mps.size()) != grid.cells())
        throw ConfigError(what + ": holds " + std::to_string(model.vp_mps.size()) +
                          " values but its grid has " + std::to_string(grid.cells()) + " cells");
    const Dataset dataset = group.write_dataset<float>(name, model.vp_mps, shape);
    dataset.set_attribute(spacing_attribute, spacing);
    dataset.set_attribute(units_attribute, std::string("m/s"));
}

Model read_model(const Dataset& dataset, const Object* spacing_holder,
                 std::array<double, 3> fallback_spacing_m, const std::string& units) {
    const auto shape = dataset.shape();
    if (shape.size() != 2 && shape.size() != 3)
        dataset.fail("is a model only if it has 2 dimensions (nz, nx) or 3 (nz, ny, nx), it has " +
                     std::to_string(shape.size()));
    for (std::int64_t n : shape)
        if (n <= 0) dataset.fail("is an empty model");
    const TypeClass type = dataset.type_class();
    if (type != TypeClass::Float && type != TypeClass::Integer) dataset.fail("is not numeric");

    const std::size_t rank = shape.size();
    const std::vector<double> fallback =
        rank == 3 ? std::vector<double>(fallback_spacing_m.begin(), fallback_spacing_m.end())
                  : std::vector<double>{fallback_spacing_m[0], fallback_spacing_m[2]};
    std::vector<double> spacing_m;
    if (dataset.has_attribute(spacing_attribute)) {
        spacing_m = spacing_from(dataset, dataset, rank);
    } else if (spacing_holder && spacing_holder->has_attribute(spacing_attribute)) {
        spacing_m = spacing_from(*spacing_holder, dataset, rank);
    } else if (valid_spacing(fallback)) {
        spacing_m = fallback;
    } else {
        throw ConfigError("'" + dataset.file_path() + "': " + dataset.path() + ": no '" + spacing_attribute +
                          "' attribute; give the grid spacing " + axis_names(rank) + " in metres");
    }

    Model model;
    model.grid = rank == 3 ? Grid(shape[0], shape[1], shape[2], spacing_m[0], spacing_m[1], spacing_m[2])
                           : Grid(shape[0], shape[1], spacing_m[0], spacing_m[1]);
    model.vp_mps = dataset.read<float>();
    std::string in = units == "auto" ? "m/s" : units;
    if (dataset.has_attribute(units_attribute)) {
        const std::string file_units = dataset.attribute<std::string>(units_attribute);
        if (file_units != "m/s" && file_units != "km/s")
            dataset.fail("has units '" + file_units + "'; expected 'm/s' or 'km/s'");
        if (units != "auto" && units != file_units)
            throw ConfigError("'" + dataset.file_path() + "': " + dataset.path() +
                              " says its velocities are in " + file_units + " (its 'units' attribute), not " +
                              units + " as given: leave the units out or give " + file_units);
        in = file_units;
    }
    if (in == "km/s")
        for (auto& v : model.vp_mps)
            v *= 1000.0f;
    return model;
}

void write_cells(const Group& group, const std::string& name, const std::vector<float>& values,
                 const Grid& grid) {
    const auto shape = file_shape(grid);
    bool fills = std::int64_t(values.size()) == grid.cells();
    for (std::int64_t n : shape)
        fills = fills && n > 0;
    if (fills)
        group.write_dataset<float>(name, values, shape);
    else
        group.write_dataset<float>(name, values, {std::int64_t(values.size())});
}

} // namespace fwi::h5
