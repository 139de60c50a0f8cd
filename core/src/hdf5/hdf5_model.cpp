// Standalone HDF5 model files (fwi/hdf5_model.hpp).
#include "fwi/hdf5_model.hpp"

#include "fwi/isolated_read.hpp"
#include "hdf5/atomic_write.hpp"
#include "hdf5/model_layout.hpp"

#include <algorithm>

namespace fwi {

namespace {

/// The dataset a caller did not name: "vp", else the file's only non-empty 2D or 3D float dataset.
std::string find_model_dataset(const h5::Group& root) {
    if (root.has_dataset("vp")) return "vp";
    std::vector<std::string> candidates;
    for (const auto& name : root.datasets_recursive()) {
        const h5::Dataset dataset = root.open_dataset(name);
        const auto shape = dataset.shape();
        const bool model_rank = shape.size() == 2 || shape.size() == 3;
        const bool non_empty = std::all_of(shape.begin(), shape.end(), [](std::int64_t n) { return n > 0; });
        if (model_rank && non_empty && dataset.type_class() == h5::TypeClass::Float)
            candidates.push_back(name);
    }
    if (candidates.size() == 1) return candidates.front();
    std::string listed;
    for (const auto& c : candidates)
        listed += (listed.empty() ? "" : ", ") + c;
    root.fail(candidates.empty() ? "has no dataset 'vp' and no 2D or 3D float dataset"
                                 : "has no dataset 'vp' and several 2D or 3D float datasets (" + listed +
                                       "); name the one to read (fwi new --dataset NAME)");
}

Model read_model(const std::string& path, const std::string& dataset,
                 std::array<double, 3> fallback_spacing_m, const std::string& units) {
    const auto lock = h5::lock_library();
    const h5::File file = h5::File::open(path);
    const h5::Group root = file.root();
    const std::string name = dataset.empty() ? find_model_dataset(root) : dataset;
    return h5::read_model(root.open_dataset(name), &root, fallback_spacing_m, units);
}

} // namespace

Model read_model_hdf5(const std::string& path, const std::string& dataset,
                      std::array<double, 3> fallback_spacing_m, const std::string& units) {
    return read_isolated(path, h5::reader_name("model " + dataset),
                         [&] { return read_model(path, dataset, fallback_spacing_m, units); });
}

void write_model_hdf5(const std::string& path, const Model& model) {
    const auto lock = h5::lock_library();
    h5::write_atomically(path, [&](const h5::Group& root) { h5::write_model(root, "vp", model, "model"); });
}

} // namespace fwi
