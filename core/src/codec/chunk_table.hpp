#pragma once
// Row bands ("chunks") that a framed codec encodes independently, and the chunk table that leads an encoded
// payload. The band height depends only on the field's width, never on the thread count, so a frame's bytes
// are the same whatever the number of threads that made it.
//
// Encoded payload layout (native-endian): u32 rows per chunk, u32 chunk count, then per chunk {u64 bytes,
// u64 checksum of those bytes}, then the chunks' bytes back to back in row order. The frame header's checksum
// covers the table; each entry's checksum covers its chunk, so every payload byte is checked before a decoder
// library sees it.
#include "fwi/field.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fwi::detail {

/// Target raw size of one band: small enough to stay in a core's L2 cache while it is encoded and to give
/// two or more threads work on a field of a few MB, large enough that each band's set-up and table entry
/// cost < 1% (measured: docs/benchmarks.md, "Codec cost per state").
inline constexpr std::size_t chunk_target_bytes = 512 * 1024;

struct ChunkLayout {
    std::int64_t rows = 0, cols = 0;
    std::int64_t plane_rows = 0;     ///< a 3D field's rows per z-plane (field.hpp); 0 for a 2D field
    std::int64_t rows_per_chunk = 0; ///< 4 rows (2D) or 4 planes (3D) times k: whole ZFP blocks; the last
                                     ///< band may be shorter
    std::int64_t chunks = 0;

    std::int64_t first_row(std::int64_t chunk) const { return chunk * rows_per_chunk; }
    std::int64_t band_rows(std::int64_t chunk) const;
    ConstFieldView band(ConstFieldView field, std::int64_t chunk) const;
    FieldView band(FieldView field, std::int64_t chunk) const;
};

/// Bands of a rows x cols field (both > 0; an empty field has no chunks). A 3D field (plane_rows > 0) is cut
/// between whole groups of 4 z-planes, so each band holds whole 4x4x4 blocks. Throws ConfigError when
/// plane_rows does not divide rows.
ChunkLayout chunk_layout(std::int64_t rows, std::int64_t cols, std::int64_t plane_rows = 0);

struct ChunkEntry {
    std::uint64_t bytes = 0;
    std::uint64_t checksum = 0;
};

/// Size of the table of a layout (a multiple of 8, so chunks stay word aligned after it).
std::size_t chunk_table_bytes(const ChunkLayout& layout);

/// Writes the table of `entries` (one per chunk of `layout`) to dst[0, chunk_table_bytes(layout)).
void write_chunk_table(const ChunkLayout& layout, const std::vector<ChunkEntry>& entries, std::byte* dst);

/// Reads the table at the start of an encoded payload and checks it before anything is decoded: it must
/// describe `layout` (same band height and count), every chunk must be non-empty, and the chunks must fill
/// exactly the rest of the payload. Throws FormatError (prefixed by `who`) otherwise.
std::vector<ChunkEntry> read_chunk_table(const std::byte* payload, std::size_t payload_bytes,
                                         const ChunkLayout& layout, const std::string& who);

/// One checksum of a list of chunk checksums (a raw frame's header checksum).
std::uint64_t combined_checksum(const std::vector<std::uint64_t>& chunk_checksums);

} // namespace fwi::detail
