// Times stores and reads of a disk-tier CheckpointStore in the run's scratch directory (see the header).
#include "engine/disk_tier_probe.hpp"

#include "fwi/checkpoint_store.hpp"
#include "fwi/codec.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace fwi {
namespace {

using Clock = std::chrono::steady_clock;

struct Timed {
    double write_s = 0, read_s = 0; ///< per item, the least of three rounds
};

/// Writes then reads `items` items of `floats` floats each, three times; per-item times of the fastest of
/// three rounds.
Timed time_items(const std::string& directory, std::size_t floats, int items) {
    TierConfig ram;
    TierConfig disk;
    disk.name = "disk-probe";
    disk.on_disk = true;
    disk.directory = directory;
    CheckpointStore store({ram, disk}, make_codec("none"), 0);
    std::vector<float> values(floats);
    for (std::size_t i = 0; i < floats; ++i)
        values[i] = float(i % 1021) * 1e-3f; // not all zero: a file system may treat zero pages specially
    const ConstFieldView in(values.data(), 1, std::int64_t(floats));
    const FieldView out{values.data(), 1, std::int64_t(floats)};
    Timed best;
    for (int round = 0; round < 3; ++round) {
        const auto t0 = Clock::now();
        for (int k = 0; k < items; ++k)
            store.put({ItemKind::State, 1, k}, {in});
        const auto t1 = Clock::now();
        for (int k = 0; k < items; ++k)
            store.get({ItemKind::State, 1, k}, {out});
        const auto t2 = Clock::now();
        for (int k = 0; k < items; ++k)
            store.free({ItemKind::State, 1, k});
        const double w = std::chrono::duration<double>(t1 - t0).count() / items;
        const double r = std::chrono::duration<double>(t2 - t1).count() / items;
        best.write_s = round == 0 ? w : std::min(best.write_s, w);
        best.read_s = round == 0 ? r : std::min(best.read_s, r);
    }
    return best;
}

TierCosts probe(const std::string& directory, std::uint64_t item_bytes) {
    constexpr std::size_t small_floats = 1024; // 4 KiB: almost only the per-file cost
    const Timed small = time_items(directory, small_floats, 32);
    // Items of the run's state size, kept between 1 and 16 MiB: the bandwidth needs no more, and a large 3D
    // state must not turn the probe into gigabytes of writes.
    const std::size_t floats = std::clamp<std::size_t>(std::size_t(item_bytes / sizeof(float)),
                                                       std::size_t(1) << 18, std::size_t(1) << 22);
    const int items =
        int(std::clamp<std::uint64_t>((std::uint64_t(64) << 20) / (floats * sizeof(float)), 2, 16));
    const Timed big = time_items(directory, floats, items);
    const double big_bytes = double(floats * sizeof(float)),
                 small_bytes = double(small_floats * sizeof(float));
    // Two points of t(b) = per_item + b * per_byte; clamped at 0 against noise.
    TierCosts c;
    c.write_s_per_byte = std::max(0.0, (big.write_s - small.write_s) / (big_bytes - small_bytes));
    c.read_s_per_byte = std::max(0.0, (big.read_s - small.read_s) / (big_bytes - small_bytes));
    c.write_s_per_item = std::max(0.0, small.write_s - small_bytes * c.write_s_per_byte);
    c.read_s_per_item = std::max(0.0, small.read_s - small_bytes * c.read_s_per_byte);
    return c;
}

} // namespace

std::optional<TierCosts> measured_disk_tier(const std::string& directory, std::uint64_t item_bytes) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::uint64_t>, std::optional<TierCosts>> measured;
    const std::lock_guard lock(mutex);
    const auto key = std::make_pair(directory, item_bytes);
    if (const auto it = measured.find(key); it != measured.end()) return it->second;
    std::optional<TierCosts> costs;
    try {
        costs = probe(directory, item_bytes);
    } catch (const Error&) {
        // Unwritable or full: keep the assumed costs; the run's own store reports the problem by name.
    }
    measured[key] = costs;
    return costs;
}

} // namespace fwi
