#pragma once
// Byte buffers the checkpoint store keeps for reuse: the frames of freed items and the encoders' scratch.
// A checkpoint schedule writes and frees states of one size over and over. A fresh buffer of a state's size
// is fresh pages (glibc maps blocks that large), and first touching them costs more than the copy itself: a
// 3D Revolve gradient on the salt model (27.5 MiB states, 1047 writes) took 6.9 million page faults and 53 s,
// against 14 s of kernels, on a virtual machine that returns freed memory to its host.
//
// Invariants: a buffer is either handed out or held here, never both; the capacities held never exceed the
// limit (the oldest buffers go first, so sizes in use now, such as a state's staging and its fields' scratch,
// push out sizes seen once, such as compressed frames); take() returns an empty buffer whose capacity is
// exactly what was asked, so a frame made from it is counted exactly. Thread-safe: one mutex, a leaf lock
// (nothing else is locked under it).
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace fwi::detail {

class FramePool {
  public:
    /// An empty buffer of capacity exactly `capacity`: one held here of that capacity, else a new one.
    std::vector<std::byte> take(std::size_t capacity);
    /// Keeps `buffer` (its contents are dropped), freeing the oldest held ones beyond the limit.
    void give(std::vector<std::byte> buffer);
    /// Frees held buffers, oldest first, until at most `bytes` are held; later gives respect it.
    void set_limit(std::uint64_t bytes);
    std::uint64_t bytes() const;

  private:
    mutable std::mutex mutex_;
    void trim(std::vector<std::vector<std::byte>>& dropped); ///< to the limit, oldest first; lock held

    std::vector<std::vector<std::byte>> held_; ///< oldest first
    std::uint64_t bytes_ = 0;
    std::uint64_t limit_ = 0;
};

} // namespace fwi::detail
