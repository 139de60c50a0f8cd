#include "engine/touched_memory_pool.hpp"

#include "engine/snapshot_arena.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "runtime/page_population.hpp"
#include "runtime/seconds_since.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

namespace fwi {
namespace {

std::mutex pool_mutex;
TouchedBlock pool; // guarded by pool_mutex

std::size_t page_rounded(std::size_t bytes) {
    const std::size_t page = system_page_bytes();
    return (bytes + page - 1) / page * page;
}

/// `block` (touched up to its length) made `bytes` long: the tail unmapped, or the mapping grown and the new
/// pages touched.
TouchedBlock resized(TouchedBlock block, std::size_t bytes) {
    if (bytes <= block.bytes) {
        if (bytes < block.bytes) munmap(static_cast<char*>(block.data) + bytes, block.bytes - bytes);
        return {block.data, bytes, 0, 0};
    }
    const auto t0 = std::chrono::steady_clock::now();
    void* p = mremap(block.data, block.bytes, bytes, MREMAP_MAYMOVE);
    if (p == MAP_FAILED) {
        const int err = errno;
        munmap(block.data, block.bytes);
        throw ResourceError("cannot map " + std::to_string(bytes) +
                            " bytes for snapshots: " + std::strerror(err));
    }
    char* tail = static_cast<char*>(p) + block.bytes;
    touch_mapped_memory(tail, bytes - block.bytes);
    return {p, bytes, bytes - block.bytes, seconds_since(t0)};
}

} // namespace

TouchedBlock take_touched_memory(std::size_t bytes) {
    if (bytes == 0) return {};
    bytes = page_rounded(bytes);
    TouchedBlock held;
    {
        const std::lock_guard lock(pool_mutex);
        held = pool;
        pool = {};
    }
    if (held.data != nullptr) return resized(held, bytes);
    const auto t0 = std::chrono::steady_clock::now();
    void* p = map_touched_memory(bytes);
    return {p, bytes, bytes, seconds_since(t0)};
}

void give_back_touched_memory(TouchedBlock block) {
    if (block.data == nullptr) return;
    TouchedBlock old;
    {
        const std::lock_guard lock(pool_mutex);
        old = pool;
        pool = {block.data, block.bytes, 0, 0};
    }
    unmap_touched_memory(old.data, old.bytes);
}

void release_retained_memory() {
    TouchedBlock old;
    {
        const std::lock_guard lock(pool_mutex);
        old = pool;
        pool = {};
    }
    unmap_touched_memory(old.data, old.bytes);
}

void release_retained_snapshot_memory() {
    release_retained_memory();
}

std::size_t retained_touched_bytes() {
    const std::lock_guard lock(pool_mutex);
    return pool.bytes;
}

} // namespace fwi
