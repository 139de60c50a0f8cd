// ItemStorage over the CheckpointStore: tier 0 in memory under the RAM budget, tier 1 (multilevel plans) in a
// private scratch directory under the disk budget, every item through the run's codec. Uncompressed snapshots
// of in-memory runs bypass the store: they live in a SnapshotArena, written and read in place.
#include "engine/item_storage.hpp"

#include "engine/backend_state_storage.hpp"
#include "engine/snapshot_arena.hpp"
#include "engine/store_codec_timing.hpp"

#include "fwi/byte_text.hpp"
#include "fwi/codec.hpp"
#include "fwi/error.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

namespace fwi {

std::uint64_t ItemStorage::put_state(const StoreKey& key, WaveState& state) {
    state.to_host();
    std::vector<ConstFieldView> fields;
    for (const auto& f : state.fields())
        fields.emplace_back(f);
    put(key, fields);
    return raw_bytes(fields);
}

void ItemStorage::get_state(const StoreKey& key, WaveState& state) {
    get(key, state.fields());
    state.from_host();
}

namespace {

class StoreBackedStorage final : public ItemStorage {
  public:
    StoreBackedStorage(std::vector<TierConfig> tiers, std::shared_ptr<const Codec> codec, int threads)
        : store_(std::move(tiers), std::move(codec), threads) {}

    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields) override {
        store_.put(key, fields);
        if (key.kind == ItemKind::State) ++writes_;
    }
    void get(const StoreKey& key, const std::vector<FieldView>& fields) override {
        store_.get(key, fields);
        if (key.kind == ItemKind::State) ++reads_;
    }
    void free(const StoreKey& key) override { store_.free(key); }
    bool contains(const StoreKey& key) const override { return store_.contains(key); }
    std::vector<std::uint64_t> bytes_in_use() const override {
        std::vector<std::uint64_t> v;
        for (int t = 0; t < store_.tier_count(); ++t)
            v.push_back(store_.stats(t).bytes_in_use);
        return v;
    }
    std::vector<std::uint64_t> peak_bytes() const override {
        std::vector<std::uint64_t> v;
        for (int t = 0; t < store_.tier_count(); ++t)
            v.push_back(store_.stats(t).peak_bytes);
        return v;
    }
    std::uint64_t peak_snapshot_bytes() const override { return store_.stats(0).peak_snapshot_bytes; }
    std::int64_t writes() const override { return writes_; }
    std::int64_t reads() const override { return reads_; }
    double compression_ratio() const override { return store_.compression_ratio(); }
    double compress_seconds() const override { return summed(&TierStats::compress_seconds); }
    double decompress_seconds() const override { return summed(&TierStats::decompress_seconds); }
    double state_compress_seconds() const override { return summed(&TierStats::state_compress_seconds); }
    double state_decompress_seconds() const override { return summed(&TierStats::state_decompress_seconds); }
    std::int64_t items_compressed() const override { return summed(&TierStats::writes); }
    std::int64_t items_decompressed() const override { return summed(&TierStats::reads); }

  private:
    /// One TierStats figure summed over the tiers.
    template <class T> T summed(T TierStats::*figure) const {
        T sum{};
        for (int t = 0; t < store_.tier_count(); ++t)
            sum += store_.stats(t).*figure;
        return sum;
    }

    CheckpointStore store_;
    std::int64_t writes_ = 0, reads_ = 0;
};

/// Snapshots in a SnapshotArena, states in the store; tier 0's counts are the sum of both, its peak tracked
/// after every change (exact for one tier; with a disk tier its workers may move the states' count between
/// two notes, which the inner store's own peak still bounds).
class ArenaSnapshotStorage final : public WrappedItemStorage {
  public:
    ArenaSnapshotStorage(std::unique_ptr<ItemStorage> states, std::int64_t slots, std::int64_t floats,
                         std::unique_ptr<SnapshotMemory> backend_memory)
        : WrappedItemStorage(std::move(states)), arena_(slots, floats, std::move(backend_memory)) {}

    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields) override {
        if (key.kind == ItemKind::State) {
            inner_->put(key, fields);
        } else {
            require_host_slots();
            if (fields.size() != 1 || fields[0].size() != arena_.floats_per_slot())
                throw ConfigError("snapshot of the wrong size for the snapshot arena");
            float* slot = arena_.acquire(key.index);
            if (slot != fields[0].data) std::memcpy(slot, fields[0].data, std::size_t(arena_.slot_bytes()));
        }
        note_peak();
    }
    void get(const StoreKey& key, const std::vector<FieldView>& fields) override {
        if (key.kind == ItemKind::State) return inner_->get(key, fields);
        require_host_slots();
        const float* p = arena_.find(key.index);
        if (p == nullptr) throw Error("snapshot of step " + std::to_string(key.index) + " is not stored");
        if (fields.size() != 1 || fields[0].size() != arena_.floats_per_slot())
            throw ConfigError("snapshot of the wrong size for the snapshot arena");
        if (p != fields[0].data) std::memcpy(fields[0].data, p, std::size_t(arena_.slot_bytes()));
    }
    void free(const StoreKey& key) override {
        if (key.kind == ItemKind::State)
            inner_->free(key);
        else
            arena_.release(key.index);
    }
    bool contains(const StoreKey& key) const override {
        return key.kind == ItemKind::State ? inner_->contains(key) : arena_.find(key.index) != nullptr;
    }
    std::vector<std::uint64_t> bytes_in_use() const override {
        auto v = inner_->bytes_in_use();
        v.at(0) += arena_.bytes_in_use();
        return v;
    }
    std::vector<std::uint64_t> peak_bytes() const override {
        auto v = inner_->peak_bytes();
        v.at(0) = std::max(v.at(0), peak_);
        return v;
    }
    std::uint64_t peak_snapshot_bytes() const override { return arena_.peak_bytes(); }
    std::uint64_t fresh_touched_bytes() const override { return arena_.fresh_bytes(); }
    double touch_seconds() const override { return arena_.touch_seconds(); }
    float* snapshot_slot(std::int64_t step) override {
        float* slot = arena_.acquire(step);
        note_peak();
        return slot;
    }
    const float* snapshot_in_place(std::int64_t step) const override { return arena_.find(step); }

  private:
    /// A backend's memory is written and read by its kernels alone (snapshot_slot, snapshot_in_place).
    void require_host_slots() const {
        if (arena_.in_backend_memory())
            throw Error("snapshots in the backend's memory cannot be copied through the host");
    }
    void note_peak() { peak_ = std::max(peak_, inner_->bytes_in_use().at(0) + arena_.bytes_in_use()); }

    SnapshotArena arena_;
    std::uint64_t peak_ = 0;
};

} // namespace

std::unique_ptr<ItemStorage> make_item_storage(const GradientSettings& settings, int tiers,
                                               std::int64_t peak_snapshots, std::int64_t snapshot_floats,
                                               bool exact_sizes, Propagator* backend,
                                               std::int64_t memory_state_slots) {
    std::vector<TierConfig> config;
    TierConfig ram;
    ram.name = "ram";
    ram.budget_bytes = settings.budget_bytes;
    config.push_back(ram);
    if (tiers >= 2) {
        TierConfig disk;
        disk.name = "disk";
        disk.on_disk = true;
        disk.budget_bytes = settings.disk_budget_bytes;
        disk.directory = settings.scratch_dir;
        config.push_back(disk);
    }
    if (tiers > 2) throw ConfigError("plans with more than two storage tiers are not supported");
    std::shared_ptr<const Codec> codec =
        make_codec(settings.compression.empty() ? "none" : settings.compression);
    // Compression (and disk writes) run on two workers, overlapping the propagation that follows a store; a
    // plain in-memory copy is cheaper inline, and the adaptive schedule needs each stored size at once.
    const int threads = exact_sizes || (codec->name() == "none" && tiers < 2) ? 0 : store_worker_threads;
    // Snapshots always live in tier 0 (memory); StepCosts::snapshots_in_place tells the model the same rule.
    const bool arena = codec->name() == "none" && peak_snapshots > 0 && snapshot_floats > 0;
    // Uncompressed states of tier 0 where the kernels run, when the backend lends memory for them (a GPU's):
    // saved and restored without leaving the device. The budget is tier 0's, as for states in the store.
    const bool uncompressed = codec->name() == "none";
    const auto states_in_backend = [&](std::unique_ptr<ItemStorage> storage) -> std::unique_ptr<ItemStorage> {
        if (!backend || memory_state_slots < 1 || !uncompressed) return storage;
        std::unique_ptr<StateSlots> slots = backend->state_slots(memory_state_slots);
        if (!slots) return storage;
        return keep_states_in_backend(std::move(storage), std::move(slots), settings.budget_bytes);
    };
    if (!arena) {
        // Memory kept from an earlier run's arena is not this run's to hold: its budget does not count it.
        release_retained_memory();
        return states_in_backend(
            std::make_unique<StoreBackedStorage>(std::move(config), std::move(codec), threads));
    }
    const std::uint64_t arena_bytes =
        std::uint64_t(peak_snapshots) * std::uint64_t(snapshot_floats) * sizeof(float);
    if (settings.budget_bytes != 0) {
        if (arena_bytes >= settings.budget_bytes) {
            const auto [need, budget] = compared_bytes(arena_bytes, settings.budget_bytes);
            throw BudgetExceeded(std::to_string(peak_snapshots) + " snapshots need " + need +
                                 " of memory; the memory budget is " + budget);
        }
        config[0].budget_bytes = settings.budget_bytes - arena_bytes; // the states' share
    }
    // Where the kernels run (a GPU's memory) when the backend has room: no transfer per snapshot. The budget
    // counts the arena all the same, so that a plan and its prediction do not depend on where it lives.
    std::unique_ptr<SnapshotMemory> backend_memory =
        backend ? backend->snapshot_memory(peak_snapshots * snapshot_floats) : nullptr;
    auto states = std::make_unique<StoreBackedStorage>(std::move(config), std::move(codec), threads);
    return states_in_backend(std::make_unique<ArenaSnapshotStorage>(
        std::move(states), peak_snapshots, snapshot_floats, std::move(backend_memory)));
}

} // namespace fwi
