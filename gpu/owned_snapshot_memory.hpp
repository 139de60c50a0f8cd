#pragma once
// Snapshot memory a GPU propagator lends (Propagator::snapshot_memory): a device array whose address range
// the propagator remembers, so that forward_with_snapshot and adjoint recognise a snapshot pointer inside it
// and write or read B^n in place instead of copying it over PCIe. The range is forgotten when the memory is
// destroyed. Device and host addresses never overlap (unified addressing; the host twin's "device" arrays
// are host allocations of their own), so a host pointer is never taken for one of these.
#include "fwi/propagator.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace fwi::gpu {

/// The address ranges of a propagator's live snapshot memories.
class SnapshotRanges {
  public:
    void add(const float* begin, std::size_t floats) {
        const std::lock_guard lock(mutex_);
        ranges_.emplace_back(begin, floats);
    }
    void remove(const float* begin) {
        const std::lock_guard lock(mutex_);
        std::erase_if(ranges_, [begin](const auto& r) { return r.first == begin; });
    }
    /// True when [p, p + floats) lies inside one range.
    bool contains(const float* p, std::size_t floats) const {
        const std::lock_guard lock(mutex_);
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const auto& r) {
            return p >= r.first && floats <= r.second && std::size_t(p - r.first) <= r.second - floats;
        });
    }

  private:
    mutable std::mutex mutex_;
    std::vector<std::pair<const float*, std::size_t>> ranges_;
};

template <class Buffer> class OwnedSnapshotMemory final : public SnapshotMemory {
  public:
    OwnedSnapshotMemory(Buffer buffer, std::shared_ptr<SnapshotRanges> ranges)
        : buffer_(std::move(buffer)), ranges_(std::move(ranges)) {
        ranges_->add(buffer_.data(), buffer_.size());
    }
    ~OwnedSnapshotMemory() override { ranges_->remove(buffer_.data()); }
    OwnedSnapshotMemory(const OwnedSnapshotMemory&) = delete;
    OwnedSnapshotMemory& operator=(const OwnedSnapshotMemory&) = delete;
    float* data() override { return buffer_.data(); }
    std::int64_t floats() const override { return std::int64_t(buffer_.size()); }

  private:
    Buffer buffer_;
    std::shared_ptr<SnapshotRanges> ranges_;
};

} // namespace fwi::gpu
