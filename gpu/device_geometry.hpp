#pragma once
// Source and receiver tables of a shot on the device (geometry_tables.hpp, uploaded), and the per-propagator
// cache of them. Shared by the 2D and the 3D propagators: the tables hold padded linear indices, whatever the
// rank.
#include "geometry_tables.hpp"
#include "kernel_args.hpp"

#include "fwi/propagator.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace fwi::gpu {

template <class Device, class T>
typename Device::template Buffer<T> upload_vector(Device& device, const std::vector<T>& v, const char* what) {
    auto b = device.template alloc<T>(v.size(), what);
    device.upload(b.data(), v.data(), v.size() * sizeof(T));
    return b;
}

/// Source/receiver tables of one shot on the device, with a host copy of the geometry for the cache check.
template <class Device> struct DeviceGeometry {
    template <class T> using Buffer = typename Device::template Buffer<T>;
    const ShotGeometry* address = nullptr;
    ShotGeometry copy;
    std::int32_t receivers = 0;
    Buffer<std::int64_t> source_cell, record_cell, inject_cell;
    Buffer<std::int32_t> source_offset, source_value, record_offset, inject_offset, inject_value;
    Buffer<float> source_weight, record_weight, inject_weight;
    ScatterArgs source, inject; // per-call fields (amplitude, values, dst, snapshot) set at use
    GatherArgs record;
};

/// Tables by geometry address (up to 16, oldest dropped first), checked against a host copy of the stencils:
/// a reused address with new contents is uploaded again.
template <class Device> class GeometryCache {
  public:
    static constexpr std::size_t kEntries = 16;

    /// The tables of `geometry`; `c` is the device's padded c = v^2 dt^2 that the scatters weight by. Throws
    /// ConfigError for stencils outside the padded grid (make_geometry_tables).
    const DeviceGeometry<Device>& get(Device& device, const ShotGeometry& geometry, std::int64_t padded_cells,
                                      const float* c) {
        for (auto& entry : entries_)
            if (entry->address == &geometry) {
                if (same_geometry(entry->copy, geometry)) return *entry;
                entry->address = nullptr; // same address, new contents: rebuild below
            }
        std::erase_if(entries_, [](const auto& e) { return e->address == nullptr; });
        if (entries_.size() >= kEntries) entries_.erase(entries_.begin());

        const GeometryTables t = make_geometry_tables(geometry, padded_cells);
        auto d = std::make_unique<DeviceGeometry<Device>>();
        d->address = &geometry;
        d->copy = geometry;
        d->receivers = t.receivers;
        const char* what = "uploading source and receiver stencils";
        d->source_cell = upload_vector(device, t.source.cell, what);
        d->source_offset = upload_vector(device, t.source.offset, what);
        d->source_value = upload_vector(device, t.source.value, what);
        d->source_weight = upload_vector(device, t.source.weight, what);
        d->record_offset = upload_vector(device, t.record.offset, what);
        d->record_cell = upload_vector(device, t.record.cell, what);
        d->record_weight = upload_vector(device, t.record.weight, what);
        d->inject_cell = upload_vector(device, t.inject.cell, what);
        d->inject_offset = upload_vector(device, t.inject.offset, what);
        d->inject_value = upload_vector(device, t.inject.value, what);
        d->inject_weight = upload_vector(device, t.inject.weight, what);
        d->source = {d->source_cell.data(),
                     d->source_offset.data(),
                     d->source_value.data(),
                     d->source_weight.data(),
                     int(t.source.cell.size()),
                     nullptr,
                     0.0f,
                     c,
                     nullptr,
                     nullptr};
        d->inject = {d->inject_cell.data(),
                     d->inject_offset.data(),
                     d->inject_value.data(),
                     d->inject_weight.data(),
                     int(t.inject.cell.size()),
                     nullptr,
                     0.0f,
                     c,
                     nullptr,
                     nullptr};
        d->record = {d->record_offset.data(),
                     d->record_cell.data(),
                     d->record_weight.data(),
                     t.receivers,
                     nullptr,
                     nullptr,
                     1};
        entries_.push_back(std::move(d));
        return *entries_.back();
    }

  private:
    std::vector<std::unique_ptr<DeviceGeometry<Device>>> entries_;
};

} // namespace fwi::gpu
