#pragma once
// 64-bit payload checksum of codec frames (the XXH64 algorithm): catches corrupt bytes before a decoder
// library, which trusts its input, reads them. Fast enough (~10 GB/s) to run on raw fields too.
#include <cstddef>
#include <cstdint>

namespace fwi::detail {

std::uint64_t checksum64(const std::byte* data, std::size_t bytes, std::uint64_t seed = 0);

} // namespace fwi::detail
