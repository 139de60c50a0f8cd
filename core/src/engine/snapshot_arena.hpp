#pragma once
// SnapshotArena: where uncompressed gradient snapshots live in memory. One mapping sized for the plan's peak
// number of live snapshots, on 4 KiB pages faulted in by the kernel on the team (page_population.hpp), made
// once per run and reused by every shot; its memory comes from (and goes back to) the process's
// touched-memory pool, so the next run of the process does not fault it in again. The forward kernel writes a
// snapshot straight into its slot and the adjoint reads it in place: no copy, no checksum (the bytes never
// leave memory) and no allocation or page fault per step. A 1000 x 1000 store-all gradient spent most of its
// time in those (docs/benchmarks.md).
//
// A backend that computes elsewhere (a GPU) may lend its own memory for the slots (Propagator::
// snapshot_memory): the arena then only hands out addresses in it, which the host never dereferences.
//
// Invariants: at most `slots` snapshots are held; a step is held at most once; bytes_in_use() counts the held
// slots (slot_stride_bytes each) and peak_bytes() its peak; capacity_bytes() is what the mapping holds from
// the start. Slots in host memory start on cache lines (their stride is rounded up to one), like the
// propagator's arrays, so the kernels' aligned loops stay aligned on the snapshot too (cpu_row_terms.hpp).
#include "engine/touched_memory_pool.hpp"
#include "fwi/propagator.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace fwi {

class SnapshotArena {
  public:
    /// Throws ResourceError when the memory cannot be mapped, ConfigError for a non-positive size.
    SnapshotArena(std::int64_t slots, std::int64_t floats_per_slot);
    /// Slots in a backend's own memory (at least slots * floats_per_slot floats): nothing is mapped or
    /// touched on the host.
    SnapshotArena(std::int64_t slots, std::int64_t floats_per_slot, std::unique_ptr<SnapshotMemory> memory);
    ~SnapshotArena();
    SnapshotArena(const SnapshotArena&) = delete;
    SnapshotArena& operator=(const SnapshotArena&) = delete;

    /// The slot for snapshot `step` to write into; the one already held for it if any. Throws Error when
    /// every slot is held (the plan held more snapshots than it declared).
    float* acquire(std::int64_t step);
    /// The held snapshot `step`, or nullptr.
    const float* find(std::int64_t step) const;
    /// Gives the slot of `step` back; no-op when not held.
    void release(std::int64_t step);
    void release_all();
    /// True when the slots are a backend's memory (their addresses are not for the host to read or write).
    bool in_backend_memory() const { return backend_memory_ != nullptr; }

    std::int64_t floats_per_slot() const { return floats_; }
    /// A snapshot's bytes (what is copied in and out).
    std::uint64_t slot_bytes() const { return std::uint64_t(floats_) * sizeof(float); }
    /// The memory a slot takes: slot_bytes rounded up to a cache line in host memory.
    std::uint64_t slot_stride_bytes() const { return std::uint64_t(stride_) * sizeof(float); }
    std::uint64_t capacity_bytes() const { return slot_stride_bytes() * std::uint64_t(slots_); }
    std::uint64_t bytes_in_use() const { return slot_stride_bytes() * held_.size(); }
    std::uint64_t peak_bytes() const { return peak_; }
    /// The part of the mapping this arena touched for the first time (not served by the pool), and the
    /// seconds that took: the performance model's first-touch cost, measured.
    std::uint64_t fresh_bytes() const { return memory_.fresh_bytes; }
    double touch_seconds() const { return memory_.touch_seconds; }

  private:
    std::int64_t slots_, floats_, stride_; ///< stride_: floats from one slot's start to the next's
    TouchedBlock memory_;
    std::unique_ptr<SnapshotMemory> backend_memory_;
    float* base_ = nullptr;
    std::vector<std::int64_t> free_;                      ///< slot indices not held
    std::unordered_map<std::int64_t, std::int64_t> held_; ///< step -> slot
    std::uint64_t peak_ = 0;
};

/// Anonymous memory for `bytes` on 4 KiB pages, faulted in by the kernel in chunks on the OpenMP team
/// (page_population.hpp). The calibration measures fresh memory through this too. Free with
/// unmap_touched_memory.
void* map_touched_memory(std::size_t bytes);
void unmap_touched_memory(void* p, std::size_t bytes);
/// Faults in (in parallel, page_population.hpp) `bytes` of a mapping at p.
void touch_mapped_memory(void* p, std::size_t bytes);

} // namespace fwi
