// Row-band layout of codec frames and the chunk table of encoded payloads (see chunk_table.hpp).
#include "codec/chunk_table.hpp"

#include "codec/checksum.hpp"
#include "fwi/error.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace fwi::detail {
namespace {

struct TableHead {
    std::uint32_t rows_per_chunk;
    std::uint32_t chunks;
};
static_assert(sizeof(TableHead) == 8 && sizeof(ChunkEntry) == 16);

} // namespace

std::int64_t ChunkLayout::band_rows(std::int64_t chunk) const {
    return std::min(rows_per_chunk, rows - first_row(chunk));
}

ConstFieldView ChunkLayout::band(ConstFieldView field, std::int64_t chunk) const {
    return {field.data + first_row(chunk) * cols, band_rows(chunk), cols, plane_rows};
}

FieldView ChunkLayout::band(FieldView field, std::int64_t chunk) const {
    return {field.data + first_row(chunk) * cols, band_rows(chunk), cols, plane_rows};
}

ChunkLayout chunk_layout(std::int64_t rows, std::int64_t cols, std::int64_t plane_rows) {
    ChunkLayout l;
    l.rows = rows;
    l.cols = cols;
    if (plane_rows < 0 || (plane_rows > 0 && rows % plane_rows != 0))
        throw ConfigError("codec: a 3D field of " + std::to_string(rows) + " rows cannot have " +
                          std::to_string(plane_rows) + " rows per plane");
    l.plane_rows = plane_rows;
    if (rows <= 0 || cols <= 0) return l;
    const std::int64_t row_bytes = cols * std::int64_t(sizeof(float));
    const std::int64_t target_rows = std::int64_t(chunk_target_bytes) / row_bytes;
    // Multiples of 4 rows (2D) or 4 planes (3D) keep ZFP's blocks whole; the table's u32 fields bound the
    // height.
    const std::int64_t unit = 4 * std::max<std::int64_t>(1, plane_rows);
    if (unit > (std::int64_t(1) << 30))
        throw ConfigError("codec: planes of " + std::to_string(plane_rows) + " rows are too large");
    l.rows_per_chunk = std::clamp<std::int64_t>(target_rows / unit * unit, unit, std::int64_t(1) << 30);
    l.chunks = (rows + l.rows_per_chunk - 1) / l.rows_per_chunk;
    return l;
}

std::size_t chunk_table_bytes(const ChunkLayout& layout) {
    return sizeof(TableHead) + std::size_t(layout.chunks) * sizeof(ChunkEntry);
}

void write_chunk_table(const ChunkLayout& layout, const std::vector<ChunkEntry>& entries, std::byte* dst) {
    const TableHead head{std::uint32_t(layout.rows_per_chunk), std::uint32_t(layout.chunks)};
    std::memcpy(dst, &head, sizeof head);
    if (!entries.empty()) std::memcpy(dst + sizeof head, entries.data(), entries.size() * sizeof(ChunkEntry));
}

std::vector<ChunkEntry> read_chunk_table(const std::byte* payload, std::size_t payload_bytes,
                                         const ChunkLayout& layout, const std::string& who) {
    const std::size_t table = chunk_table_bytes(layout);
    if (payload_bytes < table) throw FormatError(who + "corrupt frame: payload shorter than its chunk table");
    TableHead head;
    std::memcpy(&head, payload, sizeof head);
    if (head.rows_per_chunk != std::uint64_t(layout.rows_per_chunk) ||
        head.chunks != std::uint64_t(layout.chunks))
        throw FormatError(who + "corrupt frame: chunk table of " + std::to_string(head.chunks) +
                          " chunks of " + std::to_string(head.rows_per_chunk) + " rows, expected " +
                          std::to_string(layout.chunks) + " of " + std::to_string(layout.rows_per_chunk));
    std::vector<ChunkEntry> entries(std::size_t(layout.chunks));
    std::memcpy(entries.data(), payload + sizeof head, entries.size() * sizeof(ChunkEntry));
    // Summed without overflow: each size is first checked against what is left of the payload.
    std::uint64_t left = payload_bytes - table;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].bytes == 0 || entries[i].bytes > left)
            throw FormatError(who + "corrupt frame: chunk " + std::to_string(i) + " of " +
                              std::to_string(entries[i].bytes) + " bytes does not fit the payload");
        left -= entries[i].bytes;
    }
    if (left != 0)
        throw FormatError(who + "corrupt frame: chunks leave " + std::to_string(left) +
                          " payload bytes unaccounted for");
    return entries;
}

std::uint64_t combined_checksum(const std::vector<std::uint64_t>& chunk_checksums) {
    return checksum64(reinterpret_cast<const std::byte*>(chunk_checksums.data()),
                      chunk_checksums.size() * sizeof(std::uint64_t));
}

} // namespace fwi::detail

namespace fwi {

std::int64_t codec_chunk_rows(std::int64_t cols) {
    return detail::chunk_layout(1, cols).rows_per_chunk;
}

std::size_t codec_chunk_table_bytes(std::int64_t rows, std::int64_t cols) {
    return detail::chunk_table_bytes(detail::chunk_layout(rows, cols));
}

} // namespace fwi
