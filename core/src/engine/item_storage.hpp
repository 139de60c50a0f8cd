#pragma once
// What the executor needs from storage: states by (tier, slot), snapshots by step, with byte accounting.
#include "fwi/checkpoint_store.hpp"
#include "fwi/field.hpp"
#include "fwi/propagator.hpp"
#include "fwi/settings.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace fwi {

class ItemStorage {
  public:
    virtual ~ItemStorage() = default;
    virtual void put(const StoreKey& key, const std::vector<ConstFieldView>& fields) = 0;
    virtual void get(const StoreKey& key, const std::vector<FieldView>& fields) = 0;
    /// Stores a wave state (key.kind == State) and returns its raw bytes. Here through the host: to_host(),
    /// then put() of its fields; storage that keeps states in the backend's memory copies them there.
    virtual std::uint64_t put_state(const StoreKey& key, WaveState& state);
    /// Restores a wave state's fields (not its step): get() into its fields, then from_host().
    virtual void get_state(const StoreKey& key, WaveState& state);
    virtual void free(const StoreKey& key) = 0;
    virtual bool contains(const StoreKey& key) const = 0;
    virtual std::vector<std::uint64_t> bytes_in_use() const = 0; ///< per tier
    virtual std::vector<std::uint64_t> peak_bytes() const = 0;   ///< per tier
    virtual std::uint64_t peak_snapshot_bytes() const = 0;
    virtual std::int64_t writes() const = 0;
    virtual std::int64_t reads() const = 0;
    virtual double compression_ratio() const = 0;
    /// Codec time so far over all tiers (summed over worker threads): compression, decompression.
    virtual double compress_seconds() const = 0;
    virtual double decompress_seconds() const = 0;
    /// The part of those spent on states (writes() and reads() count them).
    virtual double state_compress_seconds() const = 0;
    virtual double state_decompress_seconds() const = 0;
    /// Items that went through the codec so far (states and snapshots): compressed, decompressed.
    virtual std::int64_t items_compressed() const = 0;
    virtual std::int64_t items_decompressed() const = 0;
    /// Snapshot memory this run touched for the first time, and the seconds that took (0 without an arena).
    virtual std::uint64_t fresh_touched_bytes() const { return 0; }
    virtual double touch_seconds() const { return 0; }
    /// Where the forward kernel may write snapshot `step` in place (it is then stored: no put), or nullptr
    /// when snapshots go through put().
    virtual float* snapshot_slot(std::int64_t step) {
        (void)step;
        return nullptr;
    }
    /// The stored snapshot `step` to read in place (free it after use), or nullptr: then get() it.
    virtual const float* snapshot_in_place(std::int64_t step) const {
        (void)step;
        return nullptr;
    }
};

/// A storage that keeps some items itself and passes everything else to the storage it wraps: every call is
/// forwarded to `inner_` unless the wrapper overrides it (the snapshot arena, states in a backend's memory).
class WrappedItemStorage : public ItemStorage {
  public:
    explicit WrappedItemStorage(std::unique_ptr<ItemStorage> inner) : inner_(std::move(inner)) {}
    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields) override {
        inner_->put(key, fields);
    }
    void get(const StoreKey& key, const std::vector<FieldView>& fields) override { inner_->get(key, fields); }
    std::uint64_t put_state(const StoreKey& key, WaveState& state) override {
        return inner_->put_state(key, state);
    }
    void get_state(const StoreKey& key, WaveState& state) override { inner_->get_state(key, state); }
    void free(const StoreKey& key) override { inner_->free(key); }
    bool contains(const StoreKey& key) const override { return inner_->contains(key); }
    std::vector<std::uint64_t> bytes_in_use() const override { return inner_->bytes_in_use(); }
    std::vector<std::uint64_t> peak_bytes() const override { return inner_->peak_bytes(); }
    std::uint64_t peak_snapshot_bytes() const override { return inner_->peak_snapshot_bytes(); }
    std::int64_t writes() const override { return inner_->writes(); }
    std::int64_t reads() const override { return inner_->reads(); }
    double compression_ratio() const override { return inner_->compression_ratio(); }
    double compress_seconds() const override { return inner_->compress_seconds(); }
    double decompress_seconds() const override { return inner_->decompress_seconds(); }
    double state_compress_seconds() const override { return inner_->state_compress_seconds(); }
    double state_decompress_seconds() const override { return inner_->state_decompress_seconds(); }
    std::int64_t items_compressed() const override { return inner_->items_compressed(); }
    std::int64_t items_decompressed() const override { return inner_->items_decompressed(); }
    std::uint64_t fresh_touched_bytes() const override { return inner_->fresh_touched_bytes(); }
    double touch_seconds() const override { return inner_->touch_seconds(); }
    float* snapshot_slot(std::int64_t step) override { return inner_->snapshot_slot(step); }
    const float* snapshot_in_place(std::int64_t step) const override {
        return inner_->snapshot_in_place(step);
    }

  protected:
    std::unique_ptr<ItemStorage> inner_;
};

/// Storage for a run's gradient settings (codec, tiers and budgets, scratch directory). `peak_snapshots` is
/// the most snapshots of `snapshot_floats` floats the run keeps at once (PlanCounts::peak_kept_snapshots):
/// uncompressed in-memory runs keep them in a SnapshotArena of that size (written and read in place), its
/// bytes taken from the memory budget. `exact_sizes`: every put compresses on the caller's thread (its OpenMP
/// team), so bytes_in_use() is exact as soon as put() returns (the adaptive schedule plans on it); otherwise
/// codecs run on store workers. `backend`: the arena is made in its snapshot_memory() when it offers one
/// (a GPU's memory; slot addresses are then for its kernels only), and uncompressed states of tier 0 (slots
/// 0 .. `memory_state_slots` - 1) are kept in its state_slots() when it offers them, under the same budget.
std::unique_ptr<ItemStorage> make_item_storage(const GradientSettings& settings, int tiers,
                                               std::int64_t peak_snapshots = 0,
                                               std::int64_t snapshot_floats = 0, bool exact_sizes = false,
                                               Propagator* backend = nullptr,
                                               std::int64_t memory_state_slots = 0);

} // namespace fwi
