#include "store/frame_pool.hpp"

#include <algorithm>
#include <utility>

namespace fwi::detail {

std::vector<std::byte> FramePool::take(std::size_t capacity) {
    {
        const std::lock_guard lock(mutex_);
        // Newest first: the buffer most likely still in cache. The pool holds a few dozen buffers at most.
        const auto it = std::find_if(held_.rbegin(), held_.rend(),
                                     [capacity](const auto& b) { return b.capacity() == capacity; });
        if (it != held_.rend()) {
            std::vector<std::byte> buffer = std::move(*it);
            held_.erase(std::next(it).base());
            bytes_ -= capacity;
            return buffer;
        }
    }
    std::vector<std::byte> buffer;
    buffer.reserve(capacity); // exactly `capacity` from an empty vector
    return buffer;
}

void FramePool::give(std::vector<std::byte> buffer) {
    const std::size_t capacity = buffer.capacity();
    if (capacity == 0) return;
    buffer.clear();
    std::vector<std::vector<std::byte>> dropped; // freed outside the lock
    const std::lock_guard lock(mutex_);
    if (capacity > limit_) {
        dropped.push_back(std::move(buffer));
        return;
    }
    held_.push_back(std::move(buffer));
    bytes_ += capacity;
    trim(dropped);
}

void FramePool::set_limit(std::uint64_t bytes) {
    std::vector<std::vector<std::byte>> dropped; // freed outside the lock
    const std::lock_guard lock(mutex_);
    limit_ = bytes;
    trim(dropped);
}

void FramePool::trim(std::vector<std::vector<std::byte>>& dropped) {
    std::size_t n = 0;
    while (bytes_ > limit_) {
        bytes_ -= held_[n].capacity();
        dropped.push_back(std::move(held_[n++]));
    }
    held_.erase(held_.begin(), held_.begin() + std::ptrdiff_t(n));
}

std::uint64_t FramePool::bytes() const {
    const std::lock_guard lock(mutex_);
    return bytes_;
}

} // namespace fwi::detail
