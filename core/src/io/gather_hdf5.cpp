// Shot gathers as HDF5 (layout in docs/data-formats.md): /gathers with attribute shot_count, and per shot a
// dataset shot_NNNN of shape (receivers, samples) with attributes dt_s and source_xz_m [x, z], and a dataset
// shot_NNNN_receivers_xz_m of shape (receivers, 2); in 3D surveys (any y not 0) also the attribute source_y_m
// and a dataset shot_NNNN_receivers_y_m (receivers), so that 2D files keep their form.
// The receivers' positions are datasets because an attribute is held in its object's header, which the
// HDF5 format FWI Studio writes limits to 64 KiB: 4096 receivers or more failed to write after the whole run.
// Files from earlier builds, which kept them as attributes receivers_xz_m and receivers_y_m of the shot
// dataset, are still read.
#include "fwi/error.hpp"
#include "fwi/gather.hpp"
#include "fwi/isolated_read.hpp"
#include "hdf5/atomic_write.hpp"
#include "hdf5/h5.hpp"

#include <cstdio>

namespace fwi {
namespace {

std::string shot_name(std::size_t s) {
    char name[32];
    std::snprintf(name, sizeof name, "shot_%04zu", s);
    return name;
}

std::string receivers_xz_name(std::size_t s) {
    return shot_name(s) + "_receivers_xz_m";
}
std::string receivers_y_name(std::size_t s) {
    return shot_name(s) + "_receivers_y_m";
}

/// A shot's receiver coordinates: the dataset `dataset_name` of shape (receivers, per_receiver) or
/// (receivers) when per_receiver is 1, else (files of earlier builds) the shot dataset's attribute
/// `attribute_name`.
std::vector<double> read_receiver_coordinates(const h5::Group& group, const h5::Dataset& shot,
                                              const std::string& dataset_name,
                                              const std::string& attribute_name, std::int64_t receivers,
                                              std::int64_t per_receiver) {
    if (group.has_dataset(dataset_name)) {
        const h5::Dataset d = group.open_dataset(dataset_name);
        return per_receiver == 1 ? d.read<double>({receivers}) : d.read<double>({receivers, per_receiver});
    }
    const auto values = shot.attribute<std::vector<double>>(attribute_name);
    // Compared without per_receiver * receivers, which overflows for a forged dimension near 2^63 (fuzzing
    // found it).
    if (values.size() % std::size_t(per_receiver) != 0 ||
        std::uint64_t(values.size() / std::size_t(per_receiver)) != std::uint64_t(receivers))
        shot.fail(attribute_name + " must hold " + std::to_string(per_receiver) + " value" +
                  (per_receiver == 1 ? "" : "s") + " per receiver");
    return values;
}

std::vector<Gather> read_gathers(const std::string& path) {
    const auto lock = h5::lock_library();
    const h5::File file = h5::File::open(path);
    const h5::Group root = file.root();
    if (!root.has_group("gathers")) throw FormatError(path + ": no /gathers group (not a gather file)");
    const h5::Group group = root.open_group("gathers");
    const auto shots = group.attribute<std::int64_t>("shot_count");
    if (shots < 0) group.fail("shot_count is negative");
    std::vector<Gather> gathers;
    for (std::int64_t s = 0; s < shots; ++s) {
        const h5::Dataset d = group.open_dataset(shot_name(std::size_t(s)));
        const auto shape = d.shape();
        if (shape.size() != 2) d.fail("must have shape (receivers, samples)");
        Gather g;
        g.samples = shape[1];
        g.dt_s = d.attribute<double>("dt_s");
        const auto source = d.attribute<std::vector<double>>("source_xz_m");
        if (source.size() != 2) d.fail("source_xz_m must hold 2 values");
        const auto receivers = read_receiver_coordinates(group, d, receivers_xz_name(std::size_t(s)),
                                                         "receivers_xz_m", shape[0], 2);
        g.source = {source[0], source[1]};
        for (std::size_t r = 0; r + 1 < receivers.size(); r += 2)
            g.receivers.push_back({receivers[r], receivers[r + 1]});
        if (d.has_attribute("source_y_m") || d.has_attribute("receivers_y_m") ||
            group.has(receivers_y_name(std::size_t(s)))) {
            g.source.y_m = d.attribute<double>("source_y_m");
            const auto ys = read_receiver_coordinates(group, d, receivers_y_name(std::size_t(s)),
                                                      "receivers_y_m", shape[0], 1);
            for (std::size_t r = 0; r < ys.size(); ++r)
                g.receivers[r].y_m = ys[r];
        }
        g.traces = d.read<float>();
        validate_gather(g, path + " shot " + std::to_string(s));
        gathers.push_back(std::move(g));
    }
    return gathers;
}

} // namespace

void write_gathers_hdf5(const std::string& path, const std::vector<Gather>& gathers) {
    for (std::size_t s = 0; s < gathers.size(); ++s)
        validate_gather(gathers[s], "shot " + std::to_string(s));
    h5::write_atomically(path, [&](const h5::Group& root) {
        const h5::Group group = root.create_group("gathers");
        group.set_attribute("shot_count", std::int64_t(gathers.size()));
        for (std::size_t s = 0; s < gathers.size(); ++s) {
            const Gather& g = gathers[s];
            std::vector<double> receivers, receivers_y;
            bool has_y = g.source.y_m != 0;
            for (const Point& r : g.receivers) {
                receivers.push_back(r.x_m);
                receivers.push_back(r.z_m);
                receivers_y.push_back(r.y_m);
                has_y = has_y || r.y_m != 0;
            }
            const std::int64_t count = std::int64_t(g.receivers.size());
            const h5::Dataset d = group.write_dataset<float>(shot_name(s), g.traces, {count, g.samples});
            d.set_attribute("dt_s", g.dt_s);
            d.set_attribute("source_xz_m", std::vector<double>{g.source.x_m, g.source.z_m});
            group.write_dataset<double>(receivers_xz_name(s), receivers, {count, 2});
            if (has_y) {
                d.set_attribute("source_y_m", g.source.y_m);
                group.write_dataset<double>(receivers_y_name(s), receivers_y, {count});
            }
        }
    });
}

std::vector<Gather> read_gathers_hdf5(const std::string& path) {
    return read_isolated(path, h5::reader_name("gathers"), [&] { return read_gathers(path); });
}

} // namespace fwi
