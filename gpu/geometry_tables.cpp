#include "geometry_tables.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace fwi::gpu {
namespace {

void validate(const PointStencil& p, std::int64_t padded_cells, const std::string& what) {
    constexpr int most = PointStencil::max_axis_taps;
    if (p.z_taps < 0 || p.z_taps > most || p.y_taps < 0 || p.y_taps > most || p.x_taps < 0 || p.x_taps > most)
        throw ConfigError(what + " has " + std::to_string(p.z_taps) + " x " + std::to_string(p.y_taps) +
                          " x " + std::to_string(p.x_taps) + " taps; at most " + std::to_string(most) +
                          " per axis");
    if (p.taps() == 0) return;
    // Strides are not negative, so the box's first and last taps are its least and greatest cells.
    const std::int64_t first = p.corner, last = p.cell(p.z_taps - 1, p.y_taps - 1, p.x_taps - 1);
    for (std::int64_t c : {first, last})
        if (p.z_stride < 0 || p.y_stride < 0 || c < 0 || c >= padded_cells)
            throw ConfigError(what + " refers to cell " + std::to_string(c) + " outside the padded grid of " +
                              std::to_string(padded_cells) + " cells");
}

struct Entry {
    std::int64_t cell;
    std::int32_t value;
    float weight;
};

/// Groups entries by cell, keeping each cell's entries in their original order (stable sort).
ScatterTable scatter_table(std::vector<Entry> entries) {
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.cell < b.cell; });
    ScatterTable t;
    t.offset.push_back(0);
    for (std::size_t e = 0; e < entries.size(); ++e) {
        if (e > 0 && entries[e].cell != entries[e - 1].cell) t.offset.push_back(std::int32_t(e));
        if (e == 0 || entries[e].cell != entries[e - 1].cell) t.cell.push_back(entries[e].cell);
        t.value.push_back(entries[e].value);
        t.weight.push_back(entries[e].weight);
    }
    if (!entries.empty()) t.offset.push_back(std::int32_t(entries.size()));
    return t;
}

} // namespace

GeometryTables make_geometry_tables(const ShotGeometry& geometry, std::int64_t padded_cells) {
    validate(geometry.source, padded_cells, "source stencil");
    std::size_t entries = std::size_t(geometry.source.taps());
    for (std::size_t r = 0; r < geometry.receivers.size(); ++r) {
        validate(geometry.receivers[r], padded_cells, "receiver " + std::to_string(r) + " stencil");
        entries += std::size_t(geometry.receivers[r].taps());
    }
    if (entries > std::size_t(std::numeric_limits<std::int32_t>::max()))
        throw ConfigError("shot geometry has " + std::to_string(entries) +
                          " stencil entries; too many for the GPU tables");

    GeometryTables t;
    t.receivers = std::int32_t(geometry.receivers.size());
    std::vector<Entry> source;
    geometry.source.for_each_tap([&](std::int64_t cell, float w) { source.push_back({cell, 0, w}); });
    t.source = scatter_table(std::move(source));

    std::vector<Entry> inject;
    t.record.offset.push_back(0);
    for (std::size_t r = 0; r < geometry.receivers.size(); ++r) {
        geometry.receivers[r].for_each_tap([&](std::int64_t cell, float w) {
            t.record.cell.push_back(cell);
            t.record.weight.push_back(w);
            inject.push_back({cell, std::int32_t(r), w});
        });
        t.record.offset.push_back(std::int32_t(t.record.cell.size()));
    }
    t.inject = scatter_table(std::move(inject));
    return t;
}

bool same_geometry(const ShotGeometry& a, const ShotGeometry& b) {
    return a.source == b.source && a.receivers == b.receivers;
}

} // namespace fwi::gpu
