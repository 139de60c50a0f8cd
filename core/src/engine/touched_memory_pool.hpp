#pragma once
// Touched memory kept for the next run of the same process. Mapping and first touching the gigabytes of a
// store-all snapshot arena costs 0.1 to 4 s on a virtual machine (page faults, zeroing, the hypervisor
// backing fresh pages), and an inversion, a benchmark or a desktop session maps an arena for every gradient.
// The pool keeps the mapping the last arena gave back and serves the next request from it: trimmed when the
// request is smaller (so a run never holds more than it asked for), grown in place (mremap) with only the new
// pages touched when it is larger.
//
// Invariants: the pool holds at most one mapping; memory handed out is never also held by the pool;
// retained_bytes() is what a request of that size or less would get without touching a page.
#include <cstddef>

namespace fwi {

struct TouchedBlock {
    void* data = nullptr;
    std::size_t bytes = 0;       ///< the mapping's length (a multiple of the page size, >= what was asked)
    std::size_t fresh_bytes = 0; ///< of which newly mapped and first touched by this request
    double touch_seconds = 0;    ///< time spent mapping and touching the fresh part
};

/// `bytes` of touched anonymous memory (huge pages where allowed), from the pool's mapping when it has one.
/// Throws ResourceError when the memory cannot be mapped. bytes == 0 gives an empty block.
TouchedBlock take_touched_memory(std::size_t bytes);
/// Hands a block back: the pool keeps it (unmapping the one it held before, if any).
void give_back_touched_memory(TouchedBlock block);
/// Unmaps what the pool holds (public as fwi::release_retained_snapshot_memory, gradient_engine.hpp).
void release_retained_memory();
/// Bytes the pool holds now.
std::size_t retained_touched_bytes();

} // namespace fwi
