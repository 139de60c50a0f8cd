// Shot gathers as HDF5 (layout in docs/data-formats.md): /gathers with attribute shot_count, and per shot a
// dataset shot_NNNN of shape (receivers, samples) with attributes dt_s, source_xz_m [x, z] and receivers_xz_m
// (x0, z0, x1, ...); in 3D surveys (any y not 0) also source_y_m and receivers_y_m (y0, y1, ...), so that 2D
// files keep their form.
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
        const auto receivers = d.attribute<std::vector<double>>("receivers_xz_m");
        if (source.size() != 2) d.fail("source_xz_m must hold 2 values");
        // Compared without 2 * shape[0], which overflows for a forged dimension near 2^63 (fuzzing found it).
        if (receivers.size() % 2 != 0 || std::uint64_t(receivers.size() / 2) != std::uint64_t(shape[0]))
            d.fail("receivers_xz_m must hold 2 values per receiver");
        g.source = {source[0], source[1]};
        for (std::size_t r = 0; r + 1 < receivers.size(); r += 2)
            g.receivers.push_back({receivers[r], receivers[r + 1]});
        if (d.has_attribute("source_y_m") || d.has_attribute("receivers_y_m")) {
            g.source.y_m = d.attribute<double>("source_y_m");
            const auto ys = d.attribute<std::vector<double>>("receivers_y_m");
            if (ys.size() != g.receivers.size()) d.fail("receivers_y_m must hold 1 value per receiver");
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
            const h5::Dataset d = group.write_dataset<float>(shot_name(s), g.traces,
                                                             {std::int64_t(g.receivers.size()), g.samples});
            d.set_attribute("dt_s", g.dt_s);
            d.set_attribute("source_xz_m", std::vector<double>{g.source.x_m, g.source.z_m});
            d.set_attribute("receivers_xz_m", receivers);
            if (has_y) {
                d.set_attribute("source_y_m", g.source.y_m);
                d.set_attribute("receivers_y_m", receivers_y);
            }
        }
    });
}

std::vector<Gather> read_gathers_hdf5(const std::string& path) {
    return read_isolated(path, h5::reader_name("gathers"), [&] { return read_gathers(path); });
}

} // namespace fwi
