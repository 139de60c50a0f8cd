#pragma once
// CheckpointStore owns bytes, not meaning. It keeps propagator states (checkpoints) and gradient snapshots in tiers
// (tier 0: memory; further tiers: memory or a scratch directory on disk), compresses them with one Codec, counts the
// real stored bytes of every tier against that tier's budget, and throws BudgetExceeded rather than exceed it.
#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "fwi/field.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fwi {

class BudgetExceeded : public ResourceError {
public:
    using ResourceError::ResourceError;
};

struct TierConfig {
    std::string name = "ram";
    std::uint64_t budget_bytes = 0;  ///< 0 = unlimited
    bool on_disk = false;
    std::string directory;           ///< for on_disk tiers; a private sub-directory is made and removed
    double write_cost_s = 0;         ///< per stored state, for the performance model (measured or user-given)
    double read_cost_s = 0;
};

enum class ItemKind { State, Snapshot };

struct StoreKey {
    ItemKind kind = ItemKind::State;
    int tier = 0;
    std::int64_t index = 0;  ///< slot for states, step for snapshots
    bool operator==(const StoreKey&) const = default;
};

struct TierStats {
    std::uint64_t bytes_in_use = 0;   ///< compressed bytes held now (what counts against the budget)
    std::uint64_t peak_bytes = 0;
    std::uint64_t raw_bytes_written = 0;
    std::uint64_t stored_bytes_written = 0;
    std::int64_t writes = 0;
    std::int64_t reads = 0;
    double compress_seconds = 0;
    double decompress_seconds = 0;
    double io_seconds = 0;
};

class CheckpointStore {
public:
    /// `threads` > 0 compresses on that many worker threads (put returns before the bytes are final; get, free and
    /// the destructor wait as needed). Throws ConfigError / ResourceError (e.g. unwritable scratch directory).
    CheckpointStore(std::vector<TierConfig> tiers, std::shared_ptr<const Codec> codec, int threads = 0);
    ~CheckpointStore();  ///< waits for workers and removes every file it wrote
    CheckpointStore(const CheckpointStore&) = delete;
    CheckpointStore& operator=(const CheckpointStore&) = delete;

    /// Stores a copy of `fields` under `key` (replacing what was there). Throws BudgetExceeded if the tier's budget
    /// would be exceeded, ResourceError on I/O failure (disk full), ConfigError for a bad tier.
    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields);
    /// Copies the stored item into `fields` (same shapes as stored). Throws Error if absent.
    void get(const StoreKey& key, const std::vector<FieldView>& fields);
    void free(const StoreKey& key);
    bool contains(const StoreKey& key) const;
    /// Blocks until all pending compressions are done (then bytes_in_use is exact).
    void flush();

    int tier_count() const;
    const TierConfig& tier(int t) const;
    TierStats stats(int tier) const;
    const Codec& codec() const;
    /// Overall ratio raw / stored over everything written so far (1 when nothing was written).
    double compression_ratio() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace fwi
