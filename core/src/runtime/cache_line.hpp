#pragma once
// The cache line the CPU kernels align to: their rows' main loops start on one (cpu_row_terms.hpp), so every
// array they touch starts on one (zeroed_allocator.hpp, the snapshot arena's slots) and a kept snapshot is
// streamed a line at a time (stream_store.hpp). 64 bytes on every x86-64 and most ARM cores.
#include <cstddef>
#include <cstdint>

namespace fwi {

inline constexpr std::size_t cache_line_bytes = 64;

/// `bytes` rounded up to whole cache lines.
constexpr std::uint64_t whole_cache_lines(std::uint64_t bytes) {
    return (bytes + cache_line_bytes - 1) / cache_line_bytes * cache_line_bytes;
}

} // namespace fwi
