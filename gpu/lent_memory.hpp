#pragma once
// Memory a GPU propagator lends for gradient snapshots and for checkpoint states.
//
// Snapshot memory (Propagator::snapshot_memory): a device array whose address range
// the propagator remembers, so that forward_with_snapshot and adjoint recognise a snapshot pointer inside it
// and write or read B^n in place instead of copying it over PCIe. The range is forgotten when the memory is
// destroyed. Device and host addresses never overlap (unified addressing; the host twin's "device" arrays
// are host allocations of their own), so a host pointer is never taken for one of these.
#include "fwi/error.hpp"
#include "fwi/propagator.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
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

/// Wave-state checkpoint slots in device memory (Propagator::state_slots): a save copies the state's device
/// arrays into its slot (laid out as fields()) and a load copies them back, on the compute stream, in step
/// order. Wave is the propagator's state type, whose parts(block) names the arrays and their places.
template <class Device, class Wave> class DeviceStateSlots final : public StateSlots {
  public:
    DeviceStateSlots(Device& device, typename Device::template Buffer<float> block, std::int64_t count,
                     std::size_t floats_per_slot)
        : device_(device), block_(std::move(block)), count_(count), floats_(floats_per_slot) {}
    std::int64_t count() const override { return count_; }
    std::uint64_t slot_bytes() const override { return std::uint64_t(floats_) * sizeof(float); }
    void save(const WaveState& state, std::int64_t slot) override {
        device_.activate();
        for (const auto& part : static_cast<const Wave&>(state).parts(at(slot)))
            device_.copy_on_device(const_cast<void*>(part.src), part.dst, part.bytes);
    }
    void load(std::int64_t slot, WaveState& state) override {
        device_.activate();
        for (const auto& part : static_cast<const Wave&>(state).parts(at(slot)))
            device_.copy_on_device(part.dst, part.src, part.bytes);
    }

  private:
    float* at(std::int64_t slot) const {
        if (slot < 0 || slot >= count_)
            throw Error("state slot " + std::to_string(slot) + " of " + std::to_string(count_));
        return block_.data() + std::size_t(slot) * floats_;
    }
    Device& device_;
    typename Device::template Buffer<float> block_;
    std::int64_t count_;
    std::size_t floats_;
};

} // namespace fwi::gpu
