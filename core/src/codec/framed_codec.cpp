#include "codec/framed_codec.hpp"

#include "codec/checksum.hpp"
#include "fwi/error.hpp"

#include <bit>
#include <cstring>
#include <limits>

namespace fwi::detail {
namespace {

constexpr char frame_magic[4] = {'F', 'W', 'Z', '1'};
constexpr std::uint8_t flag_stored_raw = 1;

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
        bool stored_raw = raw == 0 || must_store_raw(field);
        const std::size_t capacity = stored_raw ? raw : payload_bound(field);
        out.resize(old + codec_frame_header_bytes + capacity);
        std::byte* payload = out.data() + old + codec_frame_header_bytes;
        std::size_t n = raw;
        if (!stored_raw) {
            n = encode(field, payload, capacity);
            if (n > capacity) throw Error("codec '" + name_ + "': encoder overran its bound");
            if (n > raw) stored_raw = true; // incompressible: raw is smaller, and lossless
        }
        if (stored_raw && raw > 0) {
            std::memcpy(payload, field.data, raw);
            n = raw;
        }
        FrameHeader h{};
        std::memcpy(h.magic, frame_magic, sizeof h.magic);
        h.codec = std::uint8_t(id_);
        h.flags = stored_raw ? flag_stored_raw : 0;
        h.rows = field.rows;
        h.cols = field.cols;
        h.param = param_;
        h.payload_bytes = n;
        h.checksum = checksum64(payload, n);
        std::memcpy(out.data() + old, &h, sizeof h);
        out.resize(old + codec_frame_header_bytes + n);
        return codec_frame_header_bytes + n;
    } catch (...) {
        out.resize(old);
        throw;
    }
}

void FramedCodec::decompress(const std::byte* in, std::size_t bytes, FieldView field) const {
    const std::size_t raw = field_bytes(field.rows, field.cols);
    const std::string who = "codec '" + name_ + "': ";
    if (bytes < codec_frame_header_bytes)
        throw FormatError(who + "truncated frame of " + std::to_string(bytes) +
                          " bytes (the header alone is " + std::to_string(codec_frame_header_bytes) + ")");
    FrameHeader h;
    std::memcpy(&h, in, sizeof h);
    if (std::memcmp(h.magic, frame_magic, sizeof h.magic) != 0) throw FormatError(who + "not a codec frame");
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
    const std::byte* payload = in + codec_frame_header_bytes;
    if (checksum64(payload, payload_bytes) != h.checksum)
        throw FormatError(who + "frame checksum mismatch (corrupt bytes)");
    if (stored_raw) {
        if (raw > 0) std::memcpy(field.data, payload, raw);
    } else {
        if (raw == 0) throw FormatError(who + "corrupt frame: encoded payload for an empty field");
        decode(payload, payload_bytes, field);
    }
}

} // namespace fwi::detail
