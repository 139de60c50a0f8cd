#include "engine/snapshot_arena.hpp"

#include "fwi/error.hpp"
#include "runtime/cache_line.hpp"
#include "runtime/page_population.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace fwi {

void* map_touched_memory(std::size_t bytes) {
    if (bytes == 0) return nullptr;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw ResourceError("cannot map " + std::to_string(bytes) +
                            " bytes for snapshots: " + std::strerror(errno));
    touch_mapped_memory(p, bytes);
    return p;
}

void touch_mapped_memory(void* p, std::size_t bytes) {
    // Faulted in up front, on 4 KiB pages, by the kernel in chunks on the team (page_population.hpp). Not
    // huge pages: on this product's 2-core VM (free-page reporting), 4.4 GB took 5.2-5.5 s on huge pages
    // right after another process freed its memory and 0.27-5.2 s otherwise, against 0.56-0.65 s on 4 KiB
    // pages populated this way (0.9-1.0 s touching each page).
    populate_pages(p, bytes);
}

void unmap_touched_memory(void* p, std::size_t bytes) {
    if (p != nullptr) munmap(p, bytes);
}

SnapshotArena::SnapshotArena(std::int64_t slots, std::int64_t floats_per_slot)
    : SnapshotArena(slots, floats_per_slot, nullptr) {}

SnapshotArena::SnapshotArena(std::int64_t slots, std::int64_t floats_per_slot,
                             std::unique_ptr<SnapshotMemory> memory)
    : slots_(slots), floats_(floats_per_slot), stride_(floats_per_slot), backend_memory_(std::move(memory)) {
    if (slots < 1 || floats_per_slot < 1)
        throw ConfigError("snapshot arena: " + std::to_string(slots) + " slots of " +
                          std::to_string(floats_per_slot) + " floats");
    if (backend_memory_) {
        if (backend_memory_->floats() / slots < floats_per_slot)
            throw ConfigError("snapshot arena: the backend's memory holds " +
                              std::to_string(backend_memory_->floats()) + " floats, fewer than " +
                              std::to_string(slots) + " slots of " + std::to_string(floats_per_slot));
        base_ = backend_memory_->data();
    } else {
        stride_ =
            std::int64_t(whole_cache_lines(std::uint64_t(floats_per_slot) * sizeof(float)) / sizeof(float));
        memory_ = take_touched_memory(std::size_t(capacity_bytes()));
        base_ = static_cast<float*>(memory_.data);
    }
    free_.reserve(std::size_t(slots));
    for (std::int64_t s = slots - 1; s >= 0; --s)
        free_.push_back(s); // slot 0 first: consecutive steps land in consecutive memory
    held_.reserve(std::size_t(slots));
}

SnapshotArena::~SnapshotArena() {
    give_back_touched_memory(memory_);
}

float* SnapshotArena::acquire(std::int64_t step) {
    if (const auto it = held_.find(step); it != held_.end()) return base_ + it->second * stride_;
    if (free_.empty())
        throw Error("snapshot arena full: " + std::to_string(slots_) + " slots held, step " +
                    std::to_string(step) + " does not fit (the plan declared fewer live snapshots)");
    const std::int64_t slot = free_.back();
    free_.pop_back();
    held_.emplace(step, slot);
    peak_ = std::max(peak_, bytes_in_use());
    return base_ + slot * stride_;
}

const float* SnapshotArena::find(std::int64_t step) const {
    const auto it = held_.find(step);
    return it == held_.end() ? nullptr : base_ + it->second * stride_;
}

void SnapshotArena::release(std::int64_t step) {
    const auto it = held_.find(step);
    if (it == held_.end()) return;
    free_.push_back(it->second);
    held_.erase(it);
}

void SnapshotArena::release_all() {
    for (const auto& [step, slot] : held_)
        free_.push_back(slot);
    held_.clear();
}

} // namespace fwi
