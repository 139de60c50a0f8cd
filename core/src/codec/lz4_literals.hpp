#pragma once
// Two helpers of the lz4 codec for bands that LZ4 cannot shrink (a wavefield that fills the grid: floats
// with noisy low mantissa bits). LZ4's matcher spends its full time on such data and saves about 2%
// (docs/benchmarks.md, "Codec cost per state": 0.85 GB/s a core for a ratio of 1.02), so the codec samples a
// band first and, where the samples do not shrink, writes the band as one literal run instead.
//
// LITERAL BLOCK: an LZ4 block that is a single sequence of literals and no match is valid LZ4 (the block
// format ends with a literals-only sequence), so any LZ4 decoder, this codec's unchanged, decodes it at copy
// speed. Layout: a token whose high nibble is min(n, 15) and low nibble 0; if n >= 15, the rest n - 15 as
// bytes of 255 and one final byte below 255; then the n bytes. Its size, n + 1 + (n >= 15 ? (n - 15) / 255
// + 1 : 0), never exceeds LZ4_compressBound(n) = n + n / 255 + 16.
#include <cstddef>

namespace fwi::detail {

/// Bytes of the literal block of n bytes (above).
std::size_t lz4_literal_block_bytes(std::size_t n) noexcept;

/// Writes src[0, n) as one literal block into dst[0, capacity); returns its size, or 0 when capacity is
/// smaller than lz4_literal_block_bytes(n).
std::size_t write_lz4_literal_block(const std::byte* src, std::size_t n, std::byte* dst,
                                    std::size_t capacity) noexcept;

/// True when LZ4 is expected to save under 1/16 of these bytes: eight samples of 4 KiB spread evenly over
/// them, each compressed alone, shrink together by less than 1/16. A range under 64 KiB is never judged so
/// (false): it costs little to compress whole.
bool lz4_sampled_incompressible(const std::byte* src, std::size_t n);

} // namespace fwi::detail
