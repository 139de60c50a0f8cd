#include "codec/framed_codec.hpp"

#include "codec/checksum.hpp"
#include "codec/chunk_loop.hpp"
#include "fwi/error.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <thread>

namespace fwi::detail {
namespace {

// Version 2 ('2'): payloads are chunked (chunk_table.hpp). Version-1 frames are rejected as foreign.
constexpr char frame_magic[4] = {'F', 'W', 'Z', '2'};
constexpr std::uint8_t flag_stored_raw = 1;
constexpr std::uint8_t flag_unchecked = 2; // append_unchecked_frame: never accepted by decompress()

struct FrameHeader {
    char magic[4];
    std::uint8_t codec;
    std::uint8_t flags;
    std::uint16_t reserved;
    std::int64_t rows;
    std::int64_t cols;
    std::uint64_t param;
    std::uint64_t payload_bytes;
    std::uint64_t checksum;
};
static_assert(sizeof(FrameHeader) == codec_frame_header_bytes);

std::string shape(std::int64_t rows, std::int64_t cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
}

/// The header's checksum of a 3D field (plane_rows > 0) also depends on plane_rows, so a frame is only ever
/// decoded with the plane size it was encoded with (ZFP's 3D and 2D streams are not interchangeable); 2D
/// frames keep the plain checksum.
std::uint64_t frame_checksum(std::uint64_t sum, std::int64_t plane_rows) {
    return plane_rows == 0 ? sum : sum ^ (0x9E3779B97F4A7C15ull * std::uint64_t(plane_rows));
}

FrameHeader header(CodecId id, std::uint8_t flags, ConstFieldView field, std::uint64_t param,
                   std::uint64_t payload_bytes, std::uint64_t checksum) {
    FrameHeader h{};
    std::memcpy(h.magic, frame_magic, sizeof h.magic);
    h.codec = std::uint8_t(id);
    h.flags = flags;
    h.rows = field.rows;
    h.cols = field.cols;
    h.param = param;
    h.payload_bytes = payload_bytes;
    h.checksum = checksum;
    return h;
}

void reserve_geometric(std::vector<std::byte>& out, std::size_t needed) {
    if (out.capacity() < needed) out.reserve(std::max(needed, 2 * out.capacity()));
}

void append_bytes(std::vector<std::byte>& out, const void* data, std::size_t n) {
    const auto* p = static_cast<const std::byte*>(data);
    out.insert(out.end(), p, p + n);
}

/// Appends a raw frame: the header, then the field's values. Appended piece by piece: no zero-filled
/// worst-case buffer, and the output is one pass of memcpy; growth stays geometric for callers that append
/// many frames to one buffer.
void append_raw_frame(const FrameHeader& h, ConstFieldView field, std::vector<std::byte>& out) {
    const auto raw = std::size_t(h.payload_bytes);
    reserve_geometric(out, out.size() + codec_frame_header_bytes + raw);
    append_bytes(out, &h, sizeof h);
    append_bytes(out, field.data, raw);
}

/// Copies a raw payload into `field` band by band on the team; with `sums`, each band's checksum too,
/// taken while the band is in cache.
void copy_raw_bands(const std::byte* payload, const ChunkLayout& layout, FieldView field,
                    std::vector<std::uint64_t>* sums) {
    for_each_chunk(layout.chunks, [&](std::int64_t i) {
        const FieldView band = layout.band(field, i);
        const std::size_t n = std::size_t(band.size()) * sizeof(float);
        const std::byte* src = payload + std::size_t(layout.first_row(i) * layout.cols) * sizeof(float);
        if (sums) (*sums)[std::size_t(i)] = checksum64(src, n);
        std::memcpy(band.data, src, n);
    });
}

/// Waits until `turn` reaches `band`; false when `stop` is raised first. The wait is for a band another
/// thread is encoding, so it spins briefly, then yields the core (on a busy machine that thread may be the
/// one waiting for it).
bool wait_for_turn(const std::atomic<std::int64_t>& turn, std::int64_t band, const std::atomic<bool>& stop) {
    for (int spins = 0; turn.load(std::memory_order_acquire) != band; ++spins) {
        if (stop.load(std::memory_order_relaxed)) return false;
        if (spins >= 100) std::this_thread::yield();
    }
    return !stop.load(std::memory_order_relaxed);
}

} // namespace

std::size_t field_bytes(std::int64_t rows, std::int64_t cols) {
    if (rows < 0 || cols < 0) throw ConfigError("codec: negative field shape " + shape(rows, cols));
    const auto values = std::uint64_t(rows) * std::uint64_t(cols);
    if (cols != 0 && values / std::uint64_t(cols) != std::uint64_t(rows))
        throw ConfigError("codec: field shape " + shape(rows, cols) + " overflows");
    return std::size_t(values) * sizeof(float);
}

bool all_finite(ConstFieldView field) {
    // Exponent bits all ones <=> NaN or inf; the branch-free OR keeps the loop vectorised.
    constexpr std::uint32_t exponent = 0x7f800000u;
    const float* data = field.data;
    const std::int64_t n = field.size();
    std::uint32_t any = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const auto bits = std::bit_cast<std::uint32_t>(data[i]);
        any |= std::uint32_t((bits & exponent) == exponent);
    }
    return any == 0;
}

FramedCodec::FramedCodec(CodecId id, std::uint64_t param, std::string name, bool lossless)
    : id_(id), param_(param), name_(std::move(name)), lossless_(lossless) {}

std::size_t FramedCodec::max_compressed_bytes(std::int64_t rows, std::int64_t cols) const {
    return codec_frame_header_bytes + field_bytes(rows, cols);
}

std::size_t FramedCodec::compress(ConstFieldView field, std::vector<std::byte>& out) const {
    const std::size_t raw = field_bytes(field.rows, field.cols);
    const std::size_t old = out.size();
    try {
        const ChunkLayout layout = chunk_layout(field.rows, field.cols, field.plane_rows);
        if (layout.chunks > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
            throw ResourceError("codec '" + name_ + "': field of " + shape(field.rows, field.cols) +
                                " has too many chunks");
        if (raw > 0 && append_encoded(field, layout, out, old)) return out.size() - old;
        append_raw_frame(header(id_, flag_stored_raw, field, param_, raw,
                                frame_checksum(raw_checksum(field, layout), field.plane_rows)),
                         field, out);
        return out.size() - old;
    } catch (...) {
        out.resize(old);
        throw;
    }
}

void append_unchecked_frame(ConstFieldView field, std::vector<std::byte>& out) {
    append_raw_frame(header(CodecId::None, flag_stored_raw | flag_unchecked, field, 0,
                            field_bytes(field.rows, field.cols), 0),
                     field, out);
}

void read_unchecked_frame(const std::byte* in, std::size_t bytes, FieldView field) {
    const std::size_t raw = field_bytes(field.rows, field.cols);
    FrameHeader h;
    if (bytes != codec_frame_header_bytes + raw)
        throw FormatError("unchecked frame of " + std::to_string(bytes) + " bytes for a " +
                          shape(field.rows, field.cols) + " field");
    std::memcpy(&h, in, sizeof h);
    if (std::memcmp(h.magic, frame_magic, sizeof h.magic) != 0 || h.codec != std::uint8_t(CodecId::None) ||
        h.flags != (flag_stored_raw | flag_unchecked) || h.rows != field.rows || h.cols != field.cols ||
        h.payload_bytes != raw)
        throw FormatError("not an unchecked frame of a " + shape(field.rows, field.cols) + " field");
    copy_raw_bands(in + codec_frame_header_bytes, chunk_layout(field.rows, field.cols, field.plane_rows),
                   field, nullptr);
}

bool FramedCodec::append_encoded(ConstFieldView field, const ChunkLayout& layout, std::vector<std::byte>& out,
                                 std::size_t old) const {
    const auto chunks = std::size_t(layout.chunks);
    std::vector<std::uint8_t> plain(chunks, 0);
    if (judges_bands()) {
        for_each_chunk(layout.chunks, [&](std::int64_t i) {
            plain[std::size_t(i)] = judged_incompressible(layout.band(field, i)) ? 1 : 0;
        });
        if (std::all_of(plain.begin(), plain.end(), [](std::uint8_t p) { return p != 0; })) return false;
    }
    // An encoded frame is kept only while its payload is no larger than the raw bytes, so it never passes
    // the size max_compressed_bytes() promises: a caller's buffer of that capacity is never reallocated,
    // and a thread's bytes can go straight into `out` while the others encode.
    const std::size_t table_bytes = chunk_table_bytes(layout);
    const std::size_t limit = old + codec_frame_header_bytes + field_bytes(field.rows, field.cols);
    if (old + codec_frame_header_bytes + table_bytes > limit) return false;
    reserve_geometric(out, limit);
    out.resize(old + codec_frame_header_bytes + table_bytes); // header and table: written at the end
    std::vector<ChunkEntry> entries(chunks);
    // Each band is encoded into its thread's buffer of the worst case (it stays in cache and is reused for
    // the thread's next band), checksummed there and appended to `out` in band order: a band waits for
    // the ones before it, which for_each_chunk handed out earlier, so the wait is for work under way. No
    // memory outlives the call: a codec keeps none between calls.
    std::vector<std::vector<std::byte>> scratch(
        std::size_t(std::max({1, omp_get_max_threads(), omp_get_thread_num() + 1})));
    std::atomic<std::int64_t> turn{0}; // the band appended next
    std::atomic<bool> stop{false};     // raw instead, or a band failed: nothing more is appended
    std::atomic<bool> raw_instead{false};
    for_each_chunk(layout.chunks, [&](std::int64_t i) {
        try {
            if (stop.load(std::memory_order_relaxed)) return;
            const ConstFieldView band = layout.band(field, i);
            if (must_store_raw(band)) {
                raw_instead.store(true, std::memory_order_relaxed);
                stop.store(true, std::memory_order_relaxed);
                return;
            }
            auto& buffer = scratch.at(std::size_t(omp_get_thread_num()));
            const std::size_t capacity = payload_bound(band);
            if (buffer.size() < capacity) buffer.resize(capacity);
            const std::size_t n = plain[std::size_t(i)] != 0 ? encode_plain(band, buffer.data(), capacity)
                                                             : encode(band, buffer.data(), capacity);
            if (n > capacity) throw Error("codec '" + name_ + "': encoder overran its bound");
            entries[std::size_t(i)] = {n, checksum64(buffer.data(), n)};
            if (!wait_for_turn(turn, i, stop)) return;
            if (out.size() + n > limit) { // the raw frame is smaller
                raw_instead.store(true, std::memory_order_relaxed);
                stop.store(true, std::memory_order_relaxed);
            } else {
                append_bytes(out, buffer.data(), n);
            }
            turn.store(i + 1, std::memory_order_release);
        } catch (...) {
            stop.store(true, std::memory_order_relaxed);
            throw;
        }
    });
    if (raw_instead) {
        out.resize(old);
        return false;
    }
    std::byte* const table = out.data() + old + codec_frame_header_bytes;
    write_chunk_table(layout, entries, table);
    const FrameHeader h = header(id_, 0, field, param_, out.size() - old - codec_frame_header_bytes,
                                 frame_checksum(checksum64(table, table_bytes), field.plane_rows));
    std::memcpy(out.data() + old, &h, sizeof h);
    return true;
}

std::uint64_t FramedCodec::raw_checksum(ConstFieldView field, const ChunkLayout& layout) const {
    std::vector<std::uint64_t> sums(std::size_t(layout.chunks));
    for_each_chunk(layout.chunks, [&](std::int64_t i) {
        const ConstFieldView band = layout.band(field, i);
        sums[std::size_t(i)] = checksum64(reinterpret_cast<const std::byte*>(band.data),
                                          std::size_t(band.size()) * sizeof(float));
    });
    return combined_checksum(sums);
}

void FramedCodec::decompress(const std::byte* in, std::size_t bytes, FieldView field) const {
    const std::size_t raw = field_bytes(field.rows, field.cols);
    const std::string who = "codec '" + name_ + "': ";
    if (bytes < codec_frame_header_bytes)
        throw FormatError(who + "truncated frame of " + std::to_string(bytes) +
                          " bytes (the header alone is " + std::to_string(codec_frame_header_bytes) + ")");
    FrameHeader h;
    std::memcpy(&h, in, sizeof h);
    if (std::memcmp(h.magic, frame_magic, sizeof h.magic) != 0)
        throw FormatError(who + "not a codec frame (or one of an older format)");
    if (h.codec != std::uint8_t(id_))
        throw FormatError(who + "frame was written by codec id " + std::to_string(h.codec));
    if (h.param != param_) throw FormatError(who + "frame was written with other codec parameters");
    if ((h.flags & ~flag_stored_raw) != 0 || h.reserved != 0) throw FormatError(who + "corrupt frame header");
    if (h.rows != field.rows || h.cols != field.cols)
        throw FormatError(who + "frame holds a " + shape(h.rows, h.cols) + " field, expected " +
                          shape(field.rows, field.cols));
    const std::size_t payload_bytes = bytes - codec_frame_header_bytes;
    if (h.payload_bytes != payload_bytes)
        throw FormatError(who + "frame announces " + std::to_string(h.payload_bytes) + " payload bytes but " +
                          std::to_string(payload_bytes) + " are present (truncated or corrupt)");
    const bool stored_raw = (h.flags & flag_stored_raw) != 0;
    if (stored_raw && payload_bytes != raw)
        throw FormatError(who + "corrupt frame: raw payload of wrong size");
    if (!stored_raw && raw == 0) throw FormatError(who + "corrupt frame: encoded payload for an empty field");
    const std::byte* payload = in + codec_frame_header_bytes;
    const ChunkLayout layout = chunk_layout(field.rows, field.cols, field.plane_rows);
    const std::uint64_t checksum = frame_checksum(h.checksum, field.plane_rows); // the plain checksum again
    if (stored_raw)
        copy_raw_chunks(payload, layout, checksum, field, who);
    else
        decode_chunks(payload, payload_bytes, layout, checksum, field, who);
}

void FramedCodec::copy_raw_chunks(const std::byte* payload, const ChunkLayout& layout, std::uint64_t checksum,
                                  FieldView field, const std::string& who) const {
    // Checksum and copy band by band while the band is in cache; the combined checksum is compared at the
    // end, so a corrupt raw frame leaves the field's values unspecified (as codec.hpp says).
    std::vector<std::uint64_t> sums(std::size_t(layout.chunks));
    copy_raw_bands(payload, layout, field, &sums);
    if (combined_checksum(sums) != checksum)
        throw FormatError(who + "frame checksum mismatch (corrupt bytes)");
}

void FramedCodec::decode_chunks(const std::byte* payload, std::size_t payload_bytes,
                                const ChunkLayout& layout, std::uint64_t checksum, FieldView field,
                                const std::string& who) const {
    const std::size_t table = chunk_table_bytes(layout);
    if (payload_bytes < table) throw FormatError(who + "corrupt frame: payload shorter than its chunk table");
    if (checksum64(payload, table) != checksum)
        throw FormatError(who + "frame checksum mismatch (corrupt bytes)");
    const std::vector<ChunkEntry> entries = read_chunk_table(payload, payload_bytes, layout, who);
    std::vector<std::size_t> offsets(entries.size());
    std::size_t offset = table;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        offsets[i] = offset;
        offset += std::size_t(entries[i].bytes);
    }
    for_each_chunk(layout.chunks, [&](std::int64_t i) {
        const ChunkEntry& e = entries[std::size_t(i)];
        const std::byte* src = payload + offsets[std::size_t(i)];
        if (checksum64(src, std::size_t(e.bytes)) != e.checksum)
            throw FormatError(who + "chunk " + std::to_string(i) + " checksum mismatch (corrupt bytes)");
        decode(src, std::size_t(e.bytes), layout.band(field, i));
    });
}

} // namespace fwi::detail
