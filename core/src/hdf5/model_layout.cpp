#include "hdf5/model_layout.hpp"

#include <cmath>

namespace fwi::h5 {

namespace {

constexpr const char* spacing_attribute = "spacing_m";
constexpr const char* units_attribute = "units";

bool valid_spacing(const std::array<double, 2>& spacing_m) {
    return std::isfinite(spacing_m[0]) && std::isfinite(spacing_m[1]) && spacing_m[0] > 0 && spacing_m[1] > 0;
}

std::array<double, 2> spacing_from(const Object& holder, const Dataset& dataset) {
    const auto values = holder.attribute<std::vector<double>>(spacing_attribute);
    if (values.size() != 2 || !valid_spacing({values[0], values[1]}))
        dataset.fail("needs two positive finite values [dz, dx] in attribute '" +
                     std::string(spacing_attribute) + "' of " + holder.path());
    return {values[0], values[1]};
}

} // namespace

void write_model(const Group& group, const std::string& name, const Model& model, const std::string& what) {
    const Grid& grid = model.grid;
    if (grid.rank != 2) throw ConfigError(what + ": a 3D model cannot be saved in a project yet (2D schema)");
    if (grid.nz() <= 0 || grid.nx() <= 0)
        throw ConfigError(what + ": cannot save a model with grid shape (" + std::to_string(grid.nz()) +
                          ", " + std::to_string(grid.nx()) + ")");
    if (!valid_spacing({grid.dz(), grid.dx()}))
        throw ConfigError(what + ": cannot save a model with spacing (" + std::to_string(grid.dz()) + ", " +
                          std::to_string(grid.dx()) + ") m");
    if (std::int64_t(model.vp_mps.size()) != grid.cells())
        throw ConfigError(what + ": holds " + std::to_string(model.vp_mps.size()) +
                          " values but its grid has " + std::to_string(grid.cells()) + " cells");
    const Dataset dataset = group.write_dataset<float>(name, model.vp_mps, {grid.nz(), grid.nx()});
    dataset.set_attribute(spacing_attribute, std::vector<double>{grid.dz(), grid.dx()});
    dataset.set_attribute(units_attribute, std::string("m/s"));
}

Model read_model(const Dataset& dataset, const Object* spacing_holder,
                 std::array<double, 2> fallback_spacing_m) {
    const auto shape = dataset.shape();
    if (shape.size() != 2)
        dataset.fail("is a model only if it has 2 dimensions (nz, nx), it has " +
                     std::to_string(shape.size()));
    if (shape[0] <= 0 || shape[1] <= 0) dataset.fail("is an empty model");
    const TypeClass type = dataset.type_class();
    if (type != TypeClass::Float && type != TypeClass::Integer) dataset.fail("is not numeric");

    std::array<double, 2> spacing_m{};
    if (dataset.has_attribute(spacing_attribute)) {
        spacing_m = spacing_from(dataset, dataset);
    } else if (spacing_holder && spacing_holder->has_attribute(spacing_attribute)) {
        spacing_m = spacing_from(*spacing_holder, dataset);
    } else if (valid_spacing(fallback_spacing_m)) {
        spacing_m = fallback_spacing_m;
    } else {
        throw ConfigError("'" + dataset.file_path() + "': " + dataset.path() + ": no '" + spacing_attribute +
                          "' attribute; give the grid spacing (dz, dx) in metres");
    }

    Model model;
    model.grid = Grid(shape[0], shape[1], spacing_m[0], spacing_m[1]);
    model.vp_mps = dataset.read<float>();
    if (dataset.has_attribute(units_attribute)) {
        const std::string units = dataset.attribute<std::string>(units_attribute);
        if (units == "km/s") {
            for (auto& v : model.vp_mps)
                v *= 1000.0f;
        } else if (units != "m/s") {
            dataset.fail("has units '" + units + "'; expected 'm/s' or 'km/s'");
        }
    }
    return model;
}

void write_cells(const Group& group, const std::string& name, const std::vector<float>& values,
                 const Grid& grid) {
    if (grid.nz() > 0 && grid.nx() > 0 && std::int64_t(values.size()) == grid.cells())
        group.write_dataset<float>(name, values, {grid.nz(), grid.nx()});
    else
        group.write_dataset<float>(name, values, {std::int64_t(values.size())});
}

} // namespace fwi::h5
