#include "geometry_tables.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

namespace fwi::gpu {
namespace {

void validate(const PointStencil& p, std::int64_t padded_cells, const std::string& what) {
    if (p.cell.size() != p.weight.size())
        throw ConfigError(what + " has " + std::to_string(p.cell.size()) + " cells but " +
                          std::to_string(p.weight.size()) + " weights");
    for (std::int64_t c : p.cell)
        if (c < 0 || c >= padded_cells)
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

bool same_stencil(const PointStencil& a, const PointStencil& b) {
    return a.cell.size() == b.cell.size() && a.weight.size() == b.weight.size() &&
           std::memcmp(a.cell.data(), b.cell.data(), a.cell.size() * sizeof(std::int64_t)) == 0 &&
           std::memcmp(a.weight.data(), b.weight.data(), a.weight.size() * sizeof(float)) == 0;
}

} // namespace

GeometryTables make_geometry_tables(const ShotGeometry& geometry, std::int64_t padded_cells) {
    validate(geometry.source, padded_cells, "source stencil");
    std::size_t entries = geometry.source.cell.size();
    for (std::size_t r = 0; r < geometry.receivers.size(); ++r) {
        validate(geometry.receivers[r], padded_cells, "receiver " + std::to_string(r) + " stencil");
        entries += geometry.receivers[r].cell.size();
    }
    if (entries > std::size_t(std::numeric_limits<std::int32_t>::max()))
        throw ConfigError("shot geometry has " + std::to_string(entries) +
                          " stencil entries; too many for the GPU tables");

    GeometryTables t;
    t.receivers = std::int32_t(geometry.receivers.size());
    std::vector<Entry> source;
    for (std::size_t k = 0; k < geometry.source.cell.size(); ++k)
        source.push_back({geometry.source.cell[k], 0, geometry.source.weight[k]});
    t.source = scatter_table(std::move(source));

    std::vector<Entry> inject;
    t.record.offset.push_back(0);
    for (std::size_t r = 0; r < geometry.receivers.size(); ++r) {
        const PointStencil& p = geometry.receivers[r];
        for (std::size_t k = 0; k < p.cell.size(); ++k) {
            t.record.cell.push_back(p.cell[k]);
            t.record.weight.push_back(p.weight[k]);
            inject.push_back({p.cell[k], std::int32_t(r), p.weight[k]});
        }
        t.record.offset.push_back(std::int32_t(t.record.cell.size()));
    }
    t.inject = scatter_table(std::move(inject));
    return t;
}

bool same_geometry(const ShotGeometry& a, const ShotGeometry& b) {
    if (a.receivers.size() != b.receivers.size() || !same_stencil(a.source, b.source)) return false;
    for (std::size_t r = 0; r < a.receivers.size(); ++r)
        if (!same_stencil(a.receivers[r], b.receivers[r])) return false;
    return true;
}

} // namespace fwi::gpu
