#pragma once
// What the executor needs from storage: states by (tier, slot), snapshots by step, with byte accounting.
#include "fwi/checkpoint_store.hpp"
#include "fwi/field.hpp"
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
};

/// Storage for a run's gradient settings (codec, tiers and budgets, scratch directory).
std::unique_ptr<ItemStorage> make_item_storage(const GradientSettings& settings, int tiers);

} // namespace fwi
