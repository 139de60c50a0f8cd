#pragma once
// CheckpointStore owns bytes, not meaning. It keeps propagator states (checkpoints) and gradient snapshots in
// tiers (tier 0: memory; further tiers: memory or a scratch directory on disk), compresses them with one
// Codec, counts the real stored bytes of every tier against that tier's budget, and throws BudgetExceeded
// rather than exceed it.
//
// Accounting. An item's bytes are its codec frames (codec.hpp: header + payload per field), counted exactly.
// A put is checked against the budget BEFORE anything is committed: one that does not fit throws
// BudgetExceeded and leaves the store unchanged (a replaced item included).
//   threads == 0: put compresses on the caller's thread, then checks the exact size, then commits.
//   threads  > 0: put copies the fields into a staging buffer, reserves the worst case
//   (codec.max_compressed_bytes, i.e. raw bytes + one frame header per field) and returns; a worker
//   compresses (and writes, for a disk tier) and then releases the surplus of the reservation ("pessimistic
//   then corrected", as in Kukreja's compression + checkpointing scheme). So bytes_in_use and peak_bytes
//   never exceed the budget, and are exact after flush(). When the reservation does not fit, put first waits
//   for pending items (their surplus comes back) and, if the worst case still does not fit, compresses on the
//   caller's thread and checks the exact size: a put is refused in both modes exactly when its compressed
//   size does not fit. At most 2 * threads items wait in staging (put blocks).
// peak_bytes is the peak of bytes_in_use, reservations included.
// Reuse. Buffers an item no longer needs (a freed item's frames, spent staging and compression scratch) are
// kept for later puts, which otherwise first-touch fresh pages for every state a schedule stores. What is
// kept (retained_bytes) is at most what the memory tiers' budgets leave free and at most their peak_bytes
// less their bytes_in_use: items + kept buffers stay within every budget and within the store's own peak.
//
// Files. A disk tier writes one file per item in a private sub-directory (mkdtemp) of TierConfig::directory
// (the system temp directory if empty). free() removes the item's file; the destructor removes the
// sub-directory and all it holds, also when it runs during stack unwinding; a failed write removes its
// partial file. A replaced item is released before its successor is written, so a tier never holds both: if
// that write fails, the key is absent.
//
// Errors in workers (disk full) are sticky: the failed item is dropped, and every later put/get/flush
// rethrows the error (free and the destructor still clean up). The store may be called from several threads.
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
    std::uint64_t budget_bytes = 0; ///< 0 = unlimited
    bool on_disk = false;
    std::string directory;   ///< for on_disk tiers; a private sub-directory is made there and removed
    double write_cost_s = 0; ///< per stored state, for the performance model (measured or user-given)
    double read_cost_s = 0;
};

enum class ItemKind { State, Snapshot };

struct StoreKey {
    ItemKind kind = ItemKind::State;
    int tier = 0;
    std::int64_t index = 0; ///< slot for states, step for snapshots
    bool operator==(const StoreKey&) const = default;
};

struct TierStats {
    std::uint64_t bytes_in_use =
        0; ///< compressed bytes held now + reservations of pending items (the budget's count)
    std::uint64_t peak_bytes = 0;            ///< peak of bytes_in_use
    std::uint64_t snapshot_bytes_in_use = 0; ///< the part of bytes_in_use held by ItemKind::Snapshot items
    std::uint64_t peak_snapshot_bytes = 0;
    std::int64_t items = 0; ///< items held now (pending ones included)
    std::uint64_t raw_bytes_written = 0;
    std::uint64_t stored_bytes_written = 0;
    std::int64_t writes = 0;     ///< items stored (completed puts)
    std::int64_t reads = 0;      ///< completed gets
    double compress_seconds = 0; ///< summed over threads
    double decompress_seconds = 0;
    double state_compress_seconds = 0; ///< the part of compress_seconds spent on ItemKind::State items
    double state_decompress_seconds = 0;
    double io_seconds = 0; ///< file writes and reads (disk tiers)
};

class CheckpointStore {
  public:
    /// `threads` > 0 compresses on that many worker threads (put returns before the bytes are final; get,
    /// free and the destructor wait as needed). Throws ConfigError / ResourceError (e.g. unwritable scratch
    /// directory).
    CheckpointStore(std::vector<TierConfig> tiers, std::shared_ptr<const Codec> codec, int threads = 0);
    ~CheckpointStore(); ///< waits for workers and removes every file it wrote
    CheckpointStore(const CheckpointStore&) = delete;
    CheckpointStore& operator=(const CheckpointStore&) = delete;

    /// Stores a copy of `fields` under `key` (replacing what was there). Throws BudgetExceeded if the tier's
    /// budget would be exceeded, ResourceError on I/O failure (disk full; naming the file and the errno
    /// text), ConfigError for a bad tier or field.
    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields);
    /// Copies the stored item into `fields` (same count and shapes as stored; FormatError otherwise, or when
    /// a file was damaged). Waits for a pending item. Throws Error if absent, ResourceError when a file
    /// cannot be read.
    void get(const StoreKey& key, const std::vector<FieldView>& fields);
    /// Releases the item (waiting for it if pending) and removes its file; no-op when absent.
    void free(const StoreKey& key);
    bool contains(const StoreKey& key) const;
    /// Blocks until all pending compressions are done (then bytes_in_use is exact); rethrows a worker's
    /// error.
    void flush();

    int tier_count() const;
    const TierConfig& tier(int t) const;
    TierStats stats(int tier) const;
    /// What the store really holds for a tier: the capacity of its item buffers (staging copies and
    /// compressed frames) plus, for a disk tier, the sizes of its files as the file system reports them.
    /// After flush(): bytes_in_use <= allocated_bytes <= bytes_in_use + (capacity slack, zero for the
    /// exact-size frames kept). Bookkeeping (map nodes, ~hundreds of bytes per item) and each worker's
    /// transient compression buffer (one field's worst case) are not included.
    std::uint64_t allocated_bytes(int tier) const;
    /// Bytes of buffers kept for reuse (see Reuse above); not part of any tier's bytes_in_use.
    std::uint64_t retained_bytes() const;
    /// The private scratch sub-directory of a disk tier ("" for a memory tier).
    std::string scratch_directory(int tier) const;
    const Codec& codec() const;
    int threads() const;
    /// Overall ratio raw / stored over everything written so far (1 when nothing was written).
    double compression_ratio() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace fwi
